/**
 * A cookie jar for one run (RFC 6265 subset): Domain (host-only or domain-match), Path,
 * Expires / Max-Age, Secure. No public-suffix list: a run talks to the APIs its files name.
 */
import { isIP } from 'node:net';
import type { CookieJar } from './types.js';

interface StoredCookie {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
  /** Epoch ms; undefined = session cookie. */
  expires?: number;
  created: number;
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

/** Parses one Set-Cookie value for a request URL; undefined when it must be ignored. */
function parseSetCookie(header: string, url: URL, now: number): StoredCookie | undefined {
  const [pair, ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  if (eq === -1) return undefined;
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  if (!name) return undefined;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const cookie: StoredCookie = {
    name,
    value,
    domain: host,
    hostOnly: true,
    path: defaultPath(url.pathname),
    secure: false,
    created: now,
  };
  let maxAgeSeen = false;
  for (const attribute of attributes) {
    const index = attribute.indexOf('=');
    const key = (index === -1 ? attribute : attribute.slice(0, index)).trim().toLowerCase();
    const attrValue = index === -1 ? '' : attribute.slice(index + 1).trim();
    if (key === 'domain' && attrValue) {
      const domain = attrValue.replace(/^\./, '').toLowerCase();
      if (!domainMatches(host, domain)) return undefined;
      cookie.domain = domain;
      // On an IP address a Domain attribute can only name that address: keep it host-only.
      cookie.hostOnly = isIP(host) !== 0;
    } else if (key === 'path') {
      cookie.path = attrValue.startsWith('/') ? attrValue : defaultPath(url.pathname);
    } else if (key === 'max-age') {
      const seconds = Number(attrValue);
      if (/^-?\d+$/.test(attrValue)) {
        cookie.expires = seconds <= 0 ? 0 : now + seconds * 1000;
        maxAgeSeen = true;
      }
    } else if (key === 'expires' && !maxAgeSeen) {
      const time = Date.parse(attrValue);
      if (!Number.isNaN(time)) cookie.expires = time;
    } else if (key === 'secure') {
      cookie.secure = true;
    }
  }
  return cookie;
}

/** Creates an empty in-memory cookie jar for a run. */
export function createCookieJar(): CookieJar {
  let cookies: StoredCookie[] = [];
  return {
    cookieHeaderFor(urlText: string): string | undefined {
      // An empty jar (most requests of most runs) has nothing to match: no URL to parse.
      if (cookies.length === 0) return undefined;
      let url: URL;
      try {
        url = new URL(urlText);
      } catch {
        return undefined;
      }
      const now = Date.now();
      cookies = cookies.filter((cookie) => cookie.expires === undefined || cookie.expires > now);
      const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
      const secureChannel = url.protocol === 'https:';
      const matching = cookies
        .filter((cookie) => (cookie.hostOnly ? host === cookie.domain : domainMatches(host, cookie.domain)))
        .filter((cookie) => pathMatches(url.pathname || '/', cookie.path))
        .filter((cookie) => !cookie.secure || secureChannel)
        .sort((a, b) => b.path.length - a.path.length || a.created - b.created);
      if (matching.length === 0) return undefined;
      return matching.map((cookie) => `${cookie.name}=${cookie.value}`).join('; ');
    },
    store(urlText: string, setCookieValues: string[]): void {
      let url: URL;
      try {
        url = new URL(urlText);
      } catch {
        return;
      }
      const now = Date.now();
      for (const header of setCookieValues) {
        const cookie = parseSetCookie(header, url, now);
        if (!cookie) continue;
        const existing = cookies.findIndex(
          (c) => c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path,
        );
        const expired = cookie.expires !== undefined && cookie.expires <= now;
        if (existing !== -1) {
          // A replaced cookie keeps its creation time and place (RFC 6265 5.3 step 11).
          cookie.created = cookies[existing].created;
          if (expired) cookies.splice(existing, 1);
          else cookies[existing] = cookie;
        } else if (!expired) {
          cookies.push(cookie);
        }
      }
    },
  };
}
