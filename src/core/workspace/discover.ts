/**
 * The workspace (DESIGN §3): the root is the nearest folder upward holding
 * `http-client.env.json` or `.git`, else the starting folder; its requests are the `.http` and
 * `.rest` files below it, skipping node_modules, .git and what the root's .gitignore ignores.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { DialError } from '../errors.js';
import { ENV_FILE } from '../env/index.js';
import { compileGitignore } from './gitignore.js';

/** The workspace root for a folder (or file): nearest ancestor with http-client.env.json or .git, else the folder itself. */
export function findWorkspaceRoot(start: string): string {
  const from = resolve(start);
  let dir = from;
  for (;;) {
    if (existsSync(join(dir, ENV_FILE)) || existsSync(join(dir, '.git'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
}

const SKIPPED = new Set(['node_modules', '.git']);

/** True for names dial reads as request files. */
export function isRequestFile(path: string): boolean {
  return /\.(?:http|rest)$/i.test(path);
}

async function loadIgnore(root: string): Promise<(path: string, isDirectory: boolean) => boolean> {
  try {
    return compileGitignore(await readFile(join(root, '.gitignore'), 'utf8'));
  } catch {
    return () => false;
  }
}

/**
 * `.http`/`.rest` files under the given paths (files or folders; default: the root), sorted.
 * A file named explicitly is always included; folders are walked with the ignore rules.
 */
export async function discoverHttpFiles(root: string, paths: string[] = [root]): Promise<string[]> {
  const ignored = await loadIgnore(root);
  const found = new Set<string>();
  const rel = (path: string) => relative(root, path).split(sep).join('/');
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      throw new DialError('E_NOT_FOUND', `cannot read folder ${dir}: ${(error as Error).message}`, { cause: error });
    }
    await Promise.all(entries.map(async (entry) => {
      const path = join(dir, entry.name);
      const relPath = rel(path);
      const inside = !relPath.startsWith('..');
      if (entry.isDirectory()) {
        if (SKIPPED.has(entry.name) || (inside && ignored(relPath, true))) return;
        await walk(path);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && isRequestFile(entry.name) && !(inside && ignored(relPath, false))) {
        found.add(path);
      }
    }));
  };
  for (const given of paths) {
    const path = resolve(given);
    let info;
    try {
      info = await stat(path);
    } catch {
      throw new DialError('E_NOT_FOUND', `no such file or folder: ${given}`);
    }
    if (info.isDirectory()) await walk(path);
    else found.add(path);
  }
  return [...found].sort();
}
