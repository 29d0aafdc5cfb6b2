/** A request only ever shows its own response: per-request outcomes, cancel timing, staleness, and outcomes following edits. */
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../src/core/httpfile/index.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { appReducer } from '../../src/ui/state/reducer.js';
import { handleKey, parseRequestLine } from '../../src/ui/state/keys.js';
import {
  blockText,
  initialAppState,
  outcomeKey,
  selectedOutcome,
  shownResult,
  type AppAction,
  type AppState,
} from '../../src/ui/state/app-state.js';
import { exchangeWith } from './fake-services.js';

const text = '### Who am I\nGET http://x/me\n\n### Health\nGET http://x/health\n';
const file = parseHttpFile(text, '/ws/a.http');
const result = { exchange: exchangeWith('{"me":1}'), bodyText: '{"me":1}' };

function run(state: AppState, ...actions: AppAction[]): AppState {
  for (const action of actions) state = appReducer(state, action, defaultKeymap).state;
  return state;
}

function loaded(): AppState {
  return run(
    initialAppState(),
    { type: 'loaded', files: [{ path: '/ws/a.http', relativePath: 'a.http', file }], environments: [] },
    { type: 'selectRequest', fileIndex: 0, requestIndex: 0 },
  );
}

const started = (state: AppState, index: number, at: number): AppAction => ({
  type: 'sendStarted',
  key: outcomeKey('/ws/a.http', index),
  sentBlock: blockText(file, file.requests[index]),
  at,
});

describe('per-request outcomes', () => {
  it('a response belongs to the request that was sent; another request shows none', () => {
    let state = loaded();
    state = run(
      state,
      started(state, 0, 1000),
      { type: 'requestState', state: 'sending' },
      { type: 'response', result, at: 1012 },
    );
    expect(shownResult(state)?.bodyText).toBe('{"me":1}');
    expect(selectedOutcome(state)).toMatchObject({ state: 'done', elapsedMs: 12, stale: false });
    const other = run(state, { type: 'selectRequest', fileIndex: 0, requestIndex: 1 });
    expect(shownResult(other)).toBeUndefined();
    expect(selectedOutcome(other)).toBeUndefined();
  });

  it('cancelled: no response (not the old one), and how long it ran', () => {
    let state = loaded();
    state = run(state, started(state, 0, 0), { type: 'response', result, at: 5 });
    state = run(state, started(state, 0, 2000), { type: 'requestState', state: 'sending' });
    expect(state.inFlight).toBe(true);
    state = run(state, { type: 'requestState', state: 'cancelled', at: 2340 });
    expect(state.inFlight).toBe(false);
    expect(shownResult(state)).toBeUndefined();
    expect(selectedOutcome(state)).toMatchObject({ state: 'cancelled', elapsedMs: 340 });
  });

  it('a response whose request changed in the file since is stale', () => {
    let state = loaded();
    state = run(state, started(state, 0, 0), { type: 'response', result, at: 1 });
    const edited = parseHttpFile(text.replace('GET http://x/me', 'GET http://x/me2'), '/ws/a.http');
    state = run(state, { type: 'fileChanged', fileIndex: 0, file: edited });
    expect(selectedOutcome(state)?.stale).toBe(true);
  });

  it('outcomes follow their request when one before it is deleted or duplicated', () => {
    let state = run(loaded(), { type: 'selectRequest', fileIndex: 0, requestIndex: 1 });
    state = run(state, started(state, 1, 0), { type: 'response', result, at: 1 });
    const withoutFirst = parseHttpFile('### Health\nGET http://x/health\n', '/ws/a.http');
    const deleted = run(state, { type: 'fileChanged', fileIndex: 0, file: withoutFirst, removed: 0, select: 0 });
    expect(Object.keys(deleted.outcomes)).toEqual(['/ws/a.http#0']);
    expect(selectedOutcome(deleted)?.stale).toBe(false);
    const inserted = run(state, { type: 'fileChanged', fileIndex: 0, file, inserted: 1 });
    expect(Object.keys(inserted.outcomes)).toEqual(['/ws/a.http#2']);
  });
});

describe('new request and global keys', () => {
  it('reads METHOD URL, or a bare URL as GET', () => {
    expect(parseRequestLine('post http://x/a')).toEqual({ method: 'POST', url: 'http://x/a' });
    expect(parseRequestLine('http://x/a')).toEqual({ method: 'GET', url: 'http://x/a' });
    expect(parseRequestLine('GET http://x/a extra')).toBeUndefined();
  });

  it('ctrl+n asks for METHOD URL from any pane, even with no file, and enter creates it', () => {
    const empty = run(initialAppState(), { type: 'loaded', files: [], environments: [] });
    for (const focus of ['tree', 'request', 'response'] as const) {
      const step = handleKey({ ...empty, focus }, 'ctrl+n', '', defaultKeymap, (a) => a);
      expect(step.state.screens.at(-1)).toMatchObject({ kind: 'input', purpose: 'newRequest', value: '' });
    }
    let state = handleKey(empty, 'ctrl+n', '', defaultKeymap, (a) => a).state;
    for (const ch of 'GET http://h/get')
      state = handleKey(state, ch === ' ' ? 'space' : ch, ch, defaultKeymap, (a) => a).state;
    const done = handleKey(state, 'enter', '', defaultKeymap, (a) => a);
    expect(done.effects).toEqual([{ type: 'createRequest', method: 'GET', url: 'http://h/get' }]);
    const bad = handleKey(
      { ...state, screens: [{ kind: 'input', purpose: 'newRequest', label: '', value: 'a b c' }] },
      'enter',
      '',
      defaultKeymap,
      (a) => a,
    );
    expect(bad.effects).toEqual([]);
    expect(bad.state.toast).toContain('is not METHOD URL');
  });

  it('edit keys work from the response pane too; the palette finds a request by title or name', () => {
    const state = { ...loaded(), focus: 'response' as const };
    expect(handleKey(state, 'u', 'u', defaultKeymap, (a) => a).state.screens.at(-1)).toMatchObject({
      kind: 'edit',
      field: 'url',
    });
    expect(handleKey(state, 'r', 'r', defaultKeymap, (a) => a).state.screens.at(-1)).toMatchObject({
      kind: 'input',
      purpose: 'rename',
      value: 'Who am I',
    });
  });
});
