/**
 * Masking for what `dial send` prints: the secret values a `.http` request used
 * (`# @secret`, private env file, `.env`) become `••••` in the printed request and response,
 * as history and run reports show them. Bodies streamed to stdout are masked on the fly, a
 * value cut across two chunks included. Only printing is masked: `--curl`, `--download` and
 * `-o` keep the real values.
 */
import type { HeaderList } from '../http/types.js';
import { isSensitiveHeader, maskCredential, MASK, maskForms, maskedForms } from '../secrets.js';

const MASK_BYTES = Buffer.from(MASK, 'utf8');

/** Masks a fixed set of secret values in text, headers and bytes. */
export class Redactor {
  /** What is masked, as redactText masks it: each value in its encoded forms, longest first. */
  private readonly values: string[];
  private readonly byteValues: Buffer[];

  /** `maskCredentialHeaders: false` (`send --no-mask`) shows credential headers as they are. */
  constructor(
    secretValues: Iterable<string>,
    private readonly maskCredentialHeaders = true,
  ) {
    this.values = maskedForms(secretValues);
    this.byteValues = this.values.map((value) => Buffer.from(value, 'utf8'));
  }

  /** True when there is anything to mask. */
  get active(): boolean {
    return this.values.length > 0;
  }

  text(text: string): string {
    return this.active ? maskForms(text, this.values) : text;
  }

  /**
   * Headers as printed: credential headers (by name, secrets.ts) masked, and secret values
   * inside the others; the headers themselves stay, so `-v` output keeps its shape. A value
   * still holding a `{{…}}` (--offline keeps references as written) is no credential yet.
   */
  headers(headers: HeaderList): HeaderList {
    return headers.map(([name, value]): [string, string] => {
      if (this.maskCredentialHeaders && isSensitiveHeader(name) && !value.includes('{{'))
        return [name, maskCredential(value)];
      return [name, this.active ? maskForms(value, this.values) : value];
    });
  }

  bytes(bytes: Uint8Array): Buffer {
    let out = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (const value of this.byteValues) out = replaceAll(out, value);
    return out;
  }

  /** A masker for a body arriving in chunks. */
  stream(): StreamRedactor {
    return new StreamRedactor(this);
  }

  /** How many bytes at the end of `bytes` could be the start of a secret value (held back until more arrive). */
  partialTail(bytes: Buffer): number {
    let longest = 0;
    for (const value of this.byteValues) {
      for (let length = Math.min(value.length - 1, bytes.length); length > longest; length--) {
        if (
          bytes[bytes.length - length] === value[0] &&
          bytes.subarray(bytes.length - length).equals(value.subarray(0, length))
        ) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}

/**
 * Masks a chunked body: each chunk is masked and passed on, except a tail that may be the
 * start of a secret value, kept until the next chunk (or `end`) says. Without secrets, chunks
 * pass through untouched.
 */
export class StreamRedactor {
  private pending: Buffer = Buffer.alloc(0);

  constructor(private readonly redactor: Redactor) {}

  /** The bytes that can be written now. */
  push(chunk: Buffer): Buffer {
    if (!this.redactor.active) return chunk;
    const data = this.redactor.bytes(this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk);
    const hold = this.redactor.partialTail(data);
    // Copied: the engine may reuse the chunk's memory.
    this.pending = Buffer.from(data.subarray(data.length - hold));
    return data.subarray(0, data.length - hold);
  }

  /** What is left when the body ends (a tail that turned out not to be a secret). */
  end(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest;
  }
}

function replaceAll(bytes: Buffer, value: Buffer): Buffer {
  let at = bytes.indexOf(value);
  if (at < 0) return bytes;
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(bytes.subarray(from, at), MASK_BYTES);
    from = at + value.length;
    at = bytes.indexOf(value, from);
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
