/**
 * sendRequest: validation, default headers, cookies, redirects, timeouts, cancellation,
 * decoding and the body target, on top of one of two transports (./index.ts explains why two).
 */
import { pipeline } from 'node:stream/promises';
import type { Readable, Transform, Writable } from 'node:stream';
import { nowMs } from '../clock.js';
import { DialError } from '../errors.js';
import { isSensitiveHeader } from '../secrets.js';
import { BodyRecorder, prepareBody, type PreparedBody } from './body.js';
import { decodersFor } from './decode.js';
import { sendOverWire } from './wire-transport.js';
import { protocolSenderFor } from './protocols.js';
import { loadUndiciTransport } from './pool.js';
import { buildHeaders, findHeader, normalise, usesUndici } from './request-head.js';
import { BufferSink, DEFAULT_MAX_IN_MEMORY, EncodedCounter, ForwardSink } from './body-sinks.js';
import { cancelledError, timeoutError, toTransportError } from './transport-errors.js';
import { Stopper, type HopResponse, type Phases, type TlsMaterial, type Transport } from './transport.js';
import type {
  CookieJar,
  Exchange,
  HeaderList,
  HttpRequest,
  RedirectHop,
  ResponseBody,
  ResponseHead,
  SendOptions,
  Timings,
  TlsOptions,
} from './types.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** A timeout while reading an event stream: most such streams never end, so the hint says how to end them. */
function endlessStreamTimeout(failure: Error): DialError {
  return new DialError('E_TIMEOUT', failure.message, {
    hint: 'an event stream runs until the server ends it: stop it with `# @sse-count N` or `# @sse-timeout 5s`, or raise --timeout',
    cause: failure,
  });
}

/** Server-sent events: read event by event, whatever the request (./event-stream.ts). */
const EVENT_STREAM_RE = /^\s*text\/event-stream\b/i;
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

/** The material of each TlsOptions object once read (a run sends thousands of requests with one). */
const tlsMaterialCache = new WeakMap<TlsOptions, TlsMaterial>();
const NO_TLS_OPTIONS: TlsOptions = { verify: true };

async function loadTls(options: TlsOptions | undefined): Promise<TlsMaterial> {
  const key = options ?? NO_TLS_OPTIONS;
  let material = tlsMaterialCache.get(key);
  if (!material) {
    material = await readTlsMaterial(options);
    tlsMaterialCache.set(key, material);
  }
  return material;
}

async function readTlsMaterial(options: TlsOptions | undefined): Promise<TlsMaterial> {
  const verify = options?.verify !== false;
  const [ca, cert, key] = await Promise.all([
    options?.caFile ? readTlsFile(options.caFile, '--cacert') : undefined,
    options?.certFile ? readTlsFile(options.certFile, '--cert') : undefined,
    options?.keyFile ? readTlsFile(options.keyFile, '--key') : undefined,
  ]);
  return {
    rejectUnauthorized: verify,
    ca,
    cert,
    key,
    poolKey: `${verify}|${options?.caFile ?? ''}|${options?.certFile ?? ''}|${options?.keyFile ?? ''}`,
  };
}

