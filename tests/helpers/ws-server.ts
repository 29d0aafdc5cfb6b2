/**
 * A real WebSocket server on 127.0.0.1:0 (the `ws` package) for tests: each connection's
 * upgrade request is kept, and the path picks a behaviour:
 *
 * - `/echo`: sends each message back;
 * - `/welcome`: says `welcome` on connect, then echoes;
 * - `/burst?n=3`: answers each message with n numbered messages `{"i":k,"of":"<message>"}`;
 * - `/close-after-first`: closes (4000 "enough") when the first message arrives;
 * - `/silent`: never answers;
 * - `/ticker`: sends `tick` every 50 ms until the client leaves;
 * - `/auth`: refuses the upgrade with 401 unless `Authorization: Bearer good`.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export interface TestWsServer {
  url: string;
  /** The upgrade requests received, in order. */
  upgrades: IncomingMessage[];
  /** The messages each connection received, in order of connections. */
  received: string[][];
  close(): Promise<void>;
}

export async function startWsServer(): Promise<TestWsServer> {
  const upgrades: IncomingMessage[] = [];
  const received: string[][] = [];
  const http = createServer((_request, response) => response.writeHead(426).end('upgrade required'));
  const wss = new WebSocketServer({ noServer: true, handleProtocols: (protocols) => [...protocols][0] ?? false });
  http.on('upgrade', (request: IncomingMessage, socket, head) => {
    upgrades.push(request);
    const url = new URL(request.url ?? '/', 'http://test.local');
    if (url.pathname === '/auth' && request.headers.authorization !== 'Bearer good') {
      socket.end('HTTP/1.1 401 Unauthorized\r\nContent-Type: text/plain\r\nContent-Length: 12\r\n\r\nbad token!!\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (client) => behave(client, url, received));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}`,
    upgrades,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close();
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

function behave(client: WebSocket, url: URL, received: string[][]): void {
  const log: string[] = [];
  received.push(log);
  const path = url.pathname;
  if (path === '/welcome') client.send('welcome');
  if (path === '/ticker') {
    const timer = setInterval(() => client.send('tick'), 50);
    client.on('close', () => clearInterval(timer));
  }
  client.on('message', (data, isBinary) => {
    const text = isBinary ? Buffer.from(data as Buffer).toString('base64') : data.toString();
    log.push(text);
    if (path === '/echo' || path === '/welcome' || path === '/auth') client.send(data, { binary: isBinary });
    if (path === '/burst') {
      const n = Number(url.searchParams.get('n') ?? '3');
      for (let i = 1; i <= n; i++) client.send(JSON.stringify({ i, of: text }));
    }
    if (path === '/close-after-first') client.close(4000, 'enough');
  });
}
