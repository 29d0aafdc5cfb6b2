/**
 * History of exchanges (HistoryEntry; secrets masked): one JSON line per exchange in
 * history.jsonl, mode 0600. Sensitive headers are masked, secret values redacted and bodies
 * cut at 64 KiB before anything reaches the disk. An append is a single write, so a crash
 * can only tear the last line, which reading skips. The file is trimmed to the newest
 * `limit` entries with an atomic rewrite — checked only when its size crosses a step, so a
 * send never re-reads the whole file.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, rmSync, writeSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { dirname } from 'node:path';
import { writeError, writeFileAtomic } from '../atomic-write.js';
import { maskHeaders, redactText } from '../secrets.js';
import type { Exchange, HeaderList, RedirectHop, Timings } from '../http/types.js';

/** Bodies kept in history (capped so the file stays small). */
export const HISTORY_BODY_LIMIT = 64 * 1024;
/** The smallest step: the file is checked for trimming each time its size crosses a multiple of the step. */
export const TRIM_CHECK_BYTES = 256 * 1024;

/** An exchange as history keeps it: masked, redacted, bodies truncated. */
export interface RecordedExchange {
  request: {
    method: string;
    url: string;
    headers: HeaderList;
    /** Text of the body (up to 64 KiB). */
    body?: string;
    bodySize?: number;
    bodyTruncated?: boolean;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    url: string;
    headers: HeaderList;
    /** Text of the body, or base64 when `bodyEncoding` says so (up to 64 KiB of bytes). */
    body?: string;
    bodyEncoding?: 'base64';
    bodyTruncated?: boolean;
    /** Whole decoded body size in bytes. */
    size: number;
    remoteAddress?: string;
    remotePort?: number;
  };
  timings: Timings;
  redirects: RedirectHop[];
}

export interface HistoryEntry {
  /** ISO 8601 time the exchange finished. */
  time: string;
  /** Workspace root the request came from, when it came from one. */
  workspace?: string;
  /** Request id within the workspace (`relative/path.http#name`). */
  requestId?: string;
  exchange: RecordedExchange;
}

export interface HistoryOptions {
  /** history.jsonl path. */
  path: string;
  /** Entries kept (settings.historyLimit). */
  limit: number;
  /** Test hook: how often (bytes) to consider trimming. */
  trimCheckBytes?: number;
}

