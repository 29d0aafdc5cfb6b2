/**
 * Credentials by pattern: headers whose names say they carry a credential are masked in history
 * and -v, and dropped when a redirect leaves the origin (scheme + host + port), including an
 * https -> http downgrade on the same host and port, which also warns.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { sendRequest } from '../../src/core/http/index.js';
import { isSensitiveHeader, maskHeaders } from '../../src/core/secrets.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { generateCertificate, startRecordingServer, type RecordedRequest } from '../helpers/servers.js';
import { outsideGuard } from './helpers.js';

const CREDENTIALS: Array<[string, string]> = [
  ['Authorization', 'Bearer tok-auth-1234'],
  ['X-Api-Key', 'xapikey-5678'],
  ['Api-Key', 'apikey-9012'],
  ['X-Auth-Token', 'xauthtoken-3456'],
  ['PRIVATE-TOKEN', 'privtoken-7890'],
  ['X-Session-Id', 'session-2468'],
  ['Cookie', 'sid=cookie-1357'],
  ['X-Client-Secret', 'clientsecret-8642'],
];

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** https and plain http on ONE port (the first byte tells a TLS handshake apart), recording what arrives over http. */
async function dualServer(): Promise<{ port: number; plain: RecordedRequest[] }> {
  const certificate = await generateCertificate();
  const plain: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const http = createHttpServer((request, response) => {
    plain.push({
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      rawHeaders: request.rawHeaders,
      body: Buffer.alloc(0),
    });
    response.end('landed');
  });
  let port = 0;
  const https = createHttpsServer({ cert: certificate.cert, key: certificate.key }, (_request, response) => {
    response.writeHead(302, { Location: `http://127.0.0.1:${port}/landed` });
    response.end();
  });
  const front: NetServer = createNetServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.once('readable', () => {
      const first = socket.read(1) as Buffer | null;
      if (!first) return;
      socket.unshift(first);
      (first[0] === 0x16 ? https : http).emit('connection', socket);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  port = (front.address() as AddressInfo).port;
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        front.close(() => resolve());
      }),
  );
  return { port, plain };
}

