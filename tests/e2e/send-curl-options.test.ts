/**
 * `dial send --curl` keeps the options that change what is sent or how: --proxy (-x),
 * --timeout (--max-time), --max-redirects (--max-redirs), --cacert/--cert/--key, -k and
 * --http2; `dial export curl` gets the settings that apply (timeout, proxy, verifyTls,
 * maxRedirects) and a request's # @timeout. The commands run through the real curl.
 */
import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestProxy, type TestProxy } from '../helpers/proxy.js';
import {
  readBody,
  startHttpsServer,
  startRecordingServer,
  type RecordedRequest,
  type TestServer,
} from '../helpers/servers.js';

const hasCurl = spawnSync('curl', ['--version']).status === 0 && spawnSync('bash', ['-c', 'true']).status === 0;

let server: TestServer & { requests: RecordedRequest[] };
let https: Awaited<ReturnType<typeof startHttpsServer>>;
const httpsSeen: RecordedRequest[] = [];
let proxy: TestProxy;
let dir: string;

beforeAll(async () => {
  server = await startRecordingServer();
  https = await startHttpsServer(async (request, response) => {
    httpsSeen.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      rawHeaders: request.rawHeaders,
      body: await readBody(request),
    });
    response.end('ok');
  });
  proxy = await startTestProxy();
  dir = tempDir('dial-curl-options-');
});

afterAll(async () => {
  await Promise.all([server.close(), https.close(), proxy.close()]);
});

/** Runs a printed command with Bash, with no proxy from the environment. */
async function runBash(command: string): Promise<void> {
  const env = { ...process.env };
  for (const name of ['http_proxy', 'https_proxy', 'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'all_proxy'])
    delete env[name];
  await new Promise<void>((done, fail) => {
    const child = spawn('bash', ['-c', `${command.trim()} -s -o /dev/null`], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`bash/curl exited ${code}: ${stderr}`))));
  });
}

/** Headers that describe the request (not the client's connection habits). */
function sameRequest(request: RecordedRequest) {
  const { headers } = request;
  return {
    method: request.method,
    url: request.url,
    body: request.body.toString('utf8'),
    contentType: headers['content-type'],
    userAgent: headers['user-agent'],
    accept: headers.accept,
    token: headers['x-token'],
  };
}

