/**
 * Request bodies: turns a RequestBody into something each transport can send (a Buffer
 * or a fresh stream per attempt), with its length when known, and a preview for display.
 */
import { createReadStream } from 'node:fs';
import { basename } from 'node:path';
import { DialError } from '../errors.js';
import { guessContentType } from './mime.js';
import type { MultipartPart, RequestBody } from './types.js';

/** The most of a request body kept as a preview (64 KiB). */
export const PREVIEW_LIMIT = 64 * 1024;

/** A body ready to send, possibly more than once (redirects 307/308). */
export interface PreparedBody {
  /** Byte length when known (sent as Content-Length); undefined = chunked. */
  length?: number;
  /** A Content-Type to send when the request has none (multipart boundary, file type). */
  contentType?: string;
  /** False for a one-shot stream (piped stdin): it cannot be replayed on 307/308. */
  replayable: boolean;
  /** The bytes: a Buffer, or a fresh async iterable per call. */
  open(): Buffer | AsyncIterable<Uint8Array>;
}

async function fileSize(path: string, what: string): Promise<number> {
  try {
    // Loaded here: node:fs/promises costs ~1.3 ms at start-up, and only file bodies need it.
    const { stat } = await import('node:fs/promises');
    const info = await stat(path);
    if (info.isDirectory()) {
      throw new DialError('E_INPUT', `${what} '${path}' is a folder, not a file`, { hint: 'give the path of a file' });
    }
    return info.size;
  } catch (error) {
    if (error instanceof DialError) throw error;
    throw new DialError('E_INPUT', `cannot read ${what} '${path}': ${(error as Error).message}`, {
      hint: 'check the path (relative paths are resolved from the current folder or the .http file)',
      cause: error,
    });
  }
}

function fileStream(path: string): AsyncIterable<Uint8Array> {
  const stream = createReadStream(path);
  stream.on('error', (error: NodeJS.ErrnoException) => {
    // Tag it so the error mapper names the file instead of the network.
    Object.assign(error, { dialFile: path });
  });
  return stream;
}

/**
 * Random hex digits. Math.random is enough for a multipart boundary or a temp file name
 * (created with O_EXCL), and avoids loading node:crypto (~2 ms) on every request.
 */
export function randomHex(length: number): string {
  let text = '';
  while (text.length < length)
    text += Math.floor(Math.random() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return text.slice(0, length);
}

/** Quotes a multipart parameter value the way browsers do (WHATWG multipart encoding). */
function quoteParam(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

interface Segment {
  bytes?: Buffer;
  filePath?: string;
}

/** A fresh multipart boundary, as the engine makes one. */
export function multipartBoundary(): string {
  return `----dial${randomHex(24)}`;
}

async function prepareMultipart(parts: MultipartPart[], boundary = multipartBoundary()): Promise<PreparedBody> {
  const segments: Segment[] = [];
  let length = 0;
  const push = (bytes: Buffer): void => {
    segments.push({ bytes });
    length += bytes.length;
  };
  for (const part of parts) {
    let disposition = `form-data; name="${quoteParam(part.name)}"`;
    let contentType = part.contentType;
    if (part.filePath !== undefined) {
      const filename = part.filename ?? basename(part.filePath);
      disposition += `; filename="${quoteParam(filename)}"`;
      contentType ??= guessContentType(filename);
    } else if (part.filename !== undefined) {
      disposition += `; filename="${quoteParam(part.filename)}"`;
      contentType ??= guessContentType(part.filename);
    }
    let head = `--${boundary}\r\nContent-Disposition: ${disposition}\r\n`;
    if (contentType) head += `Content-Type: ${contentType}\r\n`;
    push(Buffer.from(head + '\r\n', 'utf8'));
    if (part.filePath !== undefined) {
      length += await fileSize(part.filePath, `file for multipart field '${part.name}'`);
      segments.push({ filePath: part.filePath });
    } else {
      push(Buffer.from(part.value ?? '', 'utf8'));
    }
    push(Buffer.from('\r\n'));
  }
  push(Buffer.from(`--${boundary}--\r\n`));
  const hasFiles = segments.some((segment) => segment.filePath !== undefined);
  return {
    length,
    contentType: `multipart/form-data; boundary=${boundary}`,
    replayable: true,
    open: () => {
      if (!hasFiles) return Buffer.concat(segments.map((segment) => segment.bytes as Buffer));
      return (async function* () {
        for (const segment of segments) {
          if (segment.bytes) yield segment.bytes;
          else yield* fileStream(segment.filePath as string) as AsyncIterable<Buffer>;
        }
      })();
    },
  };
}

/** Prepares a request body; undefined when there is none. File sizes are read now. */
export async function prepareBody(body: RequestBody): Promise<PreparedBody | undefined> {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'text': {
      const bytes = Buffer.from(body.text, 'utf8');
      return { length: bytes.length, replayable: true, open: () => bytes };
    }
    case 'bytes': {
      const bytes = Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength);
      return { length: bytes.length, replayable: true, open: () => bytes };
    }
    case 'file': {
      const length = await fileSize(body.path, 'body file');
      return { length, contentType: guessContentType(body.path), replayable: true, open: () => fileStream(body.path) };
    }
    case 'stream': {
      let used = false;
      return {
        length: body.length,
        replayable: false,
        open: () => {
          if (used) throw new DialError('E_INPUT', 'a streamed request body can only be sent once');
          used = true;
          return body.stream;
        },
      };
    }
    case 'multipart':
      return prepareMultipart(body.parts, body.boundary);
    default: {
      const never: never = body;
      throw new DialError('E_USAGE', `unknown body kind ${String((never as { kind: string }).kind)}`);
    }
  }
}