describe('fault: credentials by pattern', () => {
  it('the one list: names matching auth|token|key|secret|session|cookie|password, not challenges or pseudo-headers', () => {
    for (const [name] of CREDENTIALS) expect(isSensitiveHeader(name), name).toBe(true);
    for (const name of ['Set-Cookie', 'X-Password', 'proxy-authorization'])
      expect(isSensitiveHeader(name), name).toBe(true);
    for (const name of ['Content-Type', 'Accept', 'WWW-Authenticate', ':authority', 'Keep-Alive', 'X-Request-Id'])
      expect(isSensitiveHeader(name), name).toBe(false);
    expect(
      maskHeaders([
        ['X-Api-Key', 'v'],
        ['Accept', '*/*'],
      ]),
    ).toEqual([
      ['X-Api-Key', '••••'],
      ['Accept', '*/*'],
    ]);
  });

  it('a redirect from https://h:P to http://h:P drops every credential and warns', async () => {
    const { port, plain } = await dualServer();
    const warnings: string[] = [];
    const exchange = await sendRequest(
      {
        method: 'GET',
        url: `https://127.0.0.1:${port}/start`,
        headers: [...CREDENTIALS, ['X-Plain', 'kept']],
        body: { kind: 'none' },
      },
      {
        followRedirects: true,
        timeoutMs: 5000,
        env: {},
        tls: { verify: false },
        onWarning: (message) => warnings.push(message),
      },
    );
    expect(exchange.response.status).toBe(200);
    expect(plain).toHaveLength(1);
    const sent = plain[0].headers;
    for (const [name] of CREDENTIALS) expect(sent[name.toLowerCase()], name).toBeUndefined();
    expect(sent['x-plain']).toBe('kept');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/https to plain http/);
  });

  it('a redirect to another origin drops custom credential headers; the same origin keeps them', async () => {
    const target = await startRecordingServer();
    closers.push(() => target.close());
    const origin = await startRecordingServer((request, response) => {
      response.writeHead(302, { Location: request.url === '/same' ? '/here' : `${target.url}/elsewhere` });
      response.end();
    });
    closers.push(() => origin.close());
    const headers = [...CREDENTIALS, ['X-Plain', 'kept']] as Array<[string, string]>;
    await sendRequest(
      { method: 'GET', url: `${origin.url}/away`, headers, body: { kind: 'none' } },
      { followRedirects: true, timeoutMs: 5000, env: {} },
    );
    expect(target.requests).toHaveLength(1);
    for (const [name] of CREDENTIALS) expect(target.requests[0].headers[name.toLowerCase()], name).toBeUndefined();
    expect(target.requests[0].headers['x-plain']).toBe('kept');
    await sendRequest(
      { method: 'GET', url: `${origin.url}/same`, headers, body: { kind: 'none' } },
      { followRedirects: true, timeoutMs: 5000, env: {} },
    );
    const same = origin.requests.find((r) => r.url === '/here');
    expect(same?.headers['x-api-key']).toBe('xapikey-5678');
  });

  it('dial send: history and -v mask every credential header; the server gets the real values', async () => {
    const guard = outsideGuard();
    const server = await startRecordingServer();
    closers.push(() => server.close());
    const configDir = tempDir('dial-config-');
    const args = ['send', '-v', `${server.url}/creds`, ...CREDENTIALS.map(([name, value]) => `${name}:${value}`)];
    const result = await runCli(args, { configDir });
    expect(result.code).toBe(0);
    expect(server.requests[0].headers['x-api-key']).toBe('xapikey-5678');
    const history = readFileSync(join(configDir, 'history.jsonl'), 'utf8');
    // -v prints the request and response heads first; the body after them is the server's echo, printed as received.
    const heads = result.stdout.slice(0, result.stdout.indexOf('\n{'));
    expect(heads).toMatch(/X-Api-Key: ••••/);
    expect(heads).toMatch(/Authorization: Bearer ••••/);
    for (const [name, value] of CREDENTIALS) {
      const secret = value.replace(/^Bearer |^sid=/, '');
      expect(history, name).not.toContain(secret);
      expect(heads, name).not.toContain(secret);
      expect(result.stderr, name).not.toContain(secret);
    }
    expect(history).toMatch(/X-Api-Key/);
    guard.assertUntouched();
  });

  it('dial run: reports of a failed request mask every credential header', async () => {
    const server = await startRecordingServer();
    closers.push(() => server.close());
    const dir = tempDir('dial-fault-');
    writeFileSync(
      join(dir, 'api.http'),
      [
        `### creds`,
        `GET ${server.url}/creds`,
        ...CREDENTIALS.map(([name, value]) => `${name}: ${value}`),
        '',
        '?? status == 201',
        '',
      ].join('\n'),
    );
    const result = await runCli(
      [
        'run',
        'api.http',
        '--reporter',
        'pretty',
        '--reporter',
        'json:report.json',
        '--reporter',
        'junit:junit.xml',
        '--output-failed',
        '-v',
      ],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    expect(server.requests[0].headers['private-token']).toBe('privtoken-7890');
    const report = readFileSync(join(dir, 'report.json'), 'utf8') + readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(report).toMatch(/PRIVATE-TOKEN/i);
    for (const [name, value] of CREDENTIALS) {
      const secret = value.replace(/^Bearer |^sid=/, '');
      expect(report, name).not.toContain(secret);
      expect(result.stdout + result.stderr, name).not.toContain(secret);
    }
  });

  it('dial run: an https -> http redirect warns on stderr and sends no credential in clear', async () => {
    const { port, plain } = await dualServer();
    const dir = tempDir('dial-fault-');
    writeFileSync(
      join(dir, 'api.http'),
      `GET https://127.0.0.1:${port}/start\nAuthorization: Bearer tok-auth-1234\nX-Api-Key: xapikey-5678\n\n?? status == 200\n`,
    );
    const result = await runCli(['run', '-k', 'api.http'], { cwd: dir });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /warning: redirect from https to plain http: https:\/\/127\.0\.0\.1:\d+\/start -> http:\/\/127\.0\.0\.1:\d+\/landed/,
    );
    expect(plain).toHaveLength(1);
    expect(plain[0].headers.authorization).toBeUndefined();
    expect(plain[0].headers['x-api-key']).toBeUndefined();
  });
});
