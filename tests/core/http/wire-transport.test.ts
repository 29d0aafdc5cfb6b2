// dial's HTTP/1.1 client for http:// URLs (src/core/http/wire-transport.ts) against bare TCP
// servers: what it reads must be what node:http reads from the same bytes, and its connections
// must be reused only when that is safe.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import http from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { closeConnections, sendRequest, type HttpRequest } from '../../../src/core/http/index.js';
import { isDialError } from '../../../src/core/errors.js';
import { startRawServer, type RawServer } from '../../helpers/raw-server.js';

afterEach(() => closeConnections());

/** A request with nothing but what the test says. */
function request(method: string, url: string, more: Partial<HttpRequest> = {}): HttpRequest {
  return { method, url, headers: [], body: { kind: 'none' }, ...more };
}

describe('the wire transport reads what node:http reads', () => {
  // The response each run serves, and the pieces it is written in.
  let wire: Buffer[] = [];
  let closeAfter = false;
  let target: RawServer;

  beforeAll(async () => {
    target = await startRawServer((_request, socket) => {
      const pieces = wire;
      const last = closeAfter;
      let index = 0;
      const next = (): void => {
        if (index < pieces.length) {
          socket.write(pieces[index++]);
          setImmediate(next);
        } else if (last) socket.end();
      };
      next();
    });
  });
  afterAll(() => target.close());

  const token = fc
    .stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,11}$/)
    .filter(
      (name) =>
        !/^(content-length|transfer-encoding|connection|keep-alive|content-encoding|set-cookie|location)$/i.test(name),
    );
  const value = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,20}[\x21-\x7e])?$/);
  const response = fc.record({
    status: fc.constantFrom(200, 201, 202, 204, 206, 304, 400, 404, 418, 500, 503),
    reason: fc.constantFrom('OK', 'Whatever', ''),
    interim: fc.boolean(),
    headers: fc.array(fc.tuple(token, value), { maxLength: 6 }),
    framing: fc.constantFrom('length', 'chunked', 'close'),
    // Mostly small bodies (taken whole), some past the 64 KiB the transport keeps without a stream.
    body: fc.oneof(
      { weight: 4, arbitrary: fc.uint8Array({ maxLength: 3000 }) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 60_000, maxLength: 140_000 }) },
    ),
    chunkSizes: fc.array(fc.oneof(fc.integer({ min: 1, max: 700 }), fc.integer({ min: 701, max: 40_000 })), {
      minLength: 1,
      maxLength: 5,
    }),
    cuts: fc.array(fc.integer({ min: 1, max: 150_000 }), { maxLength: 4 }),
  });

  type Spec = typeof response extends fc.Arbitrary<infer T> ? T : never;

  function encode(spec: Spec): { bytes: Buffer; close: boolean } {
    const body = Buffer.from(spec.body);
    const bodyless = spec.status === 204 || spec.status === 304;
    let head = spec.interim ? 'HTTP/1.1 100 Continue\r\n\r\n' : '';
    head += `HTTP/1.1 ${spec.status}${spec.reason ? ' ' + spec.reason : ''}\r\n`;
    for (const [name, text] of spec.headers) head += `${name}: ${text}\r\n`;
    let payload = bodyless ? Buffer.alloc(0) : body;
    if (spec.framing === 'length' || bodyless) head += `Content-Length: ${payload.length}\r\n`;
    else if (spec.framing === 'chunked') {
      head += 'Transfer-Encoding: chunked\r\n';
      const parts: Buffer[] = [];
      let at = 0;
      for (let i = 0; at < body.length; i++) {
        const size = spec.chunkSizes[i % spec.chunkSizes.length];
        const piece = body.subarray(at, at + size);
        parts.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
        at += size;
      }
      parts.push(Buffer.from('0\r\n\r\n'));
      payload = Buffer.concat(parts);
    } else head += 'Connection: close\r\n';
    return {
      bytes: Buffer.concat([Buffer.from(head + '\r\n', 'latin1'), payload]),
      close: spec.framing === 'close' && !bodyless,
    };
  }

  function cut(bytes: Buffer, cuts: number[]): Buffer[] {
    const points = [...new Set(cuts.map((point) => point % bytes.length))]
      .filter((point) => point > 0)
      .sort((a, b) => a - b);
    const pieces: Buffer[] = [];
    let from = 0;
    for (const point of points) {
      pieces.push(bytes.subarray(from, point));
      from = point;
    }
    pieces.push(bytes.subarray(from));
    return pieces;
  }

  function viaNode(url: string): Promise<{ status: number; statusText: string; headers: string[]; body: Buffer }> {
    return new Promise((resolve, reject) => {
      http
        .get(url, { agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              statusText: res.statusMessage ?? '',
              headers: res.rawHeaders,
              body: Buffer.concat(chunks),
            }),
          );
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }

  it('status, headers and body agree with node:http for generated responses cut into random reads', async () => {
    await fc.assert(
      fc.asyncProperty(response, async (spec) => {
        const { bytes, close: closes } = encode(spec);
        wire = cut(bytes, spec.cuts);
        closeAfter = closes;
        const expected = await viaNode(`${target.url}/x`);
        const exchange = await sendRequest(
          request('GET', `${target.url}/x`, { headers: [['Accept-Encoding', 'identity']] }),
          { env: {}, decompress: false },
        );
        expect(exchange.response.status).toBe(expected.status);
        expect(exchange.response.statusText).toBe(expected.statusText);
        expect(exchange.response.headers.flat()).toEqual(expected.headers);
        const body = exchange.response.body;
        expect(body.kind).toBe('memory');
        expect(Buffer.from(body.kind === 'memory' ? body.bytes : [])).toEqual(expected.body);
      }),
      { numRuns: 80 },
    );
  });
});