describe('dial send --curl: transport options', () => {
  it('prints each option as its curl flag, quoted for the shell', async () => {
    const result = await runCli(
      [
        'send',
        '--curl',
        '--proxy',
        "http://127.0.0.1:3128/it's",
        '--timeout',
        '2500ms',
        '--max-redirects',
        '3',
        '--follow',
        '--cacert',
        'my ca.pem',
        '--cert',
        'client.pem',
        '--key',
        'client key.pem',
        '--insecure',
        '--http2',
        'https://example.com/x',
        'a=1',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.split(' \\\n  ');
    expect(lines[0]).toBe("curl -L 'https://example.com/x'");
    expect(lines).toEqual(
      expect.arrayContaining([
        '--http2',
        '-k',
        "--cacert './my ca.pem'",
        "--cert './client.pem'",
        "--key './client key.pem'",
        "-x 'http://127.0.0.1:3128/it'\\''s'",
        '--max-time 2.5',
        '--max-redirs 3',
      ]),
    );
    expect(result.stderr).toContain('TLS certificate verification is off (--insecure)');
  });

  it("--verify no is -k; --timeout 0 and curl's own redirect limit add nothing; --max-redirs only with -L", async () => {
    const verifyNo = await runCli(['send', '--curl', '--verify', 'no', 'https://example.com/x'], { cwd: dir });
    expect(verifyNo.stdout).toContain(' \\\n  -k');
    const none = await runCli(
      ['send', '--curl', '--timeout', '0', '--max-redirects', '50', '-F', 'https://example.com/x'],
      { cwd: dir },
    );
    expect(none.stdout).not.toMatch(/--max-time|--max-redirs/);
    const noFollow = await runCli(['send', '--curl', '--max-redirects', '2', 'https://example.com/x'], { cwd: dir });
    expect(noFollow.stdout).not.toContain('--max-redirs');
    // A path with a colon: curl would read `file:password` in --cert.
    const colon = await runCli(['send', '--curl', '--cert', '/tmp/a:b.pem', 'https://example.com/x'], { cwd: dir });
    expect(colon.stdout).toContain("--cert '/tmp/a\\:b.pem'");
  });

  it('settings apply: timeout, proxy, verifyTls and maxRedirects, overridden by flags', async () => {
    const configDir = tempDir('dial-config-');
    for (const [key, value] of [
      ['timeout', '5s'],
      ['proxy', 'http://127.0.0.1:3128'],
      ['verifyTls', 'false'],
      ['maxRedirects', '4'],
    ]) {
      expect((await runCli(['config', 'set', key, value], { configDir })).code).toBe(0);
    }
    const fromSettings = await runCli(['send', '--curl', '-F', 'https://example.com/x'], { cwd: dir, configDir });
    const settingLines = fromSettings.stdout.trimEnd().split(' \\\n  ');
    expect(settingLines.slice(0, 5)).toEqual([
      "curl -L 'https://example.com/x'",
      '-k',
      "-x 'http://127.0.0.1:3128'",
      '--max-time 5',
      '--max-redirs 4',
    ]);
    const flags = await runCli(
      [
        'send',
        '--curl',
        '-F',
        '--timeout',
        '1s',
        '--max-redirects',
        '2',
        '--proxy',
        'http://127.0.0.1:9',
        '--verify',
        'yes',
        'https://example.com/x',
      ],
      { cwd: dir, configDir },
    );
    expect(flags.stdout).toContain("-x 'http://127.0.0.1:9'");
    expect(flags.stdout).toContain('--max-time 1 ');
    expect(flags.stdout).toContain('--max-redirs 2');
    expect(flags.stdout).not.toContain('-k');

    // export curl: the same settings, and a request's # @timeout.
    writeFileSync(
      join(dir, 'api.http'),
      [
        '# @name slow',
        '# @timeout 1500ms',
        'GET https://example.com/slow',
        '',
        '###',
        '# @name plain',
        'GET https://example.com/plain',
        '',
      ].join('\n'),
    );
    const exported = await runCli(['export', 'curl', 'api.http#slow'], { cwd: dir, configDir });
    expect(exported.code).toBe(0);
    expect(exported.stdout).toBe(
      "curl -L 'https://example.com/slow' \\\n  -k \\\n  -x 'http://127.0.0.1:3128' \\\n  --max-time 1.5 \\\n  --max-redirs 4\n",
    );
    const sent = await runCli(['send', '--curl', 'api.http#slow'], { cwd: dir, configDir });
    expect(sent.stdout).toBe(exported.stdout);
    // With default settings, the defaults (30 s, 10 redirects) are not spelled out.
    expect((await runCli(['export', 'curl', 'api.http#plain'], { cwd: dir })).stdout).toBe(
      "curl -L 'https://example.com/plain'\n",
    );
  });

  it.runIf(hasCurl)('the --proxy command goes through the proxy and sends what dial sends', async () => {
    const url = `${server.url}/via?q=1`;
    const items = ['name=Ann', 'X-Token:t1'];
    const before = server.requests.length;
    const seenBefore = proxy.seen.length;
    const printed = await runCli(['send', '--curl', '--proxy', proxy.url, url, ...items], { cwd: dir });
    expect(printed.stdout).toContain(`-x '${proxy.url}'`);
    await runBash(printed.stdout);
    const viaCurl = server.requests.slice(before);
    expect(viaCurl).toHaveLength(1);
    expect(proxy.seen.slice(seenBefore)).toEqual([url]);

    const sentBefore = server.requests.length;
    const proxySeenBefore = proxy.seen.length;
    expect((await runCli(['send', '--proxy', proxy.url, url, ...items], { cwd: dir })).code).toBe(0);
    const viaDial = server.requests.slice(sentBefore);
    expect(viaDial).toHaveLength(1);
    expect(proxy.seen.length).toBeGreaterThan(proxySeenBefore);
    expect(sameRequest(viaCurl[0])).toEqual(sameRequest(viaDial[0]));
    expect(sameRequest(viaCurl[0])).toMatchObject({
      method: 'POST',
      url: '/via?q=1',
      body: '{"name":"Ann"}',
      contentType: 'application/json',
      token: 't1',
    });
  });

  it.runIf(hasCurl)('-k and --cacert reach a self-signed HTTPS server as dial does', async () => {
    const url = `${https.url}/secure`;
    for (const tlsFlags of [['-k'], ['--cacert', https.certificate.certPath]]) {
      const before = httpsSeen.length;
      const printed = await runCli(['send', '--curl', ...tlsFlags, 'PUT', url, 'X-Token:s1', 'n:=2'], { cwd: dir });
      expect(printed.code).toBe(0);
      await runBash(printed.stdout);
      expect((await runCli(['send', ...tlsFlags, 'PUT', url, 'X-Token:s1', 'n:=2'], { cwd: dir })).code).toBe(0);
      const [viaCurl, viaDial] = httpsSeen.slice(before);
      expect(sameRequest(viaCurl)).toEqual(sameRequest(viaDial));
      expect(sameRequest(viaCurl)).toMatchObject({ method: 'PUT', url: '/secure', body: '{"n":2}', token: 's1' });
    }
    // Without either, curl refuses the self-signed certificate: the flag is what made it work.
    const plain = await runCli(['send', '--curl', url], { cwd: dir });
    await expect(runBash(plain.stdout)).rejects.toThrow(/exited 60/);
  });
});
