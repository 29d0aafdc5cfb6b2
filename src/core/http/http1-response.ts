/**
 * Reads HTTP/1.1 responses off a byte stream: the status line, the header lines and the body's
 * framing (RFC 9112, section 6.3: no body after HEAD, 1xx, 204 and 304; chunked when Transfer-Encoding
 * ends in chunked; Content-Length; otherwise up to the connection's close). It is the response
 * half of ./wire-transport.ts, kept apart so tests can feed it bytes split anywhere.
 *
 * Strict where a lenient reading could mistake one response for another (response splitting):
 * CRLF line ends, token header names, no control characters in values, one Content-Length value,
 * never Content-Length beside Transfer-Encoding. Errors carry llhttp's `HPE_*` codes, as
 * node:http's did, so ./transport-errors.ts names them the same way.
 */
import type { HeaderList } from './types.js';

/** The head of a final response. */
export interface ParsedHead {
  status: number;
  statusText: string;
  httpVersion: string;
  headers: HeaderList;
  /** Whether the connection may carry another request once this response has ended. */
  keepAlive: boolean;
  /** The server's `Keep-Alive: timeout=N`, in ms (0 when not given). */
  keepAliveTimeoutMs: number;
}

/** Where a reader hands what it read. */
export interface ResponseSink {
  head(head: ParsedHead): void;
  /** A piece of the body, as framed (chunked framing removed, no decoding). */
  body(chunk: Buffer): void;
  /** The response has ended; `rest` is whatever followed it in the same read. */
  end(rest: Buffer | undefined): void;
}

/** Node's default is 16 KiB; APIs send large cookies and tokens (node:http was given 256 KiB). */
export const MAX_HEAD_BYTES = 256 * 1024;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const CONTROL = /[\0-\x08\n-\x1f\x7f]/;
const STATUS_LINE = /^HTTP\/1\.([01]) (\d{3})(?: ([^\0-\x08\n-\x1f\x7f]*))?$/;
const HEX = /^[0-9A-Fa-f]{1,15}$/;
const CRLF = 0x0a0d; // "\r\n" read as a little-endian uint16
const HEAD_END = '\r\n\r\n';

/** An error with an llhttp-style code, as node:http reported malformed responses. */
export function parseError(code: string, message: string): Error {
  return Object.assign(new Error(`Parse Error: ${message}`), { code });
}

const enum State {
  Head,
  Length,
  ChunkSize,
  ChunkData,
  ChunkEnd,
  Trailers,
  UntilClose,
  Done,
}

/** Parses the response to one request (`method` says whether it has a body: not after HEAD or CONNECT). */
export class ResponseReader {
  private state = State.Head;
  /** Bytes of a head, chunk-size line or trailer section not yet complete. */
  private pending: Buffer | undefined;
  /** Body bytes still to come (Content-Length or the current chunk). */
  private remaining = 0;
  private trailerBytes = 0;
  /** HEAD: no body. CONNECT: the answer ends at its head, and the connection is a tunnel dial closes (node:http did the same). */
  private readonly bodyless: boolean;
  private readonly tunnel: boolean;

  constructor(
    private readonly sink: ResponseSink,
    method: string,
  ) {
    this.tunnel = method === 'CONNECT';
    this.bodyless = this.tunnel || method === 'HEAD';
  }

