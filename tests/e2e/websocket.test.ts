/**
 * WebSocket end to end: the built bin/dial.js against the built `dial echo` (its /ws and
 * /graphql endpoints) and a `ws` test server, in the JetBrains and httpyac spellings.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAL_BIN, runCli, tempDir } from '../helpers/cli.js';
import { startDialEcho, type RunningEcho } from '../helpers/echo-server.js';
import { startWsServer, type TestWsServer } from '../helpers/ws-server.js';

let echo: RunningEcho;
let server: TestWsServer;
let ws: string;
let cwd: string;

beforeAll(async () => {
  [echo, server] = await Promise.all([startDialEcho(), startWsServer()]);
  ws = `ws://127.0.0.1:${echo.port}`;
  cwd = tempDir('dial-ws-');
  writeFileSync(
    join(cwd, 'ws.http'),
    [
      '### JetBrains: messages separated by ===, waits for the server',
      '# @name jetbrains',
      `WEBSOCKET ${ws}/ws`,
      'X-Demo: yes',
      '',
      '===',
      '{"hello": "world"}',
      '=== wait-for-server',
      'second message',
      '=== wait-for-server',
      '',
      '### httpyac: the body is one message',
      '# @name httpyac',
      `WS ${ws}/ws`,
      '',
      'one message',
      '',
      '### checked',
      '# @name checked',
      `WEBSOCKET ${ws}/ws`,
      '',
      '{"n": 1}',
      '=== wait-for-server',
      '',
      '?? status == 101',
      '?? body $[0].n == 1',
      '',
      '### subscription',
      '# @name subscription',
      `GRAPHQL ${ws}/graphql`,
      '',
      'subscription Ticks($count: Int) { ticks }',
      '',
      '{"count": 2}',
      '',
      '?? body $[1].data.ticks.count == 2',
      '',
      '### refused upgrade',
      '# @name refused',
      `WS ${server.url}/auth`,
      'Authorization: Bearer bad',
      '',
      'x',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(cwd, 'failing.http'),
    `WEBSOCKET ${ws}/ws\n\n{"n": 1}\n=== wait-for-server\n\n?? body $[0].n == 2\n`,
  );
  writeFileSync(join(cwd, 'get-ws.http'), `### wrong\nGET ${ws}/ws\n`);
  writeFileSync(
    join(cwd, 'handler.http'),
    [
      '# @name token',
      `WEBSOCKET ${ws}/ws`,
      '',
      '{"token": "abc"}',
      '=== wait-for-server',
      '',
      '> {%',
      'client.test("the first message carries the token", function () {',
      '  client.assert(response.status === 101, "status " + response.status);',
      '  client.assert(response.body[0].token === "abc", JSON.stringify(response.body));',
      '});',
      '%}',
      '',
      '### use it',
      `GET http://127.0.0.1:${echo.port}/get?t={{token.response.body.$[0].token}}`,
      '',
      '?? body $.args.t == abc',
      '',
    ].join('\n'),
  );
}, 30_000);

afterAll(async () => {
  await Promise.all([echo?.stop(), server?.close()]);
});

describe('dial send FILE#name (scripted)', () => {
  it('JetBrains spelling: sends the messages, prints each received one on its own line, exit 0', async () => {
    const result = await runCli(['send', 'ws.http#jetbrains'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('{"hello": "world"}\nsecond message\n');
    expect(result.code).toBe(0);
  });

  it('httpyac spelling with --json: one JSON object per message; -v adds the sent ones', async () => {
    const result = await runCli(['send', '--json', '-v', 'ws.http#httpyac'], { cwd });
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { direction: string; data: string; atMs: number });
    expect(lines.map((line) => [line.direction, line.data])).toEqual([
      ['sent', 'one message'],
      ['received', 'one message'],
    ]);
    expect(typeof lines[1].atMs).toBe('number');
    expect(result.stderr).toContain(`WebSocket ${ws}/ws`);
  });

  it('GRAPHQL ws://: a subscription streams its next payloads', async () => {
    const result = await runCli(['send', 'ws.http#subscription'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      '{"data":{"ticks":{"count":1,"variables":{"count":2}}}}',
      '{"data":{"ticks":{"count":2,"variables":{"count":2}}}}',
    ]);
  });

  it('GRAPHQL ws:// to an endpoint that does not speak graphql-transport-ws fails at once (exit 4), not at the timeout', async () => {
    const dir = tempDir('dial-ws-notgql-');
    writeFileSync(join(dir, 'g.http'), `### plain\nGRAPHQL ${ws}/ws\n\nsubscription T { ticks }\n`);
    const started = Date.now();
    const result = await runCli(['send', '--timeout', '20s', 'g.http'], { cwd: dir });
    expect(result.code).toBe(4);
    expect(result.stderr).toContain(`error[E_NETWORK]: ${ws}/ws does not speak graphql-transport-ws`);
    expect(result.stderr).not.toContain('E_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('-o and --download are refused (exit 2) before connecting, for a file request and an interactive URL', async () => {
    const before = server.upgrades.length;
    const fromFile = await runCli(['send', '-o', 'out.json', 'ws.http#httpyac'], { cwd });
    expect(fromFile.code).toBe(2);
    expect(fromFile.stderr).toContain('-o/--output does not apply to a WebSocket request');
    const interactive = await runCli(['send', '--download', `${server.url}/echo`], { input: 'x\n', cwd });
    expect(interactive.code).toBe(2);
    expect(interactive.stderr).toContain('--download does not apply to a WebSocket request');
    expect(server.upgrades.length).toBe(before);
  });

  it('a refused upgrade prints its body and fails (exit 1)', async () => {
    const result = await runCli(['send', 'ws.http#refused'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('bad token!!\n');
    expect(result.stderr).toContain('the server refused the WebSocket upgrade: HTTP 401 Unauthorized');
  });

  it('masks secret values in printed messages (--no-mask prints them)', async () => {
    const dir = tempDir('dial-ws-secret-');
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { host: ws } }));
    writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ local: { password: 'hunter2-xyz' } }));
    writeFileSync(join(dir, 's.http'), 'WEBSOCKET {{host}}/ws\n\npw={{password}}\n=== wait-for-server\n');
    expect((await runCli(['send', '-e', 'local', 's.http'], { cwd: dir })).stdout).toBe('pw=••••\n');
    expect((await runCli(['send', '--no-mask', '-e', 'local', 's.http'], { cwd: dir })).stdout).toBe(
      'pw=hunter2-xyz\n',
    );
  });

  it('export curl and export k6 refuse a WebSocket request instead of inventing a method', async () => {
    const curl = await runCli(['export', 'curl', 'ws.http#jetbrains'], { cwd });
    expect(curl.code).toBe(3);
    expect(curl.stderr).toMatch(/ws\.http:\d+: a WebSocket request \([^)]*\) has no curl form/);
    const k6 = await runCli(['export', 'k6', 'ws.http'], { cwd });
    expect(k6.code).toBe(3);
    expect(k6.stderr).toMatch(/ws\.http:3: cannot export to k6: '[^']*' is a WebSocket request/);
  });

  it('dial fmt keeps both spellings as written', async () => {
    const result = await runCli(['fmt', '--check', 'ws.http'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it('an HTTP method to a ws:// URL is refused at its line before anything is sent (exit 3)', async () => {
    const result = await runCli(['send', 'get-ws.http'], { cwd });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/get-ws\.http:2:1: GET cannot go to a ws:\/\/ URL/);
  });
});

describe('dial send ws://… (interactive)', () => {
  it('sends each stdin line and prints the replies; ends after stdin ends and the server went quiet', async () => {
    const result = await runCli(['send', `${ws}/ws`, 'X-Client:e2e'], { input: 'first\n\nsecond\n' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('first\nsecond\n');
    expect(result.code).toBe(0);
    const upgrade = await runCli(['send', `${server.url}/echo`, 'X-Client:e2e'], { input: 'x\n' });
    expect(upgrade.code).toBe(0);
    expect(server.upgrades.at(-1)!.headers['x-client']).toBe('e2e');
  });

  it('GRAPHQL ws://… on the command line is refused with a hint that says where WebSocket GraphQL works', async () => {
    const refused = await runCli(['send', 'GRAPHQL', `${ws}/graphql`, 'query=subscription { ticks }']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("unsupported URL scheme 'ws'");
    expect(refused.stderr).toContain('GRAPHQL ws://');
    expect(refused.stderr).not.toContain('dial speaks http:// and https://');
  });

  it('WS as the method word works too; data items are refused (exit 2)', async () => {
    expect((await runCli(['send', 'WS', `${ws}/ws`], { input: 'hey\n' })).stdout).toBe('hey\n');
    const refused = await runCli(['send', `${ws}/ws`, 'a=1'], { input: '' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('a WebSocket URL takes only Header:value items');
  });

  it.each([
    [['--session', 'ann'], '--session'],
    [['--session-read-only', 'ann'], '--session-read-only'],
    [['-a', 'tok', '-A', 'bearer'], '--auth'],
  ])('%j is refused (exit 2) before connecting, not silently dropped', async (flags, name) => {
    const before = server.upgrades.length;
    const refused = await runCli(['send', ...flags, `${server.url}/echo`], { input: 'x\n' });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`error[E_USAGE]: ${name} does not apply to an interactive WebSocket`);
    expect(refused.stdout).toBe('');
    expect(server.upgrades.length).toBe(before);
  });

  it('Ctrl+C closes the conversation cleanly (exit 0) with what arrived printed', async () => {
    const child = spawn(process.execPath, [DIAL_BIN, 'send', `${ws}/ws`], {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-') },
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('hello')) child.kill('SIGINT');
    });
    child.stdin.write('hello\n');
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stdout).toBe('hello\n');
    expect(code).toBe(0);
  });
});

describe('dial run', () => {
  it('asserts on received messages: passing file exits 0', async () => {
    const result = await runCli(['run', 'ws.http', '--grep', '/^(checked|subscription)$/'], { cwd });
    expect(result.stdout).toMatch(/✓ ws\.http › checked\s+101/);
    expect(result.stdout).toMatch(/✓ ws\.http › subscription\s+101/);
    expect(result.code).toBe(0);
  });

  it('response handlers and request references read the received messages', async () => {
    const result = await runCli(['run', 'handler.http'], { cwd });
    expect(result.stdout).toContain('2 passed');
    expect(result.code).toBe(0);
  });

  it('a failing assertion on a message fails the run (exit 1)', async () => {
    const result = await runCli(['run', 'failing.http'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('body $[0].n == 2');
  });
});
