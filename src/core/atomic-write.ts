import { mkdirSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { dirname, join, basename } from 'node:path';

/**
 * Writes a file atomically (temp file in the same folder + rename), so a crash never
 * leaves half a file. `mode` applies to a newly created file (e.g. 0o600 for history).
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  try {
    writeFileSync(temp, data, mode === undefined ? undefined : { mode });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
