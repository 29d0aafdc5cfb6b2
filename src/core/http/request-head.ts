/**
 * The request head as the engine puts it on the wire, computed without sending: validation,
 * the default headers, URL credentials, and `previewRequest` for `send --offline`/`-v`. Kept
 * apart from send.ts so printing a request never loads the transports.
 */
import { DialError } from '../errors.js';
import { VERSION } from '../../version.js';
import { PREVIEW_LIMIT, bodyPrefix, prepareBody, type PreparedBody } from './body.js';
import { proxyFor } from './proxy.js';
import type { HeaderList, HttpRequest, RequestPreview, SendOptions } from './types.js';
import { basicAuthorization } from './basic-auth.js';

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Checks method, URL and headers before anything is sent. */
function validate(request: HttpRequest): URL {
  if (/[\r\n\0]/.test(request.url)) {
    throw new DialError('E_HEADER_INJECTION', 'the URL contains a line break or NUL character', {
      hint: 'a variable used in the URL probably holds a newline; check its value',
    });
  }
  if (!TOKEN.test(request.method)) {
    throw new DialError(
      /[\r\n]/.test(request.method) ? 'E_HEADER_INJECTION' : 'E_USAGE',
      `invalid HTTP method '${request.method}'`,
      {
        hint: 'a method is a single word such as GET, POST or PURGE',
      },
    );
  }
  let url: URL;
  try {
    url = new URL(request.url);
  } catch (error) {
    throw new DialError('E_USAGE', `invalid URL '${request.url}'`, {
      hint: 'write a full URL such as https://example.com/path (or :3000/path for localhost)',
      cause: error,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DialError('E_USAGE', `unsupported URL scheme '${url.protocol.replace(/:$/, '')}' in '${request.url}'`, {
      hint: 'dial speaks http:// and https://',
    });
  }
  if (!url.hostname)
    throw new DialError('E_USAGE', `the URL '${request.url}' has no host`, {
      hint: 'write a full URL such as https://example.com/path',
    });
  for (const [name, value] of request.headers) {
    if (!TOKEN.test(name)) {
      throw new DialError('E_HEADER_INJECTION', `invalid header name '${name.replace(/[\r\n]/g, '\\n')}'`, {
        hint: "header names are single tokens (letters, digits and !#$%&'*+-.^_`|~), no spaces or colons",
      });
    }
    if (/[\r\n\0]/.test(value)) {
      throw new DialError(
        'E_HEADER_INJECTION',
        `the value of header '${name}' contains a line break or NUL character`,
        {
          hint: 'a variable used in this header probably holds a newline; check its value',
        },
      );
    }
  }
  return url;
}

export function findHeader(headers: HeaderList, name: string): string | undefined {
  const lower = name.toLowerCase();
  // A loop, not find() with a destructuring callback: the lists come from the request and from the
  // response, and find's inlined callback was thrown away when the second kind came.
  for (let i = 0; i < headers.length; i++) {
    const header = headers[i];
    if (header[0].toLowerCase() === lower) return header[1];
  }
  return undefined;
}

const USER_AGENT: [string, string] = ['User-Agent', `dial/${VERSION}`];
const ACCEPT_ANY: [string, string] = ['Accept', '*/*'];
const ACCEPT_ENCODING: [string, string] = ['Accept-Encoding', 'gzip, deflate, br'];
const KEEP_ALIVE: [string, string] = ['Connection', 'keep-alive'];

function has(headers: HeaderList, name: string): boolean {
  return findHeader(headers, name) !== undefined;
}

/** A default header is sent unless the request has one of that name or omits it. */
function wanted(user: HeaderList, omitted: Set<string> | undefined, name: string): boolean {
  return !has(user, name) && !omitted?.has(name);
}

/** The headers actually sent: defaults (Host, User-Agent, Accept...), the user's, body and cookie headers. */
export function buildHeaders(
  user: HeaderList,
  url: URL,
  method: string,
  body: PreparedBody | undefined,
  options: SendOptions,
  viaUndici: boolean,
  omitHeaders?: string[],
): HeaderList {
  // `Header:` items remove a default too (HTTPie): those names are in omitHeaders (a run has none).
  const omitted = omitHeaders?.length ? new Set(omitHeaders.map((name) => name.toLowerCase())) : undefined;
  const out: HeaderList = [];
  if (!has(user, 'host')) out.push(['Host', url.host]);
  // The default pairs are shared (no header pair is ever changed in place): no arrays per request.
  if (wanted(user, omitted, 'user-agent')) out.push(USER_AGENT);
  if (wanted(user, omitted, 'accept')) out.push(ACCEPT_ANY);
  if (wanted(user, omitted, 'accept-encoding') && options.decompress !== false) out.push(ACCEPT_ENCODING);
  if (!viaUndici && !has(user, 'connection')) out.push(KEEP_ALIVE);
  const userCookies: string[] = [];
  for (const header of user) {
    if (header[0].toLowerCase() === 'cookie') userCookies.push(header[1]);
    else out.push([header[0], header[1]]);
  }
  if (body) {
    if (!has(user, 'content-type') && body.contentType) out.push(['Content-Type', body.contentType]);
    if (!has(user, 'content-length') && !has(user, 'transfer-encoding')) {
      if (body.length !== undefined) out.push(['Content-Length', String(body.length)]);
      else if (!viaUndici) out.push(['Transfer-Encoding', 'chunked']);
    }
  } else if (!has(user, 'content-length') && (method === 'POST' || method === 'PUT' || method === 'PATCH')) {
    // node:http and undici both send this for a body-less POST/PUT/PATCH; show it.
    out.push(['Content-Length', '0']);
  }
  const jarCookie = options.cookieJar?.cookieHeaderFor(url.toString());
  if (userCookies.length === 0) {
    // The jar's header as it is (its pairs are `name=value`, never empty): no merge to make.
    if (jarCookie) out.push(['Cookie', jarCookie]);
    return out;
  }
  // A cookie the request sets itself wins over the jar's cookie of the same name (no duplicates).
  const ownNames = new Set(userCookies.flatMap((text) => text.split(';').map((pair) => pair.split('=')[0].trim())));
  const jarPairs = (jarCookie ?? '').split('; ').filter((pair) => pair && !ownNames.has(pair.split('=')[0].trim()));
  const cookie = [...userCookies, ...jarPairs].join('; ');
  if (cookie) out.push(['Cookie', cookie]);
  return out;
}

/** Validates a request and shapes it as it goes out: method upper-cased, URL credentials as Basic auth. */
export function normalise(request: HttpRequest): { request: HttpRequest; url: URL } {
  let url = validate(request);
  // node:http and undici both send methods upper-cased; record what goes on the wire.
  // Object.assign, not `{ ...request, method }`: a spread followed by a key takes V8's slow path.
  request = Object.assign({}, request);
  request.method = request.method.toUpperCase();
  if (url.username || url.password) {
    // Credentials in the URL become Basic auth (as curl and HTTPie do) and leave the URL.
    const hasAuthorization = request.headers.some(([name]) => name.toLowerCase() === 'authorization');
    if (!hasAuthorization)
      request.headers = [
        ...request.headers,
        ['Authorization', basicAuthorization(decodeURIComponent(url.username), decodeURIComponent(url.password))],
      ];
    url = new URL(url.toString());
    url.username = '';
    url.password = '';
  }
  return { request, url };
}

/** Whether a hop goes through undici (HTTP/2 or a proxy) rather than the HTTP/1.1 client; it changes the default headers. */
export function usesUndici(
  request: HttpRequest,
  url: URL,
  options: SendOptions,
  env: Record<string, string | undefined>,
): { proxy: string | undefined; viaUndici: boolean } {
  const proxy = proxyFor(url, options.proxy, env);
  return { proxy, viaUndici: request.httpVersion === '2' || proxy !== undefined };
}

/**
 * The request as `sendRequest` would put it on the wire (first hop), without sending: the same
 * default headers (Host, User-Agent, Accept, Accept-Encoding, Connection, Content-Type,
 * Content-Length), the same multipart boundary when the body fixes one, and the first
 * `bodyLimit` bytes of the body (a one-shot stream is not read). For `send --offline`/`-v`.
 */
export async function previewRequest(
  request: HttpRequest,
  options: SendOptions = {},
  bodyLimit = PREVIEW_LIMIT,
): Promise<RequestPreview> {
  const normal = normalise(request);
  const { viaUndici } = usesUndici(normal.request, normal.url, options, options.env ?? process.env);
  const body = await prepareBody(normal.request.body);
  const headers = buildHeaders(
    normal.request.headers,
    normal.url,
    normal.request.method,
    body,
    options,
    viaUndici,
    normal.request.omitHeaders,
  );
  const preview: RequestPreview = { method: normal.request.method, url: normal.url.toString(), headers };
  if (body) {
    if (body.length !== undefined) preview.bodySize = body.length;
    if (body.replayable) preview.body = await bodyPrefix(body, bodyLimit);
  }
  return preview;
}
