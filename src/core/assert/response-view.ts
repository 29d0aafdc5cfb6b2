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

/** Builds a view over a status, headers and body bytes (bodies spilled to disk are read by loadResponseView). */
export function createResponseView(init: { status: number; statusText?: string; headers: HeaderList; durationMs: number; bytes?: Buffer }): ResponseView {
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
  const charset = /charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1] ?? '';
  const declaredJson = mimeType === 'application/json' || mimeType.endsWith('+json') || mimeType.endsWith('/json');
  let textCache: string | undefined;
  let jsonState = 0; // 0 unknown, 1 parsed, 2 not JSON
  let jsonCache: unknown;
  const view: ResponseView = {
    status: init.status,
    statusText: init.statusText ?? '',
    headers,
    durationMs: init.durationMs,
    mimeType,
    charset,
    get isJson() {
      view.json();
      return jsonState === 1;
    },
    header(name) {
      const lower = name.toLowerCase();
      for (const [key, value] of headers) if (key.toLowerCase() === lower) return value;
      return undefined;
    },
    headerValues(name) {
      const lower = name.toLowerCase();
      const values: string[] = [];
      for (const [key, value] of headers) if (key.toLowerCase() === lower) values.push(value);
      return values;
    },
    text() {
      if (textCache === undefined) textCache = init.bytes ? decode(init.bytes, charset) : '';
      return textCache;
    },
    json() {
      if (jsonState === 0) {
        const text = view.text();
        const first = text.trimStart()[0];
        // Parse when declared JSON, or when the text plainly looks like JSON (servers that send text/plain).
        if (declaredJson || first === '{' || first === '[') {
          try {
            jsonCache = JSON.parse(text);
            jsonState = 1;
          } catch {
            jsonState = 2;
          }
        } else jsonState = 2;
      }
      return jsonState === 1 ? jsonCache : undefined;
    },
    body() {
      const json = view.json();
      return jsonState === 1 ? json : view.text();
    },
  };
  return view;
}

/** A view over an Exchange; a body spilled to a temp file is read back (only called when a body is needed). */
export async function loadResponseView(exchange: Exchange): Promise<ResponseView> {
  const { response } = exchange;
  let bytes: Buffer | undefined;
  if (response.body.kind === 'memory') bytes = response.body.bytes;
  else if (response.body.kind === 'file') bytes = await readFile(response.body.path);
  return createResponseView({ status: response.status, statusText: response.statusText, headers: response.headers, durationMs: exchange.timings.total, bytes });
}