describe('the wire transport pools connections only when it is safe', () => {
  it('reuses one connection for requests in a row; `Connection: close` and a short Keep-Alive timeout do not', async () => {
    let reply = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';
    const target = await startRawServer((_request, socket) => socket.write(reply));
    try {
      for (let i = 0; i < 4; i++)
        expect((await sendRequest(request('GET', `${target.url}/`), { env: {} })).response.status).toBe(200);
      expect(target.connections()).toBe(1);

      reply = 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok';
      await sendRequest(request('GET', `${target.url}/`), { env: {} });
      await sendRequest(request('GET', `${target.url}/`), { env: {} });
      expect(target.connections()).toBe(2); // the fifth request's connection closed after it

      // timeout=1 leaves no margin: the connection is not trusted with another request.
      reply = 'HTTP/1.1 200 OK\r\nKeep-Alive: timeout=1\r\nContent-Length: 2\r\n\r\nok';
      await sendRequest(request('GET', `${target.url}/`), { env: {} });
      await sendRequest(request('GET', `${target.url}/`), { env: {} });
      expect(target.connections()).toBe(4);
    } finally {
      await target.close();
    }
  });

  it('a connection the server closed while idle is not used again', async () => {
    const target = await startRawServer((_request, socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      setTimeout(() => socket.end(), 10);
    });
    try {
      await sendRequest(request('GET', `${target.url}/`), { env: {} });
      await new Promise((resolve) => setTimeout(resolve, 60));
      const second = await sendRequest(request('GET', `${target.url}/`), { env: {} });
      expect(second.response.status).toBe(200);
      expect(target.connections()).toBe(2);
    } finally {
      await target.close();
    }
  });

  it('a kept connection closed under a request: an idempotent one goes again on a new connection, a POST fails', async () => {
    // The server answers the first request of each connection and drops the connection at the
    // second without a word: what a client meets when a server's idle timer fires as it writes.
    let served = 0;
    const target = await startRawServer((_request, socket) => {
      const count = ((socket as Socket & { count?: number }).count ?? 0) + 1;
      (socket as Socket & { count?: number }).count = count;
      if (count > 1) return void socket.destroy();
      served++;
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
    });
    try {
      await sendRequest(request('GET', `${target.url}/`), { env: {} });
      const again = await sendRequest(request('GET', `${target.url}/`), { env: {} });
      expect(again.response.status).toBe(200);
      expect([served, target.connections()]).toEqual([2, 2]);

      const failure = await sendRequest(request('POST', `${target.url}/`), { env: {} }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isDialError(failure) && failure.code).toBe('E_CONNRESET');
      expect([served, target.connections()]).toEqual([2, 2]);
    } finally {
      await target.close();
    }
  });

  it('bytes past a response close the connection: the next request gets a new one and its own answer', async () => {
    let count = 0;
    const target = await startRawServer((_request, socket) => {
      count++;
      socket.write(
        `HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n${count}` +
          (count === 1 ? 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nX' : ''),
      );
    });
    try {
      const first = await sendRequest(request('GET', `${target.url}/`), { env: {} });
      const second = await sendRequest(request('GET', `${target.url}/`), { env: {} });
      const text = (exchange: typeof first): string =>
        exchange.response.body.kind === 'memory' ? Buffer.from(exchange.response.body.bytes).toString() : '';
      expect([text(first), text(second)]).toEqual(['1', '2']);
      expect(target.connections()).toBe(2);
    } finally {
      await target.close();
    }
  });

  it('an answer before a streamed upload ends is shown, and that connection is not reused', async () => {
    const target = await startRawServer(
      (_head, socket) => socket.write('HTTP/1.1 413 Payload Too Large\r\nContent-Length: 0\r\n\r\n'),
      { atHead: true },
    );
    try {
      async function* endless(): AsyncGenerator<Uint8Array> {
        for (let i = 0; i < 2000; i++) {
          yield Buffer.alloc(16 * 1024, 'a');
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      const exchange = await sendRequest(
        request('POST', `${target.url}/upload`, { body: { kind: 'stream', stream: Readable.from(endless()) } }),
        { env: {} },
      );
      expect(exchange.response.status).toBe(413);
      await sendRequest(request('GET', `${target.url}/`), { env: {} });
      expect(target.connections()).toBe(2);
    } finally {
      await target.close();
    }
  });

  it('a stop in the middle of a body ends the send as cancelled and closes the connection', async () => {
    let closed = false;
    const target = await startRawServer((_request, socket) => {
      socket.on('close', () => (closed = true));
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nfirst part');
    });
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      const failure = await sendRequest(request('GET', `${target.url}/`), { env: {}, signal: controller.signal }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isDialError(failure) && failure.code).toBe('E_CANCELLED');
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(closed).toBe(true);
    } finally {
      await target.close();
    }
  });

  it('an answer that could be read two ways is E_CONNRESET, and its connection is closed (docs/security.md)', async () => {
    const answers = [
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 0\r\nContent-Length: 44\r\n\r\n',
      'HTTP/1.1 200 OK\nContent-Length: 0\n\n',
      'HTTP/1.1 200 OK\r\nX-Big: ' + 'a'.repeat(300 * 1024) + '\r\n\r\n',
    ];
    let closed = 0;
    let index = 0;
    const target = await startRawServer((_request, socket) => {
      socket.on('close', () => closed++);
      socket.write(answers[index++]);
    });
    try {
      for (let i = 0; i < answers.length; i++) {
        const failure = await sendRequest(request('GET', `${target.url}/`), { env: {} }).then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(isDialError(failure) && failure.code).toBe('E_CONNRESET');
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect([target.connections(), closed]).toEqual([answers.length, answers.length]);
    } finally {
      await target.close();
    }
  });

  it('a header value node:http refused (a control character) is refused before anything is sent', async () => {
    const target = await startRawServer((_request, socket) =>
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'),
    );
    try {
      const failure = await sendRequest(request('GET', `${target.url}/`, { headers: [['X-Odd', 'a\u0001b']] }), {
        env: {},
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(isDialError(failure)).toBe(true);
      expect(target.connections()).toBe(0);
    } finally {
      await target.close();
    }
  });
});
