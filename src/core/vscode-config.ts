/**
 * VS Code's settings files, found and read as VS Code REST Client gets its settings: it asks VS
 * Code for the `rest-client` section of the document (its models/configurationSettings.ts; the
 * settings are resource-scoped, so every level counts in a multi-root workspace too), and VS Code
 * merges three levels, lowest first: the user's `settings.json`, the `settings` object of the multi-root workspace file
 * (`*.code-workspace`) whose folders hold the document, and the folder's `.vscode/settings.json`.
 * VS Code merges an object value key by key, recursively, across the levels (other values are
 * replaced); env/vscode-settings.ts turns the files into environments, httpfile/dialect.ts reads
 * the project's two levels (never the user's) for its REST Client mark.
 *
 * This module only finds and reads the files. Each is read once per process (a cache keyed by
 * path), so dialect detection and the env store share one read. It is a leaf, so both may import it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { jsonErrorLine, stripJsonComments } from './jsonc.js';
import { isObject } from './json-object.js';

type Env = Record<string, string | undefined>;

/** A settings file that does not parse: where, and JSON.parse's reason. */
export interface SettingsProblem {
  path: string;
  line: number;
  message: string;
}

/** A settings file as read: its object (a file that holds no object reads as `{}`), or its problem. */
export type SettingsRead =
  | { path: string; data: Record<string, unknown>; problem?: undefined }
  | { path: string; data?: undefined; problem: SettingsProblem };

const reads = new Map<string, SettingsRead | null>();

/** One JSONC settings file (cached by path); undefined when it is absent or cannot be read. */
export function readSettingsFile(path: string): SettingsRead | undefined {
  const cached = reads.get(path);
  if (cached !== undefined) return cached ?? undefined;
  const read = readUncached(path);
  reads.set(path, read ?? null);
  return read;
}

function readUncached(path: string): SettingsRead | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // Absent (the usual case: one failed open, no stat before it), a folder, or unreadable.
    return undefined;
  }
  const plain = stripJsonComments(text);
  // VS Code reads an empty settings file as no settings.
  if (!plain.trim()) return { path, data: {} };
  try {
    const data: unknown = JSON.parse(plain);
    return { path, data: isObject(data) ? data : {} };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { path, problem: { path, line: jsonErrorLine(plain, error) ?? 1, message } };
  }
}

/** True when a settings object holds a `rest-client.*` key. */
export function hasRestClientKey(data: Record<string, unknown>): boolean {
  for (const key in data) if (key.startsWith('rest-client.')) return true;
  return false;
}

/** The nearest folder settings with a `rest-client.*` key, and the first broken one met on the way. */
export interface FolderSettingsScan {
  found?: { path: string; data: Record<string, unknown> };
  problem?: SettingsProblem;
}
const folderCache = new Map<string, FolderSettingsScan>();

/**
 * The nearest `.vscode/settings.json` from `dir` up to the repository root (the folder with
 * `.git`) that holds a `rest-client.*` key. A settings file without such a key, or one that does
 * not parse (`problem`), is passed over and the search goes on upwards.
 */
export function nearestFolderSettings(dir: string): FolderSettingsScan {
  let at = resolve(dir);
  const visited: string[] = [];
  let found: FolderSettingsScan = {};
  for (;;) {
    const cached = folderCache.get(at);
    if (cached !== undefined) {
      found = { ...cached, problem: found.problem ?? cached.problem };
      break;
    }
    visited.push(at);
    const read = readSettingsFile(join(at, '.vscode', 'settings.json'));
    if (read?.data && hasRestClientKey(read.data)) {
      found = { found: { path: read.path, data: read.data }, problem: found.problem };
      break;
    }
    if (read?.problem && !found.problem) found = { problem: read.problem };
    const parent = dirname(at);
    if (parent === at || isRepositoryRoot(at)) break;
    at = parent;
  }
  for (const seen of visited) folderCache.set(seen, found);
  return found;
}

function isRepositoryRoot(dir: string): boolean {
  // A `.git` folder, or the `.git` file of a worktree or submodule.
  return existsSync(join(dir, '.git'));
}

/** The workspace file whose folders hold a folder, and the broken workspace files met on the way. */
export interface WorkspaceFileScan {
  found?: { path: string; settings: Record<string, unknown> };
  problems: SettingsProblem[];
}
const workspaceFileCache = new Map<string, WorkspaceFileScan>();

