/**
 * The workbench with a WebSocket request against a real `ws` server: the message log fills live,
 * the composer (w) sends a typed message into the open connection, esc closes it gracefully and
 * the log stays with the 101 answer.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { createCoreServices } from '../../src/ui/core-services.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { createTheme } from '../../src/ui/theme.js';
import { appReducer } from '../../src/ui/state/reducer.js';
import { initialAppState } from '../../src/ui/state/app-state.js';
import { defaultSettings } from '../../src/core/settings/index.js';
import { tempDir } from '../helpers/cli.js';
import { startWsServer, type TestWsServer } from '../helpers/ws-server.js';
import { KEY, waitForFrame, waitForText } from './helpers.js';

let server: TestWsServer;
beforeAll(async () => {
  server = await startWsServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => cleanup());

describe('a WebSocket in the workbench', () => {
  it('shows the message log live, sends composed messages, and closes on esc keeping the log', async () => {
    const root = tempDir('dial-tui-ws-');
    writeFileSync(
      join(root, 'ws.http'),
      ['### chat', `WEBSOCKET ${server.url}/echo`, '', 'hello from the file', '=== wait-for-server', ''].join('\n'),
    );
    const services = createCoreServices({
      root,
      cliVariables: {},
      suspend: (run) => run(),
      env: { DIAL_CONFIG_DIR: tempDir() },
      settings: defaultSettings(),
    });
    const app = render(
      <App
        services={services}
        keymap={defaultKeymap}
        theme={createTheme(false)}
        onExit={() => undefined}
        size={{ columns: 140, rows: 40 }}
      />,
    );
    const type = async (...keys: string[]): Promise<void> => {
      for (const key of keys) {
        app.stdin.write(key);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    };
    // Not sent yet: the preview shows the upgrade request and its script, not an HTTP error.
    const unsent = await waitForFrame(
      app,
      (f) => f.includes('Not sent yet') && f.split('hello from the file').length === 3,
    );
    expect(unsent).not.toContain('unsupported URL scheme');
    await type(KEY.enter);
    let frame = await waitForText(app, 'WebSocket open, 2 messages', '→ hello from the file', '← hello from the file');
    await type('w');
    await waitForText(app, 'Message (enter sends)');
    await type(...'typed here'.split(''), KEY.enter);
    frame = await waitForText(app, '→ typed here', '← typed here', 'WebSocket open, 4 messages');
    expect(server.received.at(-1)).toEqual(['hello from the file', 'typed here']);
    await type(KEY.esc);
    frame = await waitForText(app, '101 Switching Protocols');
    expect(frame).toContain('← typed here');
    expect(frame).not.toContain('WebSocket open');
    // Copy as curl: a WebSocket has no curl form, and the workbench says so.
    await type(KEY.tab, KEY.tab, 'c');
    await waitForText(app, 'not copied', 'has no curl form');
    // Closed: the composer says so instead of sending.
    await type('w');
    await waitForText(app, 'no WebSocket open');
  });
});

describe('secrets in the message log', () => {
  it('masks a private env value sent and echoed in messages until ctrl+r reveals it', async () => {
    const root = tempDir('dial-tui-ws-secret-');
    const secret = 'hunter2-ws-secret';
    writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ local: { host: server.url } }));
    writeFileSync(join(root, 'http-client.private.env.json'), JSON.stringify({ local: { password: secret } }));
    writeFileSync(
      join(root, 'ws.http'),
      ['### login', 'WEBSOCKET {{host}}/echo', '', 'pw={{password}}', '=== wait-for-server', ''].join('\n'),
    );
    const services = createCoreServices({
      root,
      environment: 'local',
      cliVariables: {},
      suspend: (run) => run(),
      env: { DIAL_CONFIG_DIR: tempDir() },
      settings: defaultSettings(),
    });
    const app = render(
      <App
        services={services}
        keymap={defaultKeymap}
        theme={createTheme(false)}
        environment="local"
        onExit={() => undefined}
        size={{ columns: 140, rows: 40 }}
      />,
    );
    await waitForText(app, 'login');
    app.stdin.write(KEY.enter);
    let frame = await waitForText(app, '→ pw=••••', '← pw=••••');
    expect(app.frames.some((f) => f.includes(secret))).toBe(false);
    app.stdin.write(KEY.esc);
    await waitForText(app, '101 Switching Protocols');
    app.stdin.write('\x12');
    frame = await waitForText(app, `← pw=${secret}`);
    expect(frame).toContain('secrets SHOWN');
  });
});

describe('the message log in the reducer (pure)', () => {
  it('appends each message to the outcome in flight, and a new send starts an empty log', () => {
    let state = appReducer(
      initialAppState(),
      { type: 'sendStarted', key: 'a.http#0', sentBlock: '', at: 1 },
      defaultKeymap,
    ).state;
    for (const data of ['one', 'two'])
      state = appReducer(
        state,
        { type: 'streamMessage', message: { direction: 'received', data, atMs: 0 } },
        defaultKeymap,
      ).state;
    expect(state.outcomes['a.http#0'].messages?.map((message) => message.data)).toEqual(['one', 'two']);
    state = appReducer(state, { type: 'sendStarted', key: 'a.http#0', sentBlock: '', at: 2 }, defaultKeymap).state;
    expect(state.outcomes['a.http#0'].messages).toBeUndefined();
  });

  it('the composer key only opens while a WebSocket is open', () => {
    const step = appReducer(initialAppState(), { type: 'key', name: 'w', input: 'w' }, defaultKeymap);
    expect(step.state.toast).toContain('no WebSocket open');
    expect(step.state.screens).toEqual([]);
  });
});
