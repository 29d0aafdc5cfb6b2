// kulala's request control through the built CLI: `request.skip()` / `request.abort()` in a
// pre-request script, `request.replay()` in a handler (with `request.iteration()` counting sends
// from 1), `response.responseCode`, and `client.assert.true(…)`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    response.statusCode = request.url?.startsWith('/status/500') ? 500 : 200;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ results: [{ desc: 'a' }, { desc: 'b' }] }));
  });
});
afterAll(() => server.close());

function workspace(lines: string[]): string {
  const root = tempDir('dial-kulala-control-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), lines.join('\n').replaceAll('HOST', server.url));
  return root;
}

describe('kulala request.skip / abort / replay', () => {
  it('skips a request whose pre-request script calls request.skip(), sends nothing, exits 0', async () => {
    const root = workspace([
      '< {%',
      '  if (!client.global.get("Token")) request.skip();',
      '%}',
      'GET HOST/skipped',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http', '--reporter', 'json'], { cwd: root });
    expect(result.code).toBe(0);
    expect(server.requests.length).toBe(before);
    const report = JSON.parse(result.stdout) as { files: Array<{ requests: Array<{ status: string }> }> };
    expect(report.files[0].requests[0].status).toBe('skipped');
  });

  it('request.abort(message) sends nothing and is an error naming the script line', async () => {
    const root = workspace(['###', '', '< {%', '  request.abort("not in dev");', '%}', 'GET HOST/aborted', '']);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).not.toBe(0);
    expect(server.requests.length).toBe(before);
    expect(result.stdout + result.stderr).toContain('aborted the request: not in dev');
    expect(result.stdout + result.stderr).toContain('api.http:3');
  });

  it('replays while the handler asks, the pre-request script skipping once the items run out', async () => {
    const root = workspace([
      '### one',
      'POST HOST/post',
      '',
      '> {%',
      '  client.global.set("results", response.body.results);',
      '  client.assert.true(response.responseCode === 200, "code");',
      '%}',
      '',
      '### two',
      '< {%',
      '  const item = client.global.get("results")[request.iteration() - 1];',
      '  if (!item) { client.global.set("results", null); return request.skip(); }',
      '  request.variables.set("url", "HOST/get?" + item.desc);',
      '%}',
      'GET {{url}}',
      '',
      '> {%',
      '  if (client.global.get("results")) request.replay();',
      '%}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http', '--reporter', 'json'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /post',
      'GET /get?a',
      'GET /get?b',
    ]);
  });

  it('replays a request with a new variable (kulala conditional request)', async () => {
    const root = workspace([
      '@URL = 500',
      'GET HOST/status/{{URL}}',
      '',
      '> {%',
      '  if (response.responseCode === 500) { request.variables.set("URL", "200"); request.replay(); }',
      '%}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(0);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/status/500', '/status/200']);
  });

  it('a replay that never stops is an error after 101 sends, never a hang', async () => {
    const root = workspace(['GET HOST/again', '', '> {%', '  request.replay();', '%}', '']);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).not.toBe(0);
    expect(server.requests.length - before).toBe(101);
    expect(result.stdout + result.stderr).toContain('request.replay() sent the request 101 times');
  });
});
