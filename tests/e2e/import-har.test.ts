/** `dial import har` and `dial export har` end to end. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';
import { startDialEcho } from '../helpers/echo-server.js';

const HAR = resolve(import.meta.dirname, '../fixtures/import/har/devtools.har');

let server: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
});

describe('dial import har', () => {
  it('writes one request per entry, moves secrets to the private env file and skips static assets', async () => {
    const out = tempDir('dial-har-');
    const result = await runCli(['import', 'har', HAR, '-o', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('(3 requests)');
    expect(result.stdout).toContain('3 requests from 5 entries\nskipped 2 static assets');
    const http = readFileSync(join(out, 'devtools.http'), 'utf8');
    expect(http).toContain(
      '### orders\n# recorded 2026-03-01T10:00:01.000Z\n# @name orders\nPOST https://api.example.com/v1/orders?expand=items\naccept: application/json\nauthorization: Bearer {{token}}\ncontent-type: application/json\nx-api-key: {{x_api_key}}\n\n{"sku":"A-1","quantity":2}\n',
    );
    expect(http).toContain(
      'POST https://shop.example.com/login\nCookie: {{cookie}}\nContent-Type: application/x-www-form-urlencoded\n\nuser=ann&remember=yes\n',
    );
    expect(http).toContain('GET https://api.example.com/v1/search?q=shoes&api_key={{api_key}}\n');
    expect(http).not.toMatch(/logo\.png|app\.css|:authority|content-length|eyJhbGci|abc123|secret-77/);
    const secrets = JSON.parse(readFileSync(join(out, 'http-client.private.env.json'), 'utf8'));
    expect(secrets).toEqual({
      $shared: {
        token: 'eyJhbGciOiJIUzI1NiJ9.e30.sig',
        x_api_key: 'k-123456',
        cookie: 'session=abc123; theme=dark',
        api_key: 'secret-77',
      },
    });
    expect(statSync(join(out, 'http-client.private.env.json')).mode & 0o777).toBe(0o600);
  });

  it('--include-assets keeps images and style sheets', async () => {
    const out = tempDir('dial-har-');
    const result = await runCli(['import', 'har', HAR, '--include-assets', '-o', out]);
    expect(result.code).toBe(0);
    const http = readFileSync(join(out, 'devtools.http'), 'utf8');
    expect(http).toContain('GET https://shop.example.com/logo.png');
    expect(http).toContain('GET https://shop.example.com/static/app.css');
  });

  it('bad input names the file, line and column (exit 3)', async () => {
    const dir = tempDir('dial-har-');
    writeFileSync(
      join(dir, 'broken.har'),
      '{\n  "log": {\n    "entries": [\n      { "request": { "method": "GET" } },\n    ]\n  }\n}\n',
    );
    const syntax = await runCli(['import', 'har', 'broken.har'], { cwd: dir });
    expect(syntax.code).toBe(3);
    expect(syntax.stderr).toMatch(/error\[E_IMPORT\] broken\.har:5:\d+: HAR file is not valid JSON/);
    writeFileSync(
      join(dir, 'shape.har'),
      '{\n  "log": {\n    "entries": [\n      { "request": { "method": "GET" } }\n    ]\n  }\n}\n',
    );
    const shape = await runCli(['import', 'har', 'shape.har'], { cwd: dir });
    expect(shape.code).toBe(3);
    expect(shape.stderr).toContain(
      'error[E_IMPORT] shape.har:4:20: HAR file: log.entries[0].request.url: expected string',
    );
  });
});

describe('dial export har', () => {
  it('writes history as HAR 1.2 with secrets still masked, and it imports back', async () => {
    const configDir = tempDir('dial-config-');
    const dir = tempDir('dial-har-');
    for (const path of ['/one', '/two']) {
      const sent = await runCli(
        ['send', 'POST', `${server.url}${path}`, 'Authorization:Bearer s3cret-token', 'name=ann'],
        { configDir, cwd: dir },
      );
      expect(sent.code).toBe(0);
    }
    const result = await runCli(['export', 'har', '-o', 'history.har'], { configDir, cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('wrote history.har (2 entries)\n');
    const text = readFileSync(join(dir, 'history.har'), 'utf8');
    expect(text).not.toContain('s3cret-token');
    const har = JSON.parse(text);
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('dial');
    expect(har.log.entries.map((e: { request: { url: string } }) => new URL(e.request.url).pathname)).toEqual([
      '/one',
      '/two',
    ]);
    const [first] = har.log.entries;
    expect(first.request.method).toBe('POST');
    expect(first.request.postData).toMatchObject({ mimeType: expect.stringContaining('json'), text: '{"name":"ann"}' });
    expect(first.request.headers).toContainEqual({
      name: 'Authorization',
      value: expect.stringMatching(/^Bearer (?!s3cret)/),
    });
    expect(first.response.status).toBe(200);
    expect(JSON.parse(first.response.content.text).method).toBe('POST');
    expect(first.timings.wait).toBeGreaterThanOrEqual(0);

    const limited = await runCli(['export', 'har', '-n', '1'], { configDir, cwd: dir });
    expect(JSON.parse(limited.stdout).log.entries).toHaveLength(1);

    const back = await runCli(['import', 'har', 'history.har', '-o', 'back'], { cwd: dir });
    expect(back.code).toBe(0);
    expect(readFileSync(join(dir, 'back', 'history.http'), 'utf8')).toContain(`POST ${server.url}/one\n`);
  });

  it('shows a WebSocket exchange as the GET that upgraded, marked websocket, never as a WEBSOCKET method', async () => {
    const echo = await startDialEcho();
    try {
      const configDir = tempDir('dial-config-');
      const dir = tempDir('dial-har-ws-');
      writeFileSync(
        join(dir, 'ws.http'),
        `### talk\nWEBSOCKET ws://127.0.0.1:${echo.port}/ws\n\nhello\n=== wait-for-server\n`,
      );
      expect((await runCli(['send', 'ws.http#talk'], { configDir, cwd: dir })).code).toBe(0);
      const exported = await runCli(['export', 'har'], { configDir, cwd: dir });
      expect(exported.code).toBe(0);
      const [entry] = JSON.parse(exported.stdout).log.entries;
      expect(entry.request).toMatchObject({ method: 'GET', url: `ws://127.0.0.1:${echo.port}/ws` });
      expect(entry._resourceType).toBe('websocket');
      expect(entry.response.status).toBe(101);
      expect(JSON.parse(entry.response.content.text)).toEqual(['hello']);
      expect(entry.comment).toMatch(/WebSocket: postData holds the messages sent/);
    } finally {
      await echo.stop();
    }
  });
});
