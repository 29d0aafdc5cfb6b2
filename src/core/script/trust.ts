/**
 * Who may give scripts Node access. Never a file in the repository: only the user, by
 * `--allow-node` / `DIAL_ALLOW_NODE=1` for one run, or by `dial trust DIR`, which records the
 * folder in `trusted.json` in the user's config folder (outside every workspace).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { configDir } from '../settings/paths.js';

type Env = Record<string, string | undefined>;

/** The file that lists trusted folders. */
export function trustFilePath(env: Env = process.env): string {
  return join(configDir(env), 'trusted.json');
}

function canonical(dir: string): string {
  const absolute = resolve(dir);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** The trusted folders (absolute, canonical). A missing or broken file trusts nothing. */
export function trustedFolders(env: Env = process.env): string[] {
  try {
    const parsed = JSON.parse(readFileSync(trustFilePath(env), 'utf8')) as { folders?: unknown };
    return Array.isArray(parsed.folders) ? parsed.folders.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

/** Records `dir` as trusted; answers its canonical path. */
export function trustFolder(dir: string, env: Env = process.env): string {
  const folder = canonical(dir);
  const folders = trustedFolders(env).filter((f) => f !== folder);
  folders.push(folder);
  writeFileAtomic(trustFilePath(env), `${JSON.stringify({ folders }, null, 2)}\n`, 0o600);
  return folder;
}

/** Removes `dir` from the trusted folders; answers whether it was there. */
export function untrustFolder(dir: string, env: Env = process.env): boolean {
  const folder = canonical(dir);
  const before = trustedFolders(env);
  const folders = before.filter((f) => f !== folder);
  if (folders.length === before.length) return false;
  writeFileAtomic(trustFilePath(env), `${JSON.stringify({ folders }, null, 2)}\n`, 0o600);
  return true;
}

/** Whether `path` (a script or .http file) lies in a trusted folder. */
export function isTrusted(path: string, env: Env = process.env): boolean {
  const target = canonical(path);
  return trustedFolders(env).some(
    (folder) => target === folder || target.startsWith(folder.endsWith(sep) ? folder : folder + sep),
  );
}

/** The default policy: DIAL_ALLOW_NODE=1 (set by --allow-node too) or a trusted folder. */
export function defaultNodeAccess(env: Env = process.env): (path: string) => boolean {
  if (env.DIAL_ALLOW_NODE === '1' || env.DIAL_ALLOW_NODE === 'true') return () => true;
  return (path) => isTrusted(path, env);
}
