/**
 * The saved cookie jars: one file per workspace in the user's config folder
 * (`cookies/<folder>-<hash>.json`, mode 0600), holding one jar per environment. Outside the
 * workspace on purpose: a session cookie is a credential, and a file in the repository is one
 * `git add .` away from being published. `--cookie-jar PATH` puts the same file elsewhere.
 *
 * A run opens the jar of its (workspace, environment), forks it (each file of `dial run` gets
 * its own copy, as before, so files running at once do not log each other out), and saves at
 * the end: the file is read again and only what the forks changed is applied on top, so two
 * runs at once lose nothing but a cookie both set.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { applyCookieChanges, createCookieJar, type CookieStore, type StoredCookie } from '../http/cookies.js';
import { configDir } from '../settings/paths.js';
import { cookieFromJson, cookieToJson, type SavedCookie } from './saved-cookie.js';

type Env = Record<string, string | undefined>;

/** The environment key of a run without `-e` (only `$shared` values). */
export const NO_ENVIRONMENT = '';

/** One jar file: the workspace it belongs to and a jar per environment. */
export interface JarFile {
  workspace: string;
  environments: Record<string, SavedCookie[]>;
}

/** The folder holding the saved jars. */
export function cookieJarsDir(env: Env = process.env): string {
  return join(configDir(env), 'cookies');
}

/** FNV-1a (64-bit): a stable name for a folder without loading node:crypto (~5 ms). */
function fnv1a(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return hash.toString(16).padStart(16, '0');
}

/** The jar file of a workspace in the config folder: its folder name (readable) and a hash of its path. */
export function workspaceJarPath(root: string, env: Env = process.env): string {
  const absolute = resolve(root);
  const slug =
    basename(absolute)
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .slice(0, 40) || 'root';
  return join(cookieJarsDir(env), `${slug}-${fnv1a(absolute)}.json`);
}

/** Reads a jar file; a missing one is empty, a broken one is reported through onProblem and read as empty. */
export function readJarFile(path: string, workspace: string, onProblem?: (message: string) => void): JarFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') onProblem?.(`cannot read the cookie jar ${path}`);
    return { workspace, environments: {} };
  }
  try {
    const data = JSON.parse(text) as Partial<JarFile>;
    const environments: Record<string, SavedCookie[]> = {};
    for (const [name, cookies] of Object.entries(data.environments ?? {}))
      if (Array.isArray(cookies)) environments[name] = cookies;
    return { workspace: typeof data.workspace === 'string' ? data.workspace : workspace, environments };
  } catch {
    onProblem?.(`the cookie jar ${path} is not valid JSON; starting with an empty jar (it is replaced when saved)`);
    return { workspace, environments: {} };
  }
}

function cookiesOf(file: JarFile, environment: string): StoredCookie[] {
  return (file.environments[environment] ?? [])
    .map(cookieFromJson)
    .filter((cookie): cookie is StoredCookie => cookie !== undefined);
}

/** Writes a jar file atomically, mode 0600; a file left without cookies is removed. */
export function writeJarFile(path: string, file: JarFile): void {
  for (const [name, cookies] of Object.entries(file.environments))
    if (cookies.length === 0) delete file.environments[name];
  if (Object.keys(file.environments).length === 0) {
    rmSync(path, { force: true });
    return;
  }
  // A new folder is the user's alone (the file is 0600 either way).
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileAtomic(path, `${JSON.stringify(file, null, 2)}\n`, 0o600, 'cookie jar');
}

/** The saved jar of one (workspace, environment), for a run. */
export interface WorkspaceJar {
  path: string;
  /** A jar holding the saved cookies (as read at the first fork, or as the last save left them); what it changes is saved by `save`. */
  fork(): CookieStore;
  /** Applies what every fork changed to the file as it is on disk now. Throws DialError E_IO. */
  save(): void;
}

export interface OpenJarOptions {
  root: string;
  environment?: string;
  /** `--cookie-jar PATH`: this file instead of the one in the config folder. */
  path?: string;
  env?: Env;
  onProblem?: (message: string) => void;
}

/** Opens the saved jar of a workspace and environment (nothing is read until a fork is made). */
export function openWorkspaceJar(options: OpenJarOptions): WorkspaceJar {
  const workspace = resolve(options.root);
  const path = options.path ? resolve(options.path) : workspaceJarPath(workspace, options.env);
  const environment = options.environment ?? NO_ENVIRONMENT;
  const forks: CookieStore[] = [];
  // Read once, then kept up to date by save: a run of a thousand files reads the file once.
  let snapshot: StoredCookie[] | undefined;
  return {
    path,
    fork() {
      snapshot ??= cookiesOf(readJarFile(path, workspace, options.onProblem), environment);
      const jar = createCookieJar(snapshot);
      forks.push(jar);
      return jar;
    },
    save() {
      if (!forks.some((fork) => fork.changes().size > 0)) return;
      const file = readJarFile(path, workspace);
      const merged = applyCookieChanges(
        cookiesOf(file, environment),
        forks.flatMap((fork) => [...fork.changes()]),
      );
      file.environments[environment] = merged.map(cookieToJson);
      writeJarFile(path, file);
      snapshot = merged;
    },
  };
}

/** A saved jar as `dial cookies list` shows it. */
export interface JarSummary {
  path: string;
  workspace: string;
  environment: string;
  cookies: StoredCookie[];
}

/** Every saved jar in the config folder (expired cookies left out). */
export function listWorkspaceJars(env: Env = process.env): JarSummary[] {
  const dir = cookieJarsDir(env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const now = Date.now();
  return names.sort().flatMap((name) => {
    const path = join(dir, name);
    const file = readJarFile(path, '');
    return Object.keys(file.environments)
      .sort()
      .map((environment) => ({
        path,
        workspace: file.workspace,
        environment,
        cookies: cookiesOf(file, environment).filter((c) => c.expires === undefined || c.expires > now),
      }));
  });
}

/** Removes the saved cookies of a jar file (one environment, or all); answers how many were removed. */
export function clearJarFile(path: string, workspace: string, environment?: string): number {
  const file = readJarFile(path, workspace);
  let removed = 0;
  for (const name of Object.keys(file.environments)) {
    if (environment !== undefined && name !== environment) continue;
    removed += file.environments[name].length;
    delete file.environments[name];
  }
  writeJarFile(path, file);
  return removed;
}
