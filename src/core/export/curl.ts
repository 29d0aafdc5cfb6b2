/**
 * A resolved request as a runnable curl command (docs/cli.md, export). `dial export curl`,
 * `dial send --curl` and the TUI's copy as curl print this through `curlCommand`
 * (from-http.ts), which first shapes a `.http` request as written. The command sends what
 * dial would send: curl's own defaults (a form Content-Type on --data) are switched off
 * when the request does not carry them.
 */
import type { HttpRequest, MultipartPart } from '../http/types.js';
import { guessContentType } from '../http/mime.js';
import { shellQuote } from './shell-quote.js';
import { dispositionParam, partsInBytes } from './multipart-parts.js';

export interface ToCurlOptions {
  /** Add `-k` (TLS verification off). */
  insecure?: boolean;
  /** One flag per line with `\` continuations (default true). */
  multiline?: boolean;
  /** Digest credentials (a prepared request's `digest`): printed as `--digest -u user:password`. */
  digest?: { username: string; password: string };
  /** NTLM credentials (kulala's `Authorization: NTLM user:password`): printed as `--ntlm -u user:password`, as kulala runs curl. */
  ntlm?: { username: string; password: string };
  /** Add `-L`: dial follows redirects for this request, so the command does too. */
  followRedirects?: boolean;
  /**
   * Texts that stay as written in the URL, not percent-encoded with the rest: the `{{…}}` of
   * references left unresolved (export curl does not run the requests they need).
   */
  keepInUrl?: string[];
  /** `-x`: the proxy dial sends through (an explicit one; curl reads HTTP(S)_PROXY itself). */
  proxy?: string;
  /** `--max-time`: dial's limit for the whole exchange, in ms (0 or undefined: none, as curl). */
  timeoutMs?: number;
  /** `--connect-timeout`, in ms (a request's `# @connection-timeout`). */
  connectTimeoutMs?: number;
  /** `--max-redirs`, with `-L` only; curl's own limit (50) is not spelled out. */
  maxRedirects?: number;
  /** `--cacert`, `--cert`, `--key`: TLS files as the command shows them. */
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

/** curl's redirect limit with -L and no --max-redirs. */
const CURL_MAX_REDIRS = 50;

/** Milliseconds as curl's seconds (decimals allowed): 1500 -> 1.5. */
function seconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}

/** The options that change how curl connects: proxy, time limits, redirect limit, TLS. */
function transportFlags(options: ToCurlOptions): string[][] {
  const flags: string[][] = [];
  if (options.insecure) flags.push(['-k']);
  // curl reads `file:password` in --cert; a colon in the path is escaped.
  if (options.caFile) flags.push(['--cacert', shellQuote(options.caFile, true)]);
  if (options.certFile) flags.push(['--cert', shellQuote(options.certFile.replace(/:/g, '\\:'), true)]);
  if (options.keyFile) flags.push(['--key', shellQuote(options.keyFile, true)]);
  if (options.proxy) flags.push(['-x', shellQuote(options.proxy, true)]);
  if (options.timeoutMs !== undefined && options.timeoutMs > 0) flags.push(['--max-time', seconds(options.timeoutMs)]);
  if (options.connectTimeoutMs !== undefined && options.connectTimeoutMs > 0)
    flags.push(['--connect-timeout', seconds(options.connectTimeoutMs)]);
  if (options.followRedirects && options.maxRedirects !== undefined && options.maxRedirects !== CURL_MAX_REDIRS) {
    flags.push(['--max-redirs', String(options.maxRedirects)]);
  }
  return flags;
}

function hasHeader(request: HttpRequest, name: string): boolean {
  const lower = name.toLowerCase();
  return request.headers.some(([key]) => key.toLowerCase() === lower);
}

