/**
 * HTTP/1.1 over node:net and node:tls (no proxy, no HTTP/2: those go to undici): dial writes
 * the request head itself and reads the response with ./http1-response.ts, on keep-alive
 * connections it pools per origin. node:http's client did this job until December 2026,
 * through an Agent, a ClientRequest, an IncomingMessage and a dozen events per request: ~0.37 M
 * instructions a request more than the bare sockets underneath (bench/HISTORY.md), the
 * largest part of a `dial run`.
 *
 * What goes on the wire is what node:http sent for the same HopRequest (tests/core/http/
 * wire-headers.test.ts reads it byte for byte): the request line, the headers dial built in
 * their order (a repeated name's lines side by side where it first appears), `Content-Length:
 * 0` for a bodiless method node framed itself, and a body chunk-encoded when Transfer-Encoding
 * says chunked. TLS follows node's https agent too: SNI from the Host header unless it is an IP
 * address, sessions kept per origin for resumption.
 */
import net from 'node:net';
import type tls from 'node:tls';
import { Readable } from 'node:stream';
import { nowMs } from '../clock.js';
import { ResponseReader, lastCoding, type ParsedHead, type ResponseSink } from './http1-response.js';
import { findHeader } from './request-head.js';
import type { HopContext, HopRequest, HopResponse, Phases } from './transport.js';
import type { HeaderList } from './types.js';

/** node:tls costs ~3 ms to load: only https:// URLs pay for it. */
let tlsModule: typeof tls | undefined;
/** The last TLS session of each origin, offered again on its next connection (as node's https agent does). */
const tlsSessions = new Map<string, Buffer>();
/** Idle keep-alive connections per origin; the most recently used is taken first (LIFO). */
const idleByOrigin = new Map<string, Connection[]>();
/** Connections carrying an exchange: closeWireConnections destroys them. */
const busy = new Set<Connection>();

/** Methods node:http sent without framing of its own; any other bodiless one got `Content-Length: 0`. */
const UNFRAMED_METHODS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);
/** What node:http refused in a header value (ERR_INVALID_CHAR) and in a path (ERR_UNESCAPED_CHARACTERS). */
const INVALID_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const INVALID_PATH = /[^\u0021-\u00ff]/;
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE', 'PUT', 'DELETE']);
/** How a connection the server closed under a request fails: reset, broken pipe, or closed before any answer. */
const CLOSED_UNDER_REQUEST = new Set(['ECONNRESET', 'EPIPE']);

/** Sends one HTTP/1.1 request over a pooled or new connection; resolves when the response head has arrived. */
export function sendOverWire(hop: HopRequest, context: HopContext): Promise<HopResponse> {
  const secure = hop.url.protocol === 'https:';
  if (secure && !tlsModule)
    return import('node:tls').then((module) => {
      tlsModule = module.default;
      return sendOverWire(hop, context);
    });
  const started = nowMs();
  return new Promise<HopResponse>((resolve, reject) => {
    let head: string;
    let body: Buffer | AsyncIterable<Uint8Array> | undefined;
    try {
      head = requestHead(hop);
      body = hop.body ? hop.recorder.wrap(hop.body.open()) : undefined;
    } catch (error) {
      reject(error as Error);
      return;
    }
    if (context.stopper.aborted) {
      reject(abortError());
      return;
    }
    const hostname = hop.url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(hop.url.port || (secure ? 443 : 80));
    const servername = secure ? serverName(hop.headers, hostname) : '';
    const origin = secure ? `https:${hostname}:${port}:${servername}:${context.tls.poolKey}` : `${hostname}:${port}`;
    const chunked = isChunked(hop.headers);
    const send = (fresh: boolean): void => {
      const reused = fresh ? undefined : takeIdle(origin);
      const connection =
        reused ??
        new Connection(
          secure
            ? connectTls(hostname, port, servername, origin, context)
            : net.connect({ host: hostname, port, noDelay: true }),
          origin,
        );
      // A kept connection the server closed as the request went out (its idle timer fired): an
      // idempotent request whose body can be written again goes once more on a new connection,
      // as browsers and undici do; anything else fails as node:http failed it.
      const retry = reused && replayable(hop.method, body) ? () => send(true) : undefined;
      const exchange = new Exchange(connection, hop.method, started, resolve, reject, retry);
      connection.begin(exchange);
      if (reused) exchange.ready = started;
      else exchange.watchConnect(context.connectTimeoutMs, secure);
      context.stopper.onStop(() => exchange.fail(abortError()));
      writeRequest(exchange, head, body, chunked);
    };
    send(false);
  });
}

