/**
 * `dial echo`: a local httpbin-compatible server (node:http), so examples, demos and tests
 * run offline against something real. Echo routes answer httpbin's JSON shape: args, data,
 * files, form, headers, json, method, origin, url.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createCipheriv, createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { DialError } from '../errors.js';
import { boundaryOf, parseMultipart } from './multipart.js';

export interface EchoServerOptions {
  /** Default 0 (any free port); the CLI defaults to 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Called after each response is sent (the CLI logs it). */
  onRequest?: (entry: { method: string; path: string; status: number; ms: number }) => void;
}

export interface EchoServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/** Bodies the echo routes buffer to parse; larger uploads get 413. */
const MAX_ECHO_BODY = 64 * 1024 * 1024;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Context {
  request: IncomingMessage;
  response: ServerResponse;
  url: URL;
  method: string;
  path: string;
}

function headersOf(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (let index = 0; index + 1 < request.rawHeaders.length; index += 2) {
    const name = request.rawHeaders[index];
    const value = request.rawHeaders[index + 1];
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return headers;
}

function argsOf(url: URL): Record<string, string | string[]> {
  const args: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    args[key] = values.length === 1 ? values[0] : values;
  }
  return args;
}

function addValue(target: Record<string, string | string[]>, key: string, value: string): void {
  const existing = target[key];
  if (existing === undefined) target[key] = value;
  else target[key] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}

function header(request: IncomingMessage, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : (value ?? '');
}

