import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { deflateRawSync } from 'node:zlib';
import {
  closeConnections,
  createCookieJar,
  releaseBody,
  sendRequest,
  type Exchange,
  type HttpRequest,
  type SendOptions,
} from '../../../src/core/http/index.js';
import { startEchoServer, type EchoServer } from '../../../src/core/echo/server.js';
import { startHttpServer, startRecordingServer, type TestServer } from '../../helpers/servers.js';
import { tempDir } from '../../helpers/cli.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

let echo: EchoServer;
const noProxy: SendOptions = { env: {} };

beforeAll(async () => {
  echo = await startEchoServer({ port: 0 });
});
afterAll(async () => {
  closeConnections();
  await echo.close();
});

function get(url: string, extra: Partial<HttpRequest> = {}): HttpRequest {
  return { method: 'GET', url, headers: [], body: { kind: 'none' }, ...extra };
}

function text(exchange: Exchange): string {
  const body = exchange.response.body;
  if (body.kind !== 'memory') throw new Error(`expected an in-memory body, got ${body.kind}`);
  return body.bytes.toString('utf8');
}

function json(exchange: Exchange): Record<string, any> {
  return JSON.parse(text(exchange)) as Record<string, any>;
}

describe('sendRequest: request as sent', () => {
  it('sends default headers and records them, with timings', async () => {
    const exchange = await sendRequest(get(`${echo.url}/get?a=1&a=2&b=x`), noProxy);
    expect(exchange.response.status).toBe(200);
    expect(exchange.response.statusText).toBe('OK');
    expect(exchange.response.httpVersion).toBe('1.1');
    const names = exchange.request.headers.map(([name]) => name);
    expect(names).toEqual(expect.arrayContaining(['Host', 'User-Agent', 'Accept', 'Accept-Encoding']));
    expect(exchange.request.headers.find(([n]) => n === 'User-Agent')?.[1]).toMatch(/^dial\//);
    const body = json(exchange);
    expect(body.args).toEqual({ a: ['1', '2'], b: 'x' });
    expect(body.headers.Host).toBe(new URL(echo.url).host);
    expect(body.headers['Accept-Encoding']).toBe('gzip, deflate, br');
    expect(exchange.response.remoteAddress).toBe('127.0.0.1');
    expect(exchange.response.remotePort).toBe(echo.port);
    expect(exchange.response.size).toBe(Buffer.byteLength(text(exchange)));
    const { timings } = exchange;
    expect(timings.total).toBeGreaterThan(0);
    expect(timings.total).toBeGreaterThanOrEqual(timings.firstByte);
    expect(timings.firstByte).toBeGreaterThan(0);
    expect(timings.dns).toBe(0); // an IP address: no lookup
    expect(exchange.redirects).toEqual([]);
  });

  it('keeps user headers (and a user Accept-Encoding) as given', async () => {
    const exchange = await sendRequest(
      get(`${echo.url}/headers`, {
        headers: [
          ['X-Custom', 'yes'],
          ['accept-encoding', 'identity'],
          ['User-Agent', 'me/1'],
        ],
      }),
      noProxy,
    );
    const headers = json(exchange).headers as Record<string, string>;
    expect(headers['X-Custom']).toBe('yes');
    expect(headers['accept-encoding']).toBe('identity');
    expect(headers['Accept-Encoding']).toBeUndefined();
    expect(headers['User-Agent']).toBe('me/1');
  });

  it('reuses keep-alive connections: the second request has no connect phase', async () => {
    await sendRequest(get(`${echo.url}/get`), noProxy);
    const second = await sendRequest(get(`${echo.url}/get`), noProxy);
    expect(second.timings.connect).toBe(0);
  });

  it('times DNS for a host name', async () => {
    const exchange = await sendRequest(get(`http://localhost:${echo.port}/get`), { env: {} });
    expect(exchange.response.status).toBe(200);
    expect(exchange.timings.dns).toBeGreaterThanOrEqual(0);
    expect(exchange.timings.total).toBeGreaterThanOrEqual(exchange.timings.firstByte);
  });
});

describe('sendRequest: request bodies', () => {
  it('text body with Content-Length and a preview', async () => {
    const exchange = await sendRequest(
      {
        method: 'POST',
        url: `${echo.url}/post`,
        headers: [['Content-Type', 'application/json']],
        body: { kind: 'text', text: '{"a":1}' },
      },
      noProxy,
    );
    const body = json(exchange);
    expect(body.json).toEqual({ a: 1 });
    expect(body.headers['Content-Length']).toBe('7');
    expect(exchange.request.bodyPreview).toBe('{"a":1}');
    expect(exchange.request.bodySize).toBe(7);
  });

  it('bytes body; binary preview is a placeholder', async () => {
    const server = await startRecordingServer();
    try {
      const bytes = new Uint8Array([0, 1, 2, 255, 0]);
      const exchange = await sendRequest(
        { method: 'PUT', url: `${server.url}/b`, headers: [], body: { kind: 'bytes', bytes } },
        noProxy,
      );
      expect(server.requests[0].body).toEqual(Buffer.from(bytes));
      expect(exchange.request.bodyPreview).toBe('[binary data, 5 bytes]');
      expect(exchange.request.bodySize).toBe(5);
    } finally {
      await server.close();
    }
  });

  it('file body is streamed with Content-Length from stat and a guessed Content-Type', async () => {
    const dir = tempDir();
    const path = join(dir, 'data.json');
    const content = JSON.stringify({ big: 'x'.repeat(200_000) });
    writeFileSync(path, content);
    const server = await startRecordingServer();
    try {
      const exchange = await sendRequest(
        { method: 'POST', url: `${server.url}/f`, headers: [], body: { kind: 'file', path } },
        noProxy,
      );
      expect(exchange.response.status).toBe(200);
      expect(server.requests[0].body.toString()).toBe(content);
      expect(server.requests[0].headers['content-length']).toBe(String(Buffer.byteLength(content)));
      expect(server.requests[0].headers['content-type']).toBe('application/json');
      expect(exchange.request.bodyPreview?.length).toBe(64 * 1024);
    } finally {
      await server.close();
    }
  });

  it('a missing body file is E_INPUT', async () => {
    const error = await dialErrorOf(
      sendRequest(
        { method: 'POST', url: `${echo.url}/post`, headers: [], body: { kind: 'file', path: '/nonexistent/x.json' } },
        noProxy,
      ),
    );
    expect(error.code).toBe('E_INPUT');
    expect(error.message).toContain('/nonexistent/x.json');
  });

  it('stream body without length is sent chunked; with length, Content-Length', async () => {
    const server = await startRecordingServer();
    try {
      async function* chunks(): AsyncGenerator<Uint8Array> {
        yield Buffer.from('hello ');
        yield Buffer.from('world');
      }
      const chunked = await sendRequest(
        { method: 'POST', url: `${server.url}/s`, headers: [], body: { kind: 'stream', stream: chunks() } },
        noProxy,
      );
      expect(server.requests[0].body.toString()).toBe('hello world');
      expect(server.requests[0].headers['transfer-encoding']).toBe('chunked');
      expect(chunked.request.bodyPreview).toBe('hello world');
      expect(chunked.request.bodySize).toBe(11);
      await sendRequest(
        { method: 'POST', url: `${server.url}/s`, headers: [], body: { kind: 'stream', stream: chunks(), length: 11 } },
        noProxy,
      );
      expect(server.requests[1].headers['content-length']).toBe('11');
      expect(server.requests[1].headers['transfer-encoding']).toBeUndefined();
    } finally {
      await server.close();
    }
  });

  it('multipart: text fields and streamed file parts arrive intact', async () => {
    const dir = tempDir();
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'file content\nline 2');
    const exchange = await sendRequest(
      {
        method: 'POST',
        url: `${echo.url}/post`,
        headers: [],
        body: {
          kind: 'multipart',
          parts: [
            { name: 'title', value: 'héllo "quoted"' },
            { name: 'upload', filePath: file },
            { name: 'inline', value: '{"x":1}', filename: 'x.json' },
          ],
        },
      },
      noProxy,
    );
    const body = json(exchange);
    expect(body.form).toEqual({ title: 'héllo "quoted"' });
    expect(body.files).toEqual({ upload: 'file content\nline 2', inline: '{"x":1}' });
    const contentType = exchange.request.headers.find(([n]) => n === 'Content-Type')?.[1] ?? '';
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(Number(body.headers['Content-Length'])).toBe(exchange.request.bodySize);
    expect(exchange.request.bodyPreview).toContain('filename="notes.txt"');
    expect(exchange.request.bodyPreview).toContain('Content-Type: text/plain');
  });

  it('urlencoded form body reaches the echo form', async () => {
    const exchange = await sendRequest(
      {
        method: 'POST',
        url: `${echo.url}/post`,
        headers: [['Content-Type', 'application/x-www-form-urlencoded']],
        body: { kind: 'text', text: 'a=1&b=two' },
      },
      noProxy,
    );
    expect(json(exchange).form).toEqual({ a: '1', b: 'two' });
  });
});

