/**
 * The echo server's WebSocket endpoints (docs/websocket.md), so WebSocket examples run offline:
 *
 * - `/ws`: sends every message back as it came (text as text, binary as binary);
 * - `/graphql`: GraphQL over WebSocket (the graphql-transport-ws protocol): `connection_init`
 *   is acknowledged, `ping` answered, and each `subscribe` streams `count` (a variable, default
 *   3) `next` messages naming the operation's first field, then `complete`. A stand-in for a
 *   GraphQL server, not an executor: it does not read a schema.
 *
 * `ws`'s WebSocketServer is loaded on the first upgrade, so a plain HTTP echo never loads it.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData, WebSocket, WebSocketServer } from 'ws';

let server: Promise<WebSocketServer> | undefined;

async function webSocketServer(): Promise<WebSocketServer> {
  server ??= import('ws').then((ws) => new ws.WebSocketServer({ noServer: true }));
  return server;
}

/** The endpoints by path. */
const ENDPOINTS: Readonly<Record<string, (socket: WebSocket) => void>> = {
  '/ws': echoMessages,
  '/graphql': graphqlTransportWs,
};

/** Answers an upgrade request: one of the endpoints, or 404 as plain HTTP. Resolves with the status sent. */
export async function handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<number> {
  const path = new URL(request.url ?? '/', 'http://echo.local').pathname.replace(/\/+$/, '');
  const endpoint = Object.hasOwn(ENDPOINTS, path) ? ENDPOINTS[path] : undefined;
  if (!endpoint || (request.headers.upgrade ?? '').toLowerCase() !== 'websocket') {
    const body = JSON.stringify({
      error: `no WebSocket endpoint at ${path || '/'}`,
      endpoints: Object.keys(ENDPOINTS),
    });
    socket.end(
      `HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    return 404;
  }
  const wss = await webSocketServer();
  return new Promise<number>((resolve) => {
    wss.handleUpgrade(request, socket, head, (client) => {
      endpoint(client);
      resolve(101);
    });
  });
}

function echoMessages(socket: WebSocket): void {
  socket.on('message', (data: RawData, isBinary: boolean) => socket.send(data, { binary: isBinary }));
}

interface GraphqlMessage {
  type?: string;
  id?: string;
  payload?: { query?: string; variables?: Record<string, unknown> | null; operationName?: string | null };
}

const OPERATION_FIELD_RE = /^\s*(?:(query|mutation|subscription)\b[^{]*)?\{\s*(\w+)/;

/** graphql-transport-ws: init/ack, ping/pong, and subscribe → `count` next messages → complete. */
function graphqlTransportWs(socket: WebSocket): void {
  let acknowledged = false;
  const running = new Map<string, ReturnType<typeof setInterval>>();
  const send = (message: object): void => socket.send(JSON.stringify(message));
  socket.on('close', () => {
    for (const timer of running.values()) clearInterval(timer);
  });
  socket.on('message', (data: RawData) => {
    let message: GraphqlMessage;
    try {
      message = JSON.parse(Buffer.from(data as Buffer).toString('utf8')) as GraphqlMessage;
    } catch {
      socket.close(4400, 'Invalid message received');
      return;
    }
    switch (message.type) {
      case 'connection_init':
        acknowledged = true;
        send({ type: 'connection_ack' });
        return;
      case 'ping':
        send({ type: 'pong' });
        return;
      case 'pong':
        return;
      case 'subscribe':
        if (!acknowledged) return socket.close(4401, 'Unauthorized');
        return subscribe(message, running, send, socket);
      case 'complete':
        if (message.id) clearInterval(running.get(message.id));
        if (message.id) running.delete(message.id);
        return;
      default:
        socket.close(4400, `Unknown message type '${String(message.type)}'`);
    }
  });
}

function subscribe(
  message: GraphqlMessage,
  running: Map<string, ReturnType<typeof setInterval>>,
  send: (message: object) => void,
  socket: WebSocket,
): void {
  const id = message.id ?? '';
  if (running.has(id)) return socket.close(4409, `Subscriber for ${id} already exists`);
  const match = OPERATION_FIELD_RE.exec(message.payload?.query ?? '');
  if (!match) {
    send({ id, type: 'error', payload: [{ message: 'the echo server could not read the operation' }] });
    return;
  }
  const [, operation = 'query', field] = match;
  const variables = message.payload?.variables ?? {};
  const wanted = operation === 'subscription' ? Number(variables.count ?? 3) : 1;
  const count = Number.isInteger(wanted) && wanted > 0 ? Math.min(wanted, 1000) : 3;
  let sent = 0;
  const tick = (): void => {
    sent++;
    send({ id, type: 'next', payload: { data: { [field]: { count: sent, variables } } } });
    if (sent >= count) {
      clearInterval(running.get(id));
      running.delete(id);
      send({ id, type: 'complete' });
    }
  };
  running.set(id, setInterval(tick, 20));
}
