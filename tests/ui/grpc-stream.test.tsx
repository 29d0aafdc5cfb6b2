/**
 * A gRPC server stream in the workbench, over the real core and a real grpc-js server
 * (examples-grpc/greeter-server.mjs): the messages appear in the response pane while the call
 * runs, then the finished response shows its status and the whole array; a secret the server
 * echoes stays masked in the live messages.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { createCoreServices } from '../../src/ui/core-services.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { createTheme } from '../../src/ui/theme.js';
import { defaultSettings } from '../../src/core/settings/index.js';
import { loadHttpFile } from '../../src/core/editing/index.js';
import { MASK } from '../../src/core/secrets.js';
import { stripAnsi, tempDir } from '../helpers/cli.js';
import { startGreeterServer, type GreeterServer } from '../../examples-grpc/greeter-server.mjs';
import { KEY, waitForFrame, waitForText } from './helpers.js';

const SECRET = 'mellon-secret-name';
let server: GreeterServer;
beforeAll(async () => {
  server = await startGreeterServer();
});
afterAll(() => server.forceClose());
afterEach(() => cleanup());

describe('gRPC in the workbench', () => {
  it('appends stream messages live, then shows the finished response', async () => {
    const root = tempDir('dial-tui-grpc-');
    writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ local: { address: server.address } }));
    writeFileSync(join(root, 'http-client.private.env.json'), JSON.stringify({ local: { name: SECRET } }));
    writeFileSync(
      join(root, 'greeter.http'),
      '### stream\nGRPC {{address}}/dial.test.Greeter/StreamGreetings\n\n{"name": "{{name}}", "times": 20}\n',
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
        size={{ columns: 160, rows: 40 }}
      />,
    );
    await waitForText(app, 'stream');
    app.stdin.write(KEY.enter);
    // While the call runs (the server sends a message every 50 ms): the first messages, live.
    const live = await waitForText(app, 'receiving…', `Hello ${MASK} #2`);
    expect(live).not.toContain('200 OK');
    expect(live).toMatch(/\d messages/);
    // Done: the status line, and the body is the array of every message (pretty-printed JSON).
    const done = await waitForFrame(
      app,
      (frame) => frame.includes('200 OK') && frame.includes(`"message": "Hello ${MASK} #1"`),
    );
    expect(done).not.toContain('receiving…');
    expect(app.frames.map(stripAnsi).some((frame) => frame.includes(SECRET))).toBe(false);
  });

  it('previews an unsent gRPC request as dial sends it: target, metadata, message', async () => {
    const root = tempDir('dial-tui-grpc-');
    writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ local: { address: '127.0.0.1:9' } }));
    writeFileSync(
      join(root, 'greeter.http'),
      '### hello\nGRPC -plaintext {{address}} dial.test.Greeter/SayHello\nx-greeting: hi\n\n{"name": "Ada"}\n',
    );
    const services = createCoreServices({
      root,
      environment: 'local',
      cliVariables: {},
      suspend: (run) => run(),
      env: { DIAL_CONFIG_DIR: tempDir() },
      settings: defaultSettings(),
    });
    const file = await loadHttpFile(join(root, 'greeter.http'));
    const preview = await services.preview(file, file.requests[0], 'local');
    expect(preview.problem).toBeUndefined();
    expect(preview.lines).toEqual([
      'GRPC grpc://127.0.0.1:9/dial.test.Greeter/SayHello',
      'x-greeting: hi',
      '',
      '{"name": "Ada"}',
    ]);
  });
});