describe('sendRequest: validation', () => {
  it('invalid URL is E_USAGE with a hint', async () => {
    const error = await dialErrorOf(sendRequest(get('not a url'), noProxy));
    expect(error.code).toBe('E_USAGE');
    expect(error.exitCode).toBe(2);
    expect(error.hint).toBeTruthy();
  });

  it('unsupported scheme is E_USAGE', async () => {
    expect((await dialErrorOf(sendRequest(get('ftp://example.com/x'), noProxy))).code).toBe('E_USAGE');
  });

  it('CR/LF in a header value, bad header names and CR/LF in the URL are E_HEADER_INJECTION', async () => {
    const value = await dialErrorOf(
      sendRequest(get(`${echo.url}/get`, { headers: [['X-A', 'ok\r\nEvil: 1']] }), noProxy),
    );
    expect(value.code).toBe('E_HEADER_INJECTION');
    expect(value.exitCode).toBe(3);
    const name = await dialErrorOf(sendRequest(get(`${echo.url}/get`, { headers: [['Bad Name', 'v']] }), noProxy));
    expect(name.code).toBe('E_HEADER_INJECTION');
    const url = await dialErrorOf(sendRequest(get(`${echo.url}/get\r\nX: y`), noProxy));
    expect(url.code).toBe('E_HEADER_INJECTION');
  });

  it('credentials in the URL become Basic auth and leave the URL', async () => {
    const exchange = await sendRequest(get(`http://ann:p%40ss@127.0.0.1:${echo.port}/basic-auth/ann/p@ss`), noProxy);
    expect(exchange.response.status).toBe(200);
    expect(exchange.request.url).toBe(`${echo.url}/basic-auth/ann/p@ss`);
    expect(exchange.request.headers.find(([name]) => name === 'Authorization')?.[1]).toBe(
      `Basic ${Buffer.from('ann:p@ss').toString('base64')}`,
    );
  });

  it('methods go out upper-cased', async () => {
    const exchange = await sendRequest(
      { method: 'post', url: `${echo.url}/post`, headers: [], body: { kind: 'text', text: 'x' } },
      noProxy,
    );
    expect(exchange.request.method).toBe('POST');
    expect(json(exchange).method).toBe('POST');
  });

  it('large response headers are accepted', async () => {
    const server = await startHttpServer((_request, response) => {
      response.setHeader('X-Big', 'v'.repeat(40_000));
      response.end('ok');
    });
    try {
      const exchange = await sendRequest(get(server.url), noProxy);
      expect(exchange.response.headers.find(([name]) => name === 'X-Big')?.[1]).toHaveLength(40_000);
    } finally {
      await server.close();
    }
  });

  it('custom token methods are allowed', async () => {
    const exchange = await sendRequest(
      { method: 'PURGE', url: `${echo.url}/anything`, headers: [], body: { kind: 'none' } },
      noProxy,
    );
    expect(json(exchange).method).toBe('PURGE');
  });
});

