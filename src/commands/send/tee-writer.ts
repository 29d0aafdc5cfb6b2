/**
 * Writables `dial send` hands the engine as a streaming body target: forward to stdout or a
 * file with backpressure (flat memory for any size), keeping the first 64 KiB for history.
 */
import { Writable } from 'node:stream';
import type { StreamRedactor } from '../../core/send/redact.js';

/** Bytes kept from a streamed body for history. */
export const KEEP_BYTES = 64 * 1024;

export interface TeeOptions {
  /** End the target when the body ends (files: yes; stdout: no). */
  endTarget: boolean;
  /** Called after each chunk with the running total (download progress). */
  onProgress?: (bytes: number) => void;
  /** Masks secret values in what reaches the target (the bytes kept for history stay as received). */
  redact?: StreamRedactor;
}

/**
 * Forwards chunks to `target` (or drops them when target is null) and keeps the first 64 KiB.
 * When the target is a pipe whose reader went away (EPIPE), it marks `outputClosed` and fails
 * so the transfer stops.
 */
export class TeeWriter extends Writable {
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  size = 0;
  outputClosed = false;

  constructor(
    private readonly target: Writable | null,
    private readonly options: TeeOptions = { endTarget: false },
  ) {
    super();
    target?.on('error', this.onTargetError);
  }

  private readonly onTargetError = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE') this.outputClosed = true;
    this.destroy(error);
  };

  /** The first bytes of the body (up to 64 KiB). */
  head(): Buffer {
    return Buffer.concat(this.kept, this.keptBytes);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.size += chunk.length;
    if (this.keptBytes < KEEP_BYTES) {
      const take = chunk.subarray(0, KEEP_BYTES - this.keptBytes);
      // Copy: the engine may reuse its buffers.
      this.kept.push(Buffer.from(take));
      this.keptBytes += take.length;
    }
    this.options.onProgress?.(this.size);
    const out = this.options.redact && this.target ? this.options.redact.push(chunk) : chunk;
    if (!this.target || out.length === 0 || this.target.write(out)) callback();
    else this.target.once('drain', () => callback());
  }

  override _final(callback: (error?: Error | null) => void): void {
    const rest = this.options.redact?.end();
    if (this.target && rest && rest.length > 0) this.target.write(rest);
    if (!this.target || !this.options.endTarget) {
      callback();
      return;
    }
    this.target.once('finish', () => callback());
    this.target.end();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.target?.off('error', this.onTargetError);
    if (error && this.options.endTarget && this.target && !this.target.destroyed) this.target.destroy();
    callback(error);
  }
}