/**
 * The nearest `*.code-workspace` file whose `folders` hold `dir`. Looked for in `dir` and each
 * folder above it up to the repository root (the nearest folder with `.git`), then in the folder
 * just above the repository root, where a workspace of several repositories is kept; outside a
 * repository, up to the home folder. One directory listing per folder; files in one folder are
 * tried in name order. The temp folder and the filesystem root are never listed (a listing of a
 * shared temp folder can hold tens of thousands of names, and no workspace file is kept there).
 * A workspace file that does not parse is reported in `problems` and passed over.
 */
export function findWorkspaceFile(dir: string, env: Env = process.env, temp: string = tmpdir()): WorkspaceFileScan {
  const from = resolve(dir);
  const cached = workspaceFileCache.get(from);
  if (cached) return cached;
  const scan: WorkspaceFileScan = { problems: [] };
  const skipped = (folder: string): boolean => folder === resolve(temp) || dirname(folder) === folder;
  for (const folder of workspaceFileFolders(from, env.HOME || env.USERPROFILE)) {
    if (skipped(folder)) continue;
    let names: string[] = [];
    try {
      names = readdirSync(folder);
    } catch {
      // An unreadable folder holds no workspace file dial can see.
    }
    for (const name of names.filter((entry) => entry.endsWith('.code-workspace')).sort()) {
      const read = readSettingsFile(join(folder, name));
      if (!read) continue;
      if (read.problem) {
        scan.problems.push(read.problem);
        continue;
      }
      if (!holdsFolder(read.data, folder, from)) continue;
      scan.found = { path: read.path, settings: isObject(read.data.settings) ? read.data.settings : {} };
      break;
    }
    if (scan.found) break;
  }
  workspaceFileCache.set(from, scan);
  return scan;
}

/** The folders findWorkspaceFile lists for `from`, nearest first (see there). */
function workspaceFileFolders(from: string, home: string | undefined): string[] {
  const chain: string[] = [];
  for (let at = from; ; at = dirname(at)) {
    chain.push(at);
    if (isRepositoryRoot(at)) {
      if (dirname(at) !== at) chain.push(dirname(at));
      return chain;
    }
    if (dirname(at) === at) break;
  }
  // No repository: from the file's folder up to the home folder (or the whole way when it is not above).
  const top = home ? chain.indexOf(resolve(home)) : -1;
  return top < 0 ? chain : chain.slice(0, top + 1);
}

/** True when one of a workspace file's `folders` (`{"path": …}` relative to it, or a `file:` `{"uri": …}`) is `dir` or holds it. */
function holdsFolder(data: Record<string, unknown>, workspaceDir: string, dir: string): boolean {
  if (!Array.isArray(data.folders)) return false;
  for (const folder of data.folders) {
    if (!isObject(folder)) continue;
    let path: string | undefined;
    if (typeof folder.path === 'string') path = resolve(workspaceDir, folder.path);
    else if (typeof folder.uri === 'string' && folder.uri.startsWith('file:')) {
      try {
        path = fileURLToPath(folder.uri);
      } catch {
        path = undefined;
      }
    }
    if (path === undefined) continue;
    const rel = relative(path, dir);
    if (rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))) return true;
  }
  return false;
}

/** `DIAL_VSCODE_USER_SETTINGS` values that turn the user's settings off. */
const OFF = /^(?:0|false|off|no)$/i;
const ON = /^(?:1|true|on|yes)$/i;

/**
 * The user's VS Code `settings.json`, or undefined when reading it is turned off
 * (`DIAL_VSCODE_USER_SETTINGS=0`) or no home folder is known. `DIAL_VSCODE_USER_SETTINGS=PATH`
 * names another file (VS Code Insiders', VSCodium's). Only the environment's variables are used
 * (no fallback to the password database), so a caller that passes `{}` reads nothing.
 */
export function userSettingsPath(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  const chosen = env.DIAL_VSCODE_USER_SETTINGS?.trim();
  if (chosen && OFF.test(chosen)) return undefined;
  if (chosen && !ON.test(chosen)) return resolve(chosen);
  const home = env.HOME || env.USERPROFILE;
  let base: string | undefined;
  if (platform === 'darwin') base = home && join(home, 'Library', 'Application Support');
  else if (platform === 'win32') base = env.APPDATA || (home && join(home, 'AppData', 'Roaming'));
  else base = env.XDG_CONFIG_HOME || (home && join(home, '.config'));
  return base ? join(base, 'Code', 'User', 'settings.json') : undefined;
}

/** The user's VS Code settings as read (readSettingsFile), or undefined when userSettingsPath gives none or the file is absent. */
export function readUserSettings(env: Env = process.env): SettingsRead | undefined {
  const path = userSettingsPath(env);
  return path === undefined ? undefined : readSettingsFile(path);
}
