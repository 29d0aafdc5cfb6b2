/** A cookie as dial writes it to a file (jars and sessions): readable JSON, dates in ISO form. */
import type { StoredCookie } from '../http/cookies.js';

export interface SavedCookie {
  name: string;
  value: string;
  domain: string;
  hostOnly: boolean;
  path: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite?: 'Strict' | 'Lax' | 'None';
  /** ISO date; absent for a session cookie. */
  expires?: string;
  created: string;
}

export function cookieToJson(cookie: StoredCookie): SavedCookie {
  return {
    name: cookie.name,
    value: cookie.value,
    domain: cookie.domain,
    hostOnly: cookie.hostOnly,
    path: cookie.path,
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    ...(cookie.sameSite ? { sameSite: cookie.sameSite } : {}),
    ...(cookie.expires !== undefined ? { expires: new Date(cookie.expires).toISOString() } : {}),
    created: new Date(cookie.created).toISOString(),
  };
}

const SAME_SITE = new Set(['Strict', 'Lax', 'None']);

/** A saved cookie back in the jar's form; undefined when the entry is not a cookie (hand-edited files). */
export function cookieFromJson(value: unknown): StoredCookie | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const saved = value as Partial<Record<keyof SavedCookie, unknown>>;
  if (typeof saved.name !== 'string' || !saved.name || typeof saved.value !== 'string') return undefined;
  if (typeof saved.domain !== 'string' || !saved.domain) return undefined;
  const expires = typeof saved.expires === 'string' ? Date.parse(saved.expires) : undefined;
  const created = typeof saved.created === 'string' ? Date.parse(saved.created) : NaN;
  return {
    name: saved.name,
    value: saved.value,
    domain: saved.domain.toLowerCase(),
    hostOnly: saved.hostOnly !== false,
    path: typeof saved.path === 'string' && saved.path.startsWith('/') ? saved.path : '/',
    secure: saved.secure === true,
    httpOnly: saved.httpOnly === true,
    ...(typeof saved.sameSite === 'string' && SAME_SITE.has(saved.sameSite)
      ? { sameSite: saved.sameSite as StoredCookie['sameSite'] }
      : {}),
    ...(expires !== undefined && !Number.isNaN(expires) ? { expires } : {}),
    created: Number.isNaN(created) ? 0 : created,
  };
}
