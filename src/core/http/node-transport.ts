/**
 * HTTP/1.1 over node:http / node:https: built in, so it costs nothing to load (see the
 * decision at the top of ./index.ts). Keep-alive agents pool sockets per origin.
 */
import http from 'node:http';
import type https from 'node:https';
import type { Socket } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { nowMs } from '../clock.js';
import type { HopContext, HopRequest, HopResponse, Phases } from './transport.js';
import type { HeaderList } from './types.js';

let httpAgent: http.Agent | undefined;
let httpsAgent: https.Agent | undefined;
/** node:https (and with it node:tls) costs ~3 ms to load: only https:// URLs pay for it. */
let httpsModule: typeof https | undefined;

function agentFor(secure: boolean): http.Agent {
  // One keep-alive agent per scheme; an agent keeps a separate pool per host:port and per
  // TLS option set (ca/cert/key/rejectUnauthorized are part of its pool key).
  if (secure) return (httpsAgent ??= new (httpsModule as typeof https).Agent({ keepAlive: true, scheduling: 'lifo' }));
  return (httpAgent ??= new http.Agent({ keepAlive: true, scheduling: 'lifo' }));
}

/** Destroys the pooled keep-alive sockets; with `keepIdle`, only an agent with a socket in use or a request waiting. */
export function closeNodeAgents(keepIdle = false): void {
  for (const agent of [httpAgent, httpsAgent]) {
    const busy = agent && (Object.keys(agent.sockets).length > 0 || Object.keys(agent.requests).length > 0);
    if (agent && (busy || !keepIdle)) agent.destroy();
  }
  httpAgent = undefined;
  httpsAgent = undefined;
}

function groupHeaders(headers: HeaderList): Map<string, { name: string; values: string[] }> {
  const grouped = new Map<string, { name: string; values: string[] }>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    const entry = grouped.get(key);
    if (entry) entry.values.push(value);
    else grouped.set(key, { name, values: [value] });
  }
  return grouped;
}

/** Methods node:http sends without framing headers of its own (no Content-Length or Transfer-Encoding added). */
const UNFRAMED_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * The headers in node:http's raw form (`[name, value, name, value…]`, as `rawHeaders`), which
 * its `headers` option writes as given, or undefined where request.setHeader must be used. The
 * raw form skips a setHeader per header (~9K instructions a request) and puts the same lines on
 * the wire: node frames a request itself only for a method it expects a body with that has no
 * Content-Length or Transfer-Encoding (it adds `Content-Length: 0` at end()), and setHeader
 * puts a repeated name's values together, so those two cases keep setHeader.
 */
function rawHeaders(method: string, headers: HeaderList): string[] | undefined {
  let framed = UNFRAMED_METHODS.has(method);
  const raw: string[] = [];
  const keys: string[] = [];
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    if (keys.includes(key)) return undefined;
    keys.push(key);
    raw.push(name, value);
    if (key === 'content-length' || key === 'transfer-encoding') framed = true;
  }
  return framed ? raw : undefined;
}

function rawToList(raw: string[]): HeaderList {
  const list: HeaderList = [];
  for (let index = 0; index + 1 < raw.length; index += 2) list.push([raw[index], raw[index + 1]]);
  return list;
}

function connectTimeoutError(): Error {
  return Object.assign(new Error('connect timeout'), { code: 'DIAL_CONNECT_TIMEOUT' });
}

/**
 * The answer to a CONNECT: dial shows it and closes the tunnel (what sending CONNECT from a
 * .http file means, as httpyac does); the body is empty.
 */
function tunnelAnswer(response: http.IncomingMessage, socket: Socket, phases: Phases): HopResponse {
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    httpVersion: response.httpVersion,
    headers: rawToList(response.rawHeaders),
    body: Readable.from([]),
    remoteAddress: socket.remoteAddress,
    remotePort: socket.remotePort,
    phases,
  };
}

/** node:http's options for one hop (the headers in raw form when given). */
function requestOptions(
  hop: HopRequest,
  context: HopContext,
  secure: boolean,
  raw: string[] | undefined,
): https.RequestOptions {
  const options: https.RequestOptions = {
    protocol: hop.url.protocol,
    hostname: hop.url.hostname.replace(/^\[|\]$/g, ''),
    port: hop.url.port || (secure ? 443 : 80),
    path: hop.target ?? (hop.url.pathname || '/') + hop.url.search,
    method: hop.method,
    agent: agentFor(secure),
    setHost: false,
    // APIs sometimes send large cookies or tokens; node's 16 KiB default is too tight.
    maxHeaderSize: 256 * 1024,
  };
  if (raw) options.headers = raw;
  if (secure) {
    options.rejectUnauthorized = context.tls.rejectUnauthorized;
    if (context.tls.ca) options.ca = context.tls.ca;
    if (context.tls.cert) options.cert = context.tls.cert;
    if (context.tls.key) options.key = context.tls.key;
  }
  return options;
}