describe('sendRequest: redirects', () => {
  let server: TestServer;
  const seen: Array<{
    method: string;
    url: string;
    body: string;
    headers: Record<string, string | string[] | undefined>;
  }> = [];
  beforeAll(async () => {
    server = await startHttpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({
          method: request.method ?? '',
          url: request.url ?? '',
          body: Buffer.concat(chunks).toString(),
          headers: request.headers,
        });
        const match = /^\/r(\d{3})$/.exec(request.url ?? '');
        if (match) {
          response.writeHead(Number(match[1]), { Location: '/final' });
          response.end('redirecting');
          return;
        }
        if (request.url === '/cross') {
          response.writeHead(302, { Location: `http://localhost:${server.port}/final` });
          response.end();
          return;
        }
        if (request.url === '/loop') {
          response.writeHead(302, { Location: '/loop' });
          response.end();
          return;
        }
        response.end(`final ${request.method}`);
      });
    });
  });
  afterAll(() => server.close());

  const cases: Array<[number, string, string, boolean]> = [
    [301, 'POST', 'GET', false],
    [302, 'POST', 'GET', false],
    [303, 'POST', 'GET', false],
    [303, 'PUT', 'GET', false],
    [307, 'POST', 'POST', true],
    [308, 'PUT', 'PUT', true],
    [301, 'GET', 'GET', false],
    [302, 'HEAD', 'HEAD', false],
  ];
  for (const [status, method, expectedMethod, keepsBody] of cases) {
    it(`${status} on ${method} -> ${expectedMethod}${keepsBody ? ' with body' : ''}`, async () => {
      seen.length = 0;
      const hops: unknown[] = [];
      const hasBody = method !== 'GET' && method !== 'HEAD';
      const exchange = await sendRequest(
        {
          method,
          url: `${server.url}/r${status}`,
          headers: hasBody ? [['Content-Type', 'text/plain']] : [],
          body: hasBody ? { kind: 'text', text: 'payload' } : { kind: 'none' },
        },
        { ...noProxy, followRedirects: true, onRedirect: (hop) => hops.push(hop) },
      );
      expect(exchange.response.status).toBe(200);
      expect(exchange.response.url).toBe(`${server.url}/final`);
      expect(seen[1].method).toBe(expectedMethod);
      expect(seen[1].body).toBe(keepsBody ? 'payload' : '');
      if (hasBody && !keepsBody) {
        expect(seen[1].headers['content-type']).toBeUndefined();
        expect(seen[1].headers['content-length']).toBeUndefined();
      }
      expect(exchange.request.method).toBe(expectedMethod);
      expect(exchange.redirects).toEqual([
        { status, from: `${server.url}/r${status}`, to: `${server.url}/final`, method: expectedMethod },
      ]);
      expect(hops).toEqual(exchange.redirects);
    });
  }

  it('does not follow unless asked', async () => {
    const exchange = await sendRequest(get(`${server.url}/r302`), noProxy);
    expect(exchange.response.status).toBe(302);
    expect(text(exchange)).toBe('redirecting');
    expect(exchange.redirects).toEqual([]);
  });

  it('stops after maxRedirects with E_TOO_MANY_REDIRECTS (exit 4)', async () => {
    seen.length = 0;
    const error = await dialErrorOf(
      sendRequest(get(`${server.url}/loop`), { ...noProxy, followRedirects: true, maxRedirects: 3 }),
    );
    expect(error.code).toBe('E_TOO_MANY_REDIRECTS');
    expect(error.exitCode).toBe(4);
    expect(seen.length).toBe(4);
  });

  it('follows the echo /redirect/:n chain and the default limit of 10', async () => {
    const exchange = await sendRequest(get(`${echo.url}/redirect/3`), { ...noProxy, followRedirects: true });
    expect(exchange.redirects).toHaveLength(3);
    expect(exchange.response.url).toBe(`${echo.url}/get`);
    expect(
      (await dialErrorOf(sendRequest(get(`${echo.url}/redirect/11`), { ...noProxy, followRedirects: true }))).code,
    ).toBe('E_TOO_MANY_REDIRECTS');
    expect(
      (await sendRequest(get(`${echo.url}/redirect/10`), { ...noProxy, followRedirects: true })).response.status,
    ).toBe(200);
  });

  it('never forwards Authorization, Proxy-Authorization or Cookie to another host', async () => {
    seen.length = 0;
    const exchange = await sendRequest(
      get(`${server.url}/cross`, {
        headers: [
          ['Authorization', 'Bearer secret'],
          ['Proxy-Authorization', 'Basic x'],
          ['Cookie', 'sid=1'],
          ['X-Keep', 'yes'],
        ],
      }),
      { ...noProxy, followRedirects: true },
    );
    expect(exchange.response.status).toBe(200);
    expect(seen[0].headers.authorization).toBe('Bearer secret');
    expect(seen[0].headers.cookie).toBe('sid=1');
    expect(seen[1].headers.host).toBe(`localhost:${server.port}`);
    expect(seen[1].headers.authorization).toBeUndefined();
    expect(seen[1].headers['proxy-authorization']).toBeUndefined();
    expect(seen[1].headers.cookie).toBeUndefined();
    expect(seen[1].headers['x-keep']).toBe('yes');
    expect(exchange.request.headers.some(([name]) => name.toLowerCase() === 'authorization')).toBe(false);
  });

  it('keeps Authorization on a same-host redirect', async () => {
    seen.length = 0;
    await sendRequest(get(`${server.url}/r302`, { headers: [['Authorization', 'Bearer secret']] }), {
      ...noProxy,
      followRedirects: true,
    });
    expect(seen[1].headers.authorization).toBe('Bearer secret');
  });

  it('a 307 with a one-shot stream body cannot be replayed: E_INPUT with a hint', async () => {
    async function* once(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('data');
    }
    const error = await dialErrorOf(
      sendRequest(
        { method: 'POST', url: `${server.url}/r307`, headers: [], body: { kind: 'stream', stream: once() } },
        { ...noProxy, followRedirects: true },
      ),
    );
    expect(error.code).toBe('E_INPUT');
    expect(error.hint).toContain('file');
  });
});

