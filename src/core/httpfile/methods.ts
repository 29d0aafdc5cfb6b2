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
export const PROTOCOL_METHODS: Readonly<Record<string, string>> = {
  // GraphQL (JetBrains `GRAPHQL url`): sent as a POST of {query, variables, operationName} (core/session/graphql.ts);
  // to a ws:// URL, a subscription over graphql-transport-ws (docs/websocket.md).
  GRAPHQL: 'GRAPHQL',
  // Server-sent events (httpyac `SSE url`, `EVENTSOURCE url`): a GET read as an event stream (core/http/sse.ts).
  SSE: 'SSE',
  EVENTSOURCE: 'SSE',
  // WebSocket: JetBrains `WEBSOCKET`, httpyac `WS`/`WSS` (docs/websocket.md).
  WEBSOCKET: 'WEBSOCKET',
  WS: 'WEBSOCKET',
  WSS: 'WEBSOCKET',
  // gRPC: `GRPC host:port/package.Service/Method` (docs/grpc.md).
  GRPC: 'GRPC',
};

/** Protocol keywords of JetBrains, httpyac and kulala that dial recognises but does not send yet. */
export const PROTOCOL_KEYWORDS: Readonly<Record<string, string>> = {
  MQTT: 'MQTT',
  AMQP: 'AMQP',
  RABBITMQ: 'AMQP',
};

/**
 * Methods REST Client also reads in lower or mixed case (`post https://…`, `Get https://…`): its
 * request-line pattern is case-insensitive and its HTTP client sends the method upper-cased.
 */
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
  return KNOWN_METHODS.has(word) || LOWERCASE_METHODS.has(word.toLowerCase());
}
