/** The shape shared by the two transports (./wire-transport.ts for HTTP/1.1, undici for HTTP/2 and proxies). */
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
  /** The request target when it is not the URL's path (asterisk-form `*`). */
  target?: string;
}

/**
 * Cancels one request (timeout or the caller's signal). A plain listener list: an
 * AbortController costs ~10 µs to create, on every request; `signal` makes one on demand
 * (the undici transport and the streaming pipeline need a real AbortSignal).
 */
export class Stopper {
  aborted = false;
  private listeners: Array<() => void> = [];
  private controller?: AbortController;

  /** Calls `listener` once when stopped (at once when already stopped). */
  onStop(listener: () => void): void {
    if (this.aborted) listener();
    else this.listeners.push(listener);
  }

  /** Forgets a listener given to onStop. */
  offStop(listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index >= 0) this.listeners.splice(index, 1);
  }

  /** Stops: runs the listeners in the order they were added, then aborts the signal if one was made. */
  stop(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
    this.controller?.abort();
  }

  /** An AbortSignal that follows this stopper. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort();
    }
    return this.controller.signal;
  }
}

export interface HopContext {
  stopper: Stopper;
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
  /** The body, encoded; the transport keeps an error listener on it, so a late error never crashes the process. */
  body: Readable;
  /**
   * The whole body as it arrived (still encoded), when all of it is in, it holds at most
   * `maxBytes` and nothing has read `body`; afterwards `body` is an ended stream. Undefined
   * otherwise, or missing where a transport always streams. Saves a stream per small response.
   */
  takeWholeBody?(maxBytes: number): Buffer[] | undefined;
  remoteAddress?: string;
  remotePort?: number;
  phases: Phases;
}

/** Sends one hop. */
export type Transport = (request: HopRequest, context: HopContext) => Promise<HopResponse>;
