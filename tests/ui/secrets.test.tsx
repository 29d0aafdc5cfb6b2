import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App, rawText } from '../../src/ui/App.js';
import { createCoreServices } from '../../src/ui/core-services.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { createTheme } from '../../src/ui/theme.js';
import { maskHistory, maskResult } from '../../src/ui/redact.js';
import { appReducer } from '../../src/ui/state/reducer.js';
import { initialAppState, paletteItems } from '../../src/ui/state/app-state.js';
import { defaultSettings } from '../../src/core/settings/index.js';
import { closeConnections } from '../../src/core/http/index.js';
import { MASK } from '../../src/core/secrets.js';
import { stripAnsi, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type TestServer } from '../helpers/servers.js';
import { exchangeWith } from './fake-services.js';
import { KEY, waitForFrame, waitForText } from './helpers.js';

const PASSWORD = 'hunter2-very-secret';
const UNUSED = 'zebra-unused-secret';
const CTRL_R = '\x12';

let server: TestServer;
beforeAll(async () => {
  // Reflects the request (headers, body, URL) and leaks the password and an unused private value in headers too.
  server = await startRecordingServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.setHeader('x-echo-password', String(request.headers['x-password'] ?? ''));
    response.setHeader('x-leak', UNUSED);
    response.setHeader('set-cookie', 'sid=abc123xyz; Path=/');
    response.end(JSON.stringify({ url: request.url, headers: request.headers, body: request.body.toString('utf8') }));
  });
});
afterAll(async () => {
  await closeConnections();
  await server.close();
});
afterEach(() => cleanup());

function workspace(): string {
  const root = tempDir();
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ local: { host: server.url, user: 'ada' } }));
  writeFileSync(
    join(root, 'http-client.private.env.json'),
    JSON.stringify({ local: { password: PASSWORD, unused: UNUSED } }),
  );
  writeFileSync(
    join(root, 'api.http'),
    [
      '# @name login',
      'POST {{host}}/login?pw={{password}}',
      'Content-Type: application/json',
      'X-Password: {{password}}',
      '',
      '{"user": "{{user}}", "password": "{{password}}"}',
      '',
      '> {%',
      '  client.test("env user", function () {',
      '    client.assert(request.environment.get("user") === "ada", "user was " + request.environment.get("user"));',
      '  });',
      '%}',
      '',
    ].join('\n'),
  );
  return root;
}

function coreServices(root: string) {
  return createCoreServices({
    root,
    environment: 'local',
    cliVariables: {},
    suspend: (run) => run(),
    env: { DIAL_CONFIG_DIR: tempDir() },
    settings: defaultSettings(),
  });
}

describe('secrets in the TUI', () => {
  it('never shows a private env value reflected by the server until ctrl+r reveals it', async () => {
    const services = coreServices(workspace());
    const app = render(
      <App
        services={services}
        keymap={defaultKeymap}
        theme={createTheme(false)}
        environment="local"
        onExit={() => undefined}
        size={{ columns: 160, rows: 60 }}
      />,
    );
    const type = async (...keys: string[]): Promise<void> => {
      for (const key of keys) {
        app.stdin.write(key);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    };
    await waitForText(app, 'login', 'secrets hidden');
    await type(KEY.enter);
    // Body: the echo of the JSON body and of the X-Password header.
    let frame = await waitForText(app, '200 OK', '"x-password": "••••"');
    expect(frame).toContain(`"body": "{\\"user\\": \\"ada\\", \\"password\\": \\"${MASK}\\"}"`);
    expect(frame).toContain(`"url": "/login?pw=${MASK}"`);
    await type(KEY.tab, KEY.tab, ']');
    frame = await waitForText(app, 'x-echo-password: ••••');
    expect(frame).toContain(`x-leak: ${MASK}`);
    expect(frame).toContain(`set-cookie: ${MASK}`);
    await type(']', ']');
    // Tests tab: the handler read the environment (follow-up 3) and its test passed.
    await waitForText(app, '✓ env user');
    await type(']');
    // Raw: the request as sent, then the response.
    frame = await waitForText(app, `POST ${server.url}/login?pw=${MASK}`, `X-Password: ${MASK}`, 'HTTP/1.1 200 OK');
    const hidden = app.frames.map(stripAnsi);
    expect(hidden.some((f) => f.includes(PASSWORD) || f.includes(UNUSED) || f.includes('abc123xyz'))).toBe(false);

    await type(CTRL_R);
    frame = await waitForText(app, 'secrets SHOWN', `X-Password: ${PASSWORD}`);
    expect(frame).toContain(`x-leak: ${UNUSED}`);
    expect(frame).toContain('sid=abc123xyz');
    await type(CTRL_R);
    frame = await waitForFrame(app, (f) => f.includes('secrets hidden') && !f.includes(PASSWORD));
    expect(frame).toContain(`X-Password: ${MASK}`);
  });

  it('copy body and copy as curl put the real values on the clipboard and say so', async () => {
    const services = coreServices(workspace());
    const app = render(
      <App
        services={services}
        keymap={defaultKeymap}
        theme={createTheme(false)}
        environment="local"
        onExit={() => undefined}
        size={{ columns: 120, rows: 40 }}
      />,
    );
    await waitForText(app, 'login');
    app.stdin.write(KEY.enter);
    await waitForText(app, '200 OK');
    app.stdin.write(KEY.tab);
    await new Promise((resolve) => setTimeout(resolve, 15));
    app.stdin.write(KEY.tab);
    await new Promise((resolve) => setTimeout(resolve, 15));
    app.stdin.write('y');
    await waitForText(app, 'body copied to the clipboard (OSC 52), with the real secret values');
    const osc = app.frames.find((f) => f.includes('\x1b]52;c;'));
    const payload = /\x1b\]52;c;([A-Za-z0-9+/=]+)/.exec(osc ?? '')?.[1] ?? '';
    expect(Buffer.from(payload, 'base64').toString('utf8')).toContain(PASSWORD);
    // Copy as curl: a runnable command, so the real values.
    app.stdin.write('c');
    await waitForText(app, 'request copied as curl (OSC 52), with the real secret values');
    const curl = app.frames.filter((f) => f.includes('\x1b]52;c;')).pop() ?? '';
    const command = Buffer.from(/\x1b\]52;c;([A-Za-z0-9+/=]+)/.exec(curl)?.[1] ?? '', 'base64').toString('utf8');
    expect(command).toMatch(/^curl /);
    expect(command).toContain(`X-Password: ${PASSWORD}`);
    // The screen itself still masks.
    expect(stripAnsi(app.lastFrame() ?? '')).not.toContain(PASSWORD);
  });
});

