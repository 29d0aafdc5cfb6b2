/**
 * A cookie jar (RFC 6265, with the client-side rules of RFC 6265bis that apply to a tool that is
 * not a browser): Domain (host-only or domain-match), Path, Expires / Max-Age, Secure, HttpOnly
 * and SameSite kept; `__Secure-` / `__Host-` prefixes checked; a cookie with Secure is taken only
 * from https (or localhost) and an insecure origin cannot overwrite one. No public-suffix list
 * (tough-cookie's would cost start-up on every send): a Domain attribute naming a single label
 * (`com`, `localhost`) is refused unless it is the host itself. SameSite is kept and shown but
 * not enforced: every request dial sends is one the user asked for, as with curl and HTTPie.
 *
 * The jar remembers what changed since it was made (`changes()`), so a persisted jar can apply
 * only those on top of the file as it is on disk when it saves (two runs at once lose nothing
 * but a cookie both of them set).
 */
import { isIP } from 'node:net';
import type { CookieJar } from './types.js';

export interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  /** No Domain attribute: sent to exactly `domain`, not its subdomains. */
  hostOnly: boolean;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** Epoch ms; undefined = a session cookie (dial keeps it until the server removes it). */
  expires?: number;
  /** Epoch ms. */
  created: number;
}

/** A cookie jar that can list its cookies and say what changed since it was made. */
export interface CookieStore extends CookieJar {
  /** The live cookies (expired ones dropped), in the order they are sent. */
  list(): StoredCookie[];
  /** Every cookie set or removed since the jar was made, by key (null = removed). */
  changes(): Map<string, StoredCookie | null>;
}

/** The key a cookie is replaced by: name, domain and path (RFC 6265 5.3 step 11). */
export function cookieKey(cookie: Pick<StoredCookie, 'name' | 'domain' | 'path'>): string {
  return `${cookie.name}\t${cookie.domain}\t${cookie.path}`;
}

/** The host of a URL as cookies compare it: lower case, IPv6 without brackets. */
export function cookieHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

function defaultPath(pathname: string): string {
  if (!pathname.startsWith('/')) return '/';
  const last = pathname.lastIndexOf('/');
  return last <= 0 ? '/' : pathname.slice(0, last);
}

function domainMatches(host: string, domain: string): boolean {
  if (host === domain) return true;
  return !isIP(host) && host.endsWith('.' + domain);
}

function pathMatches(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true;
  if (!requestPath.startsWith(cookiePath)) return false;
  return cookiePath.endsWith('/') || requestPath[cookiePath.length] === '/';
}

/** https, or a loopback host (browsers treat both as secure contexts). */
function secureOrigin(url: URL, host: string): boolean {
  return (
    url.protocol === 'https:' ||
    url.protocol === 'wss:' ||
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '127.0.0.1' ||
    host === '::1'
  );
}

/** Whether a cookie's domain and path cover `url` (Secure aside). */
function coversUrl(cookie: StoredCookie, url: URL): boolean {
  const host = cookieHost(url);
  if (cookie.hostOnly ? host !== cookie.domain : !domainMatches(host, cookie.domain)) return false;
  return pathMatches(url.pathname || '/', cookie.path);
}

/** Whether a cookie goes with a request to `url` (a Secure one over https, or to a loopback host, as browsers do). */
export function cookieMatches(cookie: StoredCookie, url: URL): boolean {
  return coversUrl(cookie, url) && (!cookie.secure || secureOrigin(url, cookieHost(url)));
}

const SAME_SITE: Record<string, StoredCookie['sameSite']> = { strict: 'Strict', lax: 'Lax', none: 'None' };

interface AttributeContext {
  host: string;
  url: URL;
  now: number;
  /** Max-Age was seen: it wins over Expires, whichever comes first. */
  maxAge: boolean;
}

/** Applies one `key=value` attribute of a Set-Cookie; false when the cookie must be ignored. */
function applyAttribute(cookie: StoredCookie, key: string, value: string, context: AttributeContext): boolean {
  const { host, url, now } = context;
  switch (key) {
    case 'domain': {
      if (!value) return true;
      const domain = value.replace(/^\./, '').toLowerCase();
      if (!domainMatches(host, domain)) return false;
      // A single label (`com`) is a public suffix for every purpose dial has; only the host itself may name it.
      if (!domain.includes('.') && domain !== host) return false;
      cookie.domain = domain;
      // On an IP address a Domain attribute can only name that address: keep it host-only.
      cookie.hostOnly = isIP(host) !== 0;
      return true;
    }
    case 'path':
      cookie.path = value.startsWith('/') ? value : defaultPath(url.pathname);
      return true;
    case 'max-age':
      if (/^-?\d+$/.test(value)) {
        const seconds = Number(value);
        cookie.expires = seconds <= 0 ? 0 : now + seconds * 1000;
        context.maxAge = true;
      }
      return true;
    case 'expires': {
      const time = Date.parse(value);
      if (!Number.isNaN(time) && !context.maxAge) cookie.expires = time;
      return true;
    }
    case 'secure':
      cookie.secure = true;
      return true;
    case 'httponly':
      cookie.httpOnly = true;
      return true;
    case 'samesite':
      cookie.sameSite = SAME_SITE[value.toLowerCase()] ?? cookie.sameSite;
      return true;
    default:
      return true;
  }
}

