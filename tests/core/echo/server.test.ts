import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { startEchoServer, type EchoServer } from '../../../src/core/echo/server.js';
import { DialError } from '../../../src/core/errors.js';

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEchoServer({ port: 0 });
});
afterAll(() => echo.close());

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json: () => any;
}

/** A raw node:http request, independent of the engine under test elsewhere. */
function call(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const headers = { ...options.headers };
    if (options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body));
    const request = httpRequest(`${echo.url}${path}`, { method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body,
          text: body.toString(),
          json: () => JSON.parse(body.toString()),
        });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

describe('echo routes with the httpbin shape', () => {
  it('/get echoes args, headers, origin, url', async () => {
    const reply = await call('GET', '/get?x=1&y=a&y=b', { headers: { 'X-Test': 'yes' } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json');
    const body = reply.json();
    expect(body.args).toEqual({ x: '1', y: ['a', 'b'] });
    expect(body.headers['X-Test']).toBe('yes');
    expect(body.origin).toBe('127.0.0.1');
    expect(body.url).toBe(`${echo.url}/get?x=1&y=a&y=b`);
    expect(body.method).toBe('GET');
  });

  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
    it(`/${method.toLowerCase()} parses a JSON body`, async () => {
      const reply = await call(method, `/${method.toLowerCase()}`, {
        headers: { 'Content-Type': 'application/json' },
        body: '{"a":[1,2]}',
      });
      expect(reply.status).toBe(200);
      const body = reply.json();
      expect(Object.keys(body).sort()).toEqual([
        'args',
        'data',
        'files',
        'form',
        'headers',
        'json',
        'method',
        'origin',
        'url',
      ]);
      expect(body).toMatchObject({ method, data: '{"a":[1,2]}', json: { a: [1, 2] }, form: {}, files: {} });
    });
  }

  it('method routes answer 405 to other methods, with Allow', async () => {
    const reply = await call('POST', '/get');
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD');
    expect((await call('GET', '/post')).status).toBe(405);
  });

  it('/post parses urlencoded forms and keeps non-JSON data as text', async () => {
    const form = await call('POST', '/post', {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'a=1&b=x+y&a=2',
    });
    expect(form.json().form).toEqual({ a: ['1', '2'], b: 'x y' });
    expect(form.json().data).toBe('');
    const plain = await call('POST', '/post', { headers: { 'Content-Type': 'text/plain' }, body: 'not json' });
    expect(plain.json()).toMatchObject({ data: 'not json', json: null });
  });

  it('/post parses multipart fields and files', async () => {
    const boundary = 'XyZ';
    const body = [
      `--${boundary}`,
      'Content-Disposition: form-data; name="field"',
      '',
      'value 1',
      `--${boundary}`,
      'Content-Disposition: form-data; name="doc"; filename="a.txt"',
      'Content-Type: text/plain',
      '',
      'line1\r\nline2',
      `--${boundary}--`,
      '',
    ].join('\r\n');
    const reply = await call('POST', '/post', {
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(reply.json().form).toEqual({ field: 'value 1' });
    expect(reply.json().files).toEqual({ doc: 'line1\r\nline2' });
  });

  it('/anything and /anything/* accept any method', async () => {
    const reply = await call('OPTIONS', '/anything/deep/path?q=1');
    expect(reply.json()).toMatchObject({
      method: 'OPTIONS',
      args: { q: '1' },
      url: `${echo.url}/anything/deep/path?q=1`,
    });
    expect((await call('PUT', '/anything', { body: 'x' })).json().data).toBe('x');
  });

  it('/headers, /ip, /user-agent', async () => {
    expect((await call('GET', '/headers', { headers: { 'X-A': 'b' } })).json().headers['X-A']).toBe('b');
    expect((await call('GET', '/ip')).json()).toEqual({ origin: '127.0.0.1' });
    expect((await call('GET', '/user-agent', { headers: { 'User-Agent': 'ua/1' } })).json()).toEqual({
      'user-agent': 'ua/1',
    });
  });

  it('/json is the slideshow sample', async () => {
    expect((await call('GET', '/json')).json().slideshow.slides).toHaveLength(2);
  });

  it('HEAD /get has the headers but no body; / lists the routes', async () => {
    const head = await call('HEAD', '/get');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(0);
    expect((await call('GET', '/')).json().routes).toContain('/sse?count=&interval=');
  });

  it('unknown routes are 404', async () => {
    expect((await call('GET', '/nope')).status).toBe(404);
  });
});

describe('echo status, delay, bytes, stream', () => {
  it('/status/:code answers that status; comma lists pick one', async () => {
    expect((await call('GET', '/status/418')).status).toBe(418);
    expect((await call('GET', '/status/204')).status).toBe(204);
    const redirect = await call('GET', '/status/302');
    expect(redirect.status).toBe(302);
    expect(redirect.headers.location).toBe('/redirect/1');
    expect((await call('GET', '/status/401')).headers['www-authenticate']).toContain('Basic');
    const seen = new Set<number>();
    for (let i = 0; i < 30; i++) seen.add((await call('GET', '/status/201,202')).status);
    expect([...seen].every((status) => status === 201 || status === 202)).toBe(true);
    expect(seen.size).toBe(2);
    expect((await call('GET', '/status/abc')).status).toBe(400);
  });

  it('/delay/:s waits (fractions allowed) and is capped at 10', async () => {
    const started = performance.now();
    const reply = await call('GET', '/delay/0.2');
    expect(reply.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect((await call('GET', '/delay/-1')).status).toBe(400);
  });

  it('/delay stops waiting when the client goes away', async () => {
    await new Promise<void>((resolve) => {
      const request = httpRequest(`${echo.url}/delay/10`, { agent: false });
      request.on('error', () => resolve());
      request.end();
      setTimeout(() => request.destroy(), 50);
    });
    // The server still answers others promptly.
    expect((await call('GET', '/get')).status).toBe(200);
  });

  it('/bytes/:n streams n deterministic bytes; ?seed= changes them', async () => {
    const a = await call('GET', '/bytes/100000');
    expect(a.body.length).toBe(100_000);
    expect(a.headers['content-length']).toBe('100000');
    expect(a.headers['content-type']).toBe('application/octet-stream');
    const b = await call('GET', '/bytes/100000');
    expect(b.body.equals(a.body)).toBe(true);
    const c = await call('GET', '/bytes/100000?seed=7');
    expect(c.body.equals(a.body)).toBe(false);
    expect((await call('GET', '/bytes/0')).body.length).toBe(0);
    expect((await call('GET', '/bytes/x')).status).toBe(400);
  });

  it('/stream/:n sends n JSON lines', async () => {
    const lines = (await call('GET', '/stream/5?a=1')).text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id)).toEqual([0, 1, 2, 3, 4]);
    expect(lines[0].args).toEqual({ a: '1' });
  });
});

describe('echo redirects, auth, cookies', () => {
  it('/redirect/:n counts down to /get', async () => {
    expect((await call('GET', '/redirect/3')).headers.location).toBe('/redirect/2');
    expect((await call('GET', '/redirect/1')).headers.location).toBe('/get');
    expect((await call('GET', '/redirect/2?absolute=true')).headers.location).toBe(`${echo.url}/redirect/1`);
    expect((await call('GET', '/redirect/0')).status).toBe(400);
  });

  it('/redirect-to?url=&status_code=', async () => {
    const reply = await call('POST', '/redirect-to?url=https%3A%2F%2Fexample.com%2Fx&status_code=307', { body: 'b' });
    expect(reply.status).toBe(307);
    expect(reply.headers.location).toBe('https://example.com/x');
    expect((await call('GET', '/redirect-to?url=/get')).status).toBe(302);
    expect((await call('GET', '/redirect-to')).status).toBe(400);
  });

  it('/basic-auth/:u/:p', async () => {
    const good = `Basic ${Buffer.from('ann:pw').toString('base64')}`;
    expect((await call('GET', '/basic-auth/ann/pw', { headers: { Authorization: good } })).json()).toEqual({
      authenticated: true,
      user: 'ann',
    });
    const bad = await call('GET', '/basic-auth/ann/other', { headers: { Authorization: good } });
    expect(bad.status).toBe(401);
    expect(bad.headers['www-authenticate']).toBe('Basic realm="Fake Realm"');
    expect((await call('GET', '/basic-auth/ann/pw')).status).toBe(401);
  });

  it('/bearer', async () => {
    expect((await call('GET', '/bearer', { headers: { Authorization: 'Bearer t0k' } })).json()).toEqual({
      authenticated: true,
      token: 't0k',
    });
    const missing = await call('GET', '/bearer');
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
  });

  it('/cookies, /cookies/set, /cookies/delete', async () => {
    expect((await call('GET', '/cookies', { headers: { Cookie: 'a=1; b=2' } })).json()).toEqual({
      cookies: { a: '1', b: '2' },
    });
    const set = await call('GET', '/cookies/set?k=v&n=1');
    expect(set.status).toBe(302);
    expect(set.headers.location).toBe('/cookies');
    expect(set.headers['set-cookie']).toEqual(['k=v; Path=/', 'n=1; Path=/']);
    const deleted = await call('GET', '/cookies/delete?k');
    expect(deleted.headers['set-cookie']?.[0]).toMatch(/^k=; .*Max-Age=0/);
  });
});

describe('echo compression and SSE', () => {
  it('/gzip, /deflate, /brotli are encoded as announced', async () => {
    const gzip = await call('GET', '/gzip');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzip.body).toString()).gzipped).toBe(true);
    const deflate = await call('GET', '/deflate');
    expect(deflate.headers['content-encoding']).toBe('deflate');
    expect(JSON.parse(inflateSync(deflate.body).toString()).deflated).toBe(true);
    const brotli = await call('GET', '/brotli');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(brotli.body).toString()).brotli).toBe(true);
  });

  it('/sse sends count events as text/event-stream', async () => {
    const reply = await call('GET', '/sse?count=3&interval=10');
    expect(reply.headers['content-type']).toBe('text/event-stream');
    const events = reply.text.split('\n\n').filter(Boolean);
    expect(events).toHaveLength(3);
    expect(events[0]).toMatch(/^id: 1\nevent: message\ndata: \{"id":1,/);
  });
});

describe('startEchoServer', () => {
  it('a port in use is E_USAGE with a --port hint', async () => {
    let error: unknown;
    try {
      await startEchoServer({ port: echo.port });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('E_USAGE');
    expect((error as DialError).hint).toContain('--port');
  });

  it('close() stops it even with open keep-alive connections', async () => {
    const server = await startEchoServer({ port: 0, onRequest: () => {} });
    const agentReply = await new Promise<number>((resolve) => {
      const request = httpRequest(`${server.url}/get`, { headers: { Connection: 'keep-alive' } }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      });
      request.end();
    });
    expect(agentReply).toBe(200);
    await server.close();
    await expect(call('GET', '/get').then(() => 'ok')).resolves.toBe('ok'); // the shared one still runs
  });
});
