/**
 * Named sessions of `dial send --session NAME URL` (HTTPie's sessions): the headers given on the
 * command line (except `Content-*`, `If-*` and `Cookie`), `-a` credentials and cookies — those the
 * server sets and those given in a `Cookie:` item — kept between one-shot sends to a host. A
 * named session lives in the config folder, per host: `sessions/<host>_<port>/<NAME>.json`; a
 * NAME with a `/` (or ending in `.json`) is a file path instead, usable for any host. Written
 * atomically, mode 0600: the file holds credentials in plain text, and only it does (history,
 * `dial sessions show` and the printed exchange mask them).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { DialError } from '../errors.js';
import { applyCookieChanges, createCookieJar, type CookieStore } from '../http/cookies.js';
import type { HeaderList } from '../http/types.js';
import { configDir } from '../settings/paths.js';
import { cookieFromJson, cookieToJson, type SavedCookie } from './saved-cookie.js';

type Env = Record<string, string | undefined>;

/** Credentials as `-a` gave them: `user:password` (basic, digest) or a token (bearer). */
export interface SessionAuth {
  type: 'basic' | 'digest' | 'bearer';
  credentials: string;
}

/** A session file. */
export interface SessionData {
  headers: Array<[name: string, value: string]>;
  auth?: SessionAuth;
  cookies: SavedCookie[];
}

/** Where a session lives, and under which host and name it is listed. */
export interface SessionLocation {
  path: string;
  /** `host_port` folder; undefined for a session given as a path. */
  host?: string;
  name: string;
}

/** The folder holding named sessions. */
export function sessionsDir(env: Env = process.env): string {
  return join(configDir(env), 'sessions');
}

/** The folder name of a URL's host, as HTTPie names it (`localhost_3000`, `[::1]` as `__1_80`). */
export function sessionHost(url: URL): string {
  const port = url.port;
  return `${url.hostname.replace(/[[\]]/g, '').replace(/:/g, '_')}${port ? `_${port}` : ''}`;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/** A session given as a path (anonymous: for any host), as HTTPie tells them apart. */
export function isSessionPath(nameOrPath: string): boolean {
  return /[\\/]/.test(nameOrPath) || nameOrPath.endsWith('.json');
}

/** Where `--session NAME` keeps its file for a request to `url`. Throws E_USAGE for a bad name. */
export function locateSession(nameOrPath: string, url: URL, cwd: string, env: Env = process.env): SessionLocation {
  if (isSessionPath(nameOrPath)) return { path: resolve(cwd, nameOrPath), name: nameOrPath };
  checkSessionName(nameOrPath);
  const host = sessionHost(url);
  return { path: join(sessionsDir(env), host, `${nameOrPath}.json`), host, name: nameOrPath };
}

/** Refuses a session name that could not be a file name (E_USAGE). */
export function checkSessionName(name: string): void {
  if (!NAME.test(name))
    throw new DialError('E_USAGE', `'${name}' is not a session name`, {
      hint: 'use letters, digits, dot, dash and underscore (or a path to a .json file)',
    });
}

/** Reads a session file; a missing one is a new session. Throws E_CONFIG for a file that is not a session. */
export function readSession(path: string): SessionData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { headers: [], cookies: [] };
    throw new DialError('E_IO', `cannot read the session ${path}`, { cause: error });
  }
  let data: Partial<SessionData>;
  try {
    data = JSON.parse(text) as Partial<SessionData>;
  } catch {
    throw new DialError('E_CONFIG', `the session ${path} is not valid JSON`, {
      hint: 'fix the file, or remove it with `dial sessions clear`',
    });
  }
  const headers = Array.isArray(data.headers)
    ? data.headers.filter(
        (h): h is [string, string] => Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string',
      )
    : [];
  const auth =
    data.auth && typeof data.auth.credentials === 'string' && ['basic', 'digest', 'bearer'].includes(data.auth.type)
      ? { type: data.auth.type, credentials: data.auth.credentials }
      : undefined;
  return { headers, ...(auth ? { auth } : {}), cookies: Array.isArray(data.cookies) ? data.cookies : [] };
}

/** Headers a session keeps: not the body's (`Content-*`), not conditional ones (`If-*`), not `Cookie` (kept as cookies). */
export function sessionKeepsHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return !lower.startsWith('content-') && !lower.startsWith('if-') && lower !== 'cookie' && lower !== 'host';
}