describe('sendRequest: decoding', () => {
  for (const route of ['gzip', 'deflate', 'brotli']) {
    it(`decodes /${route}`, async () => {
      const exchange = await sendRequest(get(`${echo.url}/${route}`), noProxy);
      const body = json(exchange);
      expect(body[route === 'gzip' ? 'gzipped' : route === 'deflate' ? 'deflated' : 'brotli']).toBe(true);
      expect(exchange.response.size).toBe(Buffer.byteLength(text(exchange)));
    });
  }

  it('decodes raw deflate too, and leaves bodies encoded when decompress is false', async () => {
    const payload = 'raw deflate payload '.repeat(50);
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'Content-Encoding': 'deflate' });
      response.end(deflateRawSync(payload));
    });
    try {
      expect(text(await sendRequest(get(server.url), noProxy))).toBe(payload);
      const raw = await sendRequest(get(server.url), { ...noProxy, decompress: false });
      const body = raw.response.body;
      expect(body.kind === 'memory' && body.bytes.equals(deflateRawSync(payload))).toBe(true);
      expect(raw.request.headers.some(([name]) => name === 'Accept-Encoding')).toBe(false);
    } finally {
      await server.close();
    }
  });

  it('an empty gzip body (HEAD) is fine', async () => {
    const exchange = await sendRequest(
      { method: 'HEAD', url: `${echo.url}/gzip`, headers: [], body: { kind: 'none' } },
      noProxy,
    );
    expect(exchange.response.status).toBe(200);
    expect(exchange.response.size).toBe(0);
  });

  it('a body that does not match its Content-Encoding is E_NETWORK', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'Content-Encoding': 'gzip' });
      response.end('this is not gzip');
    });
    try {
      const error = await dialErrorOf(sendRequest(get(server.url), noProxy));
      expect(error.code).toBe('E_NETWORK');
      expect(error.message).toContain('decode');
    } finally {
      await server.close();
    }
  });
});