/** Idempotent methods (RFC 9110, section 9.2.2) with no body or one held in memory. */
function replayable(method: string, body: Buffer | AsyncIterable<Uint8Array> | undefined): boolean {
  return IDEMPOTENT_METHODS.has(method) && (body === undefined || Buffer.isBuffer(body));
}

function writeRequest(
  exchange: Exchange,
  head: string,
  body: Buffer | AsyncIterable<Uint8Array> | undefined,
  chunked: boolean,
): void {
  const socket = exchange.connection.socket;
  if (body === undefined) {
    socket.write(head, 'latin1');
    exchange.requestWritten = true;
  } else if (Buffer.isBuffer(body)) {
    socket.cork();
    socket.write(head, 'latin1');
    writeBodyPiece(socket, body, chunked);
    if (chunked) socket.write('0\r\n\r\n', 'latin1');
    socket.uncork();
    exchange.requestWritten = true;
  } else {
    socket.write(head, 'latin1');
    void upload(exchange, body, chunked);
  }
}

/** A TLS connection with the hop's certificates, offering the origin's last session. */
function connectTls(
  hostname: string,
  port: number,
  servername: string,
  origin: string,
  context: HopContext,
): tls.TLSSocket {
  const options: tls.ConnectionOptions = {
    host: hostname,
    port,
    rejectUnauthorized: context.tls.rejectUnauthorized,
    session: tlsSessions.get(origin),
  };
  if (servername) options.servername = servername;
  if (context.tls.ca) options.ca = context.tls.ca;
  if (context.tls.cert) options.cert = context.tls.cert;
  if (context.tls.key) options.key = context.tls.key;
  const socket = (tlsModule as typeof tls).connect(options);
  socket.setNoDelay(true); // tls.connect does not pass noDelay on to its TCP socket
  socket.on('session', (session: Buffer) => tlsSessions.set(origin, session));
  return socket;
}

/** The name sent as SNI and checked against the certificate: the Host header's host, none for an IP address (node's https agent). */
function serverName(headers: HeaderList, hostname: string): string {
  const host = findHeader(headers, 'host');
  const name =
    host === undefined ? hostname : host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.split(':')[0];
  return net.isIP(name) ? '' : name;
}

/** Destroys pooled connections; with `keepIdle`, only those carrying an exchange (idle ones are unref'd). */
export function closeWireConnections(keepIdle = false): void {
  for (const connection of busy) connection.socket.destroy();
  busy.clear();
  if (keepIdle) return;
  for (const connections of idleByOrigin.values()) for (const connection of connections) connection.socket.destroy();
  idleByOrigin.clear();
}

/** The request line and headers, as node:http wrote them for the same hop. */
function requestHead(hop: HopRequest): string {
  const path = hop.target ?? (hop.url.pathname || '/') + hop.url.search;
  if (INVALID_PATH.test(path))
    throw Object.assign(new TypeError('Request path contains unescaped characters'), {
      code: 'ERR_UNESCAPED_CHARACTERS',
    });
  let head = `${hop.method} ${path} HTTP/1.1\r\n`;
  let framed = UNFRAMED_METHODS.has(hop.method) || hop.body !== undefined;
  const lines = hasRepeatedName(hop.headers) ? groupedByName(hop.headers) : hop.headers;
  for (const [name, value] of lines) {
    if (INVALID_HEADER_VALUE.test(value))
      throw Object.assign(new TypeError(`Invalid character in header content ["${name}"]`), {
        code: 'ERR_INVALID_CHAR',
      });
    head += `${name}: ${value}\r\n`;
    if (!framed && (name.length === 14 || name.length === 17)) {
      const key = name.toLowerCase();
      framed = key === 'content-length' || key === 'transfer-encoding';
    }
  }
  if (!framed) head += 'Content-Length: 0\r\n';
  return head + '\r\n';
}

