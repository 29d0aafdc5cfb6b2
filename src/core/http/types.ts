/**
 * The contract of the HTTP engine (docs/architecture.md). `send`, `run` and the
 * TUI all go through `sendRequest(request, options)` from ./index.ts.
 */
import type { Writable } from 'node:stream';

/** Header list in order; names keep the case they were written in. */
export type HeaderList = Array<[name: string, value: string]>;

/** One part of a multipart/form-data body. */
export interface MultipartPart {
  name: string;
  /** Text value, or the bytes of a file part. */
  value?: string;
  /** Path of a file to upload as this part (read at send time, streamed). */
  filePath?: string;
  filename?: string;
  contentType?: string;
}

/** What a request carries as its body. */
export type RequestBody =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  /** A file sent as is (streamed, never fully read into memory). */
  | { kind: 'file'; path: string }
  /** A stream such as piped stdin. */
  | { kind: 'stream'; stream: AsyncIterable<Uint8Array>; length?: number }
  /**
   * The engine writes the boundary and Content-Type header. `boundary` fixes the boundary
   * (so a printed request and the sent one agree); default a fresh random one per send.
   */
  | { kind: 'multipart'; parts: MultipartPart[]; boundary?: string };

/** The request head as the engine sends it (first hop), and the start of its body: see previewRequest. */
export interface RequestPreview {
  method: string;
  url: string;
  /** Every header sent: the engine's defaults (Host, Accept-Encoding, Connection, Content-Length…) included. */
  headers: HeaderList;
  /** The body bytes (up to the limit asked for); undefined for no body or a one-shot stream. */
  body?: Uint8Array;
  /** Byte length of the body when known. */
  bodySize?: number;
}

/** A fully resolved request: no `{{variables}}` left. */
export interface HttpRequest {
  method: string;
  url: string;
  headers: HeaderList;
  body: RequestBody;
  /** '2' asks for HTTP/2 (opt-in); default HTTP/1.1. */
  httpVersion?: '1.1' | '2';
  /**
   * Lower-case names of default headers the engine must NOT add (HTTPie's `Header:` item,
   * e.g. `User-Agent:`).
   */
  omitHeaders?: string[];
}

export interface TlsOptions {
  /** Verify the server certificate (default true). */
  verify: boolean;
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

/** Status line and headers, known before the body arrives. */
export interface ResponseHead {
  status: number;
  statusText: string;
  httpVersion: string;
  headers: HeaderList;
  url: string;
}

/** Where the response body goes. */
export type BodyTarget =
  /** Keep in memory up to `maxInMemoryBytes` (default 16 MiB), then spill to a temp file. */
  | {
      kind: 'buffer';
      maxInMemoryBytes?: number;
      /** Cap on the decoded body (E_BODY_TOO_LARGE past it, and past a 100:1 compression ratio beyond 64 MiB); default none. */
      maxBodyBytes?: number;
    }
  /**
   * Decide when the head is known: return a Writable to stream the (decoded) body into
   * (stdout, a download file) or null to buffer. The engine ends the Writable unless it is
   * process.stdout/stderr. Backpressure is honoured, so memory stays flat.
   */
  | { kind: 'stream'; open: (head: ResponseHead) => Writable | null | Promise<Writable | null> };

export interface SendOptions {
  /** Total time for the whole exchange, in ms (default 30 000). 0 = none. */
  timeoutMs?: number;
  /** Time to establish the connection, in ms (default: timeoutMs). */
  connectTimeoutMs?: number;
  followRedirects?: boolean;
  /** Default 10. */
  maxRedirects?: number;
  tls?: TlsOptions;
  /** Proxy URL; when undefined, HTTP_PROXY/HTTPS_PROXY/NO_PROXY from `env` apply. */
  proxy?: string;
  /** Environment to read proxy variables from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Decode gzip/deflate/br (default true). */
  decompress?: boolean;
  signal?: AbortSignal;
  bodyTarget?: BodyTarget;
  /** A cookie jar shared across requests of one run/file; undefined = no cookies kept. */
  cookieJar?: CookieJar;
  /** Called for each redirect hop before it is followed. */
  onRedirect?: (hop: RedirectHop) => void;
  /** Called with a warning the user should see (e.g. a redirect from https down to http); commands print it. */
  onWarning?: (message: string) => void;
  /** Streaming protocols (./protocols.ts): called with each message as it is sent or received. */
  onMessage?: (message: StreamMessage) => void;
}

/** One message of a streaming exchange (a server-sent event, a WebSocket or gRPC stream message). */
export interface StreamMessage {
  direction: 'sent' | 'received';
  /** The message text (binary WebSocket frames as base64). */
  data: string;
  /** SSE `event:` name, gRPC message type, … when the protocol has one. */
  event?: string;
  /** SSE `id:` when present. */
  id?: string;
  /** Milliseconds since the exchange started. */
  atMs: number;
}

/** A minimal cookie store (RFC 6265 subset) the engine reads and writes. */
export interface CookieJar {
  /** The Cookie header value for a URL, or undefined. */
  cookieHeaderFor(url: string): string | undefined;
  /** Store Set-Cookie values received from a URL. */
  store(url: string, setCookieValues: string[]): void;
}

export interface RedirectHop {
  status: number;
  from: string;
  to: string;
  method: string;
}

/** The response body once the exchange is over. */
export type ResponseBody =
  | { kind: 'memory'; bytes: Buffer }
  /** Larger than the in-memory limit: spilled to a temp file. */
  | { kind: 'file'; path: string; size: number }
  /** Written to the Writable from BodyTarget 'stream'. */
  | { kind: 'streamed'; size: number };

export interface HttpResponse extends ResponseHead {
  body: ResponseBody;
  /** Size of the decoded body in bytes. */
  size: number;
  remoteAddress?: string;
  remotePort?: number;
}

/** Milliseconds; phases that did not happen (reused connection, plain HTTP) are 0. */
export interface Timings {
  dns: number;
  connect: number;
  tls: number;
  /** From sending the request until the first response byte. */
  firstByte: number;
  /** Whole exchange including redirects and body. */
  total: number;
}

/** The request as sent on the wire (after redirects: the last one). */
export interface SentRequest {
  method: string;
  url: string;
  headers: HeaderList;
  /** A text preview of the body (up to 64 KiB) for display and history; undefined when none. */
  bodyPreview?: string;
  bodySize?: number;
}

/** One request/response pair with everything needed to show, test or record it. */
export interface Exchange {
  request: SentRequest;
  response: HttpResponse;
  timings: Timings;
  redirects: RedirectHop[];
}
