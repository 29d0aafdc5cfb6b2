/**
 * JetBrains script APIs end to end, through the built bin/dial.js against a recording server:
 * `client.global.headers.set/clear` (headers for this request from a pre-request script and for
 * every later one, never over a header the request writes itself), `client.exit()`, and the
 * pre-request `request.url` / `request.headers` / `request.body` readers.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

function workspace(files: Record<string, string>): string {
  const dir = tempDir('dial-jb-scripts-');
  mkdirSync(join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const FILE = [
  '### Log in',
  '< {%',
  '  client.global.headers.set("X-Trace", "trace-{{user}}");',
  '%}',
  'POST {{host}}/login',
  'Content-Type: application/json',
  '',
  '{"user": "{{user}}"}',
  '',
  '> {%',
  '  client.global.headers.set("Authorization", "Bearer " + response.body.token);',
  '  client.exit();',
  '  client.global.headers.set("X-Never", "1");',
  '%}',
  '',
  '### Own header wins',
  'GET {{host}}/own',
  'x-trace: mine',
  '',
  '### Cleared',
  '< {% client.global.headers.clear("x-TRACE"); %}',
  'GET {{host}}/cleared',
  '',
].join('\n');

describe('client.global.headers', () => {
  it('adds the headers to the request of the pre-request script and to the later ones; own headers win; clear removes', async () => {
    const server = await startRecordingServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(request.url === '/login' ? '{"token": "t-1"}' : '{}');
    });
    try {
      const dir = workspace({ 'api.http': FILE });
      const run = await runCli(['run', 'api.http', '--var', `host=${server.url}`, '--var', 'user=ada'], {
        cwd: dir,
      });
      expect(run.code, run.stderr).toBe(0);
      const seen = server.requests.map((r) => [
        r.url,
        r.headers['x-trace'] ?? '-',
        r.headers.authorization ?? '-',
        r.headers['x-never'] ?? '-',
      ]);
      expect(seen).toEqual([
        ['/login', 'trace-ada', '-', '-'],
        ['/own', 'mine', 'Bearer t-1', '-'],
        ['/cleared', '-', 'Bearer t-1', '-'],
      ]);
      // The request's own spelling is sent, not a second header.
      expect(server.requests[1].rawHeaders.filter((h) => h.toLowerCase() === 'x-trace')).toEqual(['x-trace']);
    } finally {
      await server.close();
    }
  });

  it("each file is its own flow: a dial run of two files does not carry one file's headers into the other", async () => {
    const server = await startRecordingServer();
    try {
      const dir = workspace({
        'a.http': '< {% client.global.headers.set("X-Flow", "a"); %}\nGET {{host}}/a1\n\n###\nGET {{host}}/a2\n',
        'b.http': 'GET {{host}}/b1\n',
      });
      const run = await runCli(['run', 'a.http', 'b.http', '--var', `host=${server.url}`], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.url} ${r.headers['x-flow'] ?? '-'}`).sort()).toEqual([
        '/a1 a',
        '/a2 a',
        '/b1 -',
      ]);
    } finally {
      await server.close();
    }
  });

  it('dial send: a pre-request script sets a header for the request it sends', async () => {
    const server = await startRecordingServer();
    try {
      const dir = workspace({
        'one.http':
          '< {%\n  client.global.headers.set("X-Sig", crypto.sha256().updateWithText("a").digest().toHex().slice(0, 8));\n%}\nGET {{host}}/one\n',
      });
      const sent = await runCli(['send', 'one.http', '--var', `host=${server.url}`], { cwd: dir });
      expect(sent.code, sent.stderr).toBe(0);
      expect(server.requests.map((r) => r.headers['x-sig'])).toEqual(['ca978112']);
    } finally {
      await server.close();
    }
  });
});

describe('pre-request request.url / headers / body', () => {
  it('reads the request as written and with its variables filled in, to sign it', async () => {
    const server = await startRecordingServer();
    try {
      const dir = workspace({
        'sign.http': [
          '@id = 42',
          '< {%',
          '  const body = request.body.tryGetSubstituted();',
          '  const url = request.url.tryGetSubstituted();',
          '  const sig = crypto.hmac.sha256().withTextSecret("k").updateWithText(request.method + url + body).digest().toHex();',
          '  request.variables.set("sig", sig);',
          '  request.variables.set("raw", encodeURIComponent(request.headers.findByName("x-item").getRawValue()));',
          '%}',
          'PUT {{host}}/items/{{id}}',
          'X-Item: {{id}}',
          'X-Sig: {{sig}}',
          'X-Raw: {{raw}}',
          '',
          '{"id": {{id}}}',
          '',
        ].join('\n'),
      });
      const run = await runCli(['run', 'sign.http', '--var', `host=${server.url}`], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const { createHmac } = await import('node:crypto');
      const expected = createHmac('sha256', 'k').update(`PUT${server.url}/items/42{"id": 42}`).digest('hex');
      expect(server.requests[0].headers['x-sig']).toBe(expected);
      expect(server.requests[0].headers['x-raw']).toBe('%7B%7Bid%7D%7D');
    } finally {
      await server.close();
    }
  });
});
