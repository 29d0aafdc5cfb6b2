// HTTP/2 and proxies load undici lazily; this runs them through the BUILT bundle, where
// undici's CommonJS exports arrive differently than from source.
import { createSecureServer, type Http2Server } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { generateCertificate, type TestCertificate } from '../helpers/servers.js';

describe('dial send --http2 (built binary)', () => {
  let server: Http2Server;
  let url: string;
  let certificate: TestCertificate;

  beforeAll(async () => {
    certificate = await generateCertificate();
    server = createSecureServer(
      { cert: certificate.cert, key: certificate.key, allowHTTP1: true },
      (request, response) => {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ httpVersion: request.httpVersion, path: request.url }));
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('speaks HTTP/2 when asked, verifying the server with --cacert', async () => {
    const result = await runCli(['send', '--http2', '--cacert', certificate.certPath, `${url}/h2`]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ httpVersion: '2.0', path: '/h2' });
  });

  it('stays on HTTP/1.1 without --http2', async () => {
    const result = await runCli(['send', '--cacert', certificate.certPath, `${url}/h1`]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ httpVersion: '1.1', path: '/h1' });
  });
});
