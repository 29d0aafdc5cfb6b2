/** Byte sizes as people write them: 1048576, "512KiB", "100MB", "1GiB", "2g". */
import { DialError } from './errors.js';

const UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1000,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** The pattern a size text must match. */
export const SIZE_TEXT = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i;

/** Bytes of a size (a number is bytes); throws E_CONFIG naming `what` for a bad one. */
export function parseSize(value: string | number, what: string): number {
  if (typeof value === 'number') return Math.floor(value);
  const match = SIZE_TEXT.exec(value);
  const unit = match ? UNITS[match[2].toLowerCase()] : undefined;
  if (!match || unit === undefined) {
    throw new DialError('E_CONFIG', `invalid size '${value}' for ${what}`, {
      hint: 'write a size such as 1GiB, 512MiB or a number of bytes',
    });
  }
  return Math.floor(Number(match[1]) * unit);
}
