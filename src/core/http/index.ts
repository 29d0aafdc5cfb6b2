/**
 * The HTTP engine (docs/architecture.md): `sendRequest`, `createCookieJar`, `closeConnections`.
 *
 * ARCHITECTURE DECISION (measured): undici costs 28-60 ms of start-up even when bundled,
 * while `dial send` may spend ~12 ms over `node -e 0` (the start-up budget). So HTTP/1.1 runs on
 * dial's own client over node:net / node:tls (./wire-transport.ts: built-in modules, no load
 * cost, and a fraction of node:http's work per request) with keep-alive connections pooled per
 * origin for the life of the process. undici 7 is imported lazily, only when a request asks for
 * HTTP/2 (Agent with allowH2) or when a proxy applies (`proxy` option, else HTTP(S)_PROXY minus
 * NO_PROXY). Keep this file and the modules it imports statically free of heavy dependencies:
 * importing it must do nothing but define.
 */
export type * from './types.js';
export { sendRequest } from './send.js';
export { previewRequest } from './request-head.js';
export { multipartBoundary } from './body.js';
export { createCookieJar } from './cookies.js';
export { closeConnections } from './pool.js';
export { releaseBody } from './body-sinks.js';
export { guessContentType } from './mime.js';
export { proxyFor, proxyVariables } from './proxy.js';