function originOf(request: IncomingMessage): string {
  return (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

function fullUrl(context: Context): string {
  const host = header(context.request, 'host') || 'localhost';
  return `http://${host}${context.request.url ?? '/'}`;
}

function readBody(request: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ECHO_BODY) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('end', () => resolve(tooLarge ? 'too-large' : Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function send(
  response: ServerResponse,
  status: number,
  body: string | Buffer,
  headers: Record<string, string | string[]> = {},
): void {
  if (response.headersSent || response.destroyed) return;
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  response.writeHead(status, { 'Content-Length': String(bytes.length), ...headers });
  response.end(bytes);
}

function sendJson(
  response: ServerResponse,
  status: number,
  value: Json | object,
  headers: Record<string, string | string[]> = {},
): void {
  send(response, status, JSON.stringify(value, null, 2) + '\n', { 'Content-Type': 'application/json', ...headers });
}

/** The full httpbin echo payload for a request with its body. */
async function echoPayload(context: Context): Promise<Record<string, unknown> | 'too-large'> {
  const body = await readBody(context.request);
  if (body === 'too-large') return 'too-large';
  const contentType = header(context.request, 'content-type').toLowerCase();
  const form: Record<string, string | string[]> = {};
  const files: Record<string, string | string[]> = {};
  let data = '';
  let json: unknown = null;
  if (contentType.startsWith('application/x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(body.toString('utf8'))) addValue(form, key, value);
  } else if (contentType.startsWith('multipart/form-data')) {
    const boundary = boundaryOf(header(context.request, 'content-type'));
    if (boundary) {
      for (const part of parseMultipart(body, boundary)) {
        if (part.filename !== undefined) addValue(files, part.name, part.data.toString('utf8'));
        else addValue(form, part.name, part.data.toString('utf8'));
      }
    }
  } else {
    data = body.toString('utf8');
    if (data) {
      try {
        json = JSON.parse(data);
      } catch {
        json = null;
      }
    }
  }
  return {
    args: argsOf(context.url),
    data,
    files,
    form,
    headers: headersOf(context.request),
    json,
    method: context.method,
    origin: originOf(context.request),
    url: fullUrl(context),
  };
}

async function echo(context: Context, status = 200): Promise<void> {
  const payload = await echoPayload(context);
  if (payload === 'too-large') {
    sendJson(context.response, 413, { error: `request body larger than ${MAX_ECHO_BODY} bytes` });
    return;
  }
  sendJson(context.response, status, payload);
}

/** httpbin's /json sample document. */
const SLIDESHOW = {
  slideshow: {
    author: 'Yours Truly',
    date: 'date of publication',
    slides: [
      { title: 'Wake up to WonderWidgets!', type: 'all' },
      {
        items: ['Why <em>WonderWidgets</em> are great', 'Who <em>buys</em> WonderWidgets'],
        title: 'Overview',
        type: 'all',
      },
    ],
    title: 'Sample Slide Show',
  },
};

/** Deterministic pseudo-random bytes (AES-128-CTR keystream of a seed), generated in chunks as read. */
function byteStream(count: number, seed: string): Readable {
  const key = createHash('sha256').update(`dial-bytes:${seed}`).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  const zeros = Buffer.alloc(64 * 1024);
  let left = count;
  return new Readable({
    read() {
      if (left <= 0) {
        this.push(null);
        return;
      }
      const size = Math.min(left, zeros.length);
      left -= size;
      this.push(cipher.update(size === zeros.length ? zeros : zeros.subarray(0, size)));
    },
  });
}

/** Resolves after `ms`, or early (false) when the client goes away. */
function wait(context: Context, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      context.response.off('close', onClose);
      resolve(true);
    }, ms);
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    context.response.once('close', onClose);
  });
}

function methodNotAllowed(context: Context, allowed: string[]): void {
  sendJson(
    context.response,
    405,
    { error: `method ${context.method} not allowed on ${context.path}` },
    { Allow: allowed.join(', ') },
  );
}

function parseBasic(authorization: string): { user: string; password: string } | undefined {
  const match = /^Basic\s+(.+)$/i.exec(authorization);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

function cookiesOf(request: IncomingMessage): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of header(request, 'cookie').split(/;\s*/)) {
    const eq = pair.indexOf('=');
    if (eq > 0) cookies[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return cookies;
}

function intParam(text: string): number | undefined {
  return /^\d+$/.test(text) ? Number(text) : undefined;
}

const METHOD_ROUTES: Record<string, string> = {
  '/get': 'GET',
  '/post': 'POST',
  '/put': 'PUT',
  '/patch': 'PATCH',
  '/delete': 'DELETE',
};
const REDIRECT_CODES = new Set([301, 302, 303, 305, 307, 308]);

/** One echo route: answers the request; `segments` are the decoded path segments. */
type RouteHandler = (context: Context, segments: string[]) => void | Promise<void>;

/** /get, /post, /put, /patch, /delete: the method must match; /get echoes without a body. */
async function methodRoute(context: Context, expected: string): Promise<void> {
  const { response, method } = context;
  if (method !== expected && !(expected === 'GET' && method === 'HEAD'))
    return methodNotAllowed(context, expected === 'GET' ? ['GET', 'HEAD'] : [expected]);
  if (expected !== 'GET') return echo(context);
  const payload = await echoPayload(context);
  if (payload === 'too-large') return sendJson(response, 413, { error: 'request body too large' });
  const { args, headers, method: m, origin, url: u } = payload;
  return sendJson(response, 200, { args, headers, method: m, origin, url: u } as object);
}

function indexRoute({ response }: Context): void {
  sendJson(response, 200, {
    name: 'dial echo',
    routes: [
      '/get',
      '/post',
      '/put',
      '/patch',
      '/delete',
      '/anything[/*]',
      '/status/:code',
      '/delay/:s',
      '/headers',
      '/ip',
      '/user-agent',
      '/json',
      '/bytes/:n?seed=',
      '/stream/:n',
      '/redirect/:n',
      '/redirect-to?url=&status_code=',
      '/basic-auth/:user/:password',
      '/digest-auth/auth/:user/:password[/:algorithm]',
      '/bearer',
      '/cookies',
      '/cookies/set?name=value',
      '/cookies/delete?name',
      '/gzip',
      '/deflate',
      '/brotli',
      '/sse?count=&interval=',
      'ws://…/ws (WebSocket echo)',
      'ws://…/graphql (GraphQL subscriptions, graphql-transport-ws)',
    ],
  });
}

/** /status/:code[,code…]: answers one of the codes (picked at random), with the headers that code needs. */
function statusRoute({ response }: Context, segments: string[]): void {
  const choices = (segments[1] ?? '').split(',').map((code) => intParam(code.split(':')[0].trim()));
  if (choices.length === 0 || choices.some((code) => code === undefined || code < 100 || code > 599)) {
    return sendJson(response, 400, { error: 'invalid status code' });
  }
  const status = choices[Math.floor(Math.random() * choices.length)] as number;
  const headers: Record<string, string> = {};
  if (REDIRECT_CODES.has(status)) headers.Location = '/redirect/1';
  if (status === 401) headers['WWW-Authenticate'] = 'Basic realm="Fake Realm"';
  if (status === 418)
    return send(response, 418, "I'm a teapot\n", {
      'Content-Type': 'text/plain',
      'x-more-info': 'http://tools.ietf.org/html/rfc2324',
    });
  if (status === 204 || status === 304 || status < 200) {
    response.writeHead(status, headers);
    response.end();
    return;
  }
  return send(response, status, '', { 'Content-Type': 'text/html; charset=utf-8', ...headers });
}

async function delayRoute(context: Context, segments: string[]): Promise<void> {
  const { response } = context;
  const seconds = Math.min(Number(segments[1]), 10);
  if (!Number.isFinite(seconds) || seconds < 0) return sendJson(response, 400, { error: 'invalid delay' });
  const payload = await echoPayload(context);
  if (!(await wait(context, seconds * 1000))) return;
  if (payload === 'too-large') return sendJson(response, 413, { error: 'request body too large' });
  return sendJson(response, 200, payload);
}

async function bytesRoute({ response, method, url }: Context, segments: string[]): Promise<void> {
  const count = intParam(segments[1] ?? '');
  if (count === undefined) return sendJson(response, 400, { error: 'invalid byte count' });
  response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': String(count) });
  if (method === 'HEAD') return void response.end();
  await pipeline(byteStream(count, url.searchParams.get('seed') ?? '0'), response).catch(() => {});
}

/** /stream/:n: n JSON lines (at most 100 000), streamed as the socket drains. */
async function streamRoute(context: Context, segments: string[]): Promise<void> {
  const { request, response, url } = context;
  const count = intParam(segments[1] ?? '');
  if (count === undefined) return sendJson(response, 400, { error: 'invalid line count' });
  const base = { args: argsOf(url), headers: headersOf(request), origin: originOf(request), url: fullUrl(context) };
  const lines = Math.min(count, 100_000);
  let id = 0;
  response.writeHead(200, { 'Content-Type': 'application/json' });
  await pipeline(
    new Readable({
      read() {
        this.push(id < lines ? JSON.stringify({ ...base, id: id++ }) + '\n' : null);
      },
    }),
    response,
  ).catch(() => {});
}

function redirectRoute({ request, response, url }: Context, segments: string[]): void {
  const count = intParam(segments[1] ?? '');
  if (count === undefined || count < 1) return sendJson(response, 400, { error: 'invalid redirect count' });
  const target = count === 1 ? '/get' : `/redirect/${count - 1}`;
  const absolute = url.searchParams.get('absolute') === 'true';
  const location = absolute ? `http://${header(request, 'host')}${target}` : target;
  return send(response, 302, '', { Location: location });
}

async function redirectToRoute({ request, response, url }: Context): Promise<void> {
  const target = url.searchParams.get('url');
  if (!target) return sendJson(response, 400, { error: 'missing url parameter' });
  const status = intParam(url.searchParams.get('status_code') ?? '302') ?? 302;
  if (status < 300 || status > 399) return sendJson(response, 400, { error: 'status_code must be 3xx' });
  await readBody(request);
  return send(response, status, '', { Location: target });
}

function basicAuthRoute({ request, response }: Context, segments: string[]): void {
  const [, user, password] = segments;
  const given = parseBasic(header(request, 'authorization'));
  if (user === undefined || password === undefined || !given || given.user !== user || given.password !== password) {
    return sendJson(response, 401, { authenticated: false }, { 'WWW-Authenticate': 'Basic realm="Fake Realm"' });
  }
  return sendJson(response, 200, { authenticated: true, user });
}

/** httpbin's /digest-auth/:qop/:user/:password[/:algorithm] (RFC 7616, qop=auth). */
function digestAuthRoute({ request, response, method }: Context, segments: string[]): void {
  const [, qop, user, password, algorithmName = 'MD5'] = segments;
  const algorithm = algorithmName.toUpperCase();
  if (
    qop !== 'auth' ||
    user === undefined ||
    password === undefined ||
    (algorithm !== 'MD5' && algorithm !== 'SHA-256')
  ) {
    return sendJson(response, 400, { error: 'use /digest-auth/auth/:user/:password[/MD5|SHA-256]' });
  }
  const realm = 'dial-echo';
  const hash = (text: string) =>
    createHash(algorithm === 'MD5' ? 'md5' : 'sha256')
      .update(text)
      .digest('hex');
  const params = Object.fromEntries(
    [
      ...header(request, 'authorization')
        .replace(/^Digest\s+/i, '')
        .matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]+))/g),
    ].map((m) => [m[1].toLowerCase(), m[2] ?? m[3]]),
  );
  const expected = params.nonce
    ? hash(
        `${hash(`${user}:${realm}:${password}`)}:${params.nonce}:${params.nc}:${params.cnonce}:auth:${hash(`${method}:${params.uri}`)}`,
      )
    : undefined;
  if (
    !/^Digest\s/i.test(header(request, 'authorization')) ||
    params.username !== user ||
    params.response !== expected
  ) {
    const nonce = createHash('sha256').update(`${Date.now()}:${Math.random()}`).digest('hex').slice(0, 32);
    return sendJson(
      response,
      401,
      { authenticated: false },
      {
        'WWW-Authenticate': `Digest realm="${realm}", qop="auth", algorithm=${algorithm}, nonce="${nonce}", opaque="dial"`,
      },
    );
  }
  return sendJson(response, 200, { authenticated: true, user });
}