/** What one send changes in its session. */
export interface SessionUpdate {
  /** Header items of the command line, in order (a null value removes the header). */
  headers: Array<[name: string, value: string | null]>;
  auth?: SessionAuth;
}

/** A session opened for one send. */
export interface OpenSession {
  location: SessionLocation;
  data: SessionData;
  /** The cookies, as the engine's jar; what the send changes is saved. */
  jar: CookieStore;
  /** Records the command line's headers and credentials, and turns a `Cookie` item into cookies for the host. */
  update(change: SessionUpdate, url: URL): void;
  /** Writes the session (atomically, 0600). Throws DialError E_IO. */
  save(): void;
}

/** Opens the session a send uses. */
export function openSession(location: SessionLocation): OpenSession {
  const data = readSession(location.path);
  const cookies = data.cookies.map(cookieFromJson).filter((c) => c !== undefined);
  const jar = createCookieJar(cookies);
  return {
    location,
    data,
    jar,
    update(change, url) {
      for (const [name, value] of change.headers) {
        if (name.toLowerCase() === 'cookie' && value !== null) {
          // As HTTPie: a cookie given by hand is kept for the host it was sent to.
          const pairs = value
            .split(';')
            .map((pair) => pair.trim())
            .filter((pair) => pair.includes('='));
          jar.store(
            new URL('/', url).href,
            pairs.map((pair) => `${pair}; Path=/`),
          );
          continue;
        }
        if (!sessionKeepsHeader(name)) continue;
        const lower = name.toLowerCase();
        data.headers = data.headers.filter(([kept]) => kept.toLowerCase() !== lower);
        if (value !== null) data.headers.push([name, value]);
      }
      if (change.auth) data.auth = change.auth;
    },
    save() {
      // Cookies set by another send meanwhile are kept: only this send's changes are applied.
      const onDisk = readSafely(location.path);
      const base = onDisk.cookies.map(cookieFromJson).filter((c) => c !== undefined);
      data.cookies = applyCookieChanges(base, jar.changes()).map(cookieToJson);
      mkdirSync(dirname(location.path), { recursive: true, mode: 0o700 });
      writeFileAtomic(location.path, `${JSON.stringify(data, null, 2)}\n`, 0o600, 'session');
    },
  };
}

function readSafely(path: string): SessionData {
  try {
    return readSession(path);
  } catch {
    return { headers: [], cookies: [] };
  }
}

/** The headers a session adds to a request: those the command line does not give itself. */
export function sessionHeaders(data: SessionData, given: Set<string>): HeaderList {
  return data.headers.filter(([name]) => !given.has(name.toLowerCase()));
}

/** A named session as `dial sessions list` shows it. */
export interface SessionSummary extends SessionLocation {
  data: SessionData;
  modified: Date;
}

/** Every named session in the config folder (broken files are listed with no content). */
export function listSessions(env: Env = process.env): SessionSummary[] {
  const dir = sessionsDir(env);
  const found: SessionSummary[] = [];
  let hosts: string[];
  try {
    hosts = readdirSync(dir).sort();
  } catch {
    return [];
  }
  for (const host of hosts) {
    let names: string[];
    try {
      names = readdirSync(join(dir, host))
        .filter((n) => n.endsWith('.json'))
        .sort();
    } catch {
      continue;
    }
    for (const file of names) {
      const path = join(dir, host, file);
      found.push({ path, host, name: file.slice(0, -5), data: readSafely(path), modified: statSync(path).mtime });
    }
  }
  return found;
}

/** `localhost:3000` as the folder name sessions use (`localhost_3000`). */
export function hostKey(host: string): string {
  return host.replace(/[[\]]/g, '').replace(/:/g, '_');
}

/** Removes named sessions (all, those of a name, of a host, or both); answers those removed. */
export function clearSessions(filter: { name?: string; host?: string }, env: Env = process.env): SessionSummary[] {
  const removed = listSessions(env).filter(
    (s) =>
      (filter.name === undefined || s.name === filter.name) && (filter.host === undefined || s.host === filter.host),
  );
  for (const session of removed) rmSync(session.path, { force: true });
  return removed;
}