function hasRepeatedName(headers: HeaderList): boolean {
  // Pairwise, lower-casing only names of equal length: no Set and no strings for the usual
  // handful of headers, on every request.
  for (let i = 1; i < headers.length; i++) {
    const name = headers[i][0];
    for (let j = 0; j < i; j++) {
      const other = headers[j][0];
      if (other.length === name.length && other.toLowerCase() === name.toLowerCase()) return true;
    }
  }
  return false;
}

/** A repeated name's lines side by side where it first appears, under its first spelling (node's setHeader). */
function groupedByName(headers: HeaderList): HeaderList {
  const groups = new Map<string, HeaderList>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    const group = groups.get(key);
    if (group) group.push([group[0][0], value]);
    else groups.set(key, [[name, value]]);
  }
  return [...groups.values()].flat();
}

function isChunked(headers: HeaderList): boolean {
  for (const [name, value] of headers)
    if (name.length === 17 && name.toLowerCase() === 'transfer-encoding' && lastCoding(value) === 'chunked')
      return true;
  return false;
}

function writeBodyPiece(socket: net.Socket, piece: Uint8Array, chunked: boolean): boolean {
  if (!chunked) return socket.write(piece);
  if (piece.length === 0) return true; // an empty chunk would end the body
  socket.write(`${piece.length.toString(16)}\r\n`, 'latin1');
  socket.write(piece);
  return socket.write('\r\n', 'latin1');
}

/** Writes a streamed request body, waiting for the socket to drain; a failure ends the exchange. */
async function upload(exchange: Exchange, source: AsyncIterable<Uint8Array>, chunked: boolean): Promise<void> {
  const socket = exchange.connection.socket;
  try {
    for await (const piece of source) {
      if (exchange.finished) return;
      if (!writeBodyPiece(socket, piece, chunked)) await drained(socket);
    }
    if (exchange.finished) return;
    if (chunked) socket.write('0\r\n\r\n', 'latin1');
    exchange.requestWritten = true;
  } catch (error) {
    exchange.fail(error as Error);
  }
}

function drained(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      socket.off('drain', done);
      socket.off('close', done);
      resolve();
    };
    socket.on('drain', done);
    socket.on('close', done);
  });
}

/** An idle connection to `origin` that can carry another request, or undefined. */
function takeIdle(origin: string): Connection | undefined {
  const connections = idleByOrigin.get(origin);
  if (!connections) return undefined;
  const now = nowMs();
  for (let connection = connections.pop(); connection; connection = connections.pop()) {
    // A server that said how long it keeps an idle connection closes it then: leave a second's
    // margin rather than write into a connection it is closing (node's agent did the same).
    const expired =
      connection.keepAliveTimeoutMs > 0 && now - connection.idleSince > connection.keepAliveTimeoutMs - 1000;
    if (!expired && !connection.socket.destroyed && connection.socket.writable) {
      connection.socket.ref();
      return connection;
    }
    connection.socket.destroy();
  }
  return undefined;
}

/** One pooled socket; its listeners stay for its life and pass events to the exchange it carries. */
class Connection {
  exchange: Exchange | undefined;
  idleSince = 0;
  keepAliveTimeoutMs = 0;

