/**
 * The workbench with server-sent events and GraphQL, on the BUILT binary in a real pty: the
 * events of a slow stream appear one by one while it is still open, then the response shows
 * them as its body; a GraphQL answer with `errors` shows them as a failed test. Real servers:
 * a loopback event stream the test paces, and a graphql-js server. Needs a fresh build (`node scripts/build.mjs`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';
import { startGraphqlServer, type GraphqlServer } from '../helpers/graphql-server.js';
import { KEY, PtyTerminal } from '../helpers/pty-terminal.js';
import { startHttpServer } from '../helpers/servers.js';
import { startGreeterServer } from '../../examples-grpc/greeter-server.mjs';

const BIN = process.env.DIAL_TUI_BIN ?? DIAL_BIN;

describe('dial open: streaming and GraphQL responses', () => {
  let graphql: GraphqlServer;
  let terminal: PtyTerminal | undefined;

  const open = (dir: string): PtyTerminal => {
    terminal = new PtyTerminal([process.execPath, BIN, 'open', dir], {
      cols: 120,
      rows: 36,
      env: { CI: undefined, NO_COLOR: undefined, DIAL_CONFIG_DIR: tempDir('dial-tui-config-') },
    });
    return terminal;
  };

  beforeAll(async () => {
    graphql = await startGraphqlServer();
  });
  afterEach(() => terminal?.dispose());
  afterAll(async () => {
    await graphql?.close();
  });

  it('server-sent events appear live, one a line, before the stream ends', async () => {
    // The server sends the next event only when the test says so: each live state is on screen
    // for as long as the test needs, however slow the machine.
    const next: Array<() => void> = [];
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('id: 1\nevent: tick\ndata: {"n":1}\n\n');
      void new Promise<void>((resolve) => next.push(resolve))
        .then(() => {
          response.write('id: 2\nevent: tick\ndata: {"n":2}\n\n');
          return new Promise<void>((resolve) => next.push(resolve));
        })
        .then(() => response.end('id: 3\nevent: tick\ndata: {"n":3}\n\n'));
    });
    try {
      const dir = tempDir('dial-tui-sse-');
      writeFileSync(join(dir, 'events.http'), `### Ticks\nSSE ${server.url}/events\n`);
      const tty = open(dir);
      await tty.waitForText('Ticks');
      tty.press(KEY.enter);
      // The first event is on screen while the response is still receiving.
      const live = await tty.waitForText('receiving…  1 event so far', 'event: tick  id: 1  data: {"n":1}');
      expect(live).not.toContain('200 OK');
      expect(live).not.toContain('id: 2');
      next.shift()!();
      await tty.waitForText('receiving…  2 events so far', 'id: 2  data: {"n":2}');
      next.shift()!();
      // Once the stream ends, the response's body is the events as JSON.
      const done = await tty.waitForText('200 OK', '"event": "tick"', '"id": "3"');
      expect(done).not.toContain('so far');
      tty.press('q');
      expect(await tty.exit()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('a secret value the server sends back in an event is masked, live and after', async () => {
    const SECRET = 'tok-3f9a1c77e2';
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const server = await startHttpServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: you sent ${String(request.headers['x-token'])}\n\n`);
      void released.then(() => response.end('data: bye\n\n'));
    });
    try {
      const dir = tempDir('dial-tui-sse-secret-');
      writeFileSync(
        join(dir, 'events.http'),
        `@token = ${SECRET}\n\n### Echoed\n# @secret token\nSSE ${server.url}/events\nX-Token: {{token}}\n`,
      );
      const tty = open(dir);
      await tty.waitForText('Echoed');
      tty.press(KEY.enter);
      await tty.waitForText('receiving…  1 event so far', 'data: you sent ••••');
      release();
      await tty.waitForText('200 OK', 'you sent ••••');
      expect(tty.screensSeen.some((screen) => screen.includes(SECRET))).toBe(false);
      expect(tty.rawOutput).not.toContain(SECRET);
      tty.press('q');
      expect(await tty.exit()).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('GraphQL errors in a 200 answer show as a failed test', async () => {
    const dir = tempDir('dial-tui-graphql-');
    writeFileSync(join(dir, 'g.http'), `### Boom\nGRAPHQL ${graphql.url}/graphql\n\nquery { boom }\n`);
    const tty = open(dir);
    await tty.waitForText('Boom');
    tty.press(KEY.enter);
    await tty.waitForText('200 OK', 'boom failed');
    // Focus the response pane, then its Tests tab.
    tty.press(KEY.tab, KEY.tab, ']', ']', ']');
    const tests = await tty.waitForText('✗ no GraphQL errors', 'the answer has 1 GraphQL error: boom failed');
    expect(tests).toContain('Tests');
    tty.press('q');
    expect(await tty.exit()).toBe(0);
  });

  it('a gRPC call whose schema comes from server reflection answers (the UI bundle has protobufjs descriptors)', async () => {
    // Regression: the workbench's own protobufjs lacked Root.fromDescriptor and failed with
    // "Directory import … protobufjs/ext/descriptor is not supported".
    const greeter = await startGreeterServer();
    try {
      const dir = tempDir('dial-tui-grpc-');
      writeFileSync(
        join(dir, 'g.http'),
        `### Hello\nGRPC ${greeter.address}/dial.test.Greeter/SayHello\n\n{"name": "Ada"}\n`,
      );
      const tty = open(dir);
      await tty.waitForText('Hello');
      tty.press(KEY.enter);
      const screen = await tty.waitForText('200 OK', '"message": "Hello Ada"');
      expect(screen).not.toContain('Directory import');
      tty.press('q');
      expect(await tty.exit()).toBe(0);
    } finally {
      await greeter.close();
    }
  });
});
