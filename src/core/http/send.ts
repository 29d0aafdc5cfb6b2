/**
 * sendRequest: validation, default headers, cookies, redirects, timeouts, cancellation,
 * decoding and the body target, on top of one of two transports (./index.ts explains why two).
 */
import { pipeline } from 'node:stream/promises';
import type { Readable, Writable } from 'node:stream';
import { nowMs } from '../clock.js';
import { DialError } from '../errors.js';
import { isSensitiveHeader } from '../secrets.js';
import { BodyRecorder, prepareBody } from './body.js';
import { decodersFor } from './decode.js';
import { sendWithNode } from './node-transport.js';
import { loadUndiciTransport } from './pool.js';
import { buildHeaders, findHeader, normalise, usesUndici } from './request-head.js';
import { BufferSink, DEFAULT_MAX_IN_MEMORY, EncodedCounter, ForwardSink } from './body-sinks.js';
import { cancelledError, timeoutError, toTransportError } from './transport-errors.js';
import { Stopper, type HopResponse, type TlsMaterial, type Transport } from './transport.js';
import type { Exchange, HeaderList, HttpRequest, RedirectHop, ResponseBody, ResponseHead, SendOptions, TlsOptions } from './types.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const BODY_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'content-encoding']);

const tlsFileCache = new Map<string, Buffer>();

async function readTlsFile(path: string, flag: string): Promise<Buffer> {
  const cached = tlsFileCache.get(path);
  if (cached) return cached;
  try {
    // Loaded here: node:fs/promises costs ~1.3 ms at start-up, and only --cacert/--cert/--key need it.
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile(path);
    tlsFileCache.set(path, bytes);
    return bytes;
  } catch (error) {
    throw new DialError('E_INPUT', `cannot read ${flag} file '${path}': ${(error as Error).message}`, {
      hint: `check the path given to ${flag}`,
      cause: error,
    });
  }
}

async function loadTls(options: TlsOptions | undefined): Promise<TlsMaterial> {
  const verify = options?.verify !== false;
  const [ca, cert, key] = await Promise.all([
    options?.caFile ? readTlsFile(options.caFile, '--cacert') : undefined,
    options?.certFile ? readTlsFile(options.certFile, '--cert') : undefined,
    options?.keyFile ? readTlsFile(options.keyFile, '--key') : undefined,
  ]);
  return { rejectUnauthorized: verify, ca, cert, key, poolKey: `${verify}|${options?.caFile ?? ''}|${options?.certFile ?? ''}|${options?.keyFile ?? ''}` };
}