describe('request.environment in TUI scripts', () => {
  it('a response handler reads the selected environment', async () => {
    const root = workspace();
    const services = coreServices(root);
    const [entry] = await services.loadWorkspace();
    const file = entry.file!;
    const result = await services.execute(file, file.requests[0], {
      environment: 'local',
      signal: new AbortController().signal,
      prompt: async () => '',
      onState: () => undefined,
    });
    expect(result.tests).toEqual([{ source: 'env user', passed: true, message: undefined }]);
    // The private values are carried for masking, the data itself stays real.
    expect(result.secrets).toEqual(expect.arrayContaining([PASSWORD, UNUSED]));
    expect(result.bodyText).toContain(PASSWORD);
  });
});

describe('masking and the reveal toggle (pure)', () => {
  const result = () => {
    const exchange = exchangeWith(`{"token": "s3cr3t-token", "n": 1}`);
    exchange.request = {
      method: 'GET',
      url: 'http://fake/x?key=s3cr3t-token',
      headers: [
        ['Authorization', 'Bearer abc.def'],
        ['X-Key', 's3cr3t-token'],
      ],
      bodyPreview: 'key=s3cr3t-token',
    };
    exchange.response.headers.push(['Set-Cookie', 'sid=1']);
    return {
      exchange,
      bodyText: `{"token": "s3cr3t-token", "n": 1}`,
      tests: [{ source: 'body $.token == "x"', passed: false, message: 'got s3cr3t-token' }],
      secrets: ['s3cr3t-token', 'ab'],
    };
  };

  it('masks body, URL, request and response headers, raw text and test messages', () => {
    const shown = maskResult(result(), false);
    expect(shown.bodyText).toBe(`{"token": "${MASK}", "n": 1}`);
    expect(shown.exchange.request.url).toBe(`http://fake/x?key=${MASK}`);
    expect(shown.exchange.request.headers).toEqual([
      ['Authorization', `Bearer ${MASK}`],
      ['X-Key', MASK],
    ]);
    expect(shown.exchange.response.headers).toContainEqual(['Set-Cookie', MASK]);
    expect(shown.tests?.[0].message).toBe(`got ${MASK}`);
    expect(rawText(shown)).not.toContain('s3cr3t');
    expect(rawText(shown)).toContain(`key=${MASK}`);
  });

  it('revealed, the result is shown as it is', () => {
    const real = result();
    expect(maskResult(real, true)).toBe(real);
    expect(rawText(real)).toContain('Authorization: Bearer abc.def');
  });

  it('masks history labels and bodies unless revealed', () => {
    const items = [{ time: '10:00', requestKey: 'a', label: 'GET /x?key=s3cr3t-token', body: '{"t": "s3cr3t-token"}' }];
    expect(maskHistory(items, ['s3cr3t-token'], false)[0]).toMatchObject({
      label: `GET /x?key=${MASK}`,
      body: `{"t": "${MASK}"}`,
    });
    expect(maskHistory(items, ['s3cr3t-token'], true)).toBe(items);
  });

  it('ctrl+r toggles reveal from the workspace and from history; the palette offers it', () => {
    let state = initialAppState();
    expect(state.revealSecrets).toBe(false);
    state = appReducer(state, { type: 'key', name: 'ctrl+r', input: '' }, defaultKeymap).state;
    expect(state.revealSecrets).toBe(true);
    state = appReducer(
      state,
      { type: 'pushScreen', screen: { kind: 'history', items: [], cursor: 0, diff: false } },
      defaultKeymap,
    ).state;
    state = appReducer(state, { type: 'key', name: 'ctrl+r', input: '' }, defaultKeymap).state;
    expect(state.revealSecrets).toBe(false);
    expect(state.screens).toHaveLength(1);
    expect(
      paletteItems(initialAppState(), defaultKeymap, (a) => a).some((item) => item.action === 'toggleSecrets'),
    ).toBe(true);
    // A remapped key works and the old one does nothing.
    const keymap = { ...defaultKeymap, toggleSecrets: ['ctrl+t'] };
    expect(appReducer(initialAppState(), { type: 'key', name: 'ctrl+r', input: '' }, keymap).state.revealSecrets).toBe(
      false,
    );
    expect(appReducer(initialAppState(), { type: 'key', name: 'ctrl+t', input: '' }, keymap).state.revealSecrets).toBe(
      true,
    );
  });
});
