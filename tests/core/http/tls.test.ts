import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import { writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { tempDir } from '../../helpers/cli.js';
import { closeConnections, sendRequest, type Exchange, type HttpRequest } from '../../../src/core/http/index.js';
import { generateCertificate, startHttpsServer, type TestCertificate } from '../../helpers/servers.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

let certificate: TestCertificate;
let server: Awaited<ReturnType<typeof startHttpsServer>>;

beforeAll(async () => {
  certificate = await generateCertificate();
  server = await startHttpsServer((request, response) => {
    const socket = request.socket as TLSSocket;
    const peer = socket.getPeerCertificate();
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        ok: true,
        authorized: socket.authorized,
        clientCert: peer && 'subject' in peer ? (peer.subject?.CN ?? null) : null,
      }),
    );
  }, certificate);
});
afterAll(async () => {
  closeConnections();
  await server.close();
});

function get(url: string, extra: Partial<HttpRequest> = {}): HttpRequest {
  return { method: 'GET', url, headers: [], body: { kind: 'none' }, ...extra };
}

function json(exchange: Exchange): Record<string, unknown> {
  const body = exchange.response.body;
  if (body.kind !== 'memory') throw new Error('expected memory body');
  return JSON.parse(body.bytes.toString()) as Record<string, unknown>;
}

describe('TLS', () => {
  it('a self-signed certificate fails with E_TLS and a hint naming --cacert and --insecure', async () => {
    const error = await dialErrorOf(sendRequest(get(`${server.url}/`), { env: {} }));
    expect(error.code).toBe('E_TLS');
    expect(error.exitCode).toBe(4);
    expect(error.hint).toContain('--cacert');
    expect(error.hint).toContain('--insecure');
    expect(error.message).toContain('127.0.0.1');
  });

  it('works with the CA file, with TLS timing', async () => {
    const exchange = await sendRequest(get(`${server.url}/`), {
      env: {},
      tls: { verify: true, caFile: certificate.certPath },
    });
    expect(exchange.response.status).toBe(200);
    expect(exchange.timings.tls).toBeGreaterThan(0);
    expect(exchange.timings.connect).toBeGreaterThan(0);
  });

  it('works with verify: false', async () => {
    const exchange = await sendRequest(get(`${server.url}/`), { env: {}, tls: { verify: false } });
    expect(json(exchange).ok).toBe(true);
  });

  it('hostname mismatch is E_TLS', async () => {
    // A trusted certificate that names another host only.
    const pems = await generate([{ name: 'commonName', value: 'example.test' }], {
      keySize: 2048,
      extensions: [{ name: 'subjectAltName', altNames: [{ type: 2, value: 'example.test' }] }],
    });
    const caPath = join(tempDir(), 'other.pem');
    writeFileSync(caPath, pems.cert);
    const mismatched = await startHttpsServer((_request, response) => response.end('x'), {
      cert: pems.cert,
      key: pems.private,
      certPath: caPath,
      keyPath: '',
    });
    try {
      const error = await dialErrorOf(
        sendRequest(get(`${mismatched.url}/`), { env: {}, tls: { verify: true, caFile: caPath } }),
      );
      expect(error.code).toBe('E_TLS');
      expect((error.cause as { code?: string }).code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    } finally {
      await mismatched.close();
    }
  });

  it('an unreadable CA file is E_INPUT naming --cacert', async () => {
    const error = await dialErrorOf(
      sendRequest(get(`${server.url}/`), { env: {}, tls: { verify: true, caFile: '/nonexistent/ca.pem' } }),
    );
    expect(error.code).toBe('E_INPUT');
    expect(error.hint).toContain('--cacert');
  });

  it('sends a client certificate when the server asks for one', async () => {
    const mtls = await startHttpsServer(
      (request, response) => {
        const socket = request.socket as TLSSocket;
        const peer = socket.getPeerCertificate();
        response.end(JSON.stringify({ cn: peer && peer.subject ? peer.subject.CN : null }));
      },
      certificate,
      { requestCert: true, ca: certificate.cert },
    );
    try {
      const withCert = await sendRequest(get(`${mtls.url}/`), {
        env: {},
        tls: {
          verify: true,
          caFile: certificate.certPath,
          certFile: certificate.certPath,
          keyFile: certificate.keyPath,
        },
      });
      expect(json(withCert).cn).toBe('localhost');
      const without = await sendRequest(get(`${mtls.url}/`), {
        env: {},
        tls: { verify: true, caFile: certificate.certPath },
      });
      expect(json(without).cn).toBeNull();
    } finally {
      await mtls.close();
    }
  });
});

describe('HTTP/2 (opt-in, through undici)', () => {
  let h2: Http2SecureServer;
  let url: string;
  beforeAll(async () => {
    h2 = createSecureServer({ cert: certificate.cert, key: certificate.key, allowHTTP1: true }, (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        response.setHeader('content-type', 'application/json');
        response.setHeader('set-cookie', ['a=1']);
        response.end(
          JSON.stringify({
            httpVersion: request.httpVersion,
            method: request.method,
            body: Buffer.concat(chunks).toString(),
            ua: request.headers['user-agent'],
          }),
        );
      });
    });
    await new Promise<void>((resolve) => h2.listen(0, '127.0.0.1', resolve));
    url = `https://127.0.0.1:${(h2.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    closeConnections();
    await new Promise<void>((resolve) => h2.close(() => resolve()));
  });

  it('speaks HTTP/2 when asked', async () => {
    const exchange = await sendRequest(
      {
        method: 'POST',
        url: `${url}/x`,
        headers: [['Content-Type', 'text/plain']],
        body: { kind: 'text', text: 'over h2' },
        httpVersion: '2',
      },
      { env: {}, tls: { verify: true, caFile: certificate.certPath } },
    );
    expect(exchange.response.httpVersion).toBe('2');
    expect(json(exchange)).toMatchObject({ httpVersion: '2.0', method: 'POST', body: 'over h2' });
    expect(String(json(exchange).ua)).toMatch(/^dial\//);
    expect(exchange.response.headers.some(([name, value]) => name === 'set-cookie' && value === 'a=1')).toBe(true);
    expect(exchange.timings.total).toBeGreaterThanOrEqual(exchange.timings.firstByte);
  });

  it('speaks HTTP/1.1 to the same server by default', async () => {
    const exchange = await sendRequest(get(`${url}/x`), {
      env: {},
      tls: { verify: true, caFile: certificate.certPath },
    });
    expect(exchange.response.httpVersion).toBe('1.1');
    expect(json(exchange).httpVersion).toBe('1.1');
  });

  it('connect timeout applies over HTTP/2 too', async () => {
    const tcp = createNetServer(() => {});
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    try {
      const port = (tcp.address() as { port: number }).port;
      const error = await dialErrorOf(
        sendRequest(get(`https://127.0.0.1:${port}/`, { httpVersion: '2' }), {
          env: {},
          connectTimeoutMs: 150,
          timeoutMs: 5000,
        }),
      );
      expect(error.code).toBe('E_TIMEOUT');
      expect(error.message).toContain('connect');
    } finally {
      tcp.close();
    }
  });

  it('TLS failures over HTTP/2 are E_TLS too', async () => {
    const error = await dialErrorOf(sendRequest(get(`${url}/x`, { httpVersion: '2' }), { env: {} }));
    expect(error.code).toBe('E_TLS');
  });
});