/** Sends one HTTP/1.1 request and resolves when the response head has arrived. */
export async function sendWithNode(hop: HopRequest, context: HopContext): Promise<HopResponse> {
  const secure = hop.url.protocol === 'https:';
  if (secure) httpsModule ??= (await import('node:https')).default;
  const started = nowMs();
  const phases: Phases = { dns: 0, connect: 0, tls: 0, firstByte: 0 };
  let ready: number | undefined;

  return new Promise<HopResponse>((resolve, reject) => {
    let settled = false;
    const fail = (error: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      reject(error);
    };

    const raw = rawHeaders(hop.method, hop.headers);
    const options = requestOptions(hop, context, secure, raw);
    const request = (secure ? (httpsModule as typeof https) : http).request(options);
    if (!raw) {
      for (const { name, values } of groupHeaders(hop.headers).values())
        request.setHeader(name, values.length === 1 ? values[0] : values);
    }

    // Not the `signal` request option: node wires that through addAbortSignal + end-of-stream
    // (a dozen listeners per request). The stopper belongs to this one request, so a plain
    // listener that is never removed is enough.
    context.stopper.onStop(() => {
      request.destroy(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' }));
    });

    // Set only when a connection is made: a reused keep-alive socket (most requests of a run)
    // has no connect phase, so no timer to set and clear.
    let connectTimer: ReturnType<typeof setTimeout> | undefined;
    const markReady = (): void => {
      ready = nowMs();
      clearTimeout(connectTimer);
    };

    // `on`, not `once`, for the events a request emits once ('socket', 'response', 'connect'): once()
    // wraps each listener in a state object and a bound function, three per request.
    request.on('socket', (socket: Socket) => {
      if (!socket.connecting) {
        // A reused keep-alive socket: no DNS, connect or TLS phase.
        markReady();
        return;
      }
      // The limit runs from the send, as before the socket was known: the time already spent counts.
      if (context.connectTimeoutMs > 0 && !settled) {
        connectTimer = setTimeout(
          () => request.destroy(connectTimeoutError()),
          Math.max(1, context.connectTimeoutMs - (nowMs() - started)),
        );
      }
      let connectStart = started;
      socket.once('lookup', () => {
        const now = nowMs();
        phases.dns = now - started;
        connectStart = now;
      });
      socket.once('connect', () => {
        const now = nowMs();
        phases.connect = now - connectStart;
        if (!secure) markReady();
        else
          socket.once('secureConnect', () => {
            phases.tls = nowMs() - now;
            markReady();
          });
      });
    });

    // Stays for the request's life: a late error (the server answered before reading the whole
    // upload) must not crash the process, and fail() ignores it once settled.
    request.on('error', fail);
    // CONNECT: node hands the answer over as a tunnel, not a response (see tunnelAnswer).
    if (hop.method === 'CONNECT') {
      request.on('connect', (response: http.IncomingMessage, socket: Socket) => {
        socket.destroy();
        if (settled) return;
        settled = true;
        clearTimeout(connectTimer);
        phases.firstByte = nowMs() - (ready ?? started);
        resolve(tunnelAnswer(response, socket, phases));
      });
    }
    request.on('response', (response: http.IncomingMessage) => {
      if (settled) {
        response.destroy();
        return;
      }
      settled = true;
      clearTimeout(connectTimer);
      phases.firstByte = nowMs() - (ready ?? started);
      resolve({
        status: response.statusCode ?? 0,
        statusText: response.statusMessage ?? '',
        httpVersion: response.httpVersion,
        headers: rawToList(response.rawHeaders),
        body: response,
        remoteAddress: response.socket?.remoteAddress,
        remotePort: response.socket?.remotePort,
        phases,
      });
    });

    if (!hop.body) {
      request.end();
      return;
    }
    let source: Buffer | AsyncIterable<Uint8Array>;
    try {
      source = hop.recorder.wrap(hop.body.open());
    } catch (error) {
      request.destroy();
      fail(error as Error);
      return;
    }
    if (Buffer.isBuffer(source)) {
      request.end(source);
      return;
    }
    pipeline(Readable.from(source, { objectMode: false }), request).catch((error: Error) => {
      if (!request.destroyed) request.destroy(error);
      fail(error);
    });
  });
}
