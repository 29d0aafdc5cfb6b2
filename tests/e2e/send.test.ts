/**
 * `dial send` end to end: the built CLI against real loopback servers. Assertions are on
 * what the server received, on stdout/stderr and on exit codes (DESIGN §8).
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, rmSync } from 'node:fs';
import { connect as netConnect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAL_BIN, runCli, stripAnsi, tempDir } from '../helpers/cli.js';
import { startHttpServer, startHttpsServer, startRecordingServer, type TestServer } from '../helpers/servers.js';

type Recording = Awaited<ReturnType<typeof startRecordingServer>>;

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI inside a real pseudo-terminal (util-linux `script`), so stdout is a TTY. */
function runInTerminal(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; output: string }> {
  const command = [process.execPath, DIAL_BIN, ...args].map(quote).join(' ');
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    DIAL_CONFIG_DIR: tempDir('dial-config-'),
    NO_COLOR: undefined,
    FORCE_COLOR: undefined,
    CI: undefined,
    ...env,
  };
  for (const key of Object.keys(childEnv)) if (childEnv[key] === undefined) delete childEnv[key];
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: childEnv as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.replace(/\r\n/g, '\n') }));
  });
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let echo: Recording;
const files = tempDir('dial-send-files-');
writeFileSync(join(files, 'bio.txt'), 'likes tea');
writeFileSync(join(files, 'meta.json'), '{"z":1.0,"a":[true]}');
writeFileSync(join(files, 'token.txt'), 'tok-42\n');
writeFileSync(join(files, 'payload.xml'), '<hello/>');
writeFileSync(join(files, 'avatar.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));

beforeAll(async () => {
  echo = await startRecordingServer();
});
afterAll(async () => {
  await echo.close();
});

const last = () => echo.requests[echo.requests.length - 1];

describe('dial send: request items reach the server', () => {
  it('JSON fields, nested keys, raw JSON, files, query and headers', async () => {
    const result = await runCli(
      [
        'send',
        `${echo.url}/users`,
        'name=Ann',
        'age:=30',
        'ratio:=1.50',
        'a[b][0]=x',
        'tags[]=p',
        'meta:=@meta.json',
        'bio=@bio.txt',
        'q==a b',
        'f==@token.txt',
        'X-Token:abc',
        'X-File:@token.txt',
        'X-Empty;',
        'key\\:with\\:colons=v',
      ],
      { cwd: files },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const seen = last();
    expect(seen.method).toBe('POST');
    expect(seen.url).toBe('/users?q=a%20b&f=tok-42%0A');
    expect(seen.body.toString()).toBe(
      '{"name":"Ann","age":30,"ratio":1.50,"a":{"b":["x"]},"tags":["p"],"meta":{"z":1.0,"a":[true]},"bio":"likes tea","key:with:colons":"v"}',
    );
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers.accept).toBe('application/json, */*;q=0.5');
    expect(seen.headers['x-token']).toBe('abc');
    expect(seen.headers['x-file']).toBe('tok-42');
    expect(seen.headers['x-empty']).toBe('');
  });

  it('a top-level array, a method given in lower case, and `--` before item-like arguments', async () => {
    const result = await runCli(['send', 'put', `${echo.url}/list`, '--', '[]:=1', '[]:=2']);
    expect(result.code).toBe(0);
    expect(last().method).toBe('PUT');
    expect(last().body.toString()).toBe('[1,2]');
  });

  it('GET with no data; a header item can drop a default header (Content-Type)', async () => {
    await runCli(['send', `${echo.url}/plain`]);
    expect(last().method).toBe('GET');
    expect(last().body.length).toBe(0);
    await runCli(['send', `${echo.url}/plain`, 'a=1', 'Content-Type:']);
    expect(last().headers['content-type']).toBeUndefined();
    // The engine's own defaults go too, as in HTTPie.
    await runCli(['send', `${echo.url}/plain`, 'User-Agent:', 'Accept-Encoding:']);
    expect(last().headers['user-agent']).toBeUndefined();
    expect(last().headers['accept-encoding']).toBeUndefined();
    expect(last().headers.accept).toBe('*/*');
  });

  it('--form sends urlencoded fields', async () => {
    const result = await runCli(['send', '--form', `${echo.url}/form`, 'a=1 2', 'b=@bio.txt'], { cwd: files });
    expect(result.code).toBe(0);
    expect(last().headers['content-type']).toBe('application/x-www-form-urlencoded; charset=utf-8');
    expect(last().body.toString()).toBe('a=1+2&b=likes+tea');
  });

  it('a file upload sends multipart with the file name, type and bytes', async () => {
    const result = await runCli(
      ['send', `${echo.url}/upload`, 'name=Ann', 'avatar@avatar.png', 'note@bio.txt;type=text/x-note'],
      { cwd: files },
    );
    expect(result.code).toBe(0);
    const type = last().headers['content-type'] ?? '';
    expect(type).toMatch(/^multipart\/form-data; boundary=/);
    const body = last().body;
    expect(body.toString('latin1')).toContain('Content-Disposition: form-data; name="name"\r\n\r\nAnn\r\n');
    expect(body.toString('latin1')).toContain('filename="avatar.png"\r\nContent-Type: image/png\r\n\r\n');
    expect(body.includes(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]))).toBe(true);
    expect(body.toString('latin1')).toContain('filename="bio.txt"\r\nContent-Type: text/x-note\r\n\r\nlikes tea\r\n');
  });

  it('bare @file is the whole body; piped stdin is the body; an empty pipe is no body', async () => {
    await runCli(['send', `${echo.url}/xml`, '@payload.xml'], { cwd: files });
    expect(last().method).toBe('POST');
    expect(last().headers['content-type']).toBe('application/xml');
    expect(last().body.toString()).toBe('<hello/>');

    await runCli(['send', `${echo.url}/stdin`], { input: '{"from":"stdin"}' });
    expect(last().method).toBe('POST');
    expect(last().headers['content-type']).toBe('application/json');
    expect(last().body.toString()).toBe('{"from":"stdin"}');

    await runCli(['send', `${echo.url}/ignored`, '--ignore-stdin'], { input: 'nope' });
    expect(last().method).toBe('GET');
    expect(last().body.length).toBe(0);
  });

  it('basic and bearer auth', async () => {
    await runCli(['send', `${echo.url}/basic`, '-a', 'ann:pw']);
    expect(last().headers.authorization).toBe(`Basic ${Buffer.from('ann:pw').toString('base64')}`);
    await runCli(['send', `${echo.url}/bearer`, '-a', 'tok', '-A', 'bearer']);
    expect(last().headers.authorization).toBe('Bearer tok');
  });
});

