/** The effect runner on its own: a live context over the real reducer and the in-memory services. */
import { describe, expect, it } from 'vitest';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { appReducer } from '../../src/ui/state/reducer.js';
import { initialAppState, selectedOutcome, type AppAction, type AppState } from '../../src/ui/state/app-state.js';
import { EffectRunner, OSC52_LIMIT, type EffectContext } from '../../src/ui/effects.js';
import { fakeServices, type FakeServices } from './fake-services.js';

function harness(services: FakeServices) {
  let state: AppState = initialAppState();
  const actions: AppAction[] = [];
  const written: string[] = [];
  let exits = 0;
  // The runner is built once; the context it reads is replaced, as the App does at each render.
  let context: EffectContext;
  const runner = new EffectRunner(() => context);
  const dispatch = (action: AppAction): void => {
    actions.push(action);
    const step = appReducer(state, action, defaultKeymap);
    state = step.state;
    for (const effect of step.effects) runner.run(effect);
  };
  const refresh = (current: FakeServices = services): void => {
    context = {
      services: current,
      keymap: defaultKeymap,
      write: (text) => written.push(text),
      onExit: () => exits++,
      state: () => state,
      dispatch,
      shown: () => selectedOutcome(state)?.result,
      model: () => undefined,
      viewerRows: () => 10,
    };
  };
  refresh();
  const settle = () => new Promise((resolve) => setTimeout(resolve, 20));
  return { runner, dispatch, refresh, settle, actions, written, state: () => state, exits: () => exits };
}

async function loaded(services: FakeServices) {
  const h = harness(services);
  h.dispatch({ type: 'loaded', files: await services.loadWorkspace(), environments: [] });
  return h;
}

describe('EffectRunner', () => {
  it('send: the outcome is the selected request’s, with its time', async () => {
    const services = fakeServices({ 'a.http': '### One\nGET http://x/1\n\n### Two\nGET http://x/2\n' });
    const h = await loaded(services);
    h.dispatch({ type: 'selectRequest', fileIndex: 0, requestIndex: 1 });
    h.runner.run({ type: 'send' });
    await h.settle();
    expect(h.actions.find((a) => a.type === 'sendStarted')).toMatchObject({ key: '/ws/a.http#1' });
    expect(selectedOutcome(h.state())).toMatchObject({ state: 'done' });
    expect(h.state().outcomes['/ws/a.http#0']).toBeUndefined();
  });

  it('send: a notice of the request (an OAuth 2.0 sign-in URL) shows as the toast', async () => {
    const services = fakeServices({ 'a.http': '### One\nGET http://x/1\n' });
    const execute = services.execute.bind(services);
    services.execute = async (file, node, options) => {
      options.onNotice?.("dial: sign in for auth configuration 'me': open http://127.0.0.1:8080/authorize?x=1");
      return execute(file, node, options);
    };
    const h = await loaded(services);
    h.runner.run({ type: 'send' });
    await h.settle();
    expect(h.state().toast).toBe("dial: sign in for auth configuration 'me': open http://127.0.0.1:8080/authorize?x=1");
  });

  it('cancel: the send ends as cancelled, with how long it ran', async () => {
    const services = fakeServices({ 'a.http': '### One\nGET http://x/1\n' });
    services.gate = new Promise(() => undefined);
    const h = await loaded(services);
    h.runner.run({ type: 'send' });
    await h.settle();
    expect(h.state().inFlight).toBe(true);
    h.runner.run({ type: 'cancel' });
    await h.settle();
    expect(selectedOutcome(h.state())?.state).toBe('cancelled');
    expect(selectedOutcome(h.state())?.result).toBeUndefined();
    expect(selectedOutcome(h.state())?.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('uses the context of the latest render, not the first one', async () => {
    const first = fakeServices({ 'a.http': '### One\nGET http://x/1\n' });
    first.history = async () => {
      throw new Error('the first render’s services were used');
    };
    const h = await loaded(first);
    const latest = fakeServices({ 'a.http': '### One\nGET http://x/1\n' });
    latest.historyItems = [{ time: 't', requestKey: 'k', label: 'from the latest services', body: '' }];
    // A new render with new services: the same runner must use them.
    h.refresh(latest);
    h.runner.run({ type: 'openHistory' });
    await h.settle();
    expect(h.state().screens.at(-1)).toMatchObject({ kind: 'history', items: [{ label: 'from the latest services' }] });
  });

  it('createRequest with no file creates requests.http and selects the new request', async () => {
    const services = fakeServices({});
    const h = await loaded(services);
    h.runner.run({ type: 'createRequest', method: 'GET', url: 'http://h/get' });
    await h.settle();
    expect(services.saved.get('/ws/requests.http')).toBe('###\nGET http://h/get\n');
    expect(h.actions.some((a) => a.type === 'selectPath' && a.path === '/ws/requests.http')).toBe(true);
    expect(h.state().toast).toBe('created requests.http');
  });

  it('rename sets the ### title; delete and duplicate tell the reducer which request left or came', async () => {
    const services = fakeServices({ 'a.http': 'GET http://x/1\n\n### Two\nGET http://x/2\n' });
    const h = await loaded(services);
    h.dispatch({ type: 'selectRequest', fileIndex: 0, requestIndex: 0 });
    h.runner.run({ type: 'rename', title: 'First one' });
    await h.settle();
    expect(services.saved.get('/ws/a.http')).toBe('### First one\nGET http://x/1\n\n### Two\nGET http://x/2\n');
    h.runner.run({ type: 'duplicate' });
    await h.settle();
    expect(h.actions.filter((a) => a.type === 'fileChanged').at(-1)).toMatchObject({ inserted: 1, select: 1 });
    h.runner.run({ type: 'delete' });
    await h.settle();
    expect(h.actions.filter((a) => a.type === 'fileChanged').at(-1)).toMatchObject({ removed: 1 });
    expect(services.saved.get('/ws/a.http')).toBe('### First one\nGET http://x/1\n\n### Two\nGET http://x/2\n');
  });

  it('copyBody refuses a body too big for OSC 52 and says how to save it; quit runs once', async () => {
    const services = fakeServices({ 'a.http': '### One\nGET http://x/1\n' }, 'x'.repeat(OSC52_LIMIT + 1));
    const h = await loaded(services);
    h.runner.run({ type: 'send' });
    await h.settle();
    h.runner.run({ type: 'copyBody' });
    expect(h.written).toEqual([]);
    expect(h.state().toast).toMatch(/body too big for the clipboard .*press s to save it/);
    h.runner.run({ type: 'quit' });
    h.runner.run({ type: 'quit' });
    expect(h.exits()).toBe(1);
  });
});
