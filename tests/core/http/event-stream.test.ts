/**
 * The engine reads a text/event-stream answer event by event (eventsource-parser) against
 * real loopback servers: each event reaches onMessage while the stream is still open, events
 * split across chunks (and a UTF-8 character split across them) arrive whole, gzip is decoded,
 * the limits end the stream as a success, and a timeout or cancel is still an error.
 */
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sendRequest } from '../../../src/core/http/index.js';
import type { StreamMessage } from '../../../src/core/http/types.js';
import { startHttpServer } from '../../helpers/servers.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

const get = (url: string) => ({ method: 'GET', url, headers: [], body: { kind: 'none' as const } });

describe('text/event-stream answers', () => {
  it('reports each event while the stream is open; the body is the events as JSON', async () => {
    let sawFirst: () => void = () => {};
    const firstSeen = new Promise<void>((resolve) => (sawFirst = resolve));
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
      response.write('id: 1\nevent: greet\ndata: hello\n\n');
      // The second event is written only once the client has reported the first: proof it is live.
      void firstSeen.then(() => {
        const bytes = Buffer.from(': comment\ndata: multi\ndata: line ü\n\n');
        const cut = bytes.indexOf(0xc3) + 1; // inside the two bytes of ü
        response.write(bytes.subarray(0, cut));
        setTimeout(() => response.end(bytes.subarray(cut)), 20);
      });
    });
    try {
      const messages: StreamMessage[] = [];
      const exchange = await sendRequest(get(`${server.url}/events`), {
        onMessage: (message) => {
          messages.push(message);
          if (messages.length === 1) sawFirst();
        },
      });
      expect(messages.map(({ data, event, id, direction }) => ({ data, event, id, direction }))).toEqual([
        { data: 'hello', event: 'greet', id: '1', direction: 'received' },
        { data: 'multi\nline ü', event: undefined, id: undefined, direction: 'received' },
      ]);
      expect(messages[1].atMs).toBeGreaterThanOrEqual(messages[0].atMs);
      expect(exchange.response.status).toBe(200);
      const body = exchange.response.body;
      expect(body.kind).toBe('memory');
      expect(JSON.parse(body.kind === 'memory' ? body.bytes.toString('utf8') : '')).toEqual([
        { event: 'greet', id: '1', data: 'hello' },
        { data: 'multi\nline ü' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('decodes a gzip event stream and stops after sse.maxEvents', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      response.write(gzipSync('data: a\n\ndata: b\n\ndata: c\n\n'));
      // Never ended: the limit must end it.
    });
    try {
      const exchange = await sendRequest(get(server.url), { sse: { maxEvents: 2 }, timeoutMs: 5000 });
      const body = exchange.response.body;
      expect(JSON.parse(body.kind === 'memory' ? body.bytes.toString('utf8') : '')).toEqual([
        { data: 'a' },
        { data: 'b' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('sse.durationMs ends an endless stream as a success; the timeout alone is an error', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: 1\n\n');
    });
    try {
      // The timeout (counted on top of the duration) is well past 150 ms: only the duration can end it.
      const exchange = await sendRequest(get(server.url), { sse: { durationMs: 150 }, timeoutMs: 2000 });
      expect(exchange.response.status).toBe(200);
      const error = await dialErrorOf(sendRequest(get(server.url), { timeoutMs: 150 }));
      expect(error.code).toBe('E_TIMEOUT');
      expect(error.hint).toContain('@sse-timeout');
    } finally {
      await server.close();
    }
  });

  it('sse.events keeps only those event types (an unnamed event is `message`)', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('event: ping\ndata: 1\n\ndata: plain\n\nevent: update\ndata: 2\n\n');
    });
    try {
      const seen: string[] = [];
      const exchange = await sendRequest(get(server.url), {
        sse: { events: ['update', 'message'] },
        onMessage: (message) => seen.push(message.data),
      });
      expect(seen).toEqual(['plain', '2']);
      const body = exchange.response.body;
      expect(JSON.parse(body.kind === 'memory' ? body.bytes.toString('utf8') : '')).toEqual([
        { data: 'plain' },
        { event: 'update', data: '2' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('events kept in memory count against the body cap (maxBodySize)', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(`data: ${'x'.repeat(64)}\n\n`);
    });
    try {
      const error = await dialErrorOf(
        sendRequest(get(server.url), { bodyTarget: { kind: 'buffer', maxBodyBytes: 32 }, timeoutMs: 5000 }),
      );
      expect(error.code).toBe('E_BODY_TOO_LARGE');
    } finally {
      await server.close();
    }
  });

  it('streams the raw bytes to a body target too (dial send keeps them for history)', async () => {
    const server = await startHttpServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('data: x\n\n');
    });
    try {
      const chunks: Buffer[] = [];
      const { Writable } = await import('node:stream');
      const target = new Writable({
        write(chunk: Buffer, _encoding, callback) {
          chunks.push(chunk);
          callback();
        },
      });
      const seen: string[] = [];
      const exchange = await sendRequest(get(server.url), {
        bodyTarget: { kind: 'stream', open: () => target },
        onMessage: (message) => seen.push(message.data),
      });
      expect(Buffer.concat(chunks).toString()).toBe('data: x\n\n');
      expect(seen).toEqual(['x']);
      expect(exchange.response.body).toEqual({ kind: 'streamed', size: 9 });
      expect(target.writableFinished).toBe(true);
    } finally {
      await server.close();
    }
  });
});