describe('dial send: digest auth', () => {
  it('answers the 401 challenge once (SHA-256, qop=auth) and the server accepts it', async () => {
    const realm = 'dial-test';
    const nonce = 'n0nce';
    const seen: string[] = [];
    const server = await startHttpServer((request, response) => {
      const header = request.headers.authorization;
      seen.push(header ?? '');
      if (!header) {
        response.writeHead(401, {
          'WWW-Authenticate': `Digest realm="${realm}", qop="auth", algorithm=SHA-256, nonce="${nonce}", opaque="op"`,
        });
        response.end('no');
        return;
      }
      // Verify independently of dial's code (RFC 7616 §3.4.1).
      const params = Object.fromEntries(
        [...header.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]+))/g)].map((m) => [m[1], m[2] ?? m[3]]),
      );
      const h = (text: string) => createHash('sha256').update(text).digest('hex');
      const expected = h(
        `${h(`ann:${realm}:secret`)}:${nonce}:${params.nc}:${params.cnonce}:auth:${h(`GET:${params.uri}`)}`,
      );
      response.writeHead(params.response === expected && params.uri === '/private?x=1' ? 200 : 403, {
        'content-type': 'text/plain',
      });
      response.end(params.response === expected ? 'welcome' : 'bad digest');
    });
    try {
      const result = await runCli(['send', `${server.url}/private?x=1`, '-a', 'ann:secret', '--auth-type', 'digest']);
      expect(result.stdout).toBe('welcome');
      expect(result.code).toBe(0);
      expect(seen).toHaveLength(2);
      expect(seen[1]).toMatch(/^Digest username="ann", realm="dial-test"/);

      // The same from a .http file's `Authorization: Digest user password` convention.
      const dir = tempDir();
      writeFileSync(
        join(dir, 'auth.http'),
        `### private\nGET ${server.url}/private?x=1\nAuthorization: Digest ann secret\n`,
      );
      const fromFile = await runCli(['send', 'auth.http#private'], { cwd: dir });
      expect(fromFile.stderr).toBe('');
      expect(fromFile.stdout).toBe('welcome');
      expect(fromFile.code).toBe(0);
      expect(seen).toHaveLength(4);
      expect(seen[2]).toBe('');
    } finally {
      await server.close();
    }
  });
});

