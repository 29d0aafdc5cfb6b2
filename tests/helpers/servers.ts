/**
 * Real loopback servers for tests (no mocks): plain HTTP and HTTPS with a self-signed
 * certificate generated per test run. Each listens on 127.0.0.1:0.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';
import { tempDir } from './cli.js';

export interface TestServer {
  server: Server;
  url: string;
  port: number;
  close(): Promise<void>;
}

async function listen(server: Server, scheme: 'http' | 'https', host = '127.0.0.1'): Promise<TestServer> {
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `${scheme}://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Runs `use` with the server `start` gives and closes that server however `use` ends (a failed
 * assertion included), for a test that needs one server for its whole length.
 */
export async function withServer<S extends TestServer, T>(
  start: Promise<S>,
  use: (server: S) => Promise<T>,
): Promise<T> {
  const server = await start;
  try {
    return await use(server);
  } finally {
    await server.close();
  }
}

/** Starts a plain HTTP server on 127.0.0.1:0. */
export function startHttpServer(handler: RequestListener): Promise<TestServer> {
  return listen(createHttpServer(handler), 'http');
}

export interface TestCertificate {
  cert: string;
  key: string;
  /** Paths of the PEM files written to a temp folder (for --cacert / --cert / --key). */
  certPath: string;
  keyPath: string;
}

/** A self-signed certificate for localhost and 127.0.0.1, generated now. */
export async function generateCertificate(commonName = 'localhost'): Promise<TestCertificate> {
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    notAfterDate: new Date(Date.now() + 2 * 86_400_000),
    keySize: 2048,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
        ],
      },
    ],
  });
  const dir = tempDir('dial-cert-');
  const certPath = join(dir, 'cert.pem');
  const keyPath = join(dir, 'key.pem');
  writeFileSync(certPath, pems.cert);
  writeFileSync(keyPath, pems.private);
  return { cert: pems.cert, key: pems.private, certPath, keyPath };
}

/** Starts an HTTPS server on 127.0.0.1:0 with the given (or a fresh) self-signed certificate. */
export async function startHttpsServer(
  handler: RequestListener,
  certificate?: TestCertificate,
  tlsOptions: { requestCert?: boolean; ca?: string } = {},
): Promise<TestServer & { certificate: TestCertificate }> {
  const cert = certificate ?? (await generateCertificate());
  const server = createHttpsServer(
    { cert: cert.cert, key: cert.key, ...tlsOptions, rejectUnauthorized: false },
    handler,
  );
  return { ...(await listen(server, 'https')), certificate: cert };
}

/** Reads a whole request body. */
export function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

/** What a recording server saw for one request. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  rawHeaders: string[];
  body: Buffer;
}

/**
 * A server that records every request and answers with `respond` (default: 200 and a
 * JSON echo). Tests assert on `requests`.
 */
export async function startRecordingServer(
  respond?: (request: RecordedRequest, response: ServerResponse) => void,
): Promise<TestServer & { requests: RecordedRequest[] }> {
  const requests: RecordedRequest[] = [];
  const server = await startHttpServer(async (request, response) => {
    const recorded: RecordedRequest = {
      method: request.method ?? '',
      url: request.url ?? '',
      headers: request.headers,
      rawHeaders: request.rawHeaders,
      body: await readBody(request),
    };
    requests.push(recorded);
    if (respond) return respond(recorded, response);
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        method: recorded.method,
        url: recorded.url,
        headers: recorded.headers,
        body: recorded.body.toString('utf8'),
      }),
    );
  });
  return { ...server, requests };
}

/** A recording server that answers every request with JSON: `answer(url)`, `{}` by default. */
export function startJsonServer(
  answer: (url: string) => unknown = () => ({}),
): Promise<TestServer & { requests: RecordedRequest[] }> {
  return startRecordingServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(answer(request.url ?? '')));
  });
}
