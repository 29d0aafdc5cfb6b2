/**
 * What may stand first on a request line: the HTTP methods dial sends, and the protocol
 * keywords other `.http` tools use for things dial does not speak yet (refused, never sent).
 */

/** Standard (RFC 9110, PATCH, QUERY) and WebDAV/CalDAV/versioning methods, plus common extension ones. */
export const KNOWN_METHODS: ReadonlySet<string> = new Set([
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'CONNECT',
  'OPTIONS',
  'TRACE',
  'PATCH',
  'QUERY',
  'PROPFIND',
  'PROPPATCH',
  'MKCOL',
  'COPY',
  'MOVE',
  'LOCK',
  'UNLOCK',
  'SEARCH',
  'REPORT',
  'MKACTIVITY',
  'CHECKOUT',
  'CHECKIN',
  'UNCHECKOUT',
  'MERGE',
  'VERSION-CONTROL',
  'UPDATE',
  'LABEL',
  'MKWORKSPACE',
  'BASELINE-CONTROL',
  'MKCALENDAR',
  'ACL',
  'BIND',
  'UNBIND',
  'REBIND',
  'ORDERPATCH',
  'MKREDIRECTREF',
  'UPDATEREDIRECTREF',
  'LINK',
  'UNLINK',
  'PURGE',
  'NOTIFY',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'M-SEARCH',
]);

/**
 * Protocol keywords dial sends, each mapped to the method name the rest of dial sees (the
 * engine's `protocolSenderFor` picks the sender by it). One line per spelling.
 */
export const PROTOCOL_METHODS: Readonly<Record<string, string>> = {};

/** Protocol keywords of JetBrains, httpyac and kulala that dial recognises but does not send yet. */
export const PROTOCOL_KEYWORDS: Readonly<Record<string, string>> = {
  GRAPHQL: 'GraphQL',
  SSE: 'server-sent events',
  EVENTSOURCE: 'server-sent events',
  WEBSOCKET: 'WebSocket',
  WS: 'WebSocket',
  WSS: 'WebSocket',
  GRPC: 'gRPC',
  MQTT: 'MQTT',
  AMQP: 'AMQP',
  RABBITMQ: 'AMQP',
};

/** Lower-case methods REST Client also reads (`post https://…`). */
export const LOWERCASE_METHODS: ReadonlySet<string> = new Set([
  'get',
  'post',
  'put',
  'patch',
  'delete',
  'head',
  'options',
  'trace',
  'connect',
]);

/** True when `word` is a method dial sends, in any case REST Client accepts. */
export function isKnownMethod(word: string): boolean {
  return KNOWN_METHODS.has(word) || LOWERCASE_METHODS.has(word);
}
