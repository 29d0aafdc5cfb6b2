// A body without decoders going to the caller's stream ('stream' bodyTarget: what `dial send`
// prints or saves) is piped without stream.pipeline (src/core/http/send.ts, pipeToSink). These
// check it ends the same ways: whole, cut by the server, failed by the target, stopped.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { closeConnections, sendRequest, type HttpRequest, type SendOptions } from '../../../src/core/http/index.js';
import { startHttpServer, type TestServer } from '../../helpers/servers.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

const noProxy: SendOptions = { env: {} };
const get = (url: string): HttpRequest => ({ method: 'GET', url, headers: [], body: { kind: 'none' } });
const piece = Buffer.alloc(64 * 1024, 'x');

let server: TestServer;
beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    if (request.url === '/whole') {
      response.writeHead(200, { 'content-length': String(piece.length * 4) });
      for (let i = 0; i < 4; i++) response.write(piece);
      response.end();
    } else if (request.url === '/cut') {
      // Promises more than it sends, then drops the connection mid-body.
      response.writeHead(200, { 'content-length': String(piece.length * 4) });
      response.write(piece, () => setTimeout(() => response.socket?.destroy(), 20));
    } else {
      // /slow: the head, a piece, then nothing until the client gives up.
      response.writeHead(200, { 'content-length': String(piece.length * 2) });
      response.write(piece);
    }
  });
});
afterEach(() => closeConnections());
afterAll(() => server.close());

/** A target that records what it got, whether it was ended, and whether it was destroyed. */
function recordingTarget(options: { failAfter?: number } = {}) {
  const state = { bytes: 0, ended: false, destroyed: false };
  const target = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      state.bytes += chunk.length;
      if (options.failAfter !== undefined && state.bytes > options.failAfter)
        callback(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
      else setImmediate(callback); // asynchronous, so backpressure is exercised
    },
    final(callback) {
      state.ended = true;
      callback();
    },
    destroy(error, callback) {
      state.destroyed = true;
      callback(error);
    },
  });
  return { target, state };
}

describe("sendRequest: a 'stream' body target without decoders", () => {
  it('gets the whole body, ended, and the exchange resolves once it has', async () => {
    const { target, state } = recordingTarget();
    const exchange = await sendRequest(get(`${server.url}/whole`), {
      ...noProxy,
      bodyTarget: { kind: 'stream', open: () => target },
    });
    expect(state).toEqual({ bytes: piece.length * 4, ended: true, destroyed: true });
    expect(exchange.response.body).toEqual({ kind: 'streamed', size: piece.length * 4 });
  });

  it('a body the server cuts short fails the send and destroys the target, unended', async () => {
    const { target, state } = recordingTarget();
    const error = await dialErrorOf(
      sendRequest(get(`${server.url}/cut`), { ...noProxy, bodyTarget: { kind: 'stream', open: () => target } }),
    );
    expect(error.code).toMatch(/^E_/);
    expect(state.ended).toBe(false);
    expect(state.destroyed).toBe(true);
    expect(state.bytes).toBeLessThan(piece.length * 4);
  });

  it("a target that fails fails the send with the target's error", async () => {
    const { target, state } = recordingTarget({ failAfter: piece.length });
    const failure = await sendRequest(get(`${server.url}/whole`), {
      ...noProxy,
      bodyTarget: { kind: 'stream', open: () => target },
    }).then(
      () => undefined,
      (error: unknown) => error as Error & { cause?: Error & { code?: string } },
    );
    expect(failure).toBeDefined();
    const cause = failure?.cause ?? failure;
    expect((cause as { code?: string }).code).toBe('ENOSPC');
    expect(state.ended).toBe(false);
  });

  it('the timeout stops a body that stalls: E_TIMEOUT, the target destroyed', async () => {
    const { target, state } = recordingTarget();
    const error = await dialErrorOf(
      sendRequest(get(`${server.url}/slow`), {
        ...noProxy,
        timeoutMs: 300,
        bodyTarget: { kind: 'stream', open: () => target },
      }),
    );
    expect(error.code).toBe('E_TIMEOUT');
    expect(state.ended).toBe(false);
    expect(state.destroyed).toBe(true);
  });
});