  constructor(
    readonly socket: net.Socket,
    readonly origin: string,
  ) {
    socket.on('data', (chunk: Buffer) => {
      if (this.exchange) this.exchange.data(chunk);
      else socket.destroy(); // bytes nobody asked for: the connection cannot be trusted with another request
    });
    socket.on('end', () => {
      if (this.exchange) this.exchange.ended();
      else socket.destroy();
    });
    // An idle connection's error is followed by its close, which drops it from the pool.
    socket.on('error', (error: Error) => this.exchange?.fail(error));
    socket.on('close', () => {
      this.exchange?.fail(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
      this.forget();
    });
  }

  begin(exchange: Exchange): void {
    this.exchange = exchange;
    busy.add(this);
  }

  /** The exchange is over: back to the pool when the connection can carry another, else closed. */
  release(reusable: boolean): void {
    this.exchange = undefined;
    busy.delete(this);
    if (!reusable || this.socket.destroyed) {
      this.socket.destroy();
      return;
    }
    this.idleSince = nowMs();
    this.socket.resume();
    // An idle connection holds nothing open: the process may exit with it (node's agent unref'd too).
    this.socket.unref();
    const connections = idleByOrigin.get(this.origin);
    if (connections) connections.push(this);
    else idleByOrigin.set(this.origin, [this]);
  }

  private forget(): void {
    busy.delete(this);
    const connections = idleByOrigin.get(this.origin);
    const index = connections ? connections.indexOf(this) : -1;
    if (index >= 0) connections!.splice(index, 1);
  }
}

/** One request and its response on a connection. */
class Exchange implements ResponseSink {
  readonly reader: ResponseReader;
  readonly phases: Phases = { dns: 0, connect: 0, tls: 0, firstByte: 0 };
  ready: number | undefined;
  /** The whole request went to the socket (a connection is reused only then). */
  requestWritten = false;
  /** The response ended or the exchange failed. */
  finished = false;
  private settled = false;
  /** Bytes of the response arrived (a retry is safe only before). */
  private answered = false;
  /** The body stream, made when something reads `body` (./send.ts takes a small whole body without one). */
  private responseBody: WireBody | undefined;
  /** Body bytes that arrived before a stream was made (up to COLLECTED_BYTES). */
  private collected: Buffer[] = [];
  private collectedBytes = 0;
  /** The whole response arrived. */
  private complete = false;
  /** Why the exchange failed after its head: a stream made later errors with it. */
  private failure: Error | undefined;
  private keepAlive = false;
  private connectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly connection: Connection,
    method: string,
    private readonly started: number,
    private readonly resolve: (response: HopResponse) => void,
    private readonly reject: (error: Error) => void,
    private readonly retry: (() => void) | undefined,
  ) {
    this.reader = new ResponseReader(this, method);
  }

  /** A new connection: times DNS, connect and TLS, and stops it at the connect limit (the handshake included). */
  watchConnect(connectTimeoutMs: number, secure: boolean): void {
    const socket = this.connection.socket;
    if (connectTimeoutMs > 0)
      this.connectTimer = setTimeout(() => {
        socket.destroy(Object.assign(new Error('connect timeout'), { code: 'DIAL_CONNECT_TIMEOUT' }));
      }, connectTimeoutMs);
    let connectStart = this.started;
    socket.once('lookup', () => {
      connectStart = nowMs();
      this.phases.dns = connectStart - this.started;
    });
    socket.once('connect', () => {
      const now = nowMs();
      this.phases.connect = now - connectStart;
      if (secure) {
        socket.once('secureConnect', () => {
          this.ready = nowMs();
          this.phases.tls = this.ready - now;
          clearTimeout(this.connectTimer);
        });
        return;
      }
      this.ready = now;
      clearTimeout(this.connectTimer);
    });
  }

  data(chunk: Buffer): void {
    this.answered = true;
    try {
      this.reader.feed(chunk);
    } catch (error) {
      this.fail(error as Error);
    }
  }

  /** The server closed its side: the end of a body read until close, or a cut-off response. */
  ended(): void {
    try {
      this.reader.close();
    } catch (error) {
      this.fail(error as Error);
    }
  }

  head(parsed: ParsedHead): void {
    clearTimeout(this.connectTimer);
    const socket = this.connection.socket;
    this.phases.firstByte = nowMs() - (this.ready ?? this.started);
    this.keepAlive = parsed.keepAlive;
    this.connection.keepAliveTimeoutMs = parsed.keepAliveTimeoutMs;
    this.settled = true;
    this.resolve(new WireResponse(this, parsed, socket.remoteAddress, socket.remotePort));
  }