/** Parses one Set-Cookie value for a request URL; undefined when it must be ignored. */
export function parseSetCookie(header: string, url: URL, now: number): StoredCookie | undefined {
  const [pair, ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  if (eq === -1) return undefined;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  if (!name || name.length + value.length > 4096) return undefined;
  const host = cookieHost(url);
  const cookie: StoredCookie = {
    name,
    value,
    domain: host,
    hostOnly: true,
    path: defaultPath(url.pathname),
    secure: false,
    httpOnly: false,
    created: now,
  };
  let domainGiven = false;
  const context: AttributeContext = { host, url, now, maxAge: false };
  for (const attribute of attributes) {
    const index = attribute.indexOf('=');
    const key = (index === -1 ? attribute : attribute.slice(0, index)).trim().toLowerCase();
    const attrValue = index === -1 ? '' : attribute.slice(index + 1).trim();
    if (key === 'domain' && attrValue) domainGiven = true;
    if (!applyAttribute(cookie, key, attrValue, context)) return undefined;
  }
  if (cookie.secure && !secureOrigin(url, host)) return undefined;
  if (name.startsWith('__Secure-') && !(cookie.secure && secureOrigin(url, host))) return undefined;
  if (name.startsWith('__Host-') && !(cookie.secure && secureOrigin(url, host) && !domainGiven && cookie.path === '/'))
    return undefined;
  return cookie;
}

function live(cookie: StoredCookie, now: number): boolean {
  return cookie.expires === undefined || cookie.expires > now;
}

/** Sends longer paths first, then older cookies first (RFC 6265 5.4 step 2). */
function sendOrder(a: StoredCookie, b: StoredCookie): number {
  return b.path.length - a.path.length || a.created - b.created;
}

/**
 * A cookie jar. A class, not closures: `dial run` keeps one per file for the whole run, and at
 * 20,000 files per-jar closures and maps made peak RSS grow with the run (1,026 bytes an empty
 * jar against ~250 now).
 */
class MemoryCookieJar implements CookieStore {
  private readonly cookies = new Map<string, StoredCookie>();
  /** Made on the first change (most jars of a run never get a cookie). */
  private changed: Map<string, StoredCookie | null> | undefined;

  constructor(initial: readonly StoredCookie[]) {
    if (initial.length === 0) return;
    const start = Date.now();
    for (const cookie of initial) if (live(cookie, start)) this.cookies.set(cookieKey(cookie), cookie);
  }

  private prune(now: number): void {
    for (const [key, cookie] of this.cookies) if (!live(cookie, now)) this.cookies.delete(key);
  }

  cookieHeaderFor(urlText: string): string | undefined {
    // An empty jar (most requests of most runs) has nothing to match: no URL to parse.
    if (this.cookies.size === 0) return undefined;
    let url: URL;
    try {
      url = new URL(urlText);
    } catch {
      return undefined;
    }
    this.prune(Date.now());
    const matching = [...this.cookies.values()].filter((cookie) => cookieMatches(cookie, url)).sort(sendOrder);
    if (matching.length === 0) return undefined;
    return matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
  }

  store(urlText: string, setCookieValues: string[]): void {
    let url: URL;
    try {
      url = new URL(urlText);
    } catch {
      return;
    }
    const now = Date.now();
    const insecure = !secureOrigin(url, cookieHost(url));
    const cookies = this.cookies;
    for (const header of setCookieValues) {
      const cookie = parseSetCookie(header, url, now);
      if (!cookie) continue;
      const key = cookieKey(cookie);
      const existing = cookies.get(key);
      // An insecure origin cannot overwrite (or delete) a Secure cookie (RFC 6265bis 5.7 step 16).
      if (insecure && [...cookies.values()].some((c) => c.secure && c.name === cookie.name && coversUrl(c, url)))
        continue;
      // A replaced cookie keeps its creation time (RFC 6265 5.3 step 11).
      if (existing) cookie.created = existing.created;
      const changed = (this.changed ??= new Map());
      if (live(cookie, now)) {
        cookies.set(key, cookie);
        changed.set(key, cookie);
      } else if (existing || changed.has(key)) {
        cookies.delete(key);
        changed.set(key, null);
      } else {
        // Removing a cookie this jar never held may still remove it from the saved file.
        changed.set(key, null);
      }
    }
  }

  list(): StoredCookie[] {
    this.prune(Date.now());
    return [...this.cookies.values()].sort(sendOrder);
  }

  changes(): Map<string, StoredCookie | null> {
    return (this.changed ??= new Map());
  }
}

/** Creates a cookie jar holding `initial` (e.g. a saved jar); expired ones are dropped. */
export function createCookieJar(initial: readonly StoredCookie[] = []): CookieStore {
  return new MemoryCookieJar(initial);
}

/** Most cookies a saved jar keeps (browsers keep about 3,000); past it, the oldest go first (RFC 6265 5.3). */
export const MAX_SAVED_COOKIES = 3000;

/** `base` with `changes` applied, expired cookies dropped and at most MAX_SAVED_COOKIES kept (a saved jar brought up to date). */
export function applyCookieChanges(
  base: readonly StoredCookie[],
  changes: Iterable<[string, StoredCookie | null]>,
  now = Date.now(),
): StoredCookie[] {
  const merged = new Map(base.map((cookie) => [cookieKey(cookie), cookie]));
  for (const [key, cookie] of changes) {
    if (cookie) merged.set(key, cookie);
    else merged.delete(key);
  }
  let kept = [...merged.values()].filter((cookie) => live(cookie, now));
  if (kept.length > MAX_SAVED_COOKIES) kept = kept.sort((a, b) => b.created - a.created).slice(0, MAX_SAVED_COOKIES);
  return kept.sort(sendOrder);
}
