// Asterisk-form (`OPTIONS * HTTP/1.1`): the request target `*` goes to the
// origin of the URL, first hop only, HTTP/1.1 without a proxy only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeConnections, sendRequest, type SendOptions } from '../../../src/core/http/index.js';
import { startHttpServer, type TestServer } from '../../helpers/servers.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

const noProxy: SendOptions = { env: {} };
let server: TestServer;
const seen: Array<{ method: string; url: string; host?: string }> = [];

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', host: request.headers.host });
    if (request.url === '*' && request.headers['x-redirect']) {
      response.writeHead(307, { Location: '/moved' });
      return response.end();
    }
    response.writeHead(200, { Allow: 'GET, OPTIONS' });
    response.end();
  });
});
afterAll(async () => {
  closeConnections();
  await server.close();
});

describe('asterisk-form', () => {
  it('sends `OPTIONS *` to the origin of the URL', async () => {
    seen.length = 0;
    const exchange = await sendRequest(
      { method: 'OPTIONS', url: `${server.url}/`, headers: [], body: { kind: 'none' }, asteriskForm: true },
      noProxy,
    );
    expect(exchange.response.status).toBe(200);
    expect(seen).toEqual([{ method: 'OPTIONS', url: '*', host: `127.0.0.1:${server.port}` }]);
  });

  it('a redirect goes to its Location, not to `*` again', async () => {
    seen.length = 0;
    await sendRequest(
      {
        method: 'OPTIONS',
        url: `${server.url}/`,
        headers: [['X-Redirect', '1']],
        body: { kind: 'none' },
        asteriskForm: true,
      },
      { ...noProxy, followRedirects: true },
    );
    expect(seen.map((request) => request.url)).toEqual(['*', '/moved']);
  });

  it('is refused over HTTP/2 or a proxy, before anything is sent', async () => {
    seen.length = 0;
    const error = await dialErrorOf(
      sendRequest(
        { method: 'OPTIONS', url: `${server.url}/`, headers: [], body: { kind: 'none' }, asteriskForm: true },
        { env: {}, proxy: 'http://127.0.0.1:9' },
      ),
    );
    expect(error.code).toBe('E_USAGE');
    expect(error.message).toContain('asterisk-form');
    expect(seen).toEqual([]);
  });
});