describe('dial send: redirects', () => {
  let server: TestServer;
  const seen: Array<{ url: string; auth?: string; host?: string }> = [];
  beforeAll(async () => {
    server = await startHttpServer((request, response) => {
      seen.push({ url: request.url ?? '', auth: request.headers.authorization, host: request.headers.host });
      const port = server.port;
      if (request.url === '/cross') {
        response.writeHead(302, { location: `http://localhost:${port}/final` });
        response.end();
      } else if (request.url === '/same') {
        response.writeHead(301, { location: '/final' });
        response.end();
      } else if (request.url === '/loop') {
        response.writeHead(302, { location: '/loop' });
        response.end();
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"final":true}');
      }
    });
  });
  afterAll(() => server.close());

  it('does not follow by default; --check-status warns about the unfollowed redirect', async () => {
    seen.length = 0;
    const result = await runCli(['send', '--check-status', `${server.url}/same`]);
    expect(result.code).toBe(0);
    expect(seen.map((s) => s.url)).toEqual(['/same']);
    expect(result.stderr).toContain('HTTP 301 Moved Permanently: redirect to /final not followed (add --follow)');
  });

  it('--follow keeps Authorization on the same host and drops it for another host (127.0.0.1 -> localhost)', async () => {
    seen.length = 0;
    const same = await runCli(['send', '--follow', `${server.url}/same`, 'Authorization:Bearer s3cret']);
    expect(same.stdout).toBe('{"final":true}');
    expect(seen.map((s) => [s.url, s.auth])).toEqual([
      ['/same', 'Bearer s3cret'],
      ['/final', 'Bearer s3cret'],
    ]);

    seen.length = 0;
    const cross = await runCli(['send', '--follow', `${server.url}/cross`, '-a', 'ann:pw']);
    expect(cross.code).toBe(0);
    expect(cross.stdout).toBe('{"final":true}');
    expect(seen.map((s) => s.url)).toEqual(['/cross', '/final']);
    expect(seen[0].auth).toMatch(/^Basic /);
    expect(seen[1].host).toBe(`localhost:${server.port}`);
    expect(seen[1].auth).toBeUndefined();
  });

  it('--max-redirects bounds a loop (exit 4)', async () => {
    const result = await runCli(['send', '--follow', '--max-redirects', '3', `${server.url}/loop`]);
    expect(result.code).toBe(4);
    expect(result.stderr).toContain('error[E_TOO_MANY_REDIRECTS]');
  });
});

