/**
 * httpyac's environments: `.env` files in an `env/` folder (or beside the `.http` file), the
 * nameless `.env` always, `<name>.env` when environment `name` is chosen. Used for files read in
 * the httpyac dialect, under the JetBrains env files (which win on a clash).
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseDotenv } from '../env/dotenv.js';
import type { ResolvedEnvironment } from '../env/index.js';

async function readValues(path: string): Promise<Map<string, string> | undefined> {
  try {
    return parseDotenv(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The `.env` files httpyac reads for a file in `dir`, nearest folder first up to the repository root. */
function envFolders(dir: string): string[] {
  const folders: string[] = [];
  for (let at = dir; ;) {
    folders.push(at, join(at, 'env'));
    const parent = dirname(at);
    if (parent === at || existsSync(join(at, '.git'))) break;
    at = parent;
  }
  return folders;
}

/** Adds httpyac's `.env` values under `base` (base values win); returns base unchanged when there are none. */
export async function withHttpyacEnvironment(
  base: ResolvedEnvironment,
  dir: string,
  name: string | undefined,
): Promise<ResolvedEnvironment> {
  const values = new Map<string, string>();
  const files: string[] = [];
  const sources = new Map<string, string>();
  // Farther folders first, so nearer files and the named environment override them.
  for (const folder of envFolders(dir).reverse()) {
    for (const fileName of name ? ['.env', `${name}.env`] : ['.env']) {
      const path = join(folder, fileName);
      const found = await readValues(path);
      if (!found) continue;
      files.push(path);
      for (const [key, value] of found) {
        values.set(key, value);
        sources.set(key, path);
      }
    }
  }
  if (files.length === 0) return base;
  for (const [key, value] of base.values) values.set(key, value);
  for (const [key, source] of base.sources) sources.set(key, source);
  return { ...base, values, files: [...files, ...base.files], sources };
}