/** The origin of a URL: scheme, host and port. Credentials never cross from one origin to another. */
function originKey(url: URL): string {
  return `${url.protocol}//${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** Whether a header stays off a request that a redirect sent to another origin: credentials, and Host. */
function dropsAcrossOrigins(name: string): boolean {
  return isSensitiveHeader(name) || name.toLowerCase() === 'host';
}

/** Sends a request and resolves with the whole exchange, or rejects with a DialError. */
export async function sendRequest(request: HttpRequest, options: SendOptions = {}): Promise<Exchange> {
  const started = nowMs();
  const normal = normalise(request);
  request = normal.request;
  let url = normal.url;
  if (options.signal?.aborted) throw cancelledError(url.toString());

  const timeoutMs = options.timeoutMs ?? 30_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? timeoutMs;
  const maxRedirects = options.maxRedirects ?? 10;
  const env = options.env ?? process.env;
  const stopper = new Stopper();
  let stopReason: 'timeout' | 'cancel' | undefined;
  const onCancel = (): void => {
    stopReason ??= 'cancel';
    stopper.stop();
  };
  options.signal?.addEventListener('abort', onCancel, { once: true });
  const timer =
    timeoutMs > 0
      ? setTimeout(() => {
          stopReason ??= 'timeout';
          stopper.stop();
        }, timeoutMs)
      : undefined;

  let proxy: string | undefined;
  let pending: Readable | undefined;
  try {
    const tls = await loadTls(options.tls);
    let body = await prepareBody(request.body);
    let method = request.method;
    let userHeaders: HeaderList = request.headers.map(([name, value]) => [name, value]);
    const redirects: RedirectHop[] = [];

    for (;;) {
      const route = usesUndici(request, url, options, env);
      proxy = route.proxy;
      const viaUndici = route.viaUndici;
      const headers = buildHeaders(userHeaders, url, method, body, options, viaUndici, request.omitHeaders);
      const recorder = new BodyRecorder();
      const transport: Transport = viaUndici ? (await loadUndiciTransport()).sendWithUndici : sendWithNode;
      const hop: HopResponse = await transport(
        { method, url, headers, body, recorder },
        { stopper, connectTimeoutMs, tls, httpVersion: request.httpVersion ?? '1.1', proxy },
      );
      pending = hop.body;
      pending.on('error', () => {});

      if (options.cookieJar) {
        const setCookies = hop.headers.filter(([name]) => name.toLowerCase() === 'set-cookie').map(([, value]) => value);
        if (setCookies.length > 0) options.cookieJar.store(url.toString(), setCookies);
      }

      const location = findHeader(hop.headers, 'location');
      if (options.followRedirects && REDIRECT_STATUSES.has(hop.status) && location !== undefined) {
        // Drain a small redirect body so its connection can be reused; drop anything else.
        const length = Number(findHeader(hop.headers, 'content-length') ?? NaN);
        if (length <= 64 * 1024) hop.body.resume();
        else hop.body.destroy();
        pending = undefined;
        if (redirects.length >= maxRedirects) {
          throw new DialError('E_TOO_MANY_REDIRECTS', `too many redirects: more than ${maxRedirects} (last: ${url.toString()})`, {
            hint: 'the server may redirect in a loop; raise the limit in settings (maxRedirects) or turn off --follow to see the redirect',
          });
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch (error) {
          throw new DialError('E_NETWORK', `the server redirected to an invalid URL '${location}' (from ${url.toString()})`, { cause: error });
        }
        if (next.protocol !== 'http:' && next.protocol !== 'https:') {
          throw new DialError('E_NETWORK', `the server redirected to an unsupported URL '${next.toString()}'`, {
            hint: 'dial only follows redirects to http:// and https:// URLs',
          });
        }
        // Never carry credentials from a Location header into the next request's URL or history.
        next.username = '';
        next.password = '';
        let nextMethod = method;
        let dropBody = false;
        if (hop.status === 303 ? method !== 'HEAD' : (hop.status === 301 || hop.status === 302) && method !== 'GET' && method !== 'HEAD') {
          nextMethod = 'GET';
          dropBody = true;
        }
        if (!dropBody && body && !body.replayable) {
          throw new DialError('E_INPUT', `the server answered ${hop.status} (redirect keeping the body) but a streamed body cannot be sent twice`, {
            hint: 'send the body from a file (@file) instead of a pipe, or call the final URL directly',
          });
        }
        const redirect: RedirectHop = { status: hop.status, from: url.toString(), to: next.toString(), method: nextMethod };
        options.onRedirect?.(redirect);
        redirects.push(redirect);
        if (dropBody) {
          body = undefined;
          userHeaders = userHeaders.filter(([name]) => !BODY_HEADERS.has(name.toLowerCase()));
        }
        if (originKey(next) !== originKey(url)) {
          userHeaders = userHeaders.filter(([name]) => !dropsAcrossOrigins(name));
        }
        if (url.protocol === 'https:' && next.protocol === 'http:') {
          options.onWarning?.(`redirect from https to plain http: ${url.toString()} -> ${next.toString()} (credentials were not sent on)`);
        }
        method = nextMethod;
        url = next;
        continue;
      }

      const head: ResponseHead = {
        status: hop.status,
        statusText: hop.statusText,
        httpVersion: hop.httpVersion,
        headers: hop.headers,
        url: url.toString(),
      };
      const bodyless = method === 'HEAD' || hop.status === 204 || hop.status === 304 || hop.status < 200;
      const decoders = options.decompress !== false && !bodyless ? await decodersFor(findHeader(hop.headers, 'content-encoding'), hop.body) : [];
      let target: Writable | null = null;
      if (options.bodyTarget?.kind === 'stream') target = await options.bodyTarget.open(head);
      const limit = options.bodyTarget?.kind === 'buffer' ? (options.bodyTarget.maxInMemoryBytes ?? DEFAULT_MAX_IN_MEMORY) : DEFAULT_MAX_IN_MEMORY;
      let received: { body: ResponseBody; size: number };
      // The common case (small, unencoded body kept in memory) skips stream.pipeline: it costs
      // an AbortController, a DOMException and a dozen listeners per request (~40 µs).
      const cap = options.bodyTarget?.kind === 'buffer' ? options.bodyTarget.maxBodyBytes : undefined;
      // A body past its cap leaves the fast path, so the sink below stops it.
      const small = target === null && decoders.length === 0 ? await readSmallBody(hop.body, cap !== undefined && cap < limit ? cap : limit, stopper) : undefined;
      if (small && !small.overflow) {
        received = { body: { kind: 'memory', bytes: small.chunks.length === 1 ? small.chunks[0] : Buffer.concat(small.chunks, small.size) }, size: small.size };
      } else {
        const maxBodyBytes = cap;
        const counter = maxBodyBytes !== undefined && decoders.length > 0 ? new EncodedCounter() : undefined;
        const caps = maxBodyBytes !== undefined ? { maxBytes: maxBodyBytes, encoded: counter, url: url.toString() } : undefined;
        const sink = target !== null ? new ForwardSink(target) : new BufferSink(limit, caps);
        // Past the limit: what was read goes to the sink first (it spills to a temp file), then the rest.
        if (small && sink instanceof BufferSink) for (const chunk of small.chunks) sink.write(chunk);
        const stages = counter ? [counter, ...decoders] : decoders;
        await (pipeline as unknown as (...streams: unknown[]) => Promise<void>)(hop.body, ...stages, sink, { signal: stopper.signal });
        received = { body: sink instanceof BufferSink ? sink.result() : { kind: 'streamed', size: sink.size }, size: sink.size };
      }
      pending = undefined;
      if (stopper.aborted) throw new Error('aborted');

      return {
        request: {
          method,
          url: url.toString(),
          headers,
          bodyPreview: recorder.preview(),
          bodySize: body ? (body.length ?? recorder.size) : undefined,
        },
        // Written out, not `...head`: a spread followed by new keys takes V8's slow path (~2 µs).
        response: {
          status: head.status,
          statusText: head.statusText,
          httpVersion: head.httpVersion,
          headers: head.headers,
          url: head.url,
          body: received.body,
          size: received.size,
          remoteAddress: hop.remoteAddress,
          remotePort: hop.remotePort,
        },
        timings: {
          dns: round(hop.phases.dns),
          connect: round(hop.phases.connect),
          tls: round(hop.phases.tls),
          firstByte: round(hop.phases.firstByte),
          total: round(nowMs() - started),
        },
        redirects,
      };
    }
  } catch (error) {
    pending?.destroy();
    if (stopReason === 'timeout') throw Object.assign(timeoutError(url.toString(), timeoutMs, proxy), { cause: error });
    if (stopReason === 'cancel') throw Object.assign(cancelledError(url.toString()), { cause: error });
    throw toTransportError(error, { url: url.toString(), proxy });
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCancel);
  }
}

/**
 * Reads a body into memory with plain 'data' listeners until it ends, or until it passes
 * `limit` (then it answers overflow with the stream paused, for the spilling sink to take over).
 */
function readSmallBody(source: Readable, limit: number, stopper: Stopper): Promise<{ chunks: Buffer[]; size: number; overflow: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let ended = false;
    const cleanup = (): void => {
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onError);
      source.off('close', onClose);
      stopper.offStop(onAbort);
    };
    function onData(chunk: Buffer): void {
      chunks.push(chunk);
      size += chunk.length;
      if (size > limit) {
        source.pause();
        cleanup();
        resolve({ chunks, size, overflow: true });
      }
    }
    function onEnd(): void {
      ended = true;
      cleanup();
      resolve({ chunks, size, overflow: false });
    }
    function onError(error: Error): void {
      cleanup();
      reject(error);
    }
    function onClose(): void {
      if (ended) return;
      cleanup();
      reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    }
    function onAbort(): void {
      cleanup();
      source.destroy();
      reject(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' }));
    }
    if (stopper.aborted) return onAbort();
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onError);
    source.on('close', onClose);
    stopper.onStop(onAbort);
  });
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
