/**
 * The workspace (docs/architecture.md): the root is the nearest folder upward holding
 * `http-client.env.json` or `.git`, else the starting folder; its requests are the `.http` and
 * `.rest` files below it, skipping node_modules, .git and what .gitignore files ignore (the
 * root's and those of the folders below it; a deeper file's patterns win, as in git).
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { DialError } from '../errors.js';
import { ENV_FILE } from '../env/index.js';
import { compileGitignoreVerdict } from './gitignore.js';

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

/** The patterns of one folder's .gitignore, for paths relative to that folder. */
interface IgnoreFile {
  folder: string;
  verdict: (relativePath: string, isDirectory: boolean) => boolean | undefined;
}

async function readIgnoreFile(folder: string): Promise<IgnoreFile[]> {
  try {
    return [{ folder, verdict: compileGitignoreVerdict(await readFile(join(folder, '.gitignore'), 'utf8')) }];
  } catch {
    return [];
  }
}

/** The deepest .gitignore with a pattern for the path decides. */
function isIgnored(path: string, isDirectory: boolean, ignoreFiles: IgnoreFile[]): boolean {
  for (let k = ignoreFiles.length - 1; k >= 0; k--) {
    const relPath = relative(ignoreFiles[k].folder, path);
    if (relPath.startsWith('..')) continue;
    const verdict = ignoreFiles[k].verdict(relPath.split(sep).join('/'), isDirectory);
    if (verdict !== undefined) return verdict;
  }
  return false;
}

/** The .gitignore files from the root down to `folder`'s parent (when it lies inside the root). */
async function ignoreFilesAbove(root: string, folder: string): Promise<IgnoreFile[]> {
  const relPath = relative(root, folder);
  if (!relPath || relPath.startsWith('..')) return [];
  const files: IgnoreFile[] = [];
  let current = root;
  for (const part of relPath.split(sep).slice(0, -1)) {
    files.push(...(await readIgnoreFile(current)));
    current = join(current, part);
  }
  files.push(...(await readIgnoreFile(current)));
  return files;
}

/**
 * `.http`/`.rest` files under the given paths (files or folders; default: the root), sorted.
 * A file named explicitly is always included; folders are walked with the ignore rules.
 */
export async function discoverHttpFiles(root: string, paths: string[] = [root]): Promise<string[]> {
  const found = new Set<string>();
  const walk = async (dir: string, above: IgnoreFile[]): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      throw new DialError('E_NOT_FOUND', `cannot read folder ${dir}: ${(error as Error).message}`, { cause: error });
    }
    const ignoreFiles = entries.some((entry) => entry.name === '.gitignore')
      ? [...above, ...(await readIgnoreFile(dir))]
      : above;
    await Promise.all(
      entries.map(async (entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) {
          if (SKIPPED.has(entry.name) || isIgnored(path, true, ignoreFiles)) return;
          await walk(path, ignoreFiles);
        } else if (
          (entry.isFile() || entry.isSymbolicLink()) &&
          isRequestFile(entry.name) &&
          !isIgnored(path, false, ignoreFiles)
        ) {
          found.add(path);
        }
      }),
    );
  };
  for (const given of paths) {
    const path = resolve(given);
    let info;
    try {
      info = await stat(path);
    } catch {
      throw new DialError('E_NOT_FOUND', `no such file or folder: ${given}`);
    }
    if (info.isDirectory()) await walk(path, await ignoreFilesAbove(resolve(root), path));
    else found.add(path);
  }
  return [...found].sort();
}
