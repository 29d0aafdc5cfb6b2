/**
 * One curl command for a `.http` request, whichever way it is asked for (`dial export curl`,
 * `dial send FILE --curl`): printing it sends nothing (references to other requests stay as
 * their `{{…}}` text, with a warning), it follows redirects as dial does (`-L` unless
 * `# @no-redirect`), and both print the same bytes — multipart `< ./file` parts as `@file`,
 * `< ./b.json` bodies as a path relative to the current folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

const hasCurl = spawnSync('curl', ['--version']).status === 0 && spawnSync('bash', ['-c', 'true']).status === 0;

let server: TestServer & { requests: RecordedRequest[] };
let dir: string;

/** A port nothing listens on: sending `login` there would fail (exit 4). */
async function closedPort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    if (request.url === '/old') {
      response.writeHead(302, { location: '/new' });
      response.end();
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ url: request.url }));
  });
  dir = tempDir('dial-export-send-');
  mkdirSync(join(dir, 'files'));
  writeFileSync(join(dir, 'files', 'report.csv'), 'a,b\n1,2\n');
  writeFileSync(join(dir, 'b.json'), '{"order": 7}\n');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({ dev: { host: server.url, auth: `http://127.0.0.1:${await closedPort()}` } }),
  );
  writeFileSync(
    join(dir, 'api.http'),
    [
      '### login',
      '# @name login',
      'POST {{auth}}/login',
      'Content-Type: application/json',
      '',
      '{"user": "ada"}',
      '',
      '### profile',
      '# @name profile',
      'GET {{host}}/users/{{login.response.body.$.id}}?v=1',
      'Authorization: Bearer {{ login.response.body.$.token }}',
      'X-Again: {{login.response.body.$.token}}',
      '',
      '### refs',
      '# @name refs',
      '# @ref login',
      'GET {{host}}/health',
      '',
      '### moved',
      '# @name moved',
      'GET {{host}}/old',
      '',
      '### pinned',
      '# @name pinned',
      '# @no-redirect',
      'GET {{host}}/old',
      '',
      '### upload',
      '# @name upload',
      'POST {{host}}/upload',
      'Content-Type: multipart/form-data; boundary=WebAppBoundary',
      '',
      '--WebAppBoundary',
      'Content-Disposition: form-data; name="title"',
      '',
      'Q3 report',
      '--WebAppBoundary',
      'Content-Disposition: form-data; name="file"; filename="report.csv"',
      'Content-Type: text/csv',
      '',
      '< ./files/report.csv',
      '--WebAppBoundary--',
      '',
      '### put-json',
      '# @name put-json',
      'PUT {{host}}/orders/7',
      'Content-Type: application/json',
      '',
      '< ./b.json',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await server.close();
});

/** `dial export curl` and `dial send --curl` for a request: both outputs, checked to be the same. */
async function bothWays(name: string): Promise<{ stdout: string; stderr: string }> {
  const exported = await runCli(['export', 'curl', `api.http#${name}`, '-e', 'dev'], { cwd: dir });
  const viaSend = await runCli(['send', `api.http#${name}`, '-e', 'dev', '--curl'], { cwd: dir });
  expect(exported.code).toBe(0);
  expect(viaSend.code).toBe(0);
  expect(viaSend.stdout).toBe(exported.stdout);
  expect(viaSend.stderr).toBe(exported.stderr);
  return exported;
}

async function runBash(command: string): Promise<void> {
  await new Promise<void>((done, fail) => {
    const child = spawn('bash', ['-c', `${command.trim()} -s -o /dev/null`], {
      cwd: dir,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`bash/curl exited ${code}: ${stderr}`))));
  });
}