function bearerRoute({ request, response }: Context): void {
  const match = /^Bearer\s+(.+)$/i.exec(header(request, 'authorization'));
  if (!match) return sendJson(response, 401, { authenticated: false }, { 'WWW-Authenticate': 'Bearer' });
  return sendJson(response, 200, { authenticated: true, token: match[1] });
}

/** /cookies (show), /cookies/set (?name=value or /name/value), /cookies/delete?name. */
function cookiesRoute({ request, response, url }: Context, segments: string[]): void {
  if (segments[1] === 'set') {
    const pairs: Array<[string, string]> = segments.length >= 4 ? [[segments[2], segments[3]]] : [...url.searchParams];
    const setCookie = pairs.map(([name, value]) => `${name}=${value}; Path=/`);
    return send(response, 302, '', { Location: '/cookies', 'Set-Cookie': setCookie });
  }
  if (segments[1] === 'delete') {
    const setCookie = [...url.searchParams.keys()].map(
      (name) => `${name}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/`,
    );
    return send(response, 302, '', { Location: '/cookies', 'Set-Cookie': setCookie });
  }
  return sendJson(response, 200, { cookies: cookiesOf(request) });
}

/** /gzip, /deflate, /brotli: httpbin's JSON, compressed with that coding. */
function compressedRoute({ request, response, method }: Context, segments: string[]): void {
  const kind = segments[0];
  const flag = kind === 'gzip' ? 'gzipped' : kind === 'deflate' ? 'deflated' : 'brotli';
  const json = Buffer.from(
    JSON.stringify({ [flag]: true, headers: headersOf(request), method, origin: originOf(request) }, null, 2) + '\n',
  );
  const body = kind === 'gzip' ? gzipSync(json) : kind === 'deflate' ? deflateSync(json) : brotliCompressSync(json);
  return send(response, 200, body, {
    'Content-Type': 'application/json',
    'Content-Encoding': kind === 'brotli' ? 'br' : kind,
  });
}

