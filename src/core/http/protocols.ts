/**
 * Requests that are not plain HTTP exchanges (WebSocket, gRPC, server-sent events…) travel
 * through the same `sendRequest` seam, so `send`, `run` and the workbench get them without
 * knowing which protocol a request speaks. The parser names such a request by its protocol
 * method (httpfile/methods.ts PROTOCOL_METHODS); each sender lives in its own module, loaded on
 * first use so plain HTTP never pays for it. A sender answers with an ordinary Exchange (its
 * status, headers, and a body the assertions and scripts can read) and reports each message
 * as it arrives through `SendOptions.onMessage`.
 */
import type { Exchange, HttpRequest, SendOptions } from './types.js';

export type ProtocolSender = (request: HttpRequest, options: SendOptions) => Promise<Exchange>;

const senders: Readonly<Record<string, () => Promise<ProtocolSender>>> = {
  WEBSOCKET: () => import('./websocket/index.js').then((m) => m.sendWebSocket),
  // gRPC (JetBrains, kulala, httpyac): unary and server streaming (docs/grpc.md).
  GRPC: () => import('./grpc/send.js').then((m) => m.sendGrpc),
};

/** GraphQL subscriptions over WebSocket (graphql-transport-ws): a GRAPHQL request to a ws:// or wss:// URL. */
const graphqlOverWebSocket = (): Promise<ProtocolSender> =>
  import('./websocket/index.js').then((m) => m.sendGraphqlOverWebSocket);

/** True for a WebSocket conversation: a WEBSOCKET request, or GraphQL to a ws:// or wss:// URL (a subscription). */
export function isWebSocketRequest(request: { method: string; url: string }): boolean {
  return request.method === 'WEBSOCKET' || isGraphqlOverWebSocket(request.method, request.url);
}

function isGraphqlOverWebSocket(method: string, url: string): boolean {
  return method === 'GRAPHQL' && /^wss?:\/\//i.test(url);
}

/** The loader of the sender for a protocol method, or undefined for a plain HTTP method. */
export function protocolSenderFor(method: string, url = ''): (() => Promise<ProtocolSender>) | undefined {
  if (isGraphqlOverWebSocket(method, url)) return graphqlOverWebSocket;
  return Object.hasOwn(senders, method) ? senders[method] : undefined;
}