/** Collects the first PREVIEW_LIMIT bytes of what was sent and counts the rest. */
export class BodyRecorder {
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  size = 0;

  /** Records one chunk as it goes out. */
  add(chunk: Uint8Array): void {
    this.size += chunk.byteLength;
    if (this.kept < PREVIEW_LIMIT) {
      const take = Math.min(PREVIEW_LIMIT - this.kept, chunk.byteLength);
      this.chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, take));
      this.kept += take;
    }
  }

  /** Wraps a source so every chunk is recorded as it is read. */
  wrap(source: Buffer | AsyncIterable<Uint8Array>): Buffer | AsyncIterable<Uint8Array> {
    if (Buffer.isBuffer(source)) {
      this.add(source);
      return source;
    }
    const add = (chunk: Uint8Array): void => this.add(chunk);
    return (async function* () {
      for await (const chunk of source) {
        add(chunk);
        yield chunk;
      }
    })();
  }

  /** The preview: text when it looks like text, a placeholder for binary data. */
  preview(): string | undefined {
    if (this.size === 0) return undefined;
    return previewText(Buffer.concat(this.chunks), this.size);
  }
}

/** Text for display: the UTF-8 text, or `[binary data, N bytes]` when it is not text. */
export function previewText(bytes: Buffer, totalSize: number): string {
  if (bytes.includes(0)) return `[binary data, ${totalSize} bytes]`;
  const text = bytes.toString('utf8');
  // Many replacement characters mean it was not UTF-8 text (allow one cut at the end).
  let bad = 0;
  for (let index = text.indexOf('\uFFFD'); index !== -1; index = text.indexOf('\uFFFD', index + 1)) bad++;
  if (bad > 4) return `[binary data, ${totalSize} bytes]`;
  return text;
}

/**
 * The first `limit` bytes of a prepared body (a Buffer whole): what it sends, for display.
 * Streams from files are opened afresh and closed after the limit.
 */
export async function bodyPrefix(body: PreparedBody, limit: number): Promise<Buffer> {
  const source = body.open();
  if (Buffer.isBuffer(source)) return source;
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator = source[Symbol.asyncIterator]();
  try {
    while (size < limit) {
      const next = await iterator.next();
      if (next.done) break;
      const chunk = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    await iterator.return?.();
  }
  return Buffer.concat(chunks).subarray(0, limit);
}
