/**
 * A loopback TCP server that reads HTTP/1.1 requests only as far as a test needs (each head and
 * its body, framed by Content-Length or chunked) and lets the test write whatever bytes it likes
 * back: for what an HTTP library's own server would never send.
 */
import { createServer, type Server, type Socket } from 'node:net';

export interface RawServer {
  server: Server;
  /** `http://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Destroys the open connections and closes the server. */
  close(): Promise<void>;
}

/**
 * Starts a raw server; `answer` gets each request as received (head, blank line, body) and its
 * socket. With `atHead`, it gets the first request's head as soon as it is in, and nothing after
 * it on that connection is read: a server that answers before the body has arrived.
 */
export async function startRawServer(
  answer: (request: string, socket: Socket) => void,
  options: { atHead?: boolean } = {},
): Promise<RawServer> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        const head = buffered.slice(0, end);
        if (options.atHead) {
          socket.removeAllListeners('data');
          socket.resume();
          return answer(head, socket);
        }
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        const chunked = /\r\ntransfer-encoding: *chunked/i.test(head);
        const bodyEnd = chunked ? buffered.indexOf('0\r\n\r\n', end + 4) + 5 : end + 4 + length;
        if ((chunked && bodyEnd < 5) || buffered.length < bodyEnd) return;
        const request = buffered.slice(0, bodyEnd);
        buffered = buffered.slice(bodyEnd);
        answer(request, socket);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
