import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeConnections,
  proxyFor,
  sendRequest,
  type Exchange,
  type HttpRequest,
} from '../../../src/core/http/index.js';
import { noProxyCovers } from '../../../src/core/http/proxy.js';
import { startEchoServer, type EchoServer } from '../../../src/core/echo/server.js';
import { startTestProxy, type TestProxy } from '../../helpers/proxy.js';
import { startHttpsServer } from '../../helpers/servers.js';
import { DialError } from '../../../src/core/errors.js';

describe('proxy selection', () => {
  const url = (text: string): URL => new URL(text);
  it('uses the explicit proxy first', () => {
    expect(proxyFor(url('http://a.example/x'), 'http://p:1', { HTTP_PROXY: 'http://q:2' })).toBe('http://p:1');
  });
  it('reads HTTP_PROXY / HTTPS_PROXY by scheme, lowercase forms first', () => {
    const env = { HTTP_PROXY: 'http://upper:1', http_proxy: 'http://lower:1', HTTPS_PROXY: 'secure:3' };
    expect(proxyFor(url('http://a.example/'), undefined, env)).toBe('http://lower:1');
    expect(proxyFor(url('https://a.example/'), undefined, env)).toBe('http://secure:3');
    expect(proxyFor(url('https://a.example/'), undefined, {})).toBeUndefined();
  });
  it('honours NO_PROXY entries: hosts, domains, ports, *', () => {
    expect(noProxyCovers(url('http://api.example.com/'), 'example.com')).toBe(true);
    expect(noProxyCovers(url('http://api.example.com/'), '.example.com')).toBe(true);
    expect(noProxyCovers(url('http://example.com/'), '.example.com')).toBe(true);
    expect(noProxyCovers(url('http://notexample.com/'), 'example.com')).toBe(false);
    expect(noProxyCovers(url('http://localhost:8080/'), 'localhost:8080')).toBe(true);
    expect(noProxyCovers(url('http://localhost:9090/'), 'localhost:8080')).toBe(false);
    expect(noProxyCovers(url('http://anything/'), '*')).toBe(true);
    expect(noProxyCovers(url('http://127.0.0.1:5/'), 'foo, 127.0.0.1')).toBe(true);
    expect(
      proxyFor(url('http://127.0.0.1/'), undefined, { HTTP_PROXY: 'http://p:1', NO_PROXY: '127.0.0.1' }),
    ).toBeUndefined();
  });
});

describe('requests through a proxy (undici, loaded lazily)', () => {
  let echo: EchoServer;
  let proxy: TestProxy;
  beforeAll(async () => {
    echo = await startEchoServer({ port: 0 });
    proxy = await startTestProxy();
  });
  afterAll(async () => {
    closeConnections();
    await proxy.close();
    await echo.close();
  });

  const get = (url: string): HttpRequest => ({
    method: 'GET',
    url,
    headers: [['X-Via', 'test']],
    body: { kind: 'none' },
  });
  const json = (exchange: Exchange): Record<string, any> => {
    const body = exchange.response.body;
    if (body.kind !== 'memory') throw new Error('expected memory');
    return JSON.parse(body.bytes.toString()) as Record<string, any>;
  };

  it('goes through the --proxy option', async () => {
    const before = proxy.seen.length;
    const exchange = await sendRequest(get(`${echo.url}/get?x=1`), { env: {}, proxy: proxy.url });
    expect(exchange.response.status).toBe(200);
    expect(json(exchange).args).toEqual({ x: '1' });
    expect(json(exchange).headers['x-via'] ?? json(exchange).headers['X-Via']).toBe('test');
    expect(proxy.seen.length).toBeGreaterThan(before);
  });

  it('a Host header written in any case goes out once through the proxy (`HOST:` in a .http file)', async () => {
    const host = new URL(echo.url).host;
    const request: HttpRequest = {
      method: 'GET',
      url: `${echo.url}/get`,
      headers: [['HOST', host]],
      body: { kind: 'none' },
    };
    const exchange = await sendRequest(request, { env: {}, proxy: proxy.url });
    expect(exchange.response.status).toBe(200);
    expect(json(exchange).headers.host ?? json(exchange).headers.Host).toBe(host);
  });

  it('goes through HTTP_PROXY from the given env, and around it with NO_PROXY', async () => {
    const before = proxy.seen.length;
    await sendRequest(get(`${echo.url}/get`), { env: { HTTP_PROXY: proxy.url } });
    expect(proxy.seen.length).toBeGreaterThan(before);
    const after = proxy.seen.length;
    await sendRequest(get(`${echo.url}/get`), { env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
    expect(proxy.seen.length).toBe(after);
  });

  it('sends proxy credentials from the proxy URL; a 407 is E_PROXY', async () => {
    const expected = `Basic ${Buffer.from('user:pa ss').toString('base64')}`;
    const guarded = await startTestProxy(expected);
    try {
      const withAuth = `http://user:pa%20ss@127.0.0.1:${guarded.port}`;
      const exchange = await sendRequest(get(`${echo.url}/get`), { env: {}, proxy: withAuth });
      expect(exchange.response.status).toBe(200);
      expect(guarded.auth).toContain(expected);
      let error: unknown;
      try {
        await sendRequest(get(`${echo.url}/get`), { env: {}, proxy: guarded.url });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(DialError);
      expect((error as DialError).code).toBe('E_PROXY');
      expect((error as DialError).exitCode).toBe(4);
      expect((error as DialError).hint).toContain('--proxy');
    } finally {
      await guarded.close();
    }
  });

  it('tunnels https:// through the proxy (CONNECT) with the CA file applied to the target', async () => {
    const secure = await startHttpsServer((_request, response) => response.end('secret hello'));
    try {
      const before = proxy.seen.length;
      const exchange = await sendRequest(get(`${secure.url}/x`), {
        env: { HTTPS_PROXY: proxy.url },
        tls: { verify: true, caFile: secure.certificate.certPath },
      });
      const body = exchange.response.body;
      expect(body.kind === 'memory' && body.bytes.toString()).toBe('secret hello');
      expect(proxy.seen.slice(before)).toContain(`CONNECT 127.0.0.1:${secure.port}`);
      let error: unknown;
      try {
        await sendRequest(get(`${secure.url}/x`), { env: { HTTPS_PROXY: proxy.url } });
      } catch (caught) {
        error = caught;
      }
      expect((error as DialError).code).toBe('E_TLS');
    } finally {
      await secure.close();
    }
  });

  it('a dead proxy is E_PROXY', async () => {
    const dead = await startTestProxy();
    const url = dead.url;
    await dead.close();
    let error: unknown;
    try {
      await sendRequest(get(`${echo.url}/get`), { env: {}, proxy: url });
    } catch (caught) {
      error = caught;
    }
    expect((error as DialError).code).toBe('E_PROXY');
    expect((error as DialError).message).toContain(url);
  });
});
