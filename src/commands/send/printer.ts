/**
 * How `dial send` prints an exchange: blocks separated by a blank line, formatted on a
 * terminal and byte-exact in a pipe, with secret values masked; and its download meter.
 */
import { createReadStream, openSync, readSync, closeSync, readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Style } from '../../core/style.js';
import type { HttpRequest, RequestBody, ResponseHead, StreamMessage } from '../../core/http/types.js';
import {
  BINARY_NOTE,
  PRETTY_LIMIT,
  formatBodyForTerminal,
  formatBytes,
  formatRequestHead,
  formatResponseHead,
  headerValue,
  isBinary,
  type PrintSpec,
} from '../../core/format/exchange.js';
import type { Redactor } from '../../core/send/redact.js';

/** A stream the command writes to (process.stdout in use, a collector in tests). */
export type Out = Writable & { isTTY?: boolean };

/** A text as URL() writes it in a path (`{{` becomes `%7B%7B`). */
function inUrlPath(text: string): string {
  try {
    return new URL(`http://x/${text}`).pathname.slice(1);
  } catch {
    return text;
  }
}

/** The request body as shown when it cannot be computed as sent (a kept reference in the URL). */
export function streamedBody(body: RequestBody): string | Uint8Array | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'text':
      return body.text;
    case 'bytes':
      return body.bytes;
    case 'file':
      return readHead(body.path, PRETTY_LIMIT);
    case 'stream':
      return '(piped stdin)';
    case 'multipart':
      return '(multipart body)';
  }
}

export function readHead(path: string, limit: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(limit);
    const read = readSync(fd, buffer, 0, limit, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes the parts of an exchange as blocks separated by a blank line. Terminal output is
 * formatted; pipe output keeps body bytes exactly as received.
 */
export class Printer {
  private wrote = false;
  private endsWithNewline = true;
  private requestDone = false;
  /** Stream messages (events, gRPC messages) are being printed: separated from what came before once. */
  private streaming = false;

  constructor(
    private readonly out: Out,
    private readonly style: Style,
    private readonly terminal: boolean,
    /** Secret values are masked in everything printed. */
    private readonly redactor: Redactor,
    /** References left as written (--offline): shown so in the URL too, not percent-encoded. */
    private readonly kept: string[] = [],
  ) {}

  private write(chunk: string | Uint8Array): void {
    if (chunk.length === 0) return;
    this.out.write(chunk);
    const last = typeof chunk === 'string' ? chunk.charCodeAt(chunk.length - 1) : chunk[chunk.length - 1];
    this.endsWithNewline = last === 0x0a;
  }

  /** Starts a new block: a blank line after the previous one. */
  block(text: string | Uint8Array): void {
    if (this.wrote) this.write(this.endsWithNewline ? '\n' : '\n\n');
    this.write(text);
    this.wrote = true;
  }

  /** Before raw streamed bytes: separate them from what came before. */
  startRaw(): void {
    if (this.wrote) this.write(this.endsWithNewline ? '\n' : '\n\n');
    this.wrote = true;
  }

  private startStream(): void {
    if (!this.streaming) this.startRaw();
    this.streaming = true;
  }

  /** H and B parts, once. */
  request(
    request: Pick<HttpRequest, 'method' | 'url' | 'headers' | 'httpVersion'>,
    spec: PrintSpec,
    body: string | Uint8Array | undefined,
  ): void {
    if (this.requestDone) return;
    this.requestDone = true;
    const redact = this.redactor;
    if (spec.requestHeaders) {
      let head = formatRequestHead(
        { ...request, url: redact.text(request.url), headers: redact.headers(request.headers) },
        this.style,
      );
      for (const text of this.kept) head = head.split(inUrlPath(text)).join(text);
      this.block(`${head}\n`);
    }
    if (spec.requestBody && body !== undefined && body.length > 0) {
      const contentType = headerValue(request.headers, 'content-type');
      this.body(typeof body === 'string' ? Buffer.from(body, 'utf8') : body, contentType);
    }
  }

  /**
   * One server-sent event on its own line, as it arrives: `event: name  id: 7  data: …` (data
   * lines after the first indented), or one JSON object per line with `json` (`--json`).
   */
  event(message: Pick<StreamMessage, 'event' | 'id' | 'data'>, json: boolean): void {
    this.startStream();
    const data = this.redactor.text(message.data);
    if (json) {
      // Keys left undefined (no `event:` or `id:` line) are left out.
      this.write(`${JSON.stringify({ event: message.event, id: message.id, data })}\n`);
      return;
    }
    const label = (name: string): string => this.style.dim(`${name}:`);
    const parts: string[] = [];
    if (message.event !== undefined) parts.push(`${label('event')} ${message.event}`);
    if (message.id !== undefined) parts.push(`${label('id')} ${message.id}`);
    parts.push(`${label('data')} ${data.replace(/\n/g, '\n      ')}`);
    this.write(`${parts.join('  ')}\n`);
  }

  /** A response status line and headers. */
  responseHead(head: Pick<ResponseHead, 'status' | 'statusText' | 'httpVersion' | 'headers'>): void {
    this.block(`${formatResponseHead({ ...head, headers: this.redactor.headers(head.headers) }, this.style)}\n`);
  }

  /** A body: formatted on a terminal, exact bytes in a pipe (secret values masked in both). */
  body(bytes: Uint8Array, contentType: string | undefined): void {
    bytes = this.redactor.bytes(bytes);
    if (this.terminal) this.block(formatBodyForTerminal(bytes, contentType, this.style));
    else this.block(bytes);
  }

  /** One message of a stream (gRPC…) as it arrives: formatted on a terminal, one line each in a pipe. */
  message(text: string, contentType: string): void {
    if (this.terminal) {
      this.body(Buffer.from(text, 'utf8'), contentType);
      return;
    }
    this.startStream();
    this.write(`${this.redactor.text(text)}\n`);
  }

  /** A body spilled to a temp file (over 16 MiB): copied through without loading it. */
  async fileBody(path: string, size: number, contentType: string | undefined): Promise<void> {
    if (this.terminal) {
      const head = readHead(path, 8192);
      if (isBinary(head, contentType)) {
        this.block(`${BINARY_NOTE}\n`);
        return;
      }
      if (size <= PRETTY_LIMIT) {
        this.body(readFileSync(path), contentType);
        return;
      }
    }
    this.startRaw();
    const redact = this.redactor.active ? this.redactor.stream() : undefined;
    const write = async (buffer: Buffer): Promise<void> => {
      if (buffer.length === 0) return;
      if (!this.out.write(buffer)) await new Promise((resolveDrain) => this.out.once('drain', resolveDrain));
      this.endsWithNewline = buffer[buffer.length - 1] === 0x0a;
    };
    for await (const chunk of createReadStream(path))
      await write(redact ? redact.push(chunk as Buffer) : (chunk as Buffer));
    if (redact) await write(redact.end());
    if (this.terminal && !this.endsWithNewline) this.write('\n');
  }
}

/** A one-line download progress meter on a terminal's stderr. */
export class Progress {
  private last = 0;
  private readonly started = Date.now();
  private shown = false;

  constructor(private readonly err: Out) {}

  update(bytes: number, total: number | undefined): void {
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = `${formatBytes(Math.round(bytes / seconds))}/s`;
    const part = total
      ? `${formatBytes(bytes)} / ${formatBytes(total)} ${Math.floor((bytes / total) * 100)}%`
      : formatBytes(bytes);
    this.err.write(`\r${`Downloading ${part}  ${rate}`.padEnd(60)}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.err.write(`\r${' '.repeat(60)}\r`);
    this.shown = false;
  }
}