describe('sendRequest: timeouts, cancellation and transport errors', () => {
  it('total timeout is E_TIMEOUT with a --timeout hint', async () => {
    const started = performance.now();
    const error = await dialErrorOf(sendRequest(get(`${echo.url}/delay/5`), { ...noProxy, timeoutMs: 200 }));
    expect(error.code).toBe('E_TIMEOUT');
    expect(error.exitCode).toBe(4);
    expect(error.hint).toContain('--timeout');
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('timeout also covers a slow body', async () => {
    const error = await dialErrorOf(
      sendRequest(get(`${echo.url}/sse?count=50&interval=100`), { ...noProxy, timeoutMs: 300 }),
    );
    expect(error.code).toBe('E_TIMEOUT');
  });

  it('cancellation via AbortSignal is E_CANCELLED (exit 130)', async () => {
    const controller = new AbortController();
    const pending = sendRequest(get(`${echo.url}/delay/5`), { ...noProxy, signal: controller.signal });
    setImmediate(() => controller.abort());
    const error = await dialErrorOf(pending);
    expect(error.code).toBe('E_CANCELLED');
    expect(error.exitCode).toBe(130);
    const already = new AbortController();
    already.abort();
    expect((await dialErrorOf(sendRequest(get(`${echo.url}/get`), { ...noProxy, signal: already.signal }))).code).toBe(
      'E_CANCELLED',
    );
  });

  it('connection refused is E_CONNREFUSED with a hint', async () => {
    const port = await deadPort();
    const error = await dialErrorOf(sendRequest(get(`http://127.0.0.1:${port}/x`), noProxy));
    expect(error.code).toBe('E_CONNREFUSED');
    expect(error.exitCode).toBe(4);
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(error.hint).toContain('server running');
    expect(error.cause).toBeTruthy();
  });

  it('DNS failure is E_DNS naming the host', async () => {
    const error = await dialErrorOf(sendRequest(get('http://no-such-host.invalid/x'), noProxy));
    expect(error.code).toBe('E_DNS');
    expect(error.message).toContain('no-such-host.invalid');
  });

  it('a reset connection is E_CONNRESET', async () => {
    const server = await startHttpServer((request) => request.socket.destroy());
    try {
      const error = await dialErrorOf(sendRequest(get(server.url), noProxy));
      expect(error.code).toBe('E_CONNRESET');
    } finally {
      await server.close();
    }
  });

  it('connect timeout is E_TIMEOUT', async () => {
    // A listening socket with a full backlog never completes the handshake; instead use a
    // server that accepts TCP but is never a TLS peer, with https and a tiny connect limit.
    const tcp: Server = createServer(() => {});
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as { port: number }).port;
    try {
      const error = await dialErrorOf(
        sendRequest(get(`https://127.0.0.1:${port}/`), { ...noProxy, connectTimeoutMs: 150, timeoutMs: 5000 }),
      );
      expect(error.code).toBe('E_TIMEOUT');
      expect(error.message).toContain('connect');
    } finally {
      tcp.close();
    }
  });
});

describe('sendRequest: body targets', () => {
  it("'stream' target receives the decoded body and is ended", async () => {
    const chunks: Buffer[] = [];
    let ended = false;
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        ended = true;
        callback();
      },
    });
    let seenStatus = 0;
    const exchange = await sendRequest(get(`${echo.url}/gzip`), {
      ...noProxy,
      bodyTarget: {
        kind: 'stream',
        open: (head) => {
          seenStatus = head.status;
          return sink;
        },
      },
    });
    expect(seenStatus).toBe(200);
    expect(ended).toBe(true);
    expect(JSON.parse(Buffer.concat(chunks).toString()).gzipped).toBe(true);
    expect(exchange.response.body).toEqual({ kind: 'streamed', size: Buffer.concat(chunks).length });
  });

  it("'stream' target returning null buffers instead", async () => {
    const exchange = await sendRequest(get(`${echo.url}/json`), {
      ...noProxy,
      bodyTarget: { kind: 'stream', open: () => null },
    });
    expect(json(exchange).slideshow.title).toBe('Sample Slide Show');
  });

  it('an in-memory limit spills the body to a temp file', async () => {
    const exchange = await sendRequest(get(`${echo.url}/bytes/100000?seed=abc`), {
      ...noProxy,
      bodyTarget: { kind: 'buffer', maxInMemoryBytes: 10_000 },
    });
    const body = exchange.response.body;
    expect(body.kind).toBe('file');
    if (body.kind !== 'file') return;
    expect(body.size).toBe(100_000);
    const { readFileSync, statSync, existsSync } = await import('node:fs');
    expect(statSync(body.path).size).toBe(100_000);
    const again = await sendRequest(get(`${echo.url}/bytes/100000?seed=abc`), noProxy);
    const memory = again.response.body;
    expect(memory.kind).toBe('memory');
    expect(memory.kind === 'memory' && memory.bytes.equals(readFileSync(body.path))).toBe(true);
    releaseBody(body);
    expect(existsSync(body.path)).toBe(false);
  });
});