function cutUtf8(bytes: Buffer, limit: number): Buffer {
  if (bytes.length <= limit) return bytes;
  let end = limit;
  // Do not split a UTF-8 sequence: back up over continuation bytes.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** Body bytes as history stores them: text when valid UTF-8, base64 otherwise; cut at 64 KiB. */
export function recordBody(
  bytes: Uint8Array | undefined,
  totalSize: number,
  secretValues: string[] = [],
): { body?: string; bodyEncoding?: 'base64'; bodyTruncated?: boolean } {
  if (!bytes || bytes.length === 0) return {};
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const kept = cutUtf8(buffer, HISTORY_BODY_LIMIT);
  const truncated = totalSize > kept.length || undefined;
  // isUtf8, not a fatal TextDecoder: that one's first use costs ~0.5 ms of a `dial send`.
  const text = !kept.includes(0) && isUtf8(kept) ? kept.toString('utf8') : undefined;
  if (text === undefined) return { body: kept.toString('base64'), bodyEncoding: 'base64', bodyTruncated: truncated };
  return { body: redactText(text, secretValues), bodyTruncated: truncated };
}

/** Builds the entry for an exchange: masks Authorization/Cookie/Set-Cookie/Proxy-Authorization, redacts secrets, cuts bodies. */
export function toHistoryEntry(
  exchange: Exchange,
  options: {
    responseBody?: Uint8Array;
    secretValues?: string[];
    workspace?: string;
    requestId?: string;
    time?: Date;
  } = {},
): HistoryEntry {
  const secrets = options.secretValues ?? [];
  const { request, response } = exchange;
  const requestBody =
    request.bodyPreview === undefined
      ? {}
      : recordBody(Buffer.from(request.bodyPreview, 'utf8'), request.bodySize ?? 0, secrets);
  const entry: HistoryEntry = {
    time: (options.time ?? new Date()).toISOString(),
    exchange: {
      request: {
        method: request.method,
        url: redactText(request.url, secrets),
        headers: maskHeaders(request.headers, secrets),
        ...(requestBody.body !== undefined
          ? { body: requestBody.body, bodySize: request.bodySize, bodyTruncated: requestBody.bodyTruncated }
          : {}),
      },
      response: {
        status: response.status,
        statusText: response.statusText,
        httpVersion: response.httpVersion,
        url: redactText(response.url, secrets),
        headers: maskHeaders(response.headers, secrets),
        ...recordBody(options.responseBody, response.size, secrets),
        size: response.size,
        remoteAddress: response.remoteAddress,
        remotePort: response.remotePort,
      },
      timings: exchange.timings,
      redirects: exchange.redirects.map((hop) => ({
        ...hop,
        from: redactText(hop.from, secrets),
        to: redactText(hop.to, secrets),
      })),
    },
  };
  if (options.workspace) entry.workspace = options.workspace;
  if (options.requestId) entry.requestId = options.requestId;
  return entry;
}

/** Appends one entry as one write (file created 0600), trimming to `limit` when the size crosses a check step. */
export function appendHistory(entry: HistoryEntry, options: HistoryOptions): void {
  if (options.limit <= 0) return;
  const line = `${JSON.stringify(entry)}\n`;
  let before = 0;
  let after = 0;
  try {
    mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
    const fd = openSync(options.path, 'a', 0o600);
    try {
      before = fstatSync(fd).size;
      const bytes = Buffer.from(line, 'utf8');
      // A torn earlier line (a crash mid-write) must not swallow this one: start on a fresh line.
      const prefix = before > 0 && lastByte(options.path, before) !== 0x0a ? Buffer.from('\n') : undefined;
      writeSync(fd, prefix ? Buffer.concat([prefix, bytes]) : bytes);
      after = before + bytes.length + (prefix ? 1 : 0);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    throw writeError(options.path, error, 'history');
  }
  // The step grows with the file (1/8 of its size class), so a big history is re-read about
  // once per eighth of its size appended, never on every send.
  const step =
    options.trimCheckBytes ?? Math.max(TRIM_CHECK_BYTES, 2 ** Math.floor(Math.log2(Math.max(before, 1))) / 8);
  if (Math.floor(after / step) !== Math.floor(before / step)) trimHistory(options);
}

function lastByte(path: string, size: number): number {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(1);
    readSync(fd, buffer, 0, 1, size - 1);
    return buffer[0];
  } finally {
    closeSync(fd);
  }
}

function readLines(path: string): { entries: HistoryEntry[]; lines: string[] } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], lines: [] };
    throw error;
  }
  const entries: HistoryEntry[] = [];
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      const entry = JSON.parse(line) as HistoryEntry;
      if (entry && typeof entry === 'object' && entry.exchange) {
        entries.push(entry);
        lines.push(line);
      }
    } catch {
      // A torn line (crash mid-append): skip it.
    }
  }
  return { entries, lines };
}

/** Rewrites the file atomically with only the newest `limit` entries, when it holds more. */
export function trimHistory(options: HistoryOptions): void {
  const { lines } = readLines(options.path);
  if (lines.length <= options.limit) return;
  const kept = lines.slice(lines.length - options.limit);
  writeFileAtomic(options.path, kept.length > 0 ? `${kept.join('\n')}\n` : '', 0o600);
}

/** Entries newest first (at most `limit`); torn lines are skipped. */
export function readHistory(options: Pick<HistoryOptions, 'path'> & { limit?: number }): HistoryEntry[] {
  const { entries } = readLines(options.path);
  entries.reverse();
  return options.limit === undefined ? entries : entries.slice(0, Math.max(0, options.limit));
}

/** Deletes all history. */
export function clearHistory(options: Pick<HistoryOptions, 'path'>): void {
  rmSync(options.path, { force: true });
}
