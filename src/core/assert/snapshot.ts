/**
 * Body snapshots (`?? body snapshot [ignore $.a $.b]`): one `__snapshots__/<file>.snap.json`
 * next to each .http file, keyed by request name (or `#index`). Missing entries are written
 * on first run; `--update-snapshots` rewrites them. Written atomically.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { DialError } from '../errors.js';
import { removeJsonPath } from './json-path.js';
import { showValue } from './predicates.js';

/** Where the snapshots of a .http file live. */
export function snapshotPathFor(httpFilePath: string): string {
  return join(dirname(httpFilePath), '__snapshots__', `${basename(httpFilePath)}.snap.json`);
}

/** The snapshots of one .http file, loaded once and written back on every change. */
export class SnapshotStore {
  private entries: Record<string, unknown> | undefined;
  private loading: Promise<Record<string, unknown>> | undefined;
  constructor(readonly path: string) {}

  private async load(): Promise<Record<string, unknown>> {
    if (this.entries) return this.entries;
    this.loading ??= (async () => {
      let text: string;
      try {
        text = await readFile(this.path, 'utf8');
      } catch {
        return {};
      }
      try {
        const parsed = JSON.parse(text) as unknown;
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      } catch {
        /* reported below */
      }
      throw new DialError('E_PARSE', `snapshot file ${this.path} is not a JSON object`, {
        hint: 'delete it or run with --update-snapshots',
      });
    })();
    this.entries = await this.loading;
    return this.entries;
  }

  /** The stored snapshot, or undefined when none. */
  async get(key: string): Promise<{ found: boolean; value: unknown }> {
    const entries = await this.load();
    return Object.prototype.hasOwnProperty.call(entries, key)
      ? { found: true, value: entries[key] }
      : { found: false, value: undefined };
  }

  /** Stores a snapshot and writes the file. */
  async set(key: string, value: unknown): Promise<void> {
    const entries = await this.load();
    entries[key] = value;
    const sorted: Record<string, unknown> = {};
    for (const name of Object.keys(entries).sort()) sorted[name] = entries[name];
    this.entries = sorted;
    writeFileAtomic(this.path, `${JSON.stringify(sorted, null, 2)}\n`);
  }
}

/** A deep copy of a JSON value with the ignored paths removed. */
export async function withoutIgnored(value: unknown, ignore: string[] | undefined): Promise<unknown> {
  if (!ignore?.length || value === null || typeof value !== 'object') return value;
  const copy = structuredClone(value);
  for (const path of ignore) await removeJsonPath(copy, path);
  return copy;
}

function pathKey(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

/** A structural diff: one line per difference, `path: expected -> actual` (at most `limit` lines). */
export function structuralDiff(expected: unknown, actual: unknown, limit = 50): string[] {
  const lines: string[] = [];
  const visit = (path: string, e: unknown, a: unknown): void => {
    if (lines.length >= limit) return;
    const eObj = e !== null && typeof e === 'object';
    const aObj = a !== null && typeof a === 'object';
    if (eObj && aObj && Array.isArray(e) === Array.isArray(a)) {
      if (Array.isArray(e)) {
        const av = a as unknown[];
        const n = Math.max(e.length, av.length);
        for (let i = 0; i < n; i++) {
          if (i >= e.length) lines.push(`${pathKey(path, i)}: (none) -> ${showValue(av[i], 120)}`);
          else if (i >= av.length) lines.push(`${pathKey(path, i)}: ${showValue(e[i], 120)} -> (none)`);
          else visit(pathKey(path, i), e[i], av[i]);
          if (lines.length >= limit) return;
        }
        return;
      }
      const eo = e as Record<string, unknown>;
      const ao = a as Record<string, unknown>;
      for (const key of new Set([...Object.keys(eo), ...Object.keys(ao)])) {
        if (!(key in ao)) lines.push(`${pathKey(path, key)}: ${showValue(eo[key], 120)} -> (none)`);
        else if (!(key in eo)) lines.push(`${pathKey(path, key)}: (none) -> ${showValue(ao[key], 120)}`);
        else visit(pathKey(path, key), eo[key], ao[key]);
        if (lines.length >= limit) return;
      }
      return;
    }
    if (JSON.stringify(e) !== JSON.stringify(a)) lines.push(`${path}: ${showValue(e, 120)} -> ${showValue(a, 120)}`);
  };
  visit('$', expected, actual);
  return lines;
}
