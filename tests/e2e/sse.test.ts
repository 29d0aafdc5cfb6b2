/**
 * Server-sent events from the command line against the real `dial echo` (/sse): httpyac's
 * `SSE url` and `EVENTSOURCE url`, a plain GET answered with text/event-stream, the stream
 * limits `# @sse-count` and `# @sse-timeout`, and assertions on the collected events.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAL_BIN, runCli, tempDir } from '../helpers/cli.js';
import { startDialEcho, type RunningEcho } from '../helpers/echo-server.js';
import { startHttpServer } from '../helpers/servers.js';

let echo: RunningEcho;
beforeAll(async () => {
  echo = await startDialEcho();
});
afterAll(() => echo.stop());

function workspace(files: Record<string, string>): string {
  const dir = tempDir('dial-sse-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('dial send: server-sent events', () => {
  it('SSE url prints each event on its own line, in order', async () => {
    const cwd = workspace({ 's.http': `SSE ${echo.url}/sse?count=3&interval=10\n` });
    const result = await runCli(['send', 's.http'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    lines.forEach((line, index) =>
      expect(line).toMatch(new RegExp(`^event: message  id: ${index + 1}  data: \\{"id":${index + 1},"time":"`)),
    );
  });

  it('--json prints one JSON object per event', async () => {
    const cwd = workspace({ 's.http': `EVENTSOURCE ${echo.url}/sse?count=2&interval=10\n` });
    const result = await runCli(['send', '--json', 's.http'], { cwd });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { event: string; id: string; data: string });
    expect(events.map(({ event, id }) => ({ event, id }))).toEqual([
      { event: 'message', id: '1' },
      { event: 'message', id: '2' },
    ]);
    expect(JSON.parse(events[1].data)).toMatchObject({ id: 2 });
  });

  it('# @sse-count stops a long stream after that many events', async () => {
    const cwd = workspace({ 's.http': `# @sse-count 2\nSSE ${echo.url}/sse?count=10000&interval=20\n` });
    const started = Date.now();
    const result = await runCli(['send', 's.http'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('dial send SSE URL (no file) is the same GET, printed event by event', async () => {
    const result = await runCli(['send', 'SSE', `${echo.url}/sse`, 'count==2', 'interval==10']);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^event: message {2}id: 1 {2}data: /),
      expect.stringMatching(/^event: message {2}id: 2 {2}data: /),
    ]);
  });

  it('a secret value the server echoes in an event is masked in what send prints', async () => {
    const secret = 'tok-77c1e9a0b4';
    const server = await startHttpServer((request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(`data: you sent ${String(request.headers['x-token'])}\n\n`);
    });
    try {
      const cwd = workspace({
        's.http': `@token = ${secret}\n\n# @secret token\nSSE ${server.url}/events\nX-Token: {{token}}\n`,
      });
      for (const args of [
        ['send', 's.http'],
        ['send', '--json', 's.http'],
      ]) {
        const result = await runCli(args, { cwd });
        expect(result.code).toBe(0);
        expect(result.stdout).toContain('you sent ••••');
        expect(result.stdout + result.stderr).not.toContain(secret);
      }
    } finally {
      await server.close();
    }
  });

  it('-v shows the GET that asks for text/event-stream', async () => {
    const cwd = workspace({ 's.http': `SSE ${echo.url}/sse?count=1\n` });
    const result = await runCli(['send', '-v', 's.http'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^GET \/sse\?count=1 HTTP\/1\.1/m);
    expect(result.stdout).toContain('Accept: text/event-stream');
    expect(result.stdout).toMatch(/^event: message {2}id: 1 {2}data: /m);
  });
});

describe('dial run: server-sent events', () => {
  it('collects the events until the stream ends; assertions read them as a JSON array', async () => {
    const cwd = workspace({
      's.http':
        `### all\nSSE ${echo.url}/sse?count=3&interval=10\n\n?? status == 200\n?? body $ length == 3\n?? body $[2].id == "3"\n?? body $[0].event == message\n?? body $[1].data contains "\\"id\\":2"\n\n` +
        `### plain GET answered with an event stream\n# @sse-count 2\nGET ${echo.url}/sse?count=50&interval=10\n\n?? body $ length == 2\n`,
    });
    const result = await runCli(['run', 's.http'], { cwd });
    expect(result.stdout).toContain('2 passed, 0 failed');
    expect(result.code).toBe(0);
  });

  it('# @sse-timeout ends the stream after that long, as a success', async () => {
    const cwd = workspace({
      's.http': `# @sse-timeout 400ms\nSSE ${echo.url}/sse?count=10000&interval=50\n\n?? body $ length > 0\n?? body $ length < 20\n`,
    });
    const result = await runCli(['run', 's.http'], { cwd });
    expect(result.stdout).toContain('1 passed, 0 failed');
    expect(result.code).toBe(0);
  });

  it("httpyac's Event: header picks the event types and is not sent", async () => {
    const cwd = workspace({
      's.http':
        `### none\nSSE ${echo.url}/sse?count=2&interval=10\nEvent: ping\n\n?? body $ length == 0\n\n` +
        `### messages\nSSE ${echo.url}/sse?count=2&interval=10\nEvent: ping, message\n\n?? body $ length == 2\n`,
    });
    const result = await runCli(['run', 's.http'], { cwd });
    expect(result.stdout).toContain('2 passed, 0 failed');
    expect(result.code).toBe(0);
    const sent = await runCli(['send', '--offline', 's.http#messages'], { cwd });
    expect(sent.stdout).toContain('Accept: text/event-stream');
    expect(sent.stdout).not.toMatch(/^Event:/im);
  });

  it('a failed assertion on the events fails the run', async () => {
    const cwd = workspace({ 's.http': `SSE ${echo.url}/sse?count=2&interval=10\n\n?? body $ length == 5\n` });
    const result = await runCli(['run', 's.http'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('body $ length == 5');
  });

  it('a bad # @sse-count is refused with file:line before anything is sent', async () => {
    const cwd = workspace({ 's.http': `GET ${echo.url}/get\n\n###\n# @sse-count many\nSSE ${echo.url}/sse\n` });
    const result = await runCli(['run', 's.http'], { cwd });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/s\.http:4.*@sse-count 'many'/s);
  });
});

describe('Ctrl+C on an endless stream', () => {
  it('dial send ends it: the events so far are printed, exit 130 (E_CANCELLED)', async () => {
    const child = spawn(process.execPath, [DIAL_BIN, 'send', `${echo.url}/sse?count=10000&interval=100`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('id: 2')) child.kill('SIGINT');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stdout).toContain('event: message  id: 1  data: {"id":1');
    expect(stderr).toContain('error[E_CANCELLED]');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(130);
  });
});