describe('curl commands of .http requests', () => {
  it('references are not run: they stay as {{…}} in the command, with a warning naming each', async () => {
    const before = server.requests.length;
    const { stdout, stderr } = await bothWays('profile');
    expect(server.requests.length).toBe(before);
    expect(stderr).toBe(
      [
        "warning: {{login.response.body.$.id}} needs request 'login' to run first; left as is",
        "warning: {{login.response.body.$.token}} needs request 'login' to run first; left as is",
        '',
      ].join('\n'),
    );
    // In the URL as written (not percent-encoded), with -g so curl does not glob the braces.
    expect(stdout).toBe(
      [
        `curl -L -g '${server.url}/users/{{login.response.body.$.id}}?v=1' \\`,
        `  -H 'Authorization: Bearer {{login.response.body.$.token}}' \\`,
        `  -H 'X-Again: {{login.response.body.$.token}}'`,
        '',
      ].join('\n'),
    );
    // Sending it for real still runs login first (here: refused, exit 4), as before.
    const sent = await runCli(['send', 'api.http#profile', '-e', 'dev'], { cwd: dir });
    expect(sent.code).toBe(4);
    expect(server.requests.length).toBe(before);
  });

  it('send --offline does not run them either: the printed request keeps the {{…}} as written', async () => {
    const before = server.requests.length;
    const result = await runCli(['send', 'api.http#profile', '-e', 'dev', '--offline'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(server.requests.length).toBe(before);
    expect(result.stderr).toContain(
      "warning: {{login.response.body.$.token}} needs request 'login' to run first; left as is\n",
    );
    expect(result.stdout).toMatch(/^GET \/users\/\{\{login\.response\.body\.\$\.id\}\}\?v=1 HTTP\/1\.1\n/);
    expect(result.stdout).toContain('Authorization: Bearer {{login.response.body.$.token}}\n');
  });

  it('# @ref is not run either', async () => {
    const { stdout, stderr } = await bothWays('refs');
    expect(stderr).toBe("warning: # @ref login needs request 'login' to run first; left as is\n");
    expect(stdout).toBe(`curl -L '${server.url}/health'\n`);
  });

  it('-L unless the request says # @no-redirect, as dial sends them', async () => {
    expect((await bothWays('moved')).stdout).toBe(`curl -L '${server.url}/old'\n`);
    expect((await bothWays('pinned')).stdout).toBe(`curl '${server.url}/old'\n`);
    // dial send follows the redirect of `moved` and not that of `pinned`.
    let before = server.requests.length;
    expect((await runCli(['send', 'api.http#moved', '-e', 'dev'], { cwd: dir })).code).toBe(0);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/old', '/new']);
    before = server.requests.length;
    expect((await runCli(['send', 'api.http#pinned', '-e', 'dev'], { cwd: dir })).code).toBe(0);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/old']);
    if (hasCurl) {
      // ...and so do the exported commands.
      before = server.requests.length;
      await runBash((await bothWays('moved')).stdout);
      expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/old', '/new']);
      before = server.requests.length;
      await runBash((await bothWays('pinned')).stdout);
      expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/old']);
    }
  });

  it('multipart with a < ./file part: the same -F parts with @file from send --curl and export curl', async () => {
    const { stdout } = await bothWays('upload');
    expect(stdout).toBe(
      [
        `curl -L '${server.url}/upload' \\`,
        `  -F 'title=Q3 report' \\`,
        `  -F 'file=@./files/report.csv;type=text/csv'`,
        '',
      ].join('\n'),
    );
  });

  it('a < ./b.json body: the same relative @path from send --curl and export curl', async () => {
    const { stdout } = await bothWays('put-json');
    expect(stdout).toBe(
      [
        `curl -L -X PUT '${server.url}/orders/7' \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  --data-binary '@./b.json'`,
        '',
      ].join('\n'),
    );
  });

  it('from a subfolder the paths are relative to it, still the same both ways', async () => {
    const sub = join(dir, 'files');
    const exported = await runCli(['export', 'curl', '../api.http#put-json', '-e', 'dev', '--single-line'], {
      cwd: sub,
    });
    const viaSend = await runCli(['send', '../api.http#put-json', '-e', 'dev', '--curl'], { cwd: sub });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe(
      `curl -L -X PUT '${server.url}/orders/7' -H 'Content-Type: application/json' --data-binary '@${join(dir, 'b.json')}'\n`,
    );
    expect(viaSend.stdout.replace(/ \\\n {2}/g, ' ')).toBe(exported.stdout);
  });
});