  body(chunk: Buffer): void {
    if (!this.responseBody) {
      if (this.collectedBytes + chunk.length <= COLLECTED_BYTES) {
        this.collected.push(chunk);
        this.collectedBytes += chunk.length;
        return;
      }
      this.stream();
    }
    if (!(this.responseBody as WireBody).push(chunk)) this.connection.socket.pause();
  }

  end(rest: Buffer | undefined): void {
    if (this.finished) return;
    this.finished = true;
    this.complete = true;
    this.responseBody?.push(null);
    // Bytes past the response, or a request still being written, leave the connection unusable.
    this.connection.release(this.keepAlive && this.requestWritten && rest === undefined);
  }

  /** The body as a stream, made on first use with what arrived before it. */
  stream(): WireBody {
    if (this.responseBody) return this.responseBody;
    const body = new WireBody(this);
    this.responseBody = body;
    for (const chunk of this.collected) body.push(chunk);
    this.collected = [];
    if (this.complete) body.push(null);
    else if (this.failure) body.destroy(this.failure);
    return body;
  }

  /** The whole body when it has all arrived, holds at most `maxBytes` and no stream was made. */
  takeWholeBody(maxBytes: number): Buffer[] | undefined {
    if (this.responseBody || !this.complete || this.collectedBytes > maxBytes) return undefined;
    const chunks = this.collected;
    this.collected = [];
    // Read whole: `body` is an ended stream from now on.
    this.responseBody = new WireBody(undefined);
    this.responseBody.push(null);
    return chunks;
  }

  /** Fails the exchange: before the head, the send rejects; after it, the body errors. */
  fail(error: Error): void {
    if (this.finished) return;
    this.finished = true;
    clearTimeout(this.connectTimer);
    this.connection.release(false);
    if (!this.settled) {
      this.settled = true;
      const code = (error as { code?: unknown }).code;
      if (this.retry && !this.answered && typeof code === 'string' && CLOSED_UNDER_REQUEST.has(code)) this.retry();
      else this.reject(error);
    } else {
      this.failure = error;
      this.responseBody?.destroy(error);
    }
  }

  /** The body's reader wants more. */
  resume(): void {
    if (!this.finished) this.connection.socket.resume();
  }
}

/** The head of a response; its body is made a stream only when read. */
class WireResponse implements HopResponse {
  readonly status: number;
  readonly statusText: string;
  readonly httpVersion: string;
  readonly headers: HeaderList;
  readonly phases: Phases;

  constructor(
    private readonly exchange: Exchange,
    head: ParsedHead,
    readonly remoteAddress: string | undefined,
    readonly remotePort: number | undefined,
  ) {
    this.status = head.status;
    this.statusText = head.statusText;
    this.httpVersion = head.httpVersion;
    this.headers = head.headers;
    this.phases = exchange.phases;
  }

  get body(): Readable {
    return this.exchange.stream();
  }

  takeWholeBody(maxBytes: number): Buffer[] | undefined {
    return this.exchange.takeWholeBody(maxBytes);
  }
}

/** The response body as a stream: bytes as the reader frames them, the socket paused when it fills. */
class WireBody extends Readable {
  constructor(private readonly exchange: Exchange | undefined) {
    super();
    // A late error (the send already failed or finished) must not crash the process.
    this.on('error', noop);
  }

  override _read(): void {
    this.exchange?.resume();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    // Dropped before its end (a redirect's large body, a stop): the rest is never read, so the
    // connection goes with it.
    if (this.exchange && !this.exchange.finished) this.exchange.fail(error ?? abortError());
    callback(error);
  }
}

function noop(): void {}

/** Body bytes kept without a stream while nothing reads them; past this, a stream with backpressure. */
const COLLECTED_BYTES = 64 * 1024;

function abortError(): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}
