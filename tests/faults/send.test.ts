/**
 * Fault cases of `dial send` itself: a dependency request is never sent unseen, an error
 * status in a pipe is never silent, a silent stdin never hangs, `--no-mask` is the one way to
 * print credentials, a downgrade is warned about, and a failed download clobbers nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIAL_BIN, runCli, tempDir } from '../helpers/cli.js';
import { startHttpsServer, startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';
import { outsideGuard } from './helpers.js';

let server: TestServer & { requests: RecordedRequest[] };
beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    if (request.url === '/login') {
      response.setHeader('content-type', 'application/json');
      return response.end('{"token":"tok-123456"}');
    }
    if (request.url === '/status/500') {
      response.statusCode = 500;
      return response.end('boom');
    }
    if (request.url === '/plain') return response.end('ok');
    if (request.url === '/broken') {
      // Headers and part of a body, then the connection drops.
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': '1000' });
      response.write('partial');
      setTimeout(() => response.socket?.destroy(), 20);
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        url: request.url,
        auth: request.headers.authorization ?? null,
        body: request.body.toString('utf8'),
      }),
    );
  });
});
afterAll(() => server.close());

function workspace(): string {
  const root = tempDir('dial-fault-');
  writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ prod: { host: server.url } }));
  writeFileSync(
    join(root, 'api.http'),
    '### Log in\n# @name login\nPOST {{host}}/login\n\n### Who am I\n# @name me\nGET {{host}}/me\nAuthorization: Bearer {{login.response.body.$.token}}\n',
  );
  return root;
}

interface HistoryLine {
  requestId?: string;
  exchange: { request: { method: string; url: string } };
}

function historyLines(configDir: string): HistoryLine[] {
  const path = join(configDir, 'history.jsonl');
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as HistoryLine)
    : [];
}

describe('fault: dial send', () => {
  it('announces a dependency request on stderr before and after it goes, and records it in history', async () => {
    const root = workspace();
    const configDir = tempDir('dial-config-');
    const guard = outsideGuard();
    const before = server.requests.length;
    const result = await runCli(['send', 'api.http#me', '-e', 'prod'], { cwd: root, configDir });
    expect(result.code).toBe(0);
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /login', 'GET /me']);
    expect(result.stderr).toContain(
      `dial: first sending 'login', which 'me' references: POST ${server.url}/login (environment prod)\n`,
    );
    expect(result.stderr).toContain("dial: 'login' answered HTTP 200 OK\n");
    expect(JSON.parse(result.stdout).auth).toBe('Bearer tok-123456');
    expect(
      historyLines(configDir).map(
        (entry) => `${entry.requestId} ${entry.exchange.request.method} ${entry.exchange.request.url}`,
      ),
    ).toEqual([`api.http#login POST ${server.url}/login`, `api.http#me GET ${server.url}/me`]);
    guard.assertUntouched();
  });

  it('--no-deps refuses to send the dependency: E_INPUT naming both requests, nothing sent', async () => {
    const root = workspace();
    const before = server.requests.length;
    const result = await runCli(['send', 'api.http#me', '-e', 'prod', '--no-deps'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /error\[E_INPUT\] .*api\.http:3: 'me' needs request 'login' to run first, and dependencies are turned off/,
    );
    expect(server.requests.length).toBe(before);
  });

  it('an error status in a pipe prints its status line on stderr; --check-status still exits 1', async () => {
    const plain = await runCli(['send', `${server.url}/status/500`]);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('boom');
    expect(plain.stderr).toBe('HTTP 500 Internal Server Error\n');
    const checked = await runCli(['send', '--check-status', `${server.url}/status/500`]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toMatch(/^error\[E_HTTP_STATUS\]: HTTP 500 Internal Server Error/);
    const quiet = await runCli(['send', '-q', `${server.url}/status/500`]);
    expect(quiet.stderr).toBe('');
  });

  it('a stdin that stays open without data ends with E_TIMEOUT after --timeout, sending nothing; -I sends at once', async () => {
    const before = server.requests.length;
    const child = spawn(process.execPath, [DIAL_BIN, 'send', '--timeout', '1s', `${server.url}/post`], {
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdin.destroy();
    expect(code).toBe(4);
    expect(stderr).toContain('error[E_TIMEOUT]: no data on stdin within 1s');
    expect(stderr).toContain('--ignore-stdin');
    expect(server.requests.length).toBe(before);

    const ignoring = spawn(process.execPath, [DIAL_BIN, 'send', '-I', `${server.url}/get`], {
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const ignoringCode = await new Promise<number | null>((resolve) => ignoring.on('close', resolve));
    ignoring.stdin.destroy();
    expect(ignoringCode).toBe(0);
    expect(server.requests.at(-1)?.url).toBe('/get');
  });

  it('masks credential headers in -v output unless --no-mask is given', async () => {
    const masked = await runCli([
      'send',
      '-v',
      `${server.url}/plain`,
      'X-Api-Key:sk-live-123456789',
      'Authorization:Bearer abc-secret-token',
    ]);
    expect(masked.code).toBe(0);
    expect(masked.stdout).not.toContain('sk-live-123456789');
    expect(masked.stdout).not.toContain('abc-secret-token');
    const shown = await runCli([
      'send',
      '-v',
      '--no-mask',
      `${server.url}/plain`,
      'X-Api-Key:sk-live-123456789',
      'Authorization:Bearer abc-secret-token',
    ]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('X-Api-Key: sk-live-123456789');
    expect(shown.stdout).toContain('Authorization: Bearer abc-secret-token');
  });

  it('warns when a redirect goes from https to http, and drops the credentials', async () => {
    const https = await startHttpsServer((_, response) => {
      response.writeHead(302, { location: `${server.url}/me` });
      response.end();
    });
    try {
      const result = await runCli([
        'send',
        '--verify',
        'no',
        '--follow',
        `${https.url}/start`,
        'Authorization:Bearer abc-secret-token',
      ]);
      expect(result.code).toBe(0);
      expect(result.stderr).toMatch(/warning: .*https.*http/i);
      expect(JSON.parse(result.stdout).auth).toBeNull();
    } finally {
      await https.close();
    }
  });

  it('a download that fails midway leaves no half file, and -o keeps what the file held', async () => {
    const dir = tempDir('dial-fault-');
    writeFileSync(join(dir, 'out.bin'), 'old content');
    const overwrite = await runCli(['send', '-o', 'out.bin', `${server.url}/broken`], { cwd: dir });
    expect(overwrite.code).toBe(4);
    expect(readFileSync(join(dir, 'out.bin'), 'utf8')).toBe('old content');
    const auto = await runCli(['send', '--download', `${server.url}/broken`], { cwd: dir });
    expect(auto.code).toBe(4);
    expect(readdirSync(dir).sort()).toEqual(['out.bin']);
  });
});

describe('dial send runs a .http request scripts as dial run does', () => {
  function scripted(handler: string): string {
    const root = tempDir('dial-fault-');
    writeFileSync(
      join(root, 'api.http'),
      `### scripted\n< {%\n  request.variables.set('who', 'ada');\n  client.log('pre ran');\n%}\nGET ${server.url}/me?who={{who}}\n\n> {%\n${handler}\n%}\n`,
    );
    return root;
  }

  it('the pre-request script sets a variable, the handler logs and tests on stderr', async () => {
    const root = scripted(
      '  client.log("status " + response.status);\n  client.test("echoes", () => client.assert(response.body.url === "/me?who=ada", "wrong url"));',
    );
    const before = server.requests.length;
    const result = await runCli(['send', 'api.http'], { cwd: root });
    expect(result.code).toBe(0);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/me?who=ada']);
    expect(result.stderr).toBe('pre ran\nstatus 200\n✓ echoes\n');
  });

  it('a failing client.test exits 1 (E_TEST_FAILED) after the response is printed', async () => {
    const root = scripted('  client.test("is 201", () => client.assert(response.status === 201, "expected 201"));');
    const result = await runCli(['send', 'api.http'], { cwd: root });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).url).toBe('/me?who=ada');
    expect(result.stderr).toContain('✗ is 201');
    expect(result.stderr).toContain('error[E_TEST_FAILED]: 1 script test failed');
  });

  it('--no-scripts runs none (the variable the pre-request script sets is then undefined)', async () => {
    const root = scripted('  client.log("handler ran");');
    const before = server.requests.length;
    const result = await runCli(['send', '--no-scripts', 'api.http'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("variable 'who' is not defined");
    expect(server.requests.length).toBe(before);
  });

  it('a script that needs Node is refused before anything is sent', async () => {
    const root = scripted("  const fs = require('fs');");
    const before = server.requests.length;
    const result = await runCli(['send', 'api.http'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      /error\[E_SCRIPT\] .*api\.http:9: the script loads 'fs', which needs Node access; nothing was sent/,
    );
    expect(server.requests.length).toBe(before);
  });
});
