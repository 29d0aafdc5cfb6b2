import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/workspace');
let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.setHeader('x-request-id', 'req-42');
    if (request.url.endsWith('/login')) {
      response.end(JSON.stringify({ token: 'tok-e2e-secret' }));
      return;
    }
    response.end(
      JSON.stringify({
        url: request.url,
        authorization: request.headers.authorization ?? null,
        apiKey: request.headers['x-api-key'] ?? null,
      }),
    );
  });
});
afterAll(() => server.close());

function workspace(): string {
  const root = tempDir('dial-send-file-');
  cpSync(FIXTURE, root, { recursive: true });
  // Like the fixture's `widget` but over HTTP/1.1 (these tests are about variables, not the engine's HTTP/2).
  writeFileSync(
    join(root, 'keyed.http'),
    '### keyed\n# @name keyed\nGET {{base}}/widgets/{{firstId}}\nX-Api-Key: {{apiKey}}\n',
  );
  return root;
}

describe('dial send FILE.http#name', () => {
  it('runs the referenced login first, then sends the named request', async () => {
    const root = workspace();
    const before = server.requests.length;
    const result = await runCli(['send', 'rest-client.rest#profile', '-e', 'dev', '--var', `host=${server.url}`], {
      cwd: root,
    });
    // The dependency is announced: what it is, where it goes, and what it answered.
    expect(result.stderr).toBe(
      `dial: first sending 'login', which 'profile' references: POST ${server.url}/v1/login (environment dev)\ndial: 'login' answered HTTP 200 OK\n`,
    );
    expect(result.code).toBe(0);
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /v1/login', 'GET /v1/me']);
    expect(server.requests.at(-1)!.headers.authorization).toBe('Bearer tok-e2e-secret');
    expect(JSON.parse(result.stdout)).toMatchObject({ url: '/v1/me', authorization: 'Bearer tok-e2e-secret' });
  });

  it('FILE:LINE picks the request around that line', async () => {
    const root = workspace();
    const result = await runCli(['send', 'rest-client.rest:33', '-e', 'dev', '--var', `host=${server.url}`], {
      cwd: root,
    });
    expect(result.code).toBe(0);
    expect(server.requests.at(-1)).toMatchObject({ method: 'DELETE', url: '/v1/items/2' });
    // A line past the end of the file names no request: nothing is sent.
    const sent = server.requests.length;
    const past = await runCli(['send', 'rest-client.rest:9999', '-e', 'dev', '--var', `host=${server.url}`], {
      cwd: root,
    });
    expect(past.code).toBe(3);
    expect(past.stderr).toMatch(/error\[E_NOT_FOUND\]: rest-client\.rest has \d+ lines; there is no line 9999/);
    expect(server.requests.length).toBe(sent);
  });

  it('remembers the environment of the workspace for the next send', async () => {
    const root = workspace();
    const configDir = tempDir('dial-config-');
    expect(
      (
        await runCli(['send', 'keyed.http#keyed', '-e', 'dev', '--var', `host=${server.url}`, '--var', 'firstId=1'], {
          cwd: root,
          configDir,
        })
      ).code,
    ).toBe(0);
    const again = await runCli(['send', 'keyed.http#keyed', '--var', `host=${server.url}`, '--var', 'firstId=2'], {
      cwd: root,
      configDir,
    });
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    // base comes from the dev environment: only resolvable when dev was remembered
    expect(server.requests.at(-1)!.url).toBe('/v1/widgets/2');
    const env = await runCli(['env'], { cwd: root, configDir });
    expect(env.stdout).toContain('dev (last used)');
  });

  it('an unresolved variable exits 3 naming it, the request and where it looked; nothing is sent', async () => {
    const root = workspace();
    // No `dev` or `default` environment: those would be taken as kulala's default (next test).
    const envFile = join(root, 'http-client.env.json');
    writeFileSync(envFile, readFileSync(envFile, 'utf8').replace('"dev"', '"local"'));
    const before = server.requests.length;
    const result = await runCli(['send', 'jetbrains.http#widget', '--var', `host=${server.url}`], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `error[E_VAR_UNDEFINED] ${join(root, 'jetbrains.http')}:39:5: variable 'base' is not defined (request 'widget' at jetbrains.http:39)`,
    );
    expect(result.stderr).toContain('  | GET {{base}}/widgets/{{firstId}} HTTP/2\n  |     ^');
    expect(result.stderr).toContain('select one with -e local');
    expect(result.stderr).toContain('looked in: --var');
    expect(server.requests.length).toBe(before);
  });

  it("with no environment chosen, a name only `dev` defines comes from it (kulala's default), with a warning", async () => {
    const root = workspace();
    const before = server.requests.length;
    const result = await runCli(
      ['send', 'keyed.http#keyed', '--var', `host=${server.url}`, '--var', 'firstId=7', '--var', 'apiKey=k'],
      { cwd: root },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "keyed.http:3: no environment chosen: names only environment 'dev' defines ('base' first) are taken from it, as kulala does",
    );
    expect(result.stderr).toContain('choose the environment with -e dev');
    expect(server.requests.slice(before).map((request) => request.url)).toEqual(['/v1/widgets/7']);
  });

  it('a header injection through a variable exits 3 and sends nothing', async () => {
    const root = workspace();
    writeFileSync(join(root, 'inject.http'), `### evil\nGET ${server.url}/x\nX-Evil: {{v}}\n`);
    const before = server.requests.length;
    const result = await runCli(['send', 'inject.http#evil', '--var', 'v=a\r\nInjected: yes'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('error[E_HEADER_INJECTION]');
    expect(server.requests.length).toBe(before);
  });

  it('an unknown name exits 3 listing the requests; several requests without a TTY is a usage error', async () => {
    const root = workspace();
    const missing = await runCli(['send', 'rest-client.rest#nope'], { cwd: root });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain("no request named 'nope' in rest-client.rest");
    expect(missing.stderr).toContain('requests: login, profile, page, #4 DELETE {{baseUrl}}/items/{{page}}');
    const several = await runCli(['send', 'rest-client.rest'], { cwd: root });
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('rest-client.rest holds 4 requests; name one');
  });

  it('a @prompt variable without a TTY needs --var', async () => {
    const root = workspace();
    const result = await runCli(['send', 'jetbrains.http#scripted', '-e', 'dev'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("no value for @prompt variable 'otp'");
    expect(result.stderr).toContain('--var otp=');
  });

  it('secrets are masked in history', async () => {
    const root = workspace();
    const configDir = tempDir('dial-config-');
    const sent = await runCli(
      ['send', 'keyed.http#keyed', '-e', 'dev', '--var', `host=${server.url}`, '--var', 'firstId=3'],
      { cwd: root, configDir },
    );
    expect(sent.code).toBe(0);
    // the API key (private $shared value) reached the server; the response echoes it, masked when printed
    expect(server.requests.at(-1)!.headers['x-api-key']).toBe('shared-api-key-123');
    expect(JSON.parse(sent.stdout)).toMatchObject({ apiKey: '••••' });
    const history = await runCli(['history', 'show', '1'], { cwd: root, configDir });
    expect(history.code).toBe(0);
    expect(history.stdout).toContain('X-Api-Key: ••••');
    expect(history.stdout).not.toContain('shared-api-key-123');
  });
});