/** /sse?count=&interval=: server-sent events, one every `interval` ms, until the client leaves. */
async function sseRoute(context: Context): Promise<void> {
  const { response, url } = context;
  const count = Math.min(intParam(url.searchParams.get('count') ?? '') ?? 3, 10_000);
  const interval = Math.min(intParam(url.searchParams.get('interval') ?? '') ?? 100, 60_000);
  response.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
  response.flushHeaders();
  for (let id = 1; id <= count; id++) {
    if (id > 1 && !(await wait(context, interval))) return;
    response.write(`id: ${id}\nevent: message\ndata: ${JSON.stringify({ id, time: new Date().toISOString() })}\n\n`);
  }
  response.end();
}

/** Routes by first path segment ('' is the root). */
const ROUTES = new Map<string, RouteHandler>([
  ['', indexRoute],
  ['anything', (context) => echo(context)],
  ['headers', ({ request, response }) => sendJson(response, 200, { headers: headersOf(request) })],
  ['ip', ({ request, response }) => sendJson(response, 200, { origin: originOf(request) })],
  ['user-agent', ({ request, response }) => sendJson(response, 200, { 'user-agent': header(request, 'user-agent') })],
  ['json', ({ response }) => sendJson(response, 200, SLIDESHOW)],
  ['status', statusRoute],
  ['delay', delayRoute],
  ['bytes', bytesRoute],
  ['stream', streamRoute],
  ['redirect', redirectRoute],
  ['redirect-to', redirectToRoute],
  ['basic-auth', basicAuthRoute],
  ['digest-auth', digestAuthRoute],
  ['bearer', bearerRoute],
  ['cookies', cookiesRoute],
  ['gzip', compressedRoute],
  ['deflate', compressedRoute],
  ['brotli', compressedRoute],
  ['sse', sseRoute],
]);