// Bytes with NUL cannot be a shell argument: printf writes them into a process substitution.
function printfSubstitution(bytes: Uint8Array): string {
  let format = '';
  for (const byte of bytes) {
    if (byte === 0x25) format += '%%';
    else if (byte === 0x5c) format += '\\\\';
    else if (byte === 0x27) format += "'\\''";
    else if (byte >= 0x20 && byte < 0x7f) format += String.fromCharCode(byte);
    else format += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  // `--` first: a format starting with - (a multipart delimiter) is not an option.
  return `@<(printf -- '${format}')`;
}

// A value curl's -F parser would take literally: not a file (@, <), no `;param=` or quotes.
function isPlainFormValue(value: string): boolean {
  return !/^[@<]/.test(value) && !/[;"]/.test(value) && value.trim() === value;
}

// curl's -F word quoting: "…" with \" and \\ escaped.
function formWord(value: string): string {
  return /[;",\s]/.test(value) || value === '' ? `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"` : value;
}

function formFlag(part: MultipartPart): string[] {
  const params: string[] = [];
  if (part.contentType) params.push(`type=${part.contentType}`);
  if (part.filePath !== undefined) {
    if (part.filename !== undefined) params.push(`filename=${formWord(part.filename)}`);
    return ['-F', shellQuote([`${part.name}=@${formWord(part.filePath)}`, ...params].join(';'), true)];
  }
  const value = part.value ?? '';
  if (part.filename !== undefined) params.push(`filename=${formWord(part.filename)}`);
  if (params.length === 0) {
    if (isPlainFormValue(value)) return ['-F', shellQuote(`${part.name}=${value}`, true)];
    return ['--form-string', shellQuote(`${part.name}=${value}`, true)];
  }
  return ['-F', shellQuote([`${part.name}="${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`, ...params].join(';'), true)];
}

// Larger multipart bodies are not worth spelling out as -F values.
const MAX_INLINE_FORM = 64 * 1024;

/**
 * A multipart body already expanded to bytes (a .http multipart body) read back into -F parts,
 * when every part is text; the Content-Type with its boundary goes (curl writes its own).
 */
function multipartAsParts(request: HttpRequest): HttpRequest {
  const body = request.body;
  if (body.kind !== 'bytes' && body.kind !== 'text') return request;
  const index = request.headers.findIndex(([name]) => name.toLowerCase() === 'content-type');
  const type = index >= 0 ? request.headers[index][1] : '';
  const boundary = /^\s*multipart\/form-data\s*;.*?boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(type);
  if (!boundary) return request;
  const bytes = body.kind === 'bytes' ? body.bytes : Buffer.from(body.text, 'utf8');
  if (bytes.length > MAX_INLINE_FORM) return request;
  const sent = partsInBytes(bytes, boundary[1] ?? boundary[2]);
  if (sent.length === 0) return request;
  const parts: MultipartPart[] = [];
  for (const part of sent) {
    const name = dispositionParam(part.headers, 'name');
    const value = part.content.toString('utf8');
    if (name === undefined || value.includes('\0') || !Buffer.from(value, 'utf8').equals(part.content)) return request;
    if (part.headers.some(([header]) => !/^content-(disposition|type)$/i.test(header))) return request;
    const result: MultipartPart = { name, value };
    const filename = dispositionParam(part.headers, 'filename');
    if (filename !== undefined) result.filename = filename;
    const contentType = part.headers.find(([header]) => header.toLowerCase() === 'content-type')?.[1];
    if (contentType) result.contentType = contentType;
    parts.push(result);
  }
  return { ...request, headers: request.headers.filter((_, at) => at !== index), body: { kind: 'multipart', parts } };
}

/** Builds a runnable curl command (Bash quoting) that sends the given resolved request. */
export function toCurl(request: HttpRequest, options: ToCurlOptions = {}): string {
  request = multipartAsParts(request);
  const multiline = options.multiline ?? true;
  const method = request.method.toUpperCase();
  const body = request.body;
  const flags: string[][] = [];
  const bodyFlags: string[][] = [];
  // What method curl picks by itself for these flags.
  let impliedMethod = 'GET';

  switch (body.kind) {
    case 'none':
      break;
    case 'text': {
      impliedMethod = 'POST';
      if (body.text.includes('\0'))
        bodyFlags.push(['--data-binary', printfSubstitution(Buffer.from(body.text, 'utf8'))]);
      else bodyFlags.push(['--data-raw', shellQuote(body.text, true)]);
      break;
    }
    case 'bytes': {
      impliedMethod = 'POST';
      const text = Buffer.from(body.bytes).toString('utf8');
      const clean = Buffer.from(text, 'utf8').equals(Buffer.from(body.bytes)) && !text.includes('\0');
      bodyFlags.push(
        clean ? ['--data-raw', shellQuote(text, true)] : ['--data-binary', printfSubstitution(body.bytes)],
      );
      break;
    }
    case 'file':
      impliedMethod = 'POST';
      bodyFlags.push(['--data-binary', shellQuote(`@${body.path}`, true)]);
      break;
    case 'stream':
      impliedMethod = 'POST';
      bodyFlags.push(['--data-binary', '@-']);
      break;
    case 'multipart':
      impliedMethod = 'POST';
      for (const part of body.parts) bodyFlags.push(formFlag(part));
      break;
  }

  // The URL as the engine sends it (WHATWG-normalised: spaces and the like percent-encoded),
  // which is also a URL curl accepts.
  let url = request.url;
  // Kept texts go through the URL parser as plain letters and come back as written.
  const kept = (options.keepInUrl ?? []).filter((text) => text !== '' && url.includes(text));
  const marker = (index: number) => `dialkept${index}x`;
  for (const [index, text] of kept.entries()) url = url.split(text).join(marker(index));
  try {
    url = new URL(url).href;
  } catch {
    // Not a URL the engine could send either; show it as written.
  }
  for (const [index, text] of kept.entries()) url = url.split(marker(index)).join(text);
  const first = ['curl'];
  if (options.followRedirects) first.push('-L');
  if (method === 'HEAD' && body.kind === 'none') first.push('--head');
  else if (method !== impliedMethod) first.push('-X', shellQuote(method));
  // curl treats [] and {} in URLs as globs; -g makes it send them as written.
  if (/[[\]{}]/.test(url)) first.push('-g');
  first.push(shellQuote(url, true));

  if (request.httpVersion === '2') flags.push(['--http2']);
  flags.push(...transportFlags(options));
  if (options.digest)
    flags.push(['--digest'], ['-u', shellQuote(`${options.digest.username}:${options.digest.password}`, true)]);
  if (options.ntlm)
    flags.push(['--ntlm'], ['-u', shellQuote(`${options.ntlm.username}:${options.ntlm.password}`, true)]);
  for (const [name, value] of request.headers) {
    // `Name;` is curl's way to send a header with an empty value (`Name:` would remove it).
    flags.push(['-H', shellQuote(value === '' ? `${name};` : `${name}: ${value}`, true)]);
  }
  if (!hasHeader(request, 'content-type')) {
    // dial sends no Content-Type for text and its guess for files; curl would add a form type.
    if (body.kind === 'text' || body.kind === 'bytes' || body.kind === 'stream')
      flags.push(['-H', shellQuote('Content-Type:', true)]);
    else if (body.kind === 'file') flags.push(['-H', shellQuote(`Content-Type: ${guessContentType(body.path)}`, true)]);
  }
  flags.push(...bodyFlags);

  const lines = [first.join(' '), ...flags.map((flag) => flag.join(' '))];
  return multiline ? lines.join(' \\\n  ') : lines.join(' ');
}
