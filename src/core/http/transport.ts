/** The shape shared by the two transports (node:http for HTTP/1.1, undici for HTTP/2 and proxies). */
import type { Readable } from 'node:stream';
import type { BodyRecorder, PreparedBody } from './body.js';
import type { HeaderList } from './types.js';

/** TLS material read from the files named in TlsOptions. */
export interface TlsMaterial {
  rejectUnauthorized: boolean;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** Identifies this combination (pools are not shared across different TLS settings). */
  poolKey: string;
}

/** One request on the wire (one redirect hop). */
export interface HopRequest {
  method: string;
  url: URL;
  headers: HeaderList;
  body?: PreparedBody;
  recorder: BodyRecorder;
}

export interface HopContext {
  signal: AbortSignal;
  /** 0 = no separate connect limit. */
  connectTimeoutMs: number;
  tls: TlsMaterial;
  httpVersion: '1.1' | '2';
  proxy?: string;
}

/** Phase timings of one hop, in ms (0 when the phase did not happen). */
export interface Phases {
  dns: number;
  connect: number;
  tls: number;
  firstByte: number;
}

/** The response head of one hop, with its still unread (encoded) body. */
export interface HopResponse {
  status: number;
  statusText: string;
  httpVersion: string;
  headers: HeaderList;
  body: Readable;
  remoteAddress?: string;
  remotePort?: number;
  phases: Phases;
}

/** Sends one hop. */
export type Transport = (request: HopRequest, context: HopContext) => Promise<HopResponse>;