describe('dial send: response decoding and output', () => {
  let server: TestServer;
  const json = '{"b":1,"a":[1.50,"x"],"z":null}';
  beforeAll(async () => {
    server = await startHttpServer((request, response) => {
      if (request.url === '/gzip') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync(json));
      } else if (request.url === '/br') {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'br' });
        response.end(brotliCompressSync(json));
      } else if (request.url === '/binary') {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.from([0, 1, 2, 250]));
      } else if (request.url === '/missing') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end('{"error":"not found"}');
      } else if (request.url === '/error') {
        response.writeHead(503, { 'content-type': 'text/plain' });
        response.end('down');
      } else {
        response.writeHead(200, { 'content-type': 'application/json', 'x-custom': 'yes' });
        response.end(json);
      }
    });
  });
  afterAll(() => server.close());

  it('decodes gzip and br; a pipe gets exactly the decoded bytes', async () => {
    for (const path of ['/gzip', '/br']) {
      const result = await runCli(['send', `${server.url}${path}`]);
      expect(result.code).toBe(0);
      expect(result.stdout).toBe(json);
    }
  });

  it('binary bodies go to a pipe byte for byte', async () => {
    const child = spawn(process.execPath, [DIAL_BIN, 'send', `${server.url}/binary`], {
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([0, 1, 2, 250]));
  });

  it('on a terminal: coloured status line and headers, pretty JSON in its original key order', async () => {
    const result = await runInTerminal(['send', `${server.url}/json`]);
    expect(result.code).toBe(0);
    expect(result.output).toContain('\x1b[32m200 OK\x1b[0m');
    expect(result.output).toContain('\x1b[36mx-custom\x1b[0m: yes');
    const plain = stripAnsi(result.output);
    expect(plain).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(plain).toContain('\n\n{\n    "b": 1,\n    "a": [\n        1.50,\n        "x"\n    ],\n    "z": null\n}\n');
  });

  it('on a terminal, binary bodies are replaced by a note', async () => {
    const result = await runInTerminal(['send', `${server.url}/binary`]);
    expect(stripAnsi(result.output)).toContain('| NOTE: binary data not shown in terminal |');
  });

  it('NO_COLOR and --no-color turn colour off on a terminal, formatting stays', async () => {
    for (const run of [
      runInTerminal(['send', `${server.url}/json`], { NO_COLOR: '1' }),
      runInTerminal(['--no-color', 'send', `${server.url}/json`]),
    ]) {
      const result = await run;
      expect(result.output).not.toContain('\x1b[');
      expect(result.output).toContain('HTTP/1.1 200 OK');
      expect(result.output).toContain('    "b": 1,');
    }
  });

  it('in a pipe only the body is printed; -p and -v choose the parts', async () => {
    const pipe = await runCli(['send', `${server.url}/json`]);
    expect(pipe.stdout).toBe(json);
    const heads = await runCli(['send', '-p', 'Hh', `${server.url}/json`]);
    expect(heads.stdout).toMatch(/^GET \/json HTTP\/1\.1\nHost: 127\.0\.0\.1:\d+\n/);
    expect(heads.stdout).toContain('\n\nHTTP/1.1 200 OK\n');
    expect(heads.stdout).not.toContain('"b"');
    const verbose = await runCli(['send', '-v', `${server.url}/json`, 'x=1']);
    expect(verbose.stdout).toContain('POST /json HTTP/1.1');
    expect(verbose.stdout).toContain('{"x":"1"}');
    expect(verbose.stdout).toContain('HTTP/1.1 200 OK');
    expect(verbose.stdout).toContain(json);
    expect(verbose.stdout).toMatch(/Elapsed time: \d/);
  });

  it('exit codes: 0, 1 with --check-status on 4xx/5xx, 2 for a usage error, 3 for invalid input, 4 for transport', async () => {
    expect((await runCli(['send', `${server.url}/missing`])).code).toBe(0);
    const missing = await runCli(['send', '--check-status', `${server.url}/missing`]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('{"error":"not found"}');
    expect(missing.stderr).toContain('error[E_HTTP_STATUS]: HTTP 404 Not Found');
    expect((await runCli(['send', '--check-status', `${server.url}/error`])).code).toBe(1);
    const unknown = await runCli(['send', '--no-such-flag', `${server.url}/json`]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown option '--no-such-flag'");
    const badItem = await runCli(['send', `${server.url}/json`, 'not-an-item']);
    expect(badItem.code).toBe(2);
    const badJson = await runCli(['send', `${server.url}/json`, 'n:=[1,']);
    // An item is an argument: bad JSON in it, or items disagreeing on the body's shape, exit 2 with a hint.
    expect(badJson.code).toBe(2);
    expect(badJson.stderr).toContain("error[E_USAGE]: 'n:=[1,': invalid JSON");
    expect(badJson.stderr).toContain('hint: quote the value for your shell');
    const notJson = await runCli(['send', '--offline', `${server.url}/json`, 'a:=notjson']);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain("error[E_USAGE]: 'a:=notjson': invalid JSON");
    const mixed = await runCli(['send', '--offline', `${server.url}/json`, '[]:=1', 'a=1']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain("error[E_USAGE]: 'a=1': the body is an array, so it cannot be used as an object");
    expect(mixed.stderr).toContain('hint: each nested key must agree');
    // A file an item names that cannot be read stays invalid input (exit 3).
    const missingFile = await runCli(['send', '--offline', `${server.url}/json`, 'field=@missing-file.txt']);
    expect(missingFile.code).toBe(3);
    expect(missingFile.stderr).toContain('error[E_NOT_FOUND]');
    const refused = await runCli(['send', `http://127.0.0.1:${await closedPort()}/x`]);
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain('error[E_CONNREFUSED]');
  });
});

describe('dial send: timeouts and TLS', () => {
  it('a server that never answers times out (exit 4)', async () => {
    const server = await startHttpServer(() => {
      // Never respond.
    });
    try {
      const result = await runCli(['send', '--timeout', '300ms', `${server.url}/slow`]);
      expect(result.code).toBe(4);
      expect(result.stderr).toContain('error[E_TIMEOUT]');
    } finally {
      await server.close();
    }
  });

  it('a self-signed certificate fails (exit 4); --insecure (with a warning) and --cacert work', async () => {
    const server = await startHttpsServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end('secure hello');
    });
    try {
      const failed = await runCli(['send', `${server.url}/`]);
      expect(failed.code).toBe(4);
      expect(failed.stderr).toContain('error[E_TLS]');
      expect(failed.stderr).toContain('--insecure');

      const insecure = await runCli(['send', '--insecure', `${server.url}/`]);
      expect(insecure.code).toBe(0);
      expect(insecure.stdout).toBe('secure hello');
      expect(insecure.stderr).toContain('warning: TLS certificate verification is off (--insecure)');

      const trusted = await runCli([
        'send',
        '--cacert',
        server.certificate.certPath,
        `https://localhost:${server.port}/`,
      ]);
      expect(trusted.code).toBe(0);
      expect(trusted.stdout).toBe('secure hello');
      expect(trusted.stderr).toBe('');

      const viaVerify = await runCli(['send', '--verify', server.certificate.certPath, `${server.url}/`]);
      expect(viaVerify.stdout).toBe('secure hello');
    } finally {
      await server.close();
    }
  });
});

