/**
 * `dial export k6`: the script is run under the k6 stand-in (tests/helpers/k6-standin) against a
 * real `dial echo`, and what reached the server and what the checks said are asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';

const STANDIN = resolve(import.meta.dirname, '../helpers/k6-standin/run.mjs');

interface StandinResult {
  checks: Array<{ name: string; passed: boolean }>;
  requests: Array<{
    method: string;
    url: string;
    headers: Record<string, string>;
    body: string | null;
    tags: Record<string, string>;
    redirects?: number;
    timeout?: string;
  }>;
  error?: string;
}

// Asynchronous: the echo server runs in this process, so blocking here would starve it.
async function runScript(script: string, env: Record<string, string>): Promise<StandinResult> {
  const { stdout } = await promisify(execFile)(process.execPath, [STANDIN, script, JSON.stringify(env)]);
  return JSON.parse(stdout) as StandinResult;
}

function workspace(files: Record<string, string>): string {
  const dir = tempDir('dial-k6-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEchoServer({ port: 0 });
});
afterAll(() => echo.close());

const API = `### Log in
# @name login
POST {{host}}/post
Content-Type: application/json

{"user": "{{user}}", "password": "{{password}}"}

?? status == 200
?? body $.json.user == {{user}}

### Who am I
# @timeout 5s
# @no-redirect
GET {{host}}/anything/me?as={{login.response.body.$.json.user}}&id={{$uuid}}
X-Trace: {{login.response.headers.Content-Type}}

?? status == 200
?? header content-type contains json
?? body $.args.as == ada
?? body $.args.as == bob
`;

function apiWorkspace(): string {
  return workspace({
    'api.http': API,
    'http-client.env.json': JSON.stringify({ local: { host: echo.url, user: 'ada' } }),
    'http-client.private.env.json': JSON.stringify({ local: { password: 's3cret-pw' } }),
  });
}

describe('dial export k6', () => {
  it('writes a script whose requests, references and checks behave as dial run does', async () => {
    const dir = apiWorkspace();
    const result = await runCli(['export', 'k6', 'api.http', '-e', 'local', '-o', 'load.js'], { cwd: dir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const script = readFileSync(join(dir, 'load.js'), 'utf8');
    expect(script).toContain("import http from 'k6/http';");
    expect(script).not.toContain('s3cret-pw');

    const run = await runScript(join(dir, 'load.js'), { password: 's3cret-pw' });
    expect(run.error).toBeUndefined();
    expect(run.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
    expect(run.requests[1].url).toMatch(
      new RegExp(
        `^${echo.url}/anything/me\\?as=ada&id=[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`,
      ),
    );
    expect(run.requests[1]).toMatchObject({
      redirects: 0,
      timeout: '5000ms',
      tags: { name: 'Who am I', file: 'api.http' },
    });
    expect(run.checks).toEqual([
      { name: 'Log in: status == 200', passed: true },
      { name: 'Log in: body $.json.user == {{user}}', passed: true },
      { name: 'Who am I: status == 200', passed: true },
      { name: 'Who am I: header content-type contains json', passed: true },
      { name: 'Who am I: body $.args.as == ada', passed: true },
      { name: 'Who am I: body $.args.as == bob', passed: false },
    ]);
  });

  it('sends the body and a header from a reference, with -e overriding the environment', async () => {
    const dir = apiWorkspace();
    const { stdout, code } = await runCli(['export', 'k6', '.', '-e', 'local'], { cwd: dir });
    expect(code).toBe(0);
    writeFileSync(join(dir, 'stdout.js'), stdout);
    const run = await runScript(join(dir, 'stdout.js'), { password: 'pw', user: 'bob' });
    expect(run.error).toBeUndefined();
    expect(run.requests[0].body).toBe('{"user": "bob", "password": "pw"}');
    expect(run.requests[0].headers).toEqual({ 'Content-Type': 'application/json' });
    expect(run.requests[1].headers).toEqual({ 'X-Trace': 'application/json' });
    expect(run.requests[1].url).toContain('as=bob');
    expect(run.checks.find((check) => check.name === 'Who am I: body $.args.as == bob')?.passed).toBe(true);
  });

  it('stops with a message naming the -e flag when a secret is not given', async () => {
    const dir = apiWorkspace();
    await runCli(['export', 'k6', 'api.http', '-e', 'local', '-o', 'load.js'], { cwd: dir });
    const run = await runScript(join(dir, 'load.js'), {});
    expect(run.error).toContain("'password' is a secret and is not written into the script");
    expect(run.error).toContain('k6 run -e password=...');
    expect(run.requests).toEqual([]);
  });

  it('opens body files relative to the script and substitutes variables in <@ files', async () => {
    const dir = workspace({
      'requests/upload.http':
        '# @name up\nPOST {{host}}/post\nContent-Type: application/json\n\n<@ ../bodies/body.json\n\n?? body $.json.who == ada\n',
      'bodies/body.json': '{"who": "{{user}}"}',
      'http-client.env.json': JSON.stringify({ local: { host: echo.url, user: 'ada' } }),
    });
    const result = await runCli(['export', 'k6', 'requests', '-e', 'local', '-o', 'out/load.js'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'out/load.js'), 'utf8')).toContain(
      '"../bodies/body.json": open("../bodies/body.json")',
    );
    const run = await runScript(join(dir, 'out/load.js'), {});
    expect(run.error).toBeUndefined();
    expect(run.checks).toEqual([{ name: 'up: body $.json.who == ada', passed: true }]);
  });

  it('refuses a script with file:line, and --drop-scripts leaves it out with a warning', async () => {
    const dir = workspace({
      'a.http': 'GET http://127.0.0.1:1/x\n\n> {%\n  client.global.set("id", response.body.id);\n%}\n',
    });
    const refused = await runCli(['export', 'k6', 'a.http'], { cwd: dir });
    expect(refused.code).toBe(3);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toContain('error[E_INPUT] a.http:3: cannot export to k6:');
    expect(refused.stderr).toContain('--drop-scripts');
    const dropped = await runCli(['export', 'k6', 'a.http', '--drop-scripts'], { cwd: dir });
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toContain("warning: a.http:3: script of 'GET /x' left out (--drop-scripts)");
    expect(dropped.stdout).toContain('"url": "http://127.0.0.1:1/x"');
  });

  it.each([
    [
      'a js assertion',
      'GET http://h/x\n\n?? js response.status == 200\n',
      'a.http:3',
      'js assertions are not translated',
    ],
    [
      'a schema assertion',
      'GET http://h/x\n\n?? body schema ./s.json\n',
      'a.http:3',
      'body schema assertions are not translated',
    ],
    [
      'a JSONPath with a filter',
      'GET http://h/x\n\n?? body $.items[?(@.id==1)] exists\n',
      'a.http:3',
      'is not a plain path',
    ],
    [
      'a reference to a later request',
      'GET http://h/{{second.response.body.$.id}}\n\n###\n# @name second\nGET http://h/y\n',
      'a.http:1',
      "refers to 'second', which does not run before this request",
    ],
    [
      'a gRPC call',
      '### hi\nGRPC localhost:50051/dial.test.Greeter/SayHello\n\n{"name": "Ada"}\n',
      'a.http:2',
      "'hi' is a gRPC request, which is not translated to k6",
    ],
    [
      'an httpyac grpc:// line',
      'grpc://localhost:50051/dial.test.Greeter/SayHello\n',
      'a.http:1',
      'is a gRPC request, which is not translated to k6',
    ],
    ['a WebSocket request', 'WEBSOCKET ws://h/ws\n\nhi\n', 'a.http:1', 'is a WebSocket request'],
    ['a dynamic variable with an offset', 'GET http://h/x?t={{$timestamp -1 d}}\n', 'a.http:1', 'has no k6 equivalent'],
    [
      'a multipart part from a file',
      'POST http://h/x\nContent-Type: multipart/form-data; boundary=B\n\n--B\nContent-Disposition: form-data; name="f"; filename="a.txt"\n\n< ./a.txt\n--B--\n',
      'a.http:4',
      'multipart part read from a file',
    ],
  ])('refuses %s before writing anything', async (_what, text, where, message) => {
    const dir = workspace({ 'a.http': text });
    const result = await runCli(['export', 'k6', 'a.http', '-o', 'load.js'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`error[E_INPUT] ${where}: cannot export to k6:`);
    expect(result.stderr).toContain(message);
    expect(() => readFileSync(join(dir, 'load.js'))).toThrow();
  });

  it('leaves @skip requests out with a warning', async () => {
    const dir = workspace({ 'a.http': '# @skip flaky\nGET http://h/x\n\n###\nGET http://h/y\n' });
    const result = await runCli(['export', 'k6', 'a.http'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("warning: a.http:2: 'GET /x' is @skip, left out");
    expect(result.stdout).not.toContain('http://h/x"');
    expect(result.stdout).toContain('"url": "http://h/y"');
  });
});
