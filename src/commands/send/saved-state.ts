/**
 * What `dial send` keeps between commands: the saved cookie jar of a workspace and environment
 * (a `.http` target) and `--session NAME` sessions (a URL send), docs/cookies.md. The core
 * modules load only when a send uses them.
 */
import { resolve } from 'node:path';
import type { CookieJar, HttpRequest, SendOptions } from '../../core/http/types.js';
import type { WorkspaceJar } from '../../core/cookies/jar-file.js';
import type { SessionAuth } from '../../core/cookies/send-session.js';
import { credentialValues } from '../../core/secrets.js';
import type { RequestItem } from '../../core/send/items.js';
import type { SendAuth, SendCommandOptions } from './options.js';

/** Where the command runs (SendIo's part this module reads). */
interface Place {
  cwd: string;
  env: Record<string, string | undefined>;
}

/** The part of a prepared send the saved state reads and sets. */
export interface StatefulSend {
  request: HttpRequest;
  secretValues: string[];
  /** The saved cookie jar (a .http request) or the session's cookies (--session). */
  cookieJar?: CookieJar;
  /** Credentials a --session kept, used when -a is not given. */
  sessionAuth?: SendAuth;
  /** Saves the cookie jar or the session once the exchange is over (not for --curl / --offline). */
  saveState?: () => void;
}

/**
 * The values of the saved cookies that go with the request: kept out of history (a server may
 * echo them). On screen they are shown as `-a` credentials are; the Cookie header itself is masked.
 */
export function maskJarCookies(prepared: StatefulSend, sendOptions: SendOptions): void {
  const header = sendOptions.cookieJar?.cookieHeaderFor(prepared.request.url);
  if (header) prepared.secretValues.push(...credentialValues([['Cookie', header]]));
}

/** Saves the cookie jar or the session; a failure is a warning (the exchange itself went through). */
export function saveState(prepared: StatefulSend, warn: (message: string) => void): void {
  try {
    prepared.saveState?.();
  } catch (error) {
    warn(`${(error as Error).message}; cookies of this send are not kept`);
  }
}

/** The saved cookie jar of the workspace and environment a .http request runs in (one for this command only with --no-cookie-jar). */
export async function workspaceCookieJar(
  options: SendCommandOptions,
  io: Place,
  warn: (message: string) => void,
): Promise<{ open: (root: string, environment: string | undefined) => CookieJar; save: () => void } | undefined> {
  if (!options.cookieJar) {
    // Cookies still go from the referenced requests (a login) to the request, for this command only.
    const { createCookieJar } = await import('../../core/http/cookies.js');
    return { open: () => createCookieJar(), save: () => undefined };
  }
  const { openWorkspaceJar } = await import('../../core/cookies/jar-file.js');
  let saved: WorkspaceJar | undefined;
  return {
    open: (root, environment) => {
      saved = openWorkspaceJar({
        root,
        environment,
        ...(options.cookieJarPath !== undefined && { path: resolve(io.cwd, options.cookieJarPath) }),
        env: io.env,
        onProblem: warn,
      });
      return saved.fork();
    },
    save: () => saved?.save(),
  };
}

/**
 * `--session NAME`: the session's headers go with the request unless an item gives the same
 * header, its credentials unless `-a` is given, its cookies through the jar; the items' headers,
 * `-a` and the cookies the server sets are kept for the next send (not with --session-read-only).
 */
export async function useSession(
  prepared: StatefulSend,
  items: RequestItem[],
  options: SendCommandOptions,
  io: Place,
): Promise<void> {
  const { locateSession, openSession, sessionHeaders } = await import('../../core/cookies/send-session.js');
  const { request } = prepared;
  const url = new URL(request.url);
  const session = openSession(locateSession(options.session!.name, url, io.cwd, io.env));
  const headerItems: Array<[string, string | null]> = [];
  for (const item of items) {
    if (item.kind === 'header' || item.kind === 'header-empty')
      headerItems.push([item.name, item.kind === 'header' ? item.value : '']);
    else if (item.kind === 'header-remove') headerItems.push([item.name, null]);
  }
  const given = new Set(headerItems.map(([name]) => name.toLowerCase()));
  for (const [name, value] of sessionHeaders(session.data, given)) {
    const lower = name.toLowerCase();
    request.headers = [...request.headers.filter(([key]) => key.toLowerCase() !== lower), [name, value]];
  }
  const kept = session.data.auth;
  if (!options.auth && kept) prepared.sessionAuth = authFromSession(kept);
  session.update({ headers: headerItems, ...(options.auth && { auth: sessionAuthOf(options.auth) }) }, url);
  prepared.cookieJar = session.jar;
  if (!options.session!.readOnly) prepared.saveState = () => session.save();
}

/** `-a` as a session keeps it. */
function sessionAuthOf(auth: SendAuth): SessionAuth {
  return auth.type === 'bearer'
    ? { type: 'bearer', credentials: auth.token }
    : { type: auth.type, credentials: `${auth.username}:${auth.password}` };
}

/** A session's credentials as if given with `-a`. */
function authFromSession(auth: SessionAuth): SendAuth {
  if (auth.type === 'bearer') return { type: 'bearer', token: auth.credentials };
  const colon = auth.credentials.indexOf(':');
  return {
    type: auth.type,
    username: colon === -1 ? auth.credentials : auth.credentials.slice(0, colon),
    password: colon === -1 ? '' : auth.credentials.slice(colon + 1),
    secretParts: auth.credentials.split(':').filter((part) => part.length >= 3),
  };
}

/** The request with the jar's cookies for its URL in its Cookie header (its own cookies win by name), for `--curl`. */
export function withJarCookies(request: HttpRequest, jar: CookieJar | undefined): HttpRequest {
  const header = jar?.cookieHeaderFor(request.url);
  if (!header) return request;
  const nameOf = (pair: string): string => pair.split('=')[0].trim();
  const own = request.headers.filter(([name]) => name.toLowerCase() === 'cookie').map(([, value]) => value);
  const ownNames = new Set(own.flatMap((value) => value.split(';').map(nameOf)));
  const added = header.split('; ').filter((pair) => !ownNames.has(nameOf(pair)));
  if (added.length === 0) return request;
  return {
    ...request,
    headers: [
      ...request.headers.filter(([name]) => name.toLowerCase() !== 'cookie'),
      ['Cookie', [...own, ...added].join('; ')],
    ],
  };
}