/** The origin of a URL: scheme, host and port. Credentials never cross from one origin to another. */
function originKey(url: URL): string {
  return `${url.protocol}//${url.hostname.toLowerCase()}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
}

/** Whether a header stays off a request that a redirect sent to another origin: credentials, and Host. */
function dropsAcrossOrigins(name: string): boolean {
  return isSensitiveHeader(name) || name.toLowerCase() === 'host';
}

/** The request target `*`, which dial sends over HTTP/1.1 without a proxy only. */
function asteriskTarget(viaUndici: boolean): string {
  if (viaUndici) {
    throw new DialError(
      'E_USAGE',
      'an asterisk-form request (`OPTIONS *`) can only be sent over HTTP/1.1 without a proxy',
      {
        hint: 'drop HTTP/2 from the request line and send it without --proxy (or set NO_PROXY for its host)',
      },
    );
  }
  return '*';
}

/** Sends a request and resolves with the whole exchange, or rejects with a DialError. */
export async function sendRequest(request: HttpRequest, options: SendOptions = {}): Promise<Exchange> {
  const protocolSender = protocolSenderFor(request.method, request.url);
  if (protocolSender) return (await protocolSender())(request, options);
  const started = nowMs();
  const normal = normalise(request);
  request = normal.request;
  let url = normal.url;
  if (options.signal?.aborted) throw cancelledError(url.toString());

  let timeoutMs = options.timeoutMs ?? 30_000;
  // An event stream read for `sse.durationMs` gets its usual time on top.
  if (timeoutMs > 0 && options.sse?.durationMs) timeoutMs += options.sse.durationMs;
  const connectTimeoutMs = options.connectTimeoutMs ?? timeoutMs;
  const env = options.env ?? process.env;
  const stopper = new SendStopper(timeoutMs, options.signal);

  let proxy: string | undefined;
  let eventStream = false;
  // The hop being read: its body is destroyed when the send fails, so its socket is not left open.
  let pending: HopResponse | undefined;
  try {
    // Awaited only the first time (TLS files read) and for a body: a run's requests skip two ticks.
    const tls = tlsMaterialCache.get(options.tls ?? NO_TLS_OPTIONS) ?? (await loadTls(options.tls));
    let body = request.body.kind === 'none' ? undefined : await prepareBody(request.body);
    let method = request.method;
    let userHeaders: HeaderList = request.headers.map(([name, value]) => [name, value]);
    const redirects: RedirectHop[] = [];

    for (;;) {
      const route = usesUndici(request, url, options, env);
      proxy = route.proxy;
      const viaUndici = route.viaUndici;
      // Asterisk-form (`OPTIONS *`) is the first hop's target only; a redirect goes to its URL.
      const target = request.asteriskForm && redirects.length === 0 ? asteriskTarget(viaUndici) : undefined;
      if (viaUndici && method === 'CONNECT')
        throw new DialError('E_INPUT', 'CONNECT is sent over HTTP/1.1 without a proxy only', {
          hint: 'remove the proxy setting or the HTTP/2 version for this request',
        });
      const headers = buildHeaders(userHeaders, url, method, body, options, viaUndici, request.omitHeaders);
      const recorder = new BodyRecorder();
      const transport: Transport = viaUndici ? (await loadUndiciTransport()).sendWithUndici : sendOverWire;
      const hop: HopResponse = await transport(
        { method, url, headers, body, recorder, target },
        { stopper, connectTimeoutMs, tls, httpVersion: request.httpVersion ?? '1.1', proxy },
      );
      pending = hop;
      if (options.cookieJar) storeCookies(options.cookieJar, url, hop.headers);

      const location = findHeader(hop.headers, 'location');
      if (options.followRedirects && REDIRECT_STATUSES.has(hop.status) && location !== undefined) {
        releaseRedirectBody(hop);
        pending = undefined;
        const next = followRedirect(
          hop.status,
          location,
          { url, method, body, headers: userHeaders },
          redirects,
          options,
        );
        ({ url, method, body, headers: userHeaders } = next);
        continue;
      }

      const head: ResponseHead = {
        status: hop.status,
        statusText: hop.statusText,
        httpVersion: hop.httpVersion,
        headers: hop.headers,
        url: url.toString(),
      };
      eventStream = EVENT_STREAM_RE.test(findHeader(hop.headers, 'content-type') ?? '');
      const received = eventStream
        ? await receiveEvents(hop, head, options, stopper, started)
        : await receiveBody(hop, head, method, options, stopper);
      pending = undefined;
      if (stopper.aborted) throw new Error('aborted');

      return {
        request: {
          method,
          url: head.url,
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
        timings: timingsOf(hop.phases, started),
        redirects,
      };
    }
  } catch (error) {
    pending?.body.destroy();
    const failure = sendFailure(error, stopper.reason, url.toString(), timeoutMs, proxy);
    throw eventStream && stopper.reason === 'timeout' ? endlessStreamTimeout(failure) : failure;
  } finally {
    stopper.release();
  }
}

/**
 * The Stopper of one send: stops it at its timeout or when the caller's signal aborts, and keeps
 * which came first, so the error says timeout or cancelled rather than what the stop broke.
 * It is its own abort listener (handleEvent) and its timer's argument: no closures per request.
 */
class SendStopper extends Stopper {
  reason: 'timeout' | 'cancel' | undefined;
  /** When the send times out (nowMs), with the queue that watches it; none without a timeout. */
  readonly deadline: number;
  private readonly deadlines: Deadlines | undefined;

  constructor(
    timeoutMs: number,
    private readonly callerSignal: AbortSignal | undefined,
  ) {
    super();
    if (callerSignal) stoppersOf(callerSignal).add(this);
    this.deadline = nowMs() + timeoutMs;
    this.deadlines = timeoutMs > 0 ? deadlinesFor(timeoutMs) : undefined;
    this.deadlines?.add(this);
  }

  /** Stops the send; the first reason given is the one its error names. */
  stopFor(reason: 'timeout' | 'cancel'): void {
    this.reason ??= reason;
    this.stop();
  }

  /** Clears the timer and the abort listener once the send is over. */
  release(): void {
    this.deadlines?.delete(this);
    if (this.callerSignal) stoppersBySignal.get(this.callerSignal)?.delete(this);
  }
}

/**
 * The sends under way per caller signal. The signal gets one 'abort' listener, however many
 * sends share it (a run's thousands of requests do): adding and removing an EventTarget listener
 * per send cost ~5 µs a request.
 */
const stoppersBySignal = new WeakMap<AbortSignal, Set<SendStopper>>();

function stoppersOf(signal: AbortSignal): Set<SendStopper> {
  let stoppers = stoppersBySignal.get(signal);
  if (!stoppers) {
    const sends = (stoppers = new Set());
    stoppersBySignal.set(signal, sends);
    signal.addEventListener(
      'abort',
      () => {
        for (const stopper of [...sends]) stopper.stopFor('cancel');
      },
      { once: true },
    );
  }
  return stoppers;
}

/**
 * The sends under way with one timeout length, oldest first, and one timer for the oldest: a run
 * sends thousands of requests with the same timeout, and a timer of their own cost each of them a
 * Timeout object (kept alive, so copied by the collector, for the whole exchange) and its set-up and
 * clearing. A Set keeps the order the sends started in, which is the order of their deadlines.
 * The timer stays armed for the oldest send it was set for; when that send is over first, the
 * timer's turn finds the next one and arms again. It is cleared when no send waits (a process with
 * no send under way has no timer that keeps it alive).
 */
class Deadlines {
  private readonly waiting = new Set<SendStopper>();
  private timer: ReturnType<typeof setTimeout> | undefined;

  add(stopper: SendStopper): void {
    this.waiting.add(stopper);
    if (!this.timer) this.arm(stopper.deadline);
  }

  delete(stopper: SendStopper): void {
    this.waiting.delete(stopper);
    if (this.waiting.size === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  /** The timer's turn: stops every send past its deadline, then arms for the next one. */
  expire(): void {
    this.timer = undefined;
    const now = nowMs();
    for (const stopper of this.waiting) {
      if (stopper.deadline > now) {
        // (A send started by a stopped send's listeners may have armed it already.)
        if (!this.timer) this.arm(stopper.deadline);
        return;
      }
      this.waiting.delete(stopper);
      stopper.stopFor('timeout');
    }
  }

  private arm(deadline: number): void {
    this.timer = setTimeout(expireDeadlines, Math.max(1, Math.ceil(deadline - nowMs())), this);
  }
}

const deadlinesByLength = new Map<number, Deadlines>();

function deadlinesFor(timeoutMs: number): Deadlines {
  let deadlines = deadlinesByLength.get(timeoutMs);
  if (!deadlines) {
    deadlines = new Deadlines();
    deadlinesByLength.set(timeoutMs, deadlines);
  }
  return deadlines;
}

/** A Deadlines timer fired. */
function expireDeadlines(deadlines: Deadlines): void {
  deadlines.expire();
}

/** Hands a response's Set-Cookie headers to the cookie jar. */
function storeCookies(jar: CookieJar, url: URL, headers: HeaderList): void {
  // A loop that makes an array only for a response that sets cookies: the empty array that
  // filter/map made for every other one was met with another map once a cookie came, and the
  // optimised sendRequest, which inlines this, was thrown away ("wrong map").
  let setCookies: string[] | undefined;
  for (let i = 0; i < headers.length; i++) {
    const header = headers[i];
    if (header[0].length === 10 && header[0].toLowerCase() === 'set-cookie') (setCookies ??= []).push(header[1]);
  }
  if (setCookies) jar.store(url.toString(), setCookies);
}

/** Lets go of a redirect's own body: a small one is drained so its connection can be reused, a big one dropped. */
function releaseRedirectBody(hop: HopResponse): void {
  if (hop.takeWholeBody?.(Infinity)) return;
  const length = Number(findHeader(hop.headers, 'content-length') ?? NaN);
  if (length <= 64 * 1024) hop.body.resume();
  else hop.body.destroy();
}

/** What one hop sends: a redirect turns it into the next hop's. */
interface Outgoing {
  url: URL;
  method: string;
  body: PreparedBody | undefined;
  headers: HeaderList;
}

/**
 * Works out the request a redirect leads to, records the hop (and tells onRedirect), or throws
 * when it must not be followed (too many, a bad Location, a streamed body that cannot be resent).
 */
function followRedirect(
  status: number,
  location: string,
  current: Outgoing,
  redirects: RedirectHop[],
  options: SendOptions,
): Outgoing {
  const { url } = current;
  const maxRedirects = options.maxRedirects ?? 10;
  if (redirects.length >= maxRedirects) {
    throw new DialError(
      'E_TOO_MANY_REDIRECTS',
      `too many redirects: more than ${maxRedirects} (last: ${url.toString()})`,
      {
        hint: 'the server may redirect in a loop; raise the limit in settings (maxRedirects) or turn off --follow to see the redirect',
      },
    );
  }
  const next = redirectTarget(location, url);
  const dropBody = rewritesToGet(status, current.method);
  const method = dropBody ? 'GET' : current.method;
  if (!dropBody && current.body && !current.body.replayable) {
    throw new DialError(
      'E_INPUT',
      `the server answered ${status} (redirect keeping the body) but a streamed body cannot be sent twice`,
      {
        hint: 'send the body from a file (@file) instead of a pipe, or call the final URL directly',
      },
    );
  }
  const redirect: RedirectHop = { status, from: url.toString(), to: next.toString(), method };
  options.onRedirect?.(redirect);
  redirects.push(redirect);
  let headers = current.headers;
  if (dropBody) headers = headers.filter(([name]) => !BODY_HEADERS.has(name.toLowerCase()));
  if (originKey(next) !== originKey(url)) headers = headers.filter(([name]) => !dropsAcrossOrigins(name));
  if (url.protocol === 'https:' && next.protocol === 'http:') {
    options.onWarning?.(
      `redirect from https to plain http: ${url.toString()} -> ${next.toString()} (credentials were not sent on)`,
    );
  }
  return { url: next, method, body: dropBody ? undefined : current.body, headers };
}

/** The URL a Location header points to, resolved against the request's; only http(s), and never with credentials. */
function redirectTarget(location: string, from: URL): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch (error) {
    throw new DialError(
      'E_NETWORK',
      `the server redirected to an invalid URL '${location}' (from ${from.toString()})`,
      {
        cause: error,
      },
    );
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new DialError('E_NETWORK', `the server redirected to an unsupported URL '${next.toString()}'`, {
      hint: 'dial only follows redirects to http:// and https:// URLs',
    });
  }
  // Never carry credentials from a Location header into the next request's URL or history.
  next.username = '';
  next.password = '';
  return next;
}

/** Whether a redirect turns the request into a GET without its body (303 always but HEAD; 301/302 as browsers do). */
function rewritesToGet(status: number, method: string): boolean {
  return status === 303
    ? method !== 'HEAD'
    : (status === 301 || status === 302) && method !== 'GET' && method !== 'HEAD';
}

/** The response body as received, and its size in decoded bytes. */
interface ReceivedBody {
  body: ResponseBody;
  size: number;
}

/** Server-sent events: read event by event (./event-stream.ts, loaded on the first event stream). */
async function receiveEvents(
  hop: HopResponse,
  head: ResponseHead,
  options: SendOptions,
  stopper: Stopper,
  started: number,
): Promise<ReceivedBody> {
  const decoders =
    options.decompress !== false ? await decodersFor(findHeader(hop.headers, 'content-encoding'), hop.body) : [];
  const target = options.bodyTarget?.kind === 'stream' ? await options.bodyTarget.open(head) : null;
  const { receiveEventStream } = await import('./event-stream.js');
  return receiveEventStream(hop.body, decoders, target, options, stopper, started);
}

/** Reads a final response's body, decoded, into what the caller asked: memory (spilling to a file when large) or a stream. */
async function receiveBody(
  hop: HopResponse,
  head: ResponseHead,
  method: string,
  options: SendOptions,
  stopper: Stopper,
): Promise<ReceivedBody> {
  const bodyless = method === 'HEAD' || hop.status === 204 || hop.status === 304 || hop.status < 200;
  const encoding = options.decompress !== false && !bodyless ? findHeader(hop.headers, 'content-encoding') : undefined;
  const decoders = encoding ? await decodersFor(encoding, hop.body) : [];
  const target: Writable | null = options.bodyTarget?.kind === 'stream' ? await options.bodyTarget.open(head) : null;
  const limit =
    options.bodyTarget?.kind === 'buffer'
      ? (options.bodyTarget.maxInMemoryBytes ?? DEFAULT_MAX_IN_MEMORY)
      : DEFAULT_MAX_IN_MEMORY;
  // The common case (small, unencoded body kept in memory) skips stream.pipeline: it costs
  // an AbortController, a DOMException and a dozen listeners per request (~40 µs).
  const cap = options.bodyTarget?.kind === 'buffer' ? options.bodyTarget.maxBodyBytes : undefined;
  // A body past its cap leaves the fast path, so the sink below stops it.
  const smallLimit = cap !== undefined && cap < limit ? cap : limit;
  // Kept in memory as it arrives: no file or stream target, no decoder.
  const plain = target === null && decoders.length === 0;
  const whole = plain ? hop.takeWholeBody?.(smallLimit) : undefined;
  if (whole) {
    const bytes = whole.length === 1 ? whole[0] : Buffer.concat(whole);
    return { body: { kind: 'memory', bytes }, size: bytes.length };
  }
  const small = plain ? await readSmallBody(hop.body, smallLimit, stopper) : undefined;
  if (small && !small.overflow) {
    return {
      body: {
        kind: 'memory',
        bytes: small.chunks.length === 1 ? small.chunks[0] : Buffer.concat(small.chunks, small.size),
      },
      size: small.size,
    };
  }
  return pipeBody(hop.body, decoders, target, limit, cap, small?.chunks, head.url, stopper);
}

/**
 * The slow path of receiveBody: pipes the body through its decoders into the caller's stream or
 * a BufferSink (which spills past `limit` and enforces `cap`); `readSoFar` is what the fast path took.
 */
async function pipeBody(
  source: Readable,
  decoders: Transform[],
  target: Writable | null,
  limit: number,
  cap: number | undefined,
  readSoFar: Buffer[] | undefined,
  url: string,
  stopper: Stopper,
): Promise<ReceivedBody> {
  const counter = cap !== undefined && decoders.length > 0 ? new EncodedCounter() : undefined;
  const caps = cap !== undefined ? { maxBytes: cap, encoded: counter, url } : undefined;
  const sink = target !== null ? new ForwardSink(target) : new BufferSink(limit, caps);
  // Past the limit: what was read goes to the sink first (it spills to a temp file), then the rest.
  if (readSoFar && sink instanceof BufferSink) for (const chunk of readSoFar) sink.write(chunk);
  const stages = counter ? [counter, ...decoders] : decoders;
  if (stages.length === 0 && target !== null) await pipeToSink(source, sink, stopper);
  else
    await (pipeline as unknown as (...streams: unknown[]) => Promise<void>)(source, ...stages, sink, {
      signal: stopper.signal,
    });
  return {
    body: sink instanceof BufferSink ? sink.result() : { kind: 'streamed', size: sink.size },
    size: sink.size,
  };
}

/**
 * `source.pipe(sink)` with stream.pipeline's outcome, for a body without decoders going to the
 * caller's stream (what `dial send` prints or saves): resolves once the sink has finished and
 * closed; on an error of either, a premature close or a stop, destroys both and rejects with
 * that error (an AbortError for a stop). stream.pipeline costs ~10 M instructions at its first
 * use (Node compiles its code and end-of-stream's; its signal needs an AbortController and a
 * listener), 5% of a whole `dial send`.
 */
function pipeToSink(source: Readable, sink: Writable, stopper: Stopper): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    // The error listeners stay: destroying a stream with an error emits it once more.
    const settle = (error?: Error): void => {
      if (settled) return;
      settled = true;
      source.off('close', onSourceClose);
      sink.off('close', onSinkClose);
      stopper.offStop(onStop);
      if (!error) return resolve();
      source.unpipe(sink);
      source.destroy(error);
      sink.destroy(error);
      reject(error);
    };
    const onSourceClose = (): void => {
      if (!source.readableEnded) settle(prematureClose());
    };
    const onSinkClose = (): void => settle(sink.writableFinished ? undefined : prematureClose());
    const onStop = (): void => settle(abortError());
    if (stopper.aborted) return onStop();
    source.on('error', settle);
    source.on('close', onSourceClose);
    sink.on('error', settle);
    sink.on('close', onSinkClose);
    stopper.onStop(onStop);
    // `end: false` and an end of our own, as pipeline does: pipe()'s own end check reads
    // process.stdout and process.stderr, which builds stderr for nothing.
    source.once('end', () => sink.end());
    source.pipe(sink, { end: false });
  });
}

/** What stream.pipeline rejects with when a stream closes before its end, and when it is stopped. */
function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}

function abortError(): Error {
  return Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR' });
}

/** The exchange's timings, rounded to 0.01 ms; total runs from `started` to now. */
function timingsOf(phases: Phases, started: number): Timings {
  return {
    dns: round(phases.dns),
    connect: round(phases.connect),
    tls: round(phases.tls),
    firstByte: round(phases.firstByte),
    total: round(nowMs() - started),
  };
}

/** The error a failed send rejects with: a timeout or cancellation says so (the transport's error is its cause). */
function sendFailure(
  error: unknown,
  stopReason: 'timeout' | 'cancel' | undefined,
  url: string,
  timeoutMs: number,
  proxy: string | undefined,
): Error {
  if (stopReason === 'timeout') return Object.assign(timeoutError(url, timeoutMs, proxy), { cause: error });
  if (stopReason === 'cancel') return Object.assign(cancelledError(url), { cause: error });
  return toTransportError(error, { url, proxy });
}

/**
 * Reads a body into memory with plain 'data' listeners until it ends, or until it passes
 * `limit` (then it answers overflow with the stream paused, for the spilling sink to take over).
 */
function readSmallBody(
  source: Readable,
  limit: number,
  stopper: Stopper,
): Promise<{ chunks: Buffer[]; size: number; overflow: boolean }> {
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
      reject(prematureClose());
    }
    function onAbort(): void {
      cleanup();
      source.destroy();
      reject(abortError());
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
