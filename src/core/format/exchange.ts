/**
 * Plain-text rendering of requests and responses for `dial send` and `dial history show`:
 * HTTPie's layout (request line, headers, blank line, body), colour through Style, JSON
 * pretty-printed in its original key order, binary bodies replaced by a note on terminals.
 */
import { MASK } from '../secrets.js';
import { DialError } from '../errors.js';
import type { HeaderList, ResponseHead, Timings } from '../http/types.js';
import { paintStatus, type Style } from '../style.js';
import { formatDuration } from '../duration.js';
import { prettyJson } from './json.js';

/** Which parts `--print` asks for (HTTPie's H B h b, plus m for metadata). */
export interface PrintSpec {
  requestHeaders: boolean;
  requestBody: boolean;
  responseHeaders: boolean;
  responseBody: boolean;
  meta: boolean;
}

/** Parses `--print HBhbm`; throws E_USAGE for other letters. */
export function parsePrintSpec(text: string): PrintSpec {
  const bad = [...text].filter((c) => !'HBhbm'.includes(c));
  if (bad.length > 0 || text === '') {
    throw new DialError('E_USAGE', `invalid --print value '${text}'`, {
      hint: 'combine H (request headers), B (request body), h (response headers), b (response body), m (metadata), e.g. -p Hh',
    });
  }
  return {
    requestHeaders: text.includes('H'),
    requestBody: text.includes('B'),
    responseHeaders: text.includes('h'),
    responseBody: text.includes('b'),
    meta: text.includes('m'),
  };
}

/** Bodies larger than this are shown raw, not pretty-printed (a render budget). */
export const PRETTY_LIMIT = 2 * 1024 * 1024;

/** What a terminal shows instead of a binary body (HTTPie's wording). */
export const BINARY_NOTE = [
  '+-----------------------------------------+',
  '| NOTE: binary data not shown in terminal |',
  '+-----------------------------------------+',
].join('\n');

/** The value of a header (first match, case-insensitive). */
export function headerValue(headers: HeaderList, name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find(([key]) => key.toLowerCase() === lower)?.[1];
}

function formatHeaders(headers: HeaderList, style: Style): string[] {
  return headers.map(([name, value]) => `${style.headerName(name)}: ${value}`);
}

/** `POST /path?q HTTP/1.1` and headers (a Host line added when the list has none, as on the wire). */
export function formatRequestHead(
  request: { method: string; url: string; headers: HeaderList; httpVersion?: string },
  style: Style,
): string {
  let target = request.url;
  let host: string | undefined;
  // A gRPC (grpc://, grpcs://) request: its target as dial sends it, no HTTP request line.
  if (/^grpcs?:\/\//i.test(request.url))
    return [`${style.method(request.method)} ${style.url(target)}`, ...formatHeaders(request.headers, style)].join(
      '\n',
    );
  try {
    const url = new URL(request.url);
    // URL() percent-encodes the mask of a redacted value; show it as the mask again.
    target = `${url.pathname}${url.search}`.replaceAll(encodeURIComponent(MASK), MASK);
    host = url.host;
  } catch {
    // Not a URL (should not happen once resolved): show it as written.
  }
  const version = request.httpVersion === '2' ? 'HTTP/2' : 'HTTP/1.1';
  const headers =
    host && !headerValue(request.headers, 'host')
      ? [['Host', host] as [string, string], ...request.headers]
      : request.headers;
  return [
    `${style.method(request.method)} ${style.url(target)} ${style.dim(version)}`,
    ...formatHeaders(headers, style),
  ].join('\n');
}

/** `HTTP/1.1 200 OK` (coloured by class) and headers. */
export function formatResponseHead(
  head: Pick<ResponseHead, 'status' | 'statusText' | 'httpVersion' | 'headers'>,
  style: Style,
): string {
  const version = head.httpVersion.startsWith('HTTP/') ? head.httpVersion : `HTTP/${head.httpVersion}`;
  const status = paintStatus(style, head.status, `${head.status}${head.statusText ? ` ${head.statusText}` : ''}`);
  return [`${style.dim(version)} ${status}`, ...formatHeaders(head.headers, style)].join('\n');
}

const textTypes =
  /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql|yaml|x-yaml|x-ndjson|ld\+json|problem\+json|problem\+xml|xhtml\+xml|sql|csv)\b)|[+](json|xml)\b/i;
