/**
 * A real forward proxy for tests on 127.0.0.1:0: CONNECT tunnels (what undici's ProxyAgent
 * uses) and absolute-form requests. Records what it saw; can demand Proxy-Authorization.
 */
import { createServer, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TestProxy {
  url: string;
  port: number;
  /** `CONNECT host:port` targets and absolute-form URLs seen, in order. */
  seen: string[];
  /** Proxy-Authorization header values seen. */
  auth: Array<string | undefined>;
  close(): Promise<void>;
}

/** Starts a forward proxy; with `requireAuth`, answers 407 unless Proxy-Authorization equals it. */
export async function startTestProxy(requireAuth?: string): Promise<TestProxy> {
  const seen: string[] = [];
  const auth: Array<string | undefined> = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    seen.push(request.url ?? '');
    auth.push(request.headers['proxy-authorization']);
    if (requireAuth && request.headers['proxy-authorization'] !== requireAuth) {
      response.writeHead(407, { 'Proxy-Authenticate': 'Basic realm="proxy"' });
      response.end();
      return;
    }
    const target = new URL(request.url ?? '');
    const headers = { ...request.headers };
    delete headers['proxy-authorization'];
    const upstream = httpRequest(
      {
        hostname: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: request.method,
        headers,
      },
      (upstreamResponse) => {
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    upstream.on('error', () => response.destroy());
    request.pipe(upstream);
  });
  server.on('connect', (request, clientSocket: Socket, head: Buffer) => {
    seen.push(`CONNECT ${request.url}`);
    auth.push(request.headers['proxy-authorization']);
    if (requireAuth && request.headers['proxy-authorization'] !== requireAuth) {
      clientSocket.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="proxy"\r\n\r\n');
      return;
    }
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      clientSocket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(clientSocket);
      clientSocket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => clientSocket.destroy());
    clientSocket.on('error', () => upstream.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    auth,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
