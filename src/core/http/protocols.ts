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

const senders: Readonly<Record<string, () => Promise<ProtocolSender>>> = {};

/** The loader of the sender for a protocol method, or undefined for a plain HTTP method. */
export function protocolSenderFor(method: string): (() => Promise<ProtocolSender>) | undefined {
  return Object.hasOwn(senders, method) ? senders[method] : undefined;
}
