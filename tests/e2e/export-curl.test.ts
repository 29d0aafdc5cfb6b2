/**
 * `dial export curl FILE.http#name` end to end: the printed command, run by a real Bash and
 * curl when installed (else parsed by dial's own importer and sent by the engine), sends the
 * same request as `dial send FILE.http#name` — variables from the environment and --var,
 * JSON bodies, multipart with a file, file bodies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest } from '../helpers/servers.js';
import { parseCurlCommand } from '../../src/core/curl/curl.js';
import { sendRequest } from '../../src/core/http/index.js';

const hasCurl = spawnSync('curl', ['--version']).status === 0 && spawnSync('bash', ['-c', 'true']).status === 0;

let server: Awaited<ReturnType<typeof startRecordingServer>>;
let dir: string;

beforeAll(async () => {
  server = await startRecordingServer();
  dir = tempDir('dial-export-');
  mkdirSync(join(dir, 'files'));
  writeFileSync(join(dir, 'files', 'report.csv'), 'a,b\n1,2\n');
  writeFileSync(join(dir, 'files', 'body.xml'), '<order id="7"/>\n');
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { host: server.url, user: "O'Brien" } }));
  writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ dev: { token: 'tok-$HOME-`x`' } }));
  writeFileSync(
    join(dir, 'api.http'),
    [
      '### Create user',
      '# @name create',
      'POST {{host}}/users?team={{team}}&q=a%20b',
      'Authorization: Bearer {{token}}',
      'Content-Type: application/json',
      '',
      '{"name": "{{user}}", "note": "it\'s \\"quoted\\"\\n"}',
      '',
      '### Upload',
      '# @name upload',
      'POST {{host}}/upload',
      'Content-Type: multipart/form-data; boundary=WebAppBoundary',
      '',
      '--WebAppBoundary',
      'Content-Disposition: form-data; name="title"',
      '',
      'Report for {{user}}',
      '--WebAppBoundary',
      'Content-Disposition: form-data; name="file"; filename="report.csv"',
      'Content-Type: text/csv',
      '',
      '< ./files/report.csv',
      '--WebAppBoundary--',
      '',
      '### Put a file',
      '# @name put-file',
      'PUT {{host}}/orders/7',
      'Content-Type: application/xml',
      '',
      '< ./files/body.xml',
      '',
      '### Delete',
      '# @name remove',
      'DELETE {{host}}/users/1',
      '',
      '### Digest',
      '# @name digest',
      'GET {{host}}/secure',
      'Authorization: Digest {{user}} s3cret',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await server.close();
});

async function runBash(line: string, cwd: string): Promise<void> {
  await new Promise<void>((done, fail) => {
    const child = spawn('bash', ['-c', `${line.trim()} -s -o /dev/null`], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`bash/curl exited ${code}: ${stderr}`))));
  });
}

/** Runs the exported command (real curl, or dial's importer + engine) and returns what the server got. */
async function sendExported(command: string): Promise<RecordedRequest> {
  const before = server.requests.length;
  if (hasCurl) await runBash(command, dir);
  else await sendRequest(parseCurlCommand(command, { cwd: dir }).request, {});
  expect(server.requests.length).toBe(before + 1);
  return server.requests[before];
}

async function sendWithDial(target: string, extra: string[]): Promise<RecordedRequest> {
  const before = server.requests.length;
  const result = await runCli(['send', target, ...extra], { cwd: dir });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return server.requests[before];
}

function comparable(request: RecordedRequest): {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
} {
  const boundary = /boundary=([^;\s]+)/.exec(String(request.headers['content-type'] ?? ''))?.[1];
  const unbound = (text: string) => (boundary ? text.split(boundary).join('BOUNDARY') : text);
  const headers: Record<string, string> = {};
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i].toLowerCase();
    // Left to each client: their own name, connection handling and framing.
    if (
      [
        'host',
        'user-agent',
        'accept',
        'accept-encoding',
        'connection',
        'content-length',
        'transfer-encoding',
        'expect',
      ].includes(name)
    )
      continue;
    headers[name] = unbound(request.rawHeaders[i + 1]);
  }
  return { method: request.method, url: request.url, headers, body: unbound(request.body.toString('utf8')) };
}

describe('dial export curl', () => {
  // Digest needs a real curl to answer challenges; dial's importer gives the .http convention instead.
  for (const name of ['create', 'upload', 'put-file', 'remove', ...(hasCurl ? ['digest'] : [])]) {
    it(`${name}: the exported command sends what dial send sends`, async () => {
      const args = ['-e', 'dev', '--var', 'team=a&b c'];
      const exported = await runCli(['export', 'curl', `api.http#${name}`, ...args], { cwd: dir });
      expect(exported.stderr).toBe('');
      expect(exported.code).toBe(0);
      expect(exported.stdout).toMatch(/^curl /);
      const viaCurl = comparable(await sendExported(exported.stdout));
      const viaDial = comparable(await sendWithDial(`api.http#${name}`, args));
      expect(viaCurl).toEqual(viaDial);
    });
  }

  it('prints readable commands: -F parts with @file, values resolved and safely quoted', async () => {
    const upload = await runCli(['export', 'curl', 'api.http#upload', '-e', 'dev'], { cwd: dir });
    expect(upload.stdout).toBe(
      [
        `curl -L '${server.url}/upload' \\`,
        `  -F 'title=Report for O'\\''Brien' \\`,
        `  -F 'file=@./files/report.csv;type=text/csv'`,
        '',
      ].join('\n'),
    );
    const create = await runCli(
      ['export', 'curl', 'api.http#create', '-e', 'dev', '--var', 'team=x', '--single-line', '-k'],
      { cwd: dir },
    );
    expect(create.stdout).toBe(
      `curl -L '${server.url}/users?team=x&q=a%20b' -k -H 'Authorization: Bearer tok-$HOME-\`x\`' -H 'Content-Type: application/json' --data-raw '{"name": "O'\\''Brien", "note": "it'\\''s \\"quoted\\"\\n"}'\n`,
    );
  });

  it('digest credentials become --digest -u', async () => {
    const digest = await runCli(['export', 'curl', 'api.http#digest', '-e', 'dev', '--single-line'], { cwd: dir });
    expect(digest.stdout).toBe(`curl -L '${server.url}/secure' --digest -u 'O'\\''Brien:s3cret'\n`);
  });

  it('errors: not a .http target (exit 2), unknown request or unresolved variable (exit 3)', async () => {
    const usage = await runCli(['export', 'curl', 'https://example.com/'], { cwd: dir });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^error\[E_USAGE\]: 'https:\/\/example\.com\/' is not a \.http file target/);
    const missing = await runCli(['export', 'curl', 'api.http#nope', '-e', 'dev'], { cwd: dir });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/no request named 'nope'/);
    const unresolved = await runCli(['export', 'curl', 'api.http#create', '-e', 'dev'], { cwd: dir });
    expect(unresolved.code).toBe(3);
    expect(unresolved.stderr).toMatch(/E_VAR_UNDEFINED.*team/);
    expect(unresolved.stdout).toBe('');
  });
});