const binaryTypes =
  /^(image\/(?!svg)|audio\/|video\/|font\/|application\/(octet-stream|pdf|zip|gzip|x-tar|x-gzip|x-7z|x-bzip2|wasm|vnd\.|msword|x-protobuf|protobuf|grpc|cbor|msgpack))/i;

/** True when bytes should not be dumped on a terminal: a binary media type, a NUL byte or invalid UTF-8. */
export function isBinary(bytes: Uint8Array, contentType?: string): boolean {
  const type = contentType?.split(';')[0].trim() ?? '';
  if (type && binaryTypes.test(type)) return true;
  const sample = bytes.subarray(0, 8192);
  if (sample.includes(0)) return true;
  if (type && textTypes.test(type)) return false;
  // Cut back to a character boundary so a sample that splits a character still counts as text.
  let end = sample.length;
  if (end === 8192) {
    let back = 0;
    while (back < 4 && end - back - 1 >= 0 && (sample[end - back - 1] & 0xc0) === 0x80) back++;
    if (end - back - 1 >= 0 && sample[end - back - 1] >= 0xc0) end = end - back - 1;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, end));
    return false;
  } catch {
    return true;
  }
}

const isJsonType = (contentType?: string) =>
  /[/+]json\b|^application\/(x-)?json/i.test(contentType?.split(';')[0].trim() ?? '');

/** Decodes body bytes using the Content-Type charset (UTF-8 when absent or unknown). */
export function decodeText(bytes: Uint8Array, contentType?: string): string {
  const charset = /;\s*charset="?([^";]+)"?/i.exec(contentType ?? '')?.[1];
  if (charset) {
    try {
      return new TextDecoder(charset.trim()).decode(bytes);
    } catch {
      // Unknown label: fall through to UTF-8.
    }
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/**
 * A body for a terminal: the binary note, pretty JSON (original key order, coloured), or
 * the text as is. Always ends with a newline.
 */
export function formatBodyForTerminal(bytes: Uint8Array, contentType: string | undefined, style: Style): string {
  if (bytes.length === 0) return '';
  if (isBinary(bytes, contentType)) return `${BINARY_NOTE}\n`;
  const text = decodeText(bytes, contentType);
  if (bytes.length <= PRETTY_LIMIT) {
    const trimmed = text.trimStart();
    const looksJson = trimmed.startsWith('{') || trimmed.startsWith('[');
    if (
      isJsonType(contentType) ||
      (looksJson && (!contentType || /^text\/(plain|javascript)|^application\/javascript/i.test(contentType)))
    ) {
      const pretty = prettyJson(text, style);
      if (pretty !== null) return `${pretty}\n`;
    }
  }
  return text.endsWith('\n') ? text : `${text}\n`;
}

/** Timings, size and peer as the `m` part prints them. */
export function formatMeta(
  meta: { timings: Timings; size: number; remoteAddress?: string; remotePort?: number; redirects?: number },
  style: Style,
): string {
  const { timings } = meta;
  const lines = [
    `${style.dim('Elapsed time:')} ${formatDuration(timings.total)}`,
    `${style.dim('Phases:')} DNS ${formatDuration(timings.dns)}, connect ${formatDuration(timings.connect)}, TLS ${formatDuration(timings.tls)}, first byte ${formatDuration(timings.firstByte)}`,
    `${style.dim('Size:')} ${formatBytes(meta.size)}`,
  ];
  if (meta.remoteAddress)
    lines.push(
      `${style.dim('Remote:')} ${meta.remoteAddress.includes(':') ? `[${meta.remoteAddress}]` : meta.remoteAddress}${meta.remotePort ? `:${meta.remotePort}` : ''}`,
    );
  if (meta.redirects) lines.push(`${style.dim('Redirects:')} ${meta.redirects}`);
  return lines.join('\n');
}

/** `512 B`, `1.5 KiB`, `3.2 MiB`, `1.0 GiB`. */
export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}
