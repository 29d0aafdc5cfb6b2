/**
 * REST Client's cURL requests end to end, through the built bin/dial.js against a recording
 * server: `dial run`, `dial send FILE#name` (with the request it references sent first) and
 * `dial check`; a refused curl option stops that request at its line (the file's other requests
 * are sent, as REST Client sends them).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(request.url === '/login' ? '{"token": "tok-1"}' : '{}');
  });
});
afterAll(() => server.close());

const FILE = [
  '@user = ada',
  '',
  '### login',
  '# @name login',
  "curl -X POST '{{host}}/login' \\",
  "  -H 'Content-Type: application/json' \\",
  '  # REST Client drops comment lines inside the command',
  `  -d '{"user": "{{user}}"}'`,
  '',
  '### profile',
  '# @name profile',
  'curl {{host}}/me?id={{$randomInt 5 6}} \\',
  '  -H "Authorization: Bearer {{login.response.body.$.token}}"',
  '',
  '### basic',
  '# @name basic',
  'curl -u {{user}}:pw {{host}}/basic',
  '',
  '### upload',
  '# @name upload',
  "curl --data-binary @./body.txt {{host}}/upload -b 'sid=1; theme=dark'",
  '',
  '### head',
  '# @name head',
  'curl -sL -I {{host}}/page',
  '',
].join('\n');

function workspace(text = FILE): string {
  const dir = tempDir('dial-rest-curl-');
  mkdirSync(join(dir, '.git'));
  writeFileSync(join(dir, 'api.http'), text);
  writeFileSync(join(dir, 'body.txt'), 'a=1\nb=2\n');
  return dir;
}

const sent = (from: number) => server.requests.slice(from);

describe('REST Client cURL requests', () => {
  it('dial run sends each command as REST Client reads it', async () => {
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http', '--var', `host=${server.url}`], { cwd: workspace() });
    expect(result.stderr).not.toContain('error');
    expect(result.code).toBe(0);
    const requests = sent(before);
    expect(requests.map((r) => `${r.method} ${r.url.replace(/id=[56]$/, 'id=N')}`)).toEqual([
      'POST /login',
      'GET /me?id=N',
      'GET /basic',
      'POST /upload',
      'HEAD /page',
    ]);
    const [login, me, basic, upload] = requests;
    expect(login.headers['content-type']).toBe('application/json');
    expect(login.body.toString()).toBe('{"user": "ada"}');
    expect(me.headers.authorization).toBe('Bearer tok-1');
    expect(basic.headers.authorization).toBe(`Basic ${Buffer.from('ada:pw').toString('base64')}`);
    expect(upload.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(upload.headers.cookie).toBe('sid=1; theme=dark');
    // The file as it is (REST Client streams it; curl's -d would drop the line breaks).
    expect(upload.body.toString()).toBe('a=1\nb=2\n');
  });

  it("as REST Client: -d @file from the workspace root first, a header given twice joined, -d '' a GET", async () => {
    const dir = workspace(
      [
        '### root file',
        'curl {{host}}/root -d @data.txt',
        '',
        '### twice',
        "curl {{host}}/twice -H 'X-A: 1' -H 'x-a: 2'",
        '',
        '### empty',
        "curl {{host}}/empty -d ''",
        '',
      ].join('\n'),
    );
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'data.txt'), 'at-root');
    writeFileSync(join(dir, 'sub', 'data.txt'), 'beside-the-file');
    writeFileSync(join(dir, 'sub', 'api.http'), readFileSync(join(dir, 'api.http')));
    const before = server.requests.length;
    const result = await runCli(['run', 'sub/api.http', '--var', `host=${server.url}`], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    const [root, twice, empty] = sent(before);
    expect(root.body.toString()).toBe('at-root');
    expect(twice.rawHeaders.filter((h, i) => i % 2 === 0 && h.toLowerCase() === 'x-a')).toEqual(['X-A']);
    expect(twice.headers['x-a']).toBe('1,2');
    expect([empty.method, empty.headers['content-type'], empty.body.length]).toEqual(['GET', undefined, 0]);
  });

  it('dial send FILE#name sends the login it references first', async () => {
    const before = server.requests.length;
    const result = await runCli(['send', 'api.http#profile', '--var', `host=${server.url}`], { cwd: workspace() });
    expect(result.code).toBe(0);
    expect(sent(before).map((r) => `${r.method} ${r.url.split('?')[0]}`)).toEqual(['POST /login', 'GET /me']);
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer tok-1');
  });

  it('dial check finds nothing wrong in the file', async () => {
    const result = await runCli(['check', 'api.http', '--var', `host=${server.url}`], { cwd: workspace() });
    expect(result.stdout + result.stderr).toContain('0 errors, 0 warnings');
    expect(result.code).toBe(0);
  });

  it('an option REST Client ignores (and curl does not) refuses that request at its line; the others are sent', async () => {
    const dir = workspace(`${FILE}\n### form\ncurl -F 'a=1' {{host}}/form\n`);
    const before = server.requests.length;
    const run = await runCli(['run', 'api.http', '--var', `host=${server.url}`], { cwd: dir });
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('api.http:28');
    expect(run.stdout).toContain('`-F`');
    // The five requests above it go out; nothing goes to /form.
    expect(sent(before).map((r) => r.url?.split('?')[0])).toEqual(['/login', '/me', '/basic', '/upload', '/page']);
    const check = await runCli(['check', 'api.http', '--var', `host=${server.url}`], { cwd: dir });
    expect(check.code).not.toBe(0);
    expect(check.stdout + check.stderr).toMatch(/api\.http:28:6: error: curl option `-F`/);
  });
});
