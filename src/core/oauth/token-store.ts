/**
 * The token cache: one JSON file in dial's config folder (default `oauth-tokens.json`, mode
 * 0600, written atomically), tokens keyed by workspace, environment and configuration name,
 * each with a hash of the configuration it came from so an edited configuration asks again.
 * A token without a lifetime is never written (it lives for the process only). Entries that
 * expired and cannot be refreshed are dropped at each write.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../atomic-write.js';
import type { TokenSet } from './token-endpoint.js';

export interface StoredToken extends TokenSet {
  /** sha256 of the configuration fingerprint. */
  config: string;
}

interface CacheFile {
  version: 1;
  tokens: Record<string, StoredToken>;
}

export function cacheKey(workspaceRoot: string, environment: string | undefined, name: string): string {
  return JSON.stringify([workspaceRoot, environment ?? '$shared', name]);
}

export function fingerprintHash(fingerprint: string): string {
  return createHash('sha256').update(fingerprint).digest('hex');
}

async function readCache(path: string): Promise<CacheFile> {
  try {
    const data = JSON.parse(await readFile(path, 'utf8')) as Partial<CacheFile>;
    if (data && data.version === 1 && data.tokens && typeof data.tokens === 'object') return data as CacheFile;
  } catch {
    // Missing or unreadable: there is nothing cached (a broken cache only costs a new sign-in).
  }
  return { version: 1, tokens: {} };
}

/** The cache file, read once and written through. */
export class TokenStore {
  private cache?: Promise<CacheFile>;

  constructor(
    private readonly path: string,
    private readonly now: () => number,
  ) {}

  async get(key: string): Promise<StoredToken | undefined> {
    this.cache ??= readCache(this.path);
    return (await this.cache).tokens[key];
  }

  /** Drops the tokens whose key `matches`; answers how many (the file is written only when some were). */
  async removeWhere(matches: (key: string) => boolean): Promise<number> {
    const data = await readCache(this.path);
    const keys = Object.keys(data.tokens).filter((key) => {
      try {
        return matches(key);
      } catch {
        return false;
      }
    });
    for (const key of keys) delete data.tokens[key];
    if (keys.length) writeFileAtomic(this.path, `${JSON.stringify(data, null, 2)}\n`, 0o600, 'OAuth token cache');
    this.cache = Promise.resolve(data);
    return keys.length;
  }

  /** Stores (or, with undefined, forgets) a token; re-reads the file first so other dial processes' tokens stay. */
  async set(key: string, token: StoredToken | undefined): Promise<void> {
    const data = await readCache(this.path);
    if (token && token.expiresAt !== undefined) data.tokens[key] = token;
    else delete data.tokens[key];
    const now = this.now();
    for (const [k, t] of Object.entries(data.tokens))
      if ((t.expiresAt ?? 0) <= now && !t.refreshToken) delete data.tokens[k];
    writeFileAtomic(this.path, `${JSON.stringify(data, null, 2)}\n`, 0o600, 'OAuth token cache');
    this.cache = Promise.resolve(data);
  }
}