describe('dial send: --offline and --curl', () => {
  it('--offline prints the request and sends nothing', async () => {
    const before = echo.requests.length;
    const result = await runCli(['send', '--offline', `${echo.url}/users`, 'name=Ann', 'X-Api:1']);
    expect(result.code).toBe(0);
    expect(echo.requests.length).toBe(before);
    // The head as sent: the engine's defaults (Accept-Encoding, Connection, Content-Length) included.
    expect(result.stdout).toMatch(
      /^POST \/users HTTP\/1\.1\nHost: 127\.0\.0\.1:\d+\nAccept-Encoding: gzip, deflate, br\nConnection: keep-alive\nUser-Agent: dial\/[\w.-]+\nAccept: application\/json, \*\/\*;q=0\.5\nContent-Type: application\/json\nX-Api: 1\nContent-Length: 14\n\n\{"name":"Ann"\}$/,
    );
  });

  it('--offline on a terminal pretty-prints the request body', async () => {
    const result = await runInTerminal(['send', '--offline', ':9/x', 'b=1', 'a:=2']);
    expect(stripAnsi(result.output)).toContain('{\n    "b": "1",\n    "a": 2\n}');
  });

  it('--curl prints an equivalent curl command and sends nothing', async () => {
    const before = echo.requests.length;
    const result = await runCli(['send', '--curl', `${echo.url}/users`, 'name=Ann']);
    expect(result.code).toBe(0);
    expect(echo.requests.length).toBe(before);
    expect(result.stdout).toContain('curl');
    expect(result.stdout).toContain(`${echo.url}/users`);
    expect(result.stdout).toContain('{"name":"Ann"}');
  });
});