describe('sendRequest: cookie jar', () => {
  it('stores cookies set during a redirect and sends them back', async () => {
    const jar = createCookieJar();
    const exchange = await sendRequest(get(`${echo.url}/cookies/set?session=abc&theme=dark`), {
      ...noProxy,
      followRedirects: true,
      cookieJar: jar,
    });
    expect(json(exchange).cookies).toEqual({ session: 'abc', theme: 'dark' });
    const next = await sendRequest(get(`${echo.url}/cookies`), { ...noProxy, cookieJar: jar });
    expect(json(next).cookies).toEqual({ session: 'abc', theme: 'dark' });
    expect(next.request.headers.find(([name]) => name === 'Cookie')?.[1]).toBe('session=abc; theme=dark');
    // Another host (localhost vs 127.0.0.1) does not get them.
    const other = await sendRequest(get(`http://localhost:${echo.port}/cookies`), { ...noProxy, cookieJar: jar });
    expect(json(other).cookies).toEqual({});
    await sendRequest(get(`${echo.url}/cookies/delete?session`), { ...noProxy, cookieJar: jar });
    expect(json(await sendRequest(get(`${echo.url}/cookies`), { ...noProxy, cookieJar: jar })).cookies).toEqual({
      theme: 'dark',
    });
  });

  it('without a jar no cookies are kept', async () => {
    const exchange = await sendRequest(get(`${echo.url}/cookies/set?a=1`), { ...noProxy, followRedirects: true });
    expect(json(exchange).cookies).toEqual({});
  });
});

/** A port nobody listens on: bind, read the port, close. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('sendRequest: broken servers', () => {
  it('a body cut short is E_CONNRESET', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'Content-Length': '100' });
      response.write('only half');
      setTimeout(() => response.socket?.destroy(), 20);
    });
    try {
      const error = await dialErrorOf(sendRequest(get(server.url), noProxy));
      expect(error.code).toBe('E_CONNRESET');
    } finally {
      await server.close();
    }
  });

  it('a non-HTTP answer is E_CONNRESET with a hint', async () => {
    const tcp: Server = createServer((socket) => socket.end('SSH-2.0-OpenSSH\r\n'));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const port = (tcp.address() as { port: number }).port;
    try {
      const error = await dialErrorOf(sendRequest(get(`http://127.0.0.1:${port}/`), noProxy));
      expect(error.code).toBe('E_CONNRESET');
      expect(error.hint).toBeTruthy();
    } finally {
      tcp.close();
    }
  });

  it('https:// to a plain HTTP port is E_TLS', async () => {
    const error = await dialErrorOf(sendRequest(get(`https://127.0.0.1:${echo.port}/get`), noProxy));
    expect(error.code).toBe('E_TLS');
  });
});
