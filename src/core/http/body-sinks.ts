/**
 * Where a response body ends up: memory with a spill to a temp file past a limit, or a
 * caller's Writable (stdout, a download) with backpressure. Both count decoded bytes.
 */
import { createWriteStream, unlinkSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { randomHex } from './body.js';
import type { ResponseBody } from './types.js';

/** Bodies up to 16 MiB stay in memory. */
export const DEFAULT_MAX_IN_MEMORY = 16 * 1024 * 1024;

const spilledFiles = new Set<string>();
let exitHookInstalled = false;

/** Temp files are the caller's while the process runs; none outlives it. */
function trackSpill(path: string): void {
  spilledFiles.add(path);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const file of spilledFiles) {
      try {
        unlinkSync(file);
      } catch {
        // already gone
      }
    }
  });
}

/** Deletes a spilled temp file now (callers done with a large body may call this). */
export function releaseBody(body: ResponseBody): void {
  if (body.kind !== 'file' || !spilledFiles.has(body.path)) return;
  spilledFiles.delete(body.path);
  try {
    unlinkSync(body.path);
  } catch {
    // already gone
  }
}

/** Keeps a body in memory up to `limit` bytes, then moves it to a temp file. */
export class BufferSink extends Writable {
  private chunks: Buffer[] = [];
  private file?: { path: string; stream: WriteStream };
  size = 0;

  constructor(private readonly limit: number) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (!this.file && this.size <= this.limit) {
      this.chunks.push(chunk);
      callback();
      return;
    }
    if (!this.file) {
      const path = join(tmpdir(), `dial-body-${process.pid}-${randomHex(12)}`);
      const stream = createWriteStream(path, { flags: 'wx', mode: 0o600 });
      stream.on('error', (error) => this.destroy(error));
      this.file = { path, stream };
      trackSpill(path);
      for (const kept of this.chunks) stream.write(kept);
      this.chunks = [];
    }
    if (this.file.stream.write(chunk)) callback();
    else this.file.stream.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.file) {
      callback();
      return;
    }
    this.file.stream.end(() => callback());
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (error && this.file) {
      this.file.stream.destroy();
      releaseBody({ kind: 'file', path: this.file.path, size: this.size });
    }
    this.chunks = error ? [] : this.chunks;
    callback(error);
  }

  /** The result once finished. */
  result(): ResponseBody {
    if (this.file) return { kind: 'file', path: this.file.path, size: this.size };
    return { kind: 'memory', bytes: this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.size) };
  }
}

function isStdio(stream: Writable): boolean {
  // eslint-disable-next-line no-restricted-properties -- an identity check only: the process's own stdout/stderr a caller handed in are never ended
  return stream === (process.stdout as unknown as Writable) || stream === (process.stderr as unknown as Writable);
}

/**
 * Forwards a body into the caller's Writable, honouring its backpressure. Ends it (and
 * waits until it has flushed) unless it is stdout/stderr; destroys it on failure.
 */
export class ForwardSink extends Writable {
  size = 0;
  private readonly owned: boolean;

  constructor(private readonly target: Writable) {
    super();
    this.owned = !isStdio(target);
    target.on('error', this.onTargetError);
  }

  private readonly onTargetError = (error: Error): void => {
    Object.assign(error, { dialOutput: true });
    this.destroy(error);
  };

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.target.write(chunk)) callback();
    else this.target.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (!this.owned) {
      callback();
      return;
    }
    this.target.once('finish', () => callback());
    this.target.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.target.off('error', this.onTargetError);
    if (error && this.owned && !this.target.destroyed) this.target.destroy();
    callback(error);
  }
}
