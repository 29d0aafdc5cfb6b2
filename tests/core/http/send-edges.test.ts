// sendRequest's less travelled paths: redirects that must not be followed, credentials in a
// Location, which of timeout and cancel names the error, and the caller's signal left clean.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { closeConnections, sendRequest, type HttpRequest, type SendOptions } from '../../../src/core/http/index.js';
import { startHttpServer, type TestServer } from '../../helpers/servers.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

const noProxy: SendOptions = { env: {} };
let server: TestServer;
const seen: Array<{ url: string; method: string; authorization?: string; body: string }> = [];

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = request.url ?? '';
      seen.push({
        url,
        method: request.method ?? '',
        authorization: request.headers.authorization,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const redirect = (status: number, location: string): void => {
        response.writeHead(status, { Location: location });
        response.end();
      };
      if (url === '/r307') return redirect(307, '/final');
      if (url === '/r303') return redirect(303, '/final');
      if (url === '/bad') return redirect(302, 'http://[bad');
      if (url === '/ftp') return redirect(302, 'ftp://example.com/x');
      if (url === '/userinfo') return redirect(302, `http://ann:secret@127.0.0.1:${server.port}/final`);
      if (url === '/slow') return void setTimeout(() => response.end('late'), 2_000);
      response.end(`final ${request.method}`);
    });
  });
});
afterAll(async () => {
  closeConnections();
  await server.close();
});

function streamed(method: string, url: string): HttpRequest {
  async function* chunks(): AsyncIterable<Uint8Array> {
    yield Buffer.from('piped');
  }
  return { method, url, headers: [], body: { kind: 'stream', stream: chunks() } };
}

describe('sendRequest: redirect edges', () => {
  it('refuses a 307 that would resend a streamed body', async () => {
    const error = await dialErrorOf(
      sendRequest(streamed('POST', `${server.url}/r307`), { ...noProxy, followRedirects: true }),
    );
    expect(error.code).toBe('E_INPUT');
    expect(error.message).toMatch(/307 .*streamed body cannot be sent twice/);
  });

  it('follows a 303 after a streamed body (the body stays behind)', async () => {
    seen.length = 0;
    const exchange = await sendRequest(streamed('POST', `${server.url}/r303`), { ...noProxy, followRedirects: true });
    expect(exchange.response.status).toBe(200);
    expect(seen.map((s) => [s.url, s.method, s.body])).toEqual([
      ['/r303', 'POST', 'piped'],
      ['/final', 'GET', ''],
    ]);
    expect(exchange.request.bodySize).toBeUndefined();
  });

  it('an invalid or non-http Location is E_NETWORK', async () => {
    const invalid = await dialErrorOf(sendRequest(get(`${server.url}/bad`), { ...noProxy, followRedirects: true }));
    expect(invalid.code).toBe('E_NETWORK');
    expect(invalid.message).toMatch(/redirected to an invalid URL 'http:\/\/\[bad'/);
    const ftp = await dialErrorOf(sendRequest(get(`${server.url}/ftp`), { ...noProxy, followRedirects: true }));
    expect(ftp.code).toBe('E_NETWORK');
    expect(ftp.message).toMatch(/unsupported URL 'ftp:\/\/example\.com\/x'/);
  });

  it('drops credentials written in a Location from the next request and the history', async () => {
    seen.length = 0;
    const exchange = await sendRequest(get(`${server.url}/userinfo`), { ...noProxy, followRedirects: true });
    expect(exchange.response.url).toBe(`${server.url}/final`);
    expect(exchange.redirects[0].to).toBe(`${server.url}/final`);
    expect(seen[1]).toMatchObject({ url: '/final', authorization: undefined });
  });
});

describe('sendRequest: stopping', () => {
  it('names the first reason: a cancel before the timeout is E_CANCELLED, a timeout first is E_TIMEOUT', async () => {
    const controller = new AbortController();
    const cancelled = sendRequest(get(`${server.url}/slow`), {
      ...noProxy,
      signal: controller.signal,
      timeoutMs: 1_000,
    });
    setTimeout(() => controller.abort(), 50);
    expect((await dialErrorOf(cancelled)).code).toBe('E_CANCELLED');

    const late = new AbortController();
    const timedOut = sendRequest(get(`${server.url}/slow`), { ...noProxy, signal: late.signal, timeoutMs: 50 });
    const error = await dialErrorOf(timedOut);
    late.abort();
    expect(error.code).toBe('E_TIMEOUT');
  });

  it("puts one listener on the caller's signal however many sends share it, after a success or a failure", async () => {
    // A run's thousands of sends share its signal: one listener serves them all, so none piles up.
    const controller = new AbortController();
    await sendRequest(get(`${server.url}/final`), { ...noProxy, signal: controller.signal });
    await sendRequest(get(`${server.url}/final`), { ...noProxy, signal: controller.signal });
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    await dialErrorOf(sendRequest(get(`${server.url}/slow`), { ...noProxy, signal: controller.signal, timeoutMs: 30 }));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    // A finished send is no longer stopped by it; one under way is.
    const slow = sendRequest(get(`${server.url}/slow`), { ...noProxy, signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect((await dialErrorOf(slow)).code).toBe('E_CANCELLED');
  });

  it('times each send out at its own deadline when sends of one timeout length overlap', async () => {
    // Sends with the same timeout share one timer, armed for the oldest: when that one ends first,
    // the next must still time out at its own deadline, neither early nor never.
    const timeoutMs = 300;
    const first = sendRequest(get(`${server.url}/final`), { ...noProxy, timeoutMs });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const startedSecond = performance.now();
    const second = dialErrorOf(sendRequest(get(`${server.url}/slow`), { ...noProxy, timeoutMs }));
    const third = dialErrorOf(sendRequest(get(`${server.url}/slow`), { ...noProxy, timeoutMs }));
    expect((await first).response.status).toBe(200);
    const [secondError, thirdError] = await Promise.all([second, third]);
    const waited = performance.now() - startedSecond;
    expect(secondError.code).toBe('E_TIMEOUT');
    expect(thirdError.code).toBe('E_TIMEOUT');
    expect(waited).toBeGreaterThanOrEqual(timeoutMs - 5);
    expect(waited).toBeLessThan(1_500);
    // Sends of another length keep their own deadline beside them.
    const short = dialErrorOf(sendRequest(get(`${server.url}/slow`), { ...noProxy, timeoutMs: 1_000 }));
    const shorter = performance.now();
    expect((await dialErrorOf(sendRequest(get(`${server.url}/slow`), { ...noProxy, timeoutMs: 50 }))).code).toBe(
      'E_TIMEOUT',
    );
    expect(performance.now() - shorter).toBeLessThan(900);
    expect((await short).code).toBe('E_TIMEOUT');
  });
});

function get(url: string): HttpRequest {
  return { method: 'GET', url, headers: [], body: { kind: 'none' } };
}