  /** Feeds bytes read from the connection; throws a parse error (code HPE_*) on malformed input. */
  feed(chunk: Buffer): void {
    let data = chunk;
    let offset = 0;
    while (offset < data.length) {
      switch (this.state) {
        case State.Head: {
          // Empty lines before a status line are skipped, as llhttp skips them.
          if (!this.pending) while (offset < data.length && (data[offset] === 13 || data[offset] === 10)) offset++;
          if (offset === data.length) return;
          if (this.pending) {
            data = this.afterPending(data, offset);
            offset = 0;
          }
          const end = data.indexOf(HEAD_END, offset, 'latin1');
          if (end < 0) {
            if (data.length - offset > MAX_HEAD_BYTES) throw parseError('HPE_HEADER_OVERFLOW', 'Header overflow');
            this.pending = data.subarray(offset);
            checkPartialHead(this.pending);
            return;
          }
          if (end - offset > MAX_HEAD_BYTES) throw parseError('HPE_HEADER_OVERFLOW', 'Header overflow');
          const text = data.toString('latin1', offset, end);
          offset = end + 4;
          this.readHead(text);
          break;
        }
        case State.Length: {
          const take = Math.min(this.remaining, data.length - offset);
          this.sink.body(offset === 0 && take === data.length ? data : data.subarray(offset, offset + take));
          offset += take;
          this.remaining -= take;
          if (this.remaining === 0) this.finish(data, offset);
          break;
        }
        case State.UntilClose:
          this.sink.body(offset === 0 ? data : data.subarray(offset));
          return;
        case State.ChunkSize:
        case State.Trailers: {
          if (this.pending) {
            data = this.afterPending(data, offset);
            offset = 0;
          }
          const end = data.indexOf('\r\n', offset, 'latin1');
          if (end < 0) {
            if (data.length - offset > 4096 + MAX_HEAD_BYTES)
              throw parseError('HPE_HEADER_OVERFLOW', 'Header overflow');
            this.pending = data.subarray(offset);
            return;
          }
          const line = data.toString('latin1', offset, end);
          offset = end + 2;
          if (this.state === State.ChunkSize) this.readChunkSize(line);
          else if (line === '') this.finish(data, offset);
          else {
            this.trailerBytes += line.length + 2;
            if (this.trailerBytes > MAX_HEAD_BYTES) throw parseError('HPE_HEADER_OVERFLOW', 'Header overflow');
            if (!TOKEN.test(line.slice(0, line.indexOf(':'))) || CONTROL.test(line))
              throw parseError('HPE_INVALID_HEADER_TOKEN', 'Invalid trailer line');
          }
          break;
        }
        case State.ChunkData: {
          const take = Math.min(this.remaining, data.length - offset);
          this.sink.body(data.subarray(offset, offset + take));
          offset += take;
          this.remaining -= take;
          if (this.remaining === 0) this.state = State.ChunkEnd;
          break;
        }
        case State.ChunkEnd: {
          if (this.pending) {
            data = this.afterPending(data, offset);
            offset = 0;
          }
          if (data.length - offset < 2) {
            this.pending = data.subarray(offset);
            return;
          }
          if (data.readUInt16LE(offset) !== CRLF) throw parseError('HPE_STRICT', 'Expected CRLF after chunk data');
          offset += 2;
          this.state = State.ChunkSize;
          break;
        }
        case State.Done:
          return;
      }
    }
  }

  /** The bytes kept from the last read (an incomplete line or head) followed by this read's from `offset`. */
  private afterPending(data: Buffer, offset: number): Buffer {
    const joined = Buffer.concat([this.pending as Buffer, data.subarray(offset)]);
    this.pending = undefined;
    return joined;
  }

  /** The connection ended: completes a body read until close, or throws for a cut-off response. */
  close(): void {
    if (this.state === State.UntilClose) {
      this.state = State.Done;
      this.sink.end(undefined);
      return;
    }
    if (this.state !== State.Done) {
      const error = new Error(this.state === State.Head ? 'socket hang up' : 'aborted');
      throw Object.assign(error, { code: 'ECONNRESET' });
    }
  }

  private finish(data: Buffer, offset: number): void {
    this.state = State.Done;
    this.sink.end(offset < data.length ? data.subarray(offset) : undefined);
  }

