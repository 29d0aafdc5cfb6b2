/**
 * HTTP Digest authentication (RFC 7616): answers one `WWW-Authenticate: Digest` challenge
 * with MD5 or SHA-256 (and their -sess forms), qop=auth.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Exchange, HeaderList, HttpRequest, ResponseBody } from '../http/types.js';

export interface DigestChallenge {
  realm: string;
  nonce: string;
  opaque?: string;
  algorithm: string;
  qop?: string[];
}

const supported = ['SHA-256', 'SHA-256-SESS', 'MD5', 'MD5-SESS'];

/** Parses `key=value, key="quoted"` parameters. */
function parseParams(text: string): Record<string, string> {
  const params: Record<string, string> = {};
  const pattern = /([a-zA-Z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    params[match[1].toLowerCase()] = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
  }
  return params;
}

/**
 * The best Digest challenge among WWW-Authenticate headers (SHA-256 preferred over MD5),
 * or undefined when none is usable.
 */
export function parseDigestChallenge(headers: HeaderList): DigestChallenge | undefined {
  const challenges: DigestChallenge[] = [];
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'www-authenticate') continue;
    // One header may carry several challenges; each Digest one starts with the scheme word.
    for (const part of value.split(/(?=\bDigest\s)/i)) {
      const match = /^\s*Digest\s+(.*)$/is.exec(part);
      if (!match) continue;
      const params = parseParams(match[1]);
      if (!params.nonce) continue;
      const algorithm = (params.algorithm ?? 'MD5').toUpperCase();
      if (!supported.includes(algorithm)) continue;
      const qop = params.qop
        ?.split(',')
        .map((q) => q.trim().toLowerCase())
        .filter(Boolean);
      if (qop && qop.length > 0 && !qop.includes('auth')) continue;
      challenges.push({ realm: params.realm ?? '', nonce: params.nonce, opaque: params.opaque, algorithm, qop });
    }
  }
  challenges.sort((a, b) => supported.indexOf(a.algorithm) - supported.indexOf(b.algorithm));
  return challenges[0];
}

/** The Authorization header value answering a challenge for method + URL. */
export function digestAuthorization(
  challenge: DigestChallenge,
  credentials: { username: string; password: string },
  method: string,
  url: string,
  cnonce: string = randomBytes(16).toString('hex'),
  nonceCount = 1,
): string {
  const hashName = challenge.algorithm.startsWith('SHA-256') ? 'sha256' : 'md5';
  const hash = (text: string) => createHash(hashName).update(text, 'utf8').digest('hex');
  const parsed = new URL(url);
  const uri = `${parsed.pathname}${parsed.search}`;
  const nc = nonceCount.toString(16).padStart(8, '0');
  let ha1 = hash(`${credentials.username}:${challenge.realm}:${credentials.password}`);
  if (challenge.algorithm.endsWith('-SESS')) ha1 = hash(`${ha1}:${challenge.nonce}:${cnonce}`);
  const ha2 = hash(`${method}:${uri}`);
  const useQop = challenge.qop !== undefined && challenge.qop.length > 0;
  const response = useQop
    ? hash(`${ha1}:${challenge.nonce}:${nc}:${cnonce}:auth:${ha2}`)
    : hash(`${ha1}:${challenge.nonce}:${ha2}`);
  const quote = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  const parts = [
    `username=${quote(credentials.username)}`,
    `realm=${quote(challenge.realm)}`,
    `nonce=${quote(challenge.nonce)}`,
    `uri=${quote(uri)}`,
    `algorithm=${challenge.algorithm}`,
    `response=${quote(response)}`,
  ];
  if (useQop) parts.push('qop=auth', `nc=${nc}`, `cnonce=${quote(cnonce)}`);
  if (challenge.opaque !== undefined) parts.push(`opaque=${quote(challenge.opaque)}`);
  return `Digest ${parts.join(', ')}`;
}

/** Credentials answering a Digest challenge. */
export interface DigestCredentials {
  username: string;
  password: string;
}

/** What `sendWithDigest` needs besides the request. */
export interface DigestSendOptions {
  /** Frees the body of the 401 answer before the second request (engine-owned bodies). */
  release?: (body: ResponseBody) => void;
  /** Called just before the second request goes out. */
  beforeRetry?: () => void;
}

/**
 * Sends a request and, when the answer is a 401 with a Digest challenge, sends it once more
 * with the Authorization that answers it, to where any redirects ended (a 303 turned into a GET
 * leaves the body behind). The one digest retry: `dial send` and `Session.execute` use it.
 */
export async function sendWithDigest(
  send: (request: HttpRequest) => Promise<Exchange>,
  request: HttpRequest,
  credentials: DigestCredentials,
  options: DigestSendOptions = {},
): Promise<{ exchange: Exchange; request: HttpRequest }> {
  const exchange = await send(request);
  const challenge = exchange.response.status === 401 ? parseDigestChallenge(exchange.response.headers) : undefined;
  if (!challenge) return { exchange, request };
  options.release?.(exchange.response.body);
  options.beforeRetry?.();
  const redirected = exchange.redirects.length > 0;
  const method = redirected ? exchange.request.method : request.method;
  const url = exchange.response.url;
  const body = redirected && exchange.request.method !== request.method ? { kind: 'none' as const } : request.body;
  const headers: HeaderList = [
    ...request.headers.filter(([name]) => name.toLowerCase() !== 'authorization'),
    ['Authorization', digestAuthorization(challenge, credentials, method, url)],
  ];
  const retried: HttpRequest = { ...request, method, url, body, headers };
  return { exchange: await send(retried), request: retried };
}