describe('dial send: downloads', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startHttpServer((request, response) => {
      if (request.url === '/evil') {
        response.writeHead(200, {
          'content-type': 'text/plain',
          'content-disposition': 'attachment; filename="../../escaped.txt"',
        });
        response.end('evil contents');
      } else if (request.url === '/files/report') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"report":1}');
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('no such file');
      }
    });
  });
  afterAll(() => server.close());

  it('--download names the file from Content-Disposition, inside the current folder only', async () => {
    const cwd = join(tempDir('dial-dl-'), 'inner');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(cwd);
    const result = await runCli(['send', '--download', `${server.url}/evil`], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(readFileSync(join(cwd, 'escaped.txt'), 'utf8')).toBe('evil contents');
    expect(existsSync(join(cwd, '..', 'escaped.txt'))).toBe(false);
    expect(result.stderr).toContain('Saved 13 B to escaped.txt');
    // A second download does not overwrite the first.
    await runCli(['send', '--download', `${server.url}/evil`], { cwd });
    expect(readdirSync(cwd).sort()).toEqual(['escaped.txt', 'escaped.txt-1']);
  });

  it('--download falls back to the URL name; -o writes where told; an error status saves nothing (exit 1)', async () => {
    const cwd = tempDir('dial-dl-');
    await runCli(['send', '-d', `${server.url}/files/report`], { cwd });
    expect(readFileSync(join(cwd, 'report.json'), 'utf8')).toBe('{"report":1}');
    await runCli(['send', '-o', 'out/../named.bin', `${server.url}/files/report`], { cwd });
    expect(readFileSync(join(cwd, 'named.bin'), 'utf8')).toBe('{"report":1}');
    const missing = await runCli(['send', '--download', `${server.url}/nothing`], { cwd });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('no such file');
    expect(readdirSync(cwd).sort()).toEqual(['named.bin', 'report.json']);
  });
});

describe('dial send: streaming', () => {
  it('text/event-stream is printed on a terminal as events arrive, one a line', async () => {
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      void released.then(() => response.end('data: second\n\n'));
    });
    try {
      const command = [process.execPath, DIAL_BIN, 'send', `${server.url}/sse`].map(quote).join(' ');
      const child = spawn('script', ['-qfec', command, '/dev/null'], {
        env: { ...process.env, DIAL_CONFIG_DIR: tempDir() },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      const sawFirst = new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (/data:(?:\x1b\[\d+m)* first/.test(output)) resolve();
        }),
      );
      const closed = new Promise((resolve) => child.on('close', resolve));
      await sawFirst;
      // The first event arrived while the response was still open.
      expect(output).not.toContain('second');
      release();
      expect(await closed).toBe(0);
      expect(output).toMatch(/data:(?:\x1b\[\d+m)* second/);
    } finally {
      await server.close();
    }
  });

  it('a 1 GiB response streams to a file with flat memory (< 150 MiB peak RSS)', async () => {
    const GiB = 1024 ** 3;
    const chunk = Buffer.alloc(1024 * 1024, 0x61);
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(GiB) });
      let sent = 0;
      const pump = (): void => {
        while (sent < GiB) {
          sent += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end();
      };
      pump();
    });
    const dir = tempDir('dial-big-');
    const out = join(dir, 'big.bin');
    try {
      const hasTime = existsSync('/usr/bin/time');
      const env: Record<string, string | undefined> = { ...process.env, DIAL_CONFIG_DIR: tempDir() };
      // NODE_EXTRA_CA_CERTS alone costs ~200 MiB RSS on these machines; it is not dial's memory.
      delete env.NODE_EXTRA_CA_CERTS;
      const args = [DIAL_BIN, 'send', '-o', out, `${server.url}/big`];
      const child = hasTime
        ? spawn('/usr/bin/time', ['-f', 'MAXRSS_KB=%M', process.execPath, ...args], {
            env: env as NodeJS.ProcessEnv,
            stdio: ['ignore', 'pipe', 'pipe'],
          })
        : spawn(process.execPath, args, { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
      const code = await new Promise((resolve) => child.on('close', resolve));
      expect(code, stderr).toBe(0);
      expect(statSync(out).size).toBe(GiB);
      if (hasTime) {
        const kb = Number(/MAXRSS_KB=(\d+)/.exec(stderr)?.[1]);
        expect(kb).toBeGreaterThan(0);
        expect(kb * 1024).toBeLessThan(150 * 1024 * 1024);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await server.close();
    }
  }, 180_000);
});

