/**
 * A loopback server that fails on purpose, for runner tests:
 * - GET /ok                       200 JSON widget {id: 42, name, tags, items, nested, createdAt}
 * - GET /slow?ms=N                answers after N ms (timeouts)
 * - GET /reset                    destroys the socket (transport error)
 * - GET /wrong                    200 with a body that fails the usual assertions
 * - GET /flaky/KEY?fails=N        503 for the first N hits of KEY, then 200 {ok: true, hits}
 * - GET /status/CODE              that status, JSON {status}
 * - GET /text                     text/plain "hello world"
 * - GET /headers                  JSON of the request headers
 * - GET /cookie/set?name=v        Set-Cookie name=v; GET /cookie/get answers the Cookie header
 * - GET /redirect                 302 to /ok
 * - GET /counter                  a JSON counter of hits on this path
 * - POST /login                   JSON {token: "tok-secret-123"}
 * `hits(path)` counts requests per path (without query).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startHttpServer, readBody, type TestServer } from './servers.js';

export interface FailServer extends TestServer {
  hits(path: string): number;
  /** Resolves when a request for `path` has arrived (at once if one already has). */
  waitForHit(path: string): Promise<void>;
  reset(): void;
}

export const WIDGET = {
  id: 42,
  name: 'widget',
  tags: ['a', 'b'],
  items: [1, 2, 3],
  nested: { a: 1, b: 'two' },
  ok: true,
  empty: [],
  nothing: null,
};

function json(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}

/** Starts the fail-on-purpose server on 127.0.0.1:0. */
export async function startFailServer(): Promise<FailServer> {
  const counts = new Map<string, number>();
  const waiters: Array<{ path: string; resolve: () => void }> = [];
  const handler = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    for (const waiter of waiters.filter((w) => w.path === path)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
    const body = await readBody(request);
    if (path === '/ok')
      return json(
        response,
        200,
        { ...WIDGET, createdAt: new Date().toISOString() },
        { 'x-request-id': `r-${counts.get(path)}` },
      );
    if (path === '/slow') {
      const ms = Number(url.searchParams.get('ms') ?? 1000);
      const timer = setTimeout(() => json(response, 200, { slow: true }), ms);
      response.on('close', () => clearTimeout(timer));
      return;
    }
    if (path === '/reset') return request.socket.destroy();
    if (path === '/wrong') return json(response, 200, { id: 7, name: 'nope', tags: [], ok: false });
    const flaky = /^\/flaky\/([\w-]+)$/.exec(path);
    if (flaky) {
      const fails = Number(url.searchParams.get('fails') ?? 1);
      const hits = counts.get(path)!;
      return hits <= fails ? json(response, 503, { ok: false, hits }) : json(response, 200, { ok: true, hits });
    }
    const status = /^\/status\/(\d{3})$/.exec(path);
    if (status) return json(response, Number(status[1]), { status: Number(status[1]) });
    if (path === '/text') {
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
      return response.end('hello world');
    }
    if (path === '/headers') return json(response, 200, { headers: request.headers, body: body.toString('utf8') });
    if (path === '/cookie/set') {
      const cookies = [...url.searchParams].map(([k, v]) => `${k}=${v}; Path=/`);
      response.writeHead(200, { 'set-cookie': cookies, 'content-type': 'application/json' });
      return response.end('{}');
    }
    if (path === '/cookie/get') return json(response, 200, { cookie: request.headers.cookie ?? null });
    if (path === '/redirect') {
      response.writeHead(302, { location: '/ok' });
      return response.end();
    }
    if (path === '/counter') return json(response, 200, { count: counts.get(path) });
    if (path === '/login')
      return json(response, 200, {
        token: 'tok-secret-123',
        user: body.length ? (JSON.parse(body.toString('utf8')).user ?? null) : null,
      });
    json(response, 404, { error: 'not found', path });
  };
  const server = await startHttpServer((request, response) => void handler(request, response));
  return {
    ...server,
    hits: (path) => counts.get(path) ?? 0,
    waitForHit: (path) =>
      counts.get(path) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ path, resolve })),
    reset: () => counts.clear(),
  };
}