  private readHead(text: string): void {
    const lines = text.split('\r\n');
    const statusMatch = STATUS_LINE.exec(lines[0]);
    if (!statusMatch) {
      throw lines[0].startsWith('HTTP/')
        ? parseError('HPE_INVALID_STATUS', 'Invalid status line')
        : parseError('HPE_INVALID_CONSTANT', 'Expected HTTP/');
    }
    const minor = statusMatch[1];
    const status = Number(statusMatch[2]);
    const headers: HeaderList = [];
    let contentLength = -1;
    let transferEncoding: string | undefined;
    let connection = '';
    let keepAliveHeader = '';
    for (let index = 1; index < lines.length; index++) {
      const line = lines[index];
      const first = line.charCodeAt(0);
      if (first === 0x20 || first === 0x09) {
        // obs-fold: a user agent replaces it with a space (RFC 9112, section 5.2).
        const last = headers[headers.length - 1];
        if (!last || CONTROL.test(line)) throw parseError('HPE_INVALID_HEADER_TOKEN', 'Invalid header line');
        last[1] = `${last[1]} ${line.trim()}`.trim();
        continue;
      }
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      if (!TOKEN.test(name)) throw parseError('HPE_INVALID_HEADER_TOKEN', 'Invalid header token');
      const value = trimOws(line.slice(colon + 1));
      if (CONTROL.test(value)) throw parseError('HPE_INVALID_HEADER_TOKEN', 'Invalid header value char');
      headers.push([name, value]);
      switch (name.length) {
        case 14:
          if (name.toLowerCase() === 'content-length') contentLength = readContentLength(value, contentLength);
          break;
        case 17:
          if (name.toLowerCase() === 'transfer-encoding')
            transferEncoding = transferEncoding === undefined ? value : `${transferEncoding}, ${value}`;
          break;
        case 10: {
          const lower = name.toLowerCase();
          if (lower === 'connection') connection += `,${value.toLowerCase()}`;
          else if (lower === 'keep-alive') keepAliveHeader = value;
          break;
        }
      }
    }
    if (status < 200 && status !== 101) return; // an interim response: the final one follows
    if (transferEncoding !== undefined && contentLength >= 0)
      throw parseError('HPE_UNEXPECTED_CONTENT_LENGTH', 'Content-Length can\u2019t be present with Transfer-Encoding');

    let keepAlive = minor === '1' ? !hasToken(connection, 'close') : hasToken(connection, 'keep-alive');
    if (this.bodyless || status === 204 || status === 304 || status === 101) {
      this.state = State.Done;
      if (status === 101 || this.tunnel) keepAlive = false;
    } else if (transferEncoding !== undefined) {
      if (lastCoding(transferEncoding) === 'chunked') this.state = State.ChunkSize;
      else {
        this.state = State.UntilClose;
        keepAlive = false;
      }
    } else if (contentLength >= 0) {
      this.remaining = contentLength;
      this.state = contentLength === 0 ? State.Done : State.Length;
    } else {
      this.state = State.UntilClose;
      keepAlive = false;
    }
    this.sink.head({
      status,
      statusText: statusMatch[3] ?? '',
      httpVersion: `1.${minor}`,
      headers,
      keepAlive,
      keepAliveTimeoutMs: keepAliveTimeout(keepAliveHeader),
    });
    if (this.state === State.Done) this.sink.end(undefined);
  }

  private readChunkSize(line: string): void {
    const semicolon = line.indexOf(';');
    const size = semicolon < 0 ? line : line.slice(0, semicolon);
    if (!HEX.test(size) || CONTROL.test(line))
      throw parseError('HPE_INVALID_CHUNK_SIZE', 'Invalid character in chunk size');
    this.remaining = parseInt(size, 16);
    this.state = this.remaining === 0 ? State.Trailers : State.ChunkData;
  }
}

/**
 * Fails a head that is still incomplete as soon as it cannot be HTTP: not starting with `HTTP/`
 * (another protocol's banner) or holding a line feed without its carriage return. Waiting for
 * the blank line that ends a head would wait for the timeout, as llhttp never did.
 */
function checkPartialHead(pending: Buffer): void {
  const prefix = pending.toString('latin1', 0, Math.min(5, pending.length));
  if (!'HTTP/'.startsWith(prefix)) throw parseError('HPE_INVALID_CONSTANT', 'Expected HTTP/');
  for (let at = pending.indexOf(10); at >= 0; at = pending.indexOf(10, at + 1))
    if (at === 0 || pending[at - 1] !== 13)
      throw parseError('HPE_CR_EXPECTED', 'Missing expected CR after header value');
}

/** The value without the spaces and tabs around it (optional whitespace, RFC 9110, section 5.6.3). */
function trimOws(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && (value.charCodeAt(start) === 0x20 || value.charCodeAt(start) === 0x09)) start++;
  while (end > start && (value.charCodeAt(end - 1) === 0x20 || value.charCodeAt(end - 1) === 0x09)) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

function readContentLength(value: string, previous: number): number {
  // "5, 5" and a repeated header with the same value are one length (RFC 9110, section 8.6); differing ones are an attack.
  let length = previous;
  for (const part of value.split(',')) {
    const text = trimOws(part);
    if (!/^\d{1,15}$/.test(text)) throw parseError('HPE_INVALID_CONTENT_LENGTH', 'Invalid character in Content-Length');
    const number = Number(text);
    if (length >= 0 && number !== length) throw parseError('HPE_UNEXPECTED_CONTENT_LENGTH', 'Duplicate Content-Length');
    length = number;
  }
  return length;
}

function hasToken(list: string, token: string): boolean {
  for (const part of list.split(',')) if (part.trim() === token) return true;
  return false;
}

/** The last transfer coding a Transfer-Encoding value names, lower-cased (`chunked` frames the body). */
export function lastCoding(transferEncoding: string): string {
  const codings = transferEncoding.split(',');
  return codings[codings.length - 1].trim().toLowerCase();
}

function keepAliveTimeout(header: string): number {
  const match = /(?:^|[\s,;])timeout=(\d+)/i.exec(header);
  return match ? Number(match[1]) * 1000 : 0;
}