describe('dial send: proxy and progress', () => {
  it('--proxy (and the proxy setting) send through the proxy', async () => {
    const seen: string[] = [];
    const proxy = await startHttpServer((request, response) => {
      // Plain-HTTP forwarding of an absolute-URI request.
      seen.push(`${request.method} ${request.url}`);
      const upstream = httpRequest(
        request.url ?? '',
        { method: request.method, headers: request.headers },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(upstream);
    });
    proxy.server.on('connect', (request, socket, head) => {
      seen.push(`CONNECT ${request.url}`);
      const [host, port] = (request.url ?? '').split(':');
      const upstream = netConnect(Number(port), host, () => {
        socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(socket);
        socket.pipe(upstream);
      });
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    });
    try {
      const result = await runCli(['send', '--proxy', proxy.url, `${echo.url}/via-proxy`]);
      expect(result.code).toBe(0);
      expect(JSON.parse(result.stdout)).toMatchObject({ url: '/via-proxy' });
      expect(seen.length).toBeGreaterThan(0);
      expect(seen[0]).toMatch(/via-proxy|CONNECT 127\.0\.0\.1/);

      const configDir = tempDir('dial-config-');
      await runCli(['config', 'set', 'proxy', proxy.url], { configDir });
      seen.length = 0;
      expect((await runCli(['send', `${echo.url}/setting-proxy`], { configDir })).code).toBe(0);
      expect(seen.length).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });

  it('a download shows progress on a terminal stderr and the saved path', async () => {
    const dir = tempDir('dial-progress-');
    const result = await runInTerminal(['send', '-o', join(dir, 'out.json'), `${echo.url}/progress`]);
    expect(result.code).toBe(0);
    expect(result.output).toContain('Downloading');
    expect(result.output).toContain(`Saved`);
    expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'))).toMatchObject({ url: '/progress' });
  });
});

describe('dial send FILE.http', () => {
  it('sends a named request from a file with --var, prints it like any other and records its id', async () => {
    const dir = tempDir('dial-ws-');
    writeFileSync(
      join(dir, 'api.http'),
      `### list\n# @name list\nGET ${echo.url}/items?q={{term}}\nX-Trace: {{term}}\n\n### create\n# @name create\nPOST ${echo.url}/items\nContent-Type: application/json\n\n{"name": "{{term}}"}\n`,
    );
    const configDir = tempDir('dial-config-');
    const result = await runCli(['send', 'api.http#create', '--var', 'term=tea'], { cwd: dir, configDir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(last().method).toBe('POST');
    expect(last().body.toString()).toBe('{"name": "tea"}');
    expect(JSON.parse(result.stdout)).toMatchObject({ url: '/items' });

    const list = await runCli(['send', '-p', 'H', 'api.http#list', '--var', 'term=x'], { cwd: dir, configDir });
    expect(list.stdout).toMatch(/^GET \/items\?q=x HTTP\/1\.1\n/);
    const history = JSON.parse((await runCli(['history', 'list', '--json'], { configDir })).stdout) as Array<{
      requestId?: string;
      workspace?: string;
    }>;
    expect(history.map((entry) => entry.requestId)).toEqual(['api.http#list', 'api.http#create']);

    // Several requests, no name, not a terminal: a usage error naming them.
    const ambiguous = await runCli(['send', 'api.http'], { cwd: dir, configDir });
    expect(ambiguous.code).toBe(2);
  });
});

describe('dial send: interruption', () => {
  it('Ctrl+C (SIGINT) during an exchange exits 130 with E_CANCELLED', async () => {
    let arrived: () => void = () => {};
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const server = await startHttpServer(() => arrived());
    try {
      const child = spawn(process.execPath, [DIAL_BIN, 'send', `${server.url}/hang`], {
        env: { ...process.env, DIAL_CONFIG_DIR: tempDir() },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      await requestArrived;
      child.kill('SIGINT');
      expect(await closed).toBe(130);
      expect(stderr).toContain('error[E_CANCELLED]');
    } finally {
      await server.close();
    }
  });
});
