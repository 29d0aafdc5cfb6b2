/**
 * Where a response body ends up: memory with a spill to a temp file past a limit, or a
 * caller's Writable (stdout, a download) with backpressure. Both count decoded bytes.
 */
import { createWriteStream, lstatSync, mkdirSync, readdirSync, rmSync, unlinkSync, type WriteStream } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Transform, Writable } from 'node:stream';
import { DialError } from '../errors.js';
import { randomHex } from './body.js';
import type { ResponseBody } from './types.js';

/** Bodies up to 16 MiB stay in memory. */
export const DEFAULT_MAX_IN_MEMORY = 16 * 1024 * 1024;

/** Default cap on a decoded body kept by `dial run` (the `maxBodySize` setting). */
export const DEFAULT_MAX_BODY_SIZE = 1024 ** 3;
/** Past this many decoded bytes, a body that grew more than RATIO_LIMIT times its encoded size is a compression bomb. */
export const RATIO_FLOOR = 64 * 1024 * 1024;
/** The largest decoded/encoded ratio accepted past RATIO_FLOOR. */
export const RATIO_LIMIT = 100;

const spilledFiles = new Set<string>();
let exitHookInstalled = false;
let staleSwept = false;
const SPILL_NAME = /^dial-(?:body|report)-(\d+)-[0-9A-Za-z]+$/;

/**
 * The folder spill files go to: a folder of this user's inside the temp folder, so the sweep
 * below reads a few names, not the whole of $TMPDIR (thousands of entries on a busy machine).
 * A folder of that name that is not this user's own (or a symlink) is not used.
 */
export function spillFolder(base = tmpdir()): string {
  const uid = process.getuid?.();
  const dir = join(base, `dial-spill-${uid ?? 'user'}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const info = lstatSync(dir);
    if (info.isDirectory() && (uid === undefined || info.uid === uid)) return dir;
  } catch {
    // no folder of our own: the temp folder itself
  }
  return base;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes spill files left by a dial process that no longer runs (killed with -9, so its exit
 * hook never ran). Runs once per process; answers how many files it removed.
 */
export function removeStaleSpills(dir = spillFolder()): number {
  if (staleSwept) return 0;
  staleSwept = true;
  let removed = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const match = SPILL_NAME.exec(name);
    if (!match || Number(match[1]) === process.pid || isAlive(Number(match[1]))) continue;
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
      removed++;
    } catch {
      // another process got there first
    }
  }
  return removed;
}

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

/** Counts the encoded bytes of a body on their way to the decoders (for the compression-ratio guard). */
export class EncodedCounter extends Transform {
  size = 0;

  override _transform(
    chunk: Buffer,
    _encoding: BufferEncoding,
    callback: (error?: Error | null, data?: Buffer) => void,
  ): void {
    this.size += chunk.length;
    callback(null, chunk);
  }
}

/** Caps on a decoded body: its size, and its growth over the encoded bytes. */
export interface BodyCaps {
  maxBytes: number;
  /** Encoded bytes read so far (when the body is decoded). */
  encoded?: EncodedCounter;
  url: string;
}

function tooLarge(caps: BodyCaps, size: number): DialError | undefined {
  if (size > caps.maxBytes) {
    return new DialError(
      'E_BODY_TOO_LARGE',
      `the response body of ${caps.url} is larger than ${formatBytes(caps.maxBytes)} (the maxBodySize setting)`,
      {
        hint: 'raise it with `dial config set maxBodySize 4GiB` if this body is expected',
      },
    );
  }
  const encoded = caps.encoded?.size ?? 0;
  if (encoded > 0 && size > RATIO_FLOOR && size / encoded > RATIO_LIMIT) {
    return new DialError(
      'E_BODY_TOO_LARGE',
      `the response body of ${caps.url} decodes to over ${RATIO_LIMIT} times its compressed size (${formatBytes(encoded)} -> ${formatBytes(size)} so far): a compression bomb`,
      {
        hint: 'dial stops decoding such bodies; fetch it with `dial send --download` if you really want it',
      },
    );
  }
  return undefined;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${+(bytes / 1024 ** 3).toFixed(1)} GiB`;
  if (bytes >= 1024 ** 2) return `${+(bytes / 1024 ** 2).toFixed(1)} MiB`;
  return `${bytes} bytes`;
}

/** Keeps a body in memory up to `limit` bytes, then moves it to a temp file; with `caps`, stops past them. */
export class BufferSink extends Writable {
  private chunks: Buffer[] = [];
  private file?: { path: string; stream: WriteStream };
  size = 0;

  constructor(
    private readonly limit: number,
    private readonly caps?: BodyCaps,
  ) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.size += chunk.length;
    // Checked only past the smaller threshold: the common body never pays for it.
    const over =
      this.caps && this.size > Math.min(this.caps.maxBytes, RATIO_FLOOR) ? tooLarge(this.caps, this.size) : undefined;
    if (over) {
      callback(over);
      return;
    }
    if (!this.file && this.size <= this.limit) {
      this.chunks.push(chunk);
      callback();
      return;
    }
    if (!this.file) {
      removeStaleSpills();
      const path = join(spillFolder(), `dial-body-${process.pid}-${randomHex(12)}`);
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
  // The fd first: reading process.stderr builds that stream (a net.Socket on a pipe) only to
  // compare it, and Node gives its stdout and stderr streams their fd (1, 2) whatever they are.
  const { fd } = stream as { fd?: unknown };
  return (
    // eslint-disable-next-line no-restricted-properties -- an identity check only: the process's own stdout/stderr a caller handed in are never ended
    (fd === 1 && stream === (process.stdout as unknown as Writable)) ||
    // eslint-disable-next-line no-restricted-properties -- as above
    (fd === 2 && stream === (process.stderr as unknown as Writable))
  );
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