async function route(context: Context): Promise<void> {
  const segments = context.path
    .split('/')
    .filter(Boolean)
    .map((segment) => decodeURIComponent(segment));
  const expected = METHOD_ROUTES[context.path];
  if (expected) return methodRoute(context, expected);
  const handler = ROUTES.get(segments[0] ?? '');
  if (handler) return handler(context, segments);
  return sendJson(context.response, 404, { error: `no route for ${context.path}` });
}

/** Starts the echo server and resolves once it listens. */
export async function startEchoServer(options: EchoServerOptions = {}): Promise<EchoServer> {
  const host = options.host ?? '127.0.0.1';
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const started = performance.now();
    const method = request.method ?? 'GET';
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://echo.local');
    } catch {
      sendJson(response, 400, { error: 'invalid request target' });
      return;
    }
    const context: Context = { request, response, url, method, path: url.pathname.replace(/\/+$/, '') || '/' };
    response.once('finish', () =>
      options.onRequest?.({
        method,
        path: request.url ?? '/',
        status: response.statusCode,
        ms: performance.now() - started,
      }),
    );
    route(context).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, 500, { error: error instanceof Error ? error.message : String(error) });
      else response.destroy();
    });
  });
  // WebSocket endpoints (./websocket.ts), loaded only when an upgrade arrives.
  server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    const started = performance.now();
    import('./websocket.js')
      .then(({ handleUpgrade }) => handleUpgrade(request, socket, head))
      .then((status) =>
        options.onRequest?.({ method: 'GET', path: request.url ?? '/', status, ms: performance.now() - started }),
      )
      .catch(() => socket.destroy());
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end(`HTTP/1.1 400 ${STATUS_CODES[400]}\r\nConnection: close\r\n\r\n`);
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new DialError('E_USAGE', `port ${options.port} on ${host} is already in use`, {
            hint: 'pick another with --port N, or --port 0 for any free port',
            cause: error,
          }),
        );
      } else if (error.code === 'EACCES') {
        reject(
          new DialError('E_USAGE', `not allowed to listen on port ${options.port}`, {
            hint: 'ports below 1024 need privileges; pick another with --port',
            cause: error,
          }),
        );
      } else {
        reject(
          new DialError('E_NETWORK', `cannot listen on ${host}:${options.port ?? 0}: ${error.message}`, {
            cause: error,
          }),
        );
      }
    });
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
