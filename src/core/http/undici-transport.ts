/**
 * HTTP/2 (opt-in) and proxied requests through undici. Only loaded (dynamic import) when a
 * request asks for HTTP/2 or a proxy applies: undici costs 28-60 ms to load, more than the
 * whole start-up budget of `dial send` (see ./index.ts).
 */
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { nowMs } from '../clock.js';
import type { HopContext, HopRequest, HopResponse, Phases, TlsMaterial } from './transport.js';
import type { HeaderList } from './types.js';

interface ConnectionInfo {
  at: number;
  phases: Omit<Phases, 'firstByte'>;
  alpn?: string;
  remoteAddress?: string;
  remotePort?: number;
}

const dispatchers = new Map<string, Dispatcher>();
/** The last connection opened per origin (undici does not say which socket served a request). */
const connections = new Map<string, ConnectionInfo>();

/** Closes every undici pool. */
export function closeUndiciDispatchers(): void {
  for (const dispatcher of dispatchers.values()) void dispatcher.destroy().catch(() => {});
  dispatchers.clear();
  connections.clear();
}

function originKey(protocol: string, host: string, port: number): string {
  return `${protocol}//${host}:${port}`;
}

type Connector = (
  options: { hostname: string; host?: string; protocol: string; port: string; servername?: string },
  callback: (...args: [null, Socket | TLSSocket] | [Error, null]) => void,
) => void;

/** A connector that records DNS/connect/TLS timings and the negotiated protocol. */
function timedConnector(tls: TlsMaterial, allowH2: boolean, timeoutMs: number): Connector {
  return (options, callback) => {
    const started = nowMs();
    const host = options.hostname.replace(/^\[|\]$/g, '');
    const secure = options.protocol === 'https:';
    const port = Number(options.port) || (secure ? 443 : 80);
    const phases = { dns: 0, connect: 0, tls: 0 };
    let done = false;
    const socket: Socket = secure
      ? tlsConnect({
          host,
          port,
          servername: options.servername ?? (isIP(host) ? undefined : host),
          ALPNProtocols: allowH2 ? ['h2', 'http/1.1'] : ['http/1.1'],
          rejectUnauthorized: tls.rejectUnauthorized,
          ca: tls.ca,
          cert: tls.cert,
          key: tls.key,
        })
      : netConnect({ host, port });
    socket.setNoDelay(true);
    const timer =
      timeoutMs > 0
        ? setTimeout(
            () => finish(Object.assign(new Error('connect timeout'), { code: 'DIAL_CONNECT_TIMEOUT' })),
            timeoutMs,
          )
        : undefined;
    let connectStart = started;
    let connected = started;
    socket.once('lookup', () => {
      connectStart = nowMs();
      phases.dns = connectStart - started;
    });
    socket.once('connect', () => {
      connected = nowMs();
      phases.connect = connected - connectStart;
      if (!secure) finish();
    });
    if (secure) {
      socket.once('secureConnect', () => {
        phases.tls = nowMs() - connected;
        finish();
      });
    }
    socket.once('error', (error) => finish(error));
    function finish(error?: Error): void {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) {
        socket.destroy();
        callback(error, null);
        return;
      }
      connections.set(originKey(options.protocol, host, port), {
        at: nowMs(),
        phases,
        alpn: secure ? (socket as TLSSocket).alpnProtocol || undefined : undefined,
        remoteAddress: socket.remoteAddress,
        remotePort: socket.remotePort,
      });
      callback(null, socket);
    }
  };
}

/**
 * The client to the proxy, whose CONNECT failures end the request. undici retries a connection
 * that failed with a socket error (UND_ERR_SOCKET) as long as requests wait, so a proxy that
 * hangs up on every CONNECT made it reconnect thousands of times a second until the timeout.
 */
function tunnelClient(undici: typeof import('undici'), origin: URL, options: object): Dispatcher {
  const pool = new undici.Pool(origin, options);
  const connect = pool.connect.bind(pool) as (options: Dispatcher.ConnectOptions) => Promise<Dispatcher.ConnectData>;
  const guarded = async (connectOptions: Dispatcher.ConnectOptions): Promise<Dispatcher.ConnectData> => {
    try {
      return await connect(connectOptions);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'UND_ERR_SOCKET') throw error;
      throw Object.assign(new Error(`the proxy closed the connection during CONNECT (${(error as Error).message})`), {
        code: 'DIAL_PROXY_CLOSED',
        cause: error,
      });
    }
  };
  return Object.assign(pool, { connect: guarded });
}

