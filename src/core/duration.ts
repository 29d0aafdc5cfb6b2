import { DialError } from './errors.js';

const unitMs: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration as docs/http-format.md writes them: `500ms`, `5s`, `2m`, `1h`; a bare number
 * means seconds (as in HTTPie). Returns milliseconds.
 */
export function parseDuration(text: string, what = 'duration'): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!match) {
    throw new DialError('E_USAGE', `invalid ${what} '${text}'`, {
      hint: 'write durations like 500ms, 5s or 2m; a bare number means seconds',
    });
  }
  return Math.round(Number(match[1]) * unitMs[match[2] ?? 's']);
}

/** Formats milliseconds for people: `850ms`, `1.2s`, `2m 5s`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)}s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes}m ${Math.round((ms % 60_000) / 1000)}s`;
}
