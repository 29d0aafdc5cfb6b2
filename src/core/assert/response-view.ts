/**
 * A read-only view of one response for assertions and scripts: the body is decoded and
 * parsed at most once, and only when something asks for it.
 */
import { readFile } from 'node:fs/promises';
import type { Exchange, HeaderList } from '../http/types.js';

export interface ResponseView {
  status: number;
  statusText: string;
  headers: HeaderList;
  durationMs: number;
  /** The first value of a header (case-insensitive), or undefined. */
  header(name: string): string | undefined;
  /** Every value of a header (case-insensitive). */
  headerValues(name: string): string[];
  mimeType: string;
  charset: string;
  isJson: boolean;
  /** The decoded body text ('' when none). */
  text(): string;
  /** The parsed JSON body; undefined when the body is not JSON. */
  json(): unknown;
  /** Parsed JSON when the body is JSON, else the text (what `response.body` is in scripts). */
  body(): unknown;
}

function decode(bytes: Buffer, charset: string): string {
  const cs = charset.toLowerCase();
  if (cs === '' || cs === 'utf-8' || cs === 'utf8') return bytes.toString('utf8');
  if (cs === 'iso-8859-1' || cs === 'latin1' || cs === 'us-ascii') return bytes.toString('latin1');
  try {
    return new TextDecoder(cs).decode(bytes);
  } catch {
    return bytes.toString('utf8');
  }
}

/**
 * The view as a class: an object literal with a getter (`get isJson()`) gets its own hidden
 * class per instance, and that class (in old space) kept every view, its exchange and body
 * alive until the next full GC — the RSS of `dial run` grew with the number of requests.
 * Prototype methods also spare eight closures per response.
 */
class BodyView implements ResponseView {
  readonly status: number;
  readonly statusText: string;
  readonly headers: HeaderList;
  readonly durationMs: number;
  readonly mimeType: string;
  readonly charset: string;
  private readonly bytes: Buffer | undefined;
  private readonly declaredJson: boolean;
  private textCache: string | undefined = undefined;
  private jsonState = 0; // 0 unknown, 1 parsed, 2 not JSON
  private jsonCache: unknown = undefined;

  constructor(init: { status: number; statusText?: string; headers: HeaderList; durationMs: number; bytes?: Buffer }) {
    const headers = init.headers;
    let contentType = '';
    for (const [name, value] of headers) {
      if (name.length === 12 && name.toLowerCase() === 'content-type') {
        contentType = value;
        break;
      }
    }
    const semi = contentType.indexOf(';');
    const mimeType = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
    this.status = init.status;
    this.statusText = init.statusText ?? '';
    this.headers = headers;
    this.durationMs = init.durationMs;
    this.mimeType = mimeType;
    this.charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? '';
    this.declaredJson = mimeType === 'application/json' || mimeType.endsWith('+json') || mimeType.endsWith('/json');
    this.bytes = init.bytes;
  }

  get isJson(): boolean {
    this.json();
    return this.jsonState === 1;
  }

  header(name: string): string | undefined {
    const lower = name.toLowerCase();
    for (const [key, value] of this.headers) if (key.toLowerCase() === lower) return value;
    return undefined;
  }

  headerValues(name: string): string[] {
    const lower = name.toLowerCase();
    const values: string[] = [];
    for (const [key, value] of this.headers) if (key.toLowerCase() === lower) values.push(value);
    return values;
  }

  text(): string {
    if (this.textCache === undefined) this.textCache = this.bytes ? decode(this.bytes, this.charset) : '';
    return this.textCache;
  }

  json(): unknown {
    if (this.jsonState === 0) {
      const text = this.text();
      const first = text.trimStart()[0];
      // Parse when declared JSON, or when the text plainly looks like JSON (servers that send text/plain).
      if (this.declaredJson || first === '{' || first === '[') {
        try {
          this.jsonCache = JSON.parse(text);
          this.jsonState = 1;
        } catch {
          this.jsonState = 2;
        }
      } else this.jsonState = 2;
    }
    return this.jsonState === 1 ? this.jsonCache : undefined;
  }

  body(): unknown {
    const json = this.json();
    return this.jsonState === 1 ? json : this.text();
  }
}

/** Builds a view over a status, headers and body bytes (bodies spilled to disk are read by loadResponseView). */
export function createResponseView(init: {
  status: number;
  statusText?: string;
  headers: HeaderList;
  durationMs: number;
  bytes?: Buffer;
}): ResponseView {
  return new BodyView(init);
}

/** A view over an Exchange; a body spilled to a temp file is read back (only called when a body is needed). */
export async function loadResponseView(exchange: Exchange): Promise<ResponseView> {
  const { response } = exchange;
  return response.body.kind === 'file'
    ? responseViewOf(exchange, await readFile(response.body.path))
    : responseViewOf(exchange, response.body.kind === 'memory' ? response.body.bytes : undefined);
}

/**
 * loadResponseView without the promise, for a body that is not in a file (`bytes` is what
 * loadResponseView reads): most responses of a run, which then take no async frame or tick.
 */
export function responseViewOf(exchange: Exchange, bytes: Buffer | undefined): ResponseView {
  const { response } = exchange;
  return createResponseView({
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    durationMs: exchange.timings.total,
    bytes,
  });
}