async function dispatcherFor(context: HopContext): Promise<Dispatcher> {
  const allowH2 = context.httpVersion === '2';
  const key = `${context.proxy ?? 'direct'}|${allowH2 ? 'h2' : 'h1'}|${context.connectTimeoutMs}|${context.tls.poolKey}`;
  const existing = dispatchers.get(key);
  if (existing) return existing;
  // undici is CommonJS: bundled by esbuild its exports arrive as the namespace's `default`,
  // from source (vitest, tsx) as named exports. Accept both.
  const imported = (await import('undici')) as typeof import('undici') & { default?: typeof import('undici') };
  const undici = imported.default ?? imported;
  let dispatcher: Dispatcher;
  if (context.proxy) {
    const proxyUrl = new URL(context.proxy);
    const token = proxyUrl.username
      ? `Basic ${Buffer.from(`${decodeURIComponent(proxyUrl.username)}:${decodeURIComponent(proxyUrl.password)}`).toString('base64')}`
      : undefined;
    proxyUrl.username = '';
    proxyUrl.password = '';
    dispatcher = new undici.ProxyAgent({
      uri: proxyUrl.toString(),
      token,
      // An http:// target goes to the proxy as `GET http://host/path` (absolute form), as curl and
      // every corporate proxy expect; CONNECT tunnels are for https:// targets only.
      proxyTunnel: false,
      clientFactory: (origin: URL, options: object) => tunnelClient(undici, origin, options),
      allowH2,
      connectTimeout: context.connectTimeoutMs || undefined,
      requestTls: {
        rejectUnauthorized: context.tls.rejectUnauthorized,
        ca: context.tls.ca,
        cert: context.tls.cert,
        key: context.tls.key,
      },
    });
  } else {
    dispatcher = new undici.Agent({
      allowH2,
      connect: timedConnector(context.tls, allowH2, context.connectTimeoutMs) as never,
    });
  }
  dispatchers.set(key, dispatcher);
  return dispatcher;
}

// Connection-level headers undici refuses (it manages connections itself; HTTP/2 forbids them).
const connectionHeaders = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection']);

function toList(headers: Record<string, string | string[] | undefined>): HeaderList {
  const list: HeaderList = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) list.push([name, one]);
  }
  return list;
}

/**
 * Rejects when the stopper stops (timeout, Ctrl+C), even if undici is still waiting: a proxy
 * that accepts the connection but never answers CONNECT leaves the request queued, and undici
 * does not abort a request that has no connection yet. The dispatcher is dropped (its stuck
 * connection with it), so the next request starts clean and the process can exit.
 */
function untilStopped<T>(work: Promise<T>, context: HopContext, dispatcher: Dispatcher): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onStop = (): void => {
      for (const [key, value] of dispatchers) if (value === dispatcher) dispatchers.delete(key);
      void dispatcher.destroy().catch(() => {});
      reject(new Error('aborted'));
    };
    context.stopper.onStop(onStop);
    work.then(
      (value) => {
        context.stopper.offStop(onStop);
        resolve(value);
      },
      (error: unknown) => {
        context.stopper.offStop(onStop);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Sends one request through undici (HTTP/2 or a proxy). */
export async function sendWithUndici(hop: HopRequest, context: HopContext): Promise<HopResponse> {
  const dispatcher = await dispatcherFor(context);
  const started = nowMs();
  const headers: string[] = [];
  for (const [name, value] of hop.headers) {
    const lower = name.toLowerCase();
    // undici's proxy agent adds its own Host unless it finds `host` or `Host`: a `HOST` written in
    // a .http file would go out twice ("duplicate host header").
    if (!connectionHeaders.has(lower)) headers.push(lower === 'host' ? 'host' : name, value);
  }
  let body: Buffer | Readable | undefined;
  if (hop.body) {
    const source = hop.recorder.wrap(hop.body.open());
    body = Buffer.isBuffer(source) ? source : Readable.from(source, { objectMode: false });
  }
  const response = await untilStopped(
    dispatcher.request({
      origin: hop.url.origin,
      path: (hop.url.pathname || '/') + hop.url.search,
      method: hop.method as Dispatcher.HttpMethod,
      headers,
      body,
      signal: context.stopper.signal,
      headersTimeout: 0,
      bodyTimeout: 0,
    }),
    context,
    dispatcher,
  );
  const now = nowMs();
  const info = connections.get(
    originKey(
      hop.url.protocol,
      hop.url.hostname.replace(/^\[|\]$/g, ''),
      Number(hop.url.port) || (hop.url.protocol === 'https:' ? 443 : 80),
    ),
  );
  const fresh = info && info.at >= started;
  const h2 = context.httpVersion === '2' && info?.alpn === 'h2';
  // A late error (the send already failed or finished) must not crash the process.
  response.body.on('error', ignoreLateError);
  return {
    status: response.statusCode,
    statusText: STATUS_CODES[response.statusCode] ?? '',
    httpVersion: h2 ? '2' : '1.1',
    headers: toList(response.headers),
    body: response.body as unknown as Readable,
    remoteAddress: info?.remoteAddress,
    remotePort: info?.remotePort,
    phases: {
      dns: fresh ? info.phases.dns : 0,
      connect: fresh ? info.phases.connect : 0,
      tls: fresh ? info.phases.tls : 0,
      firstByte: now - (fresh ? info.at : started),
    },
  };
}

function ignoreLateError(): void {}
