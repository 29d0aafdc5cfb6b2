/**
 * One WebSocket conversation: the upgrade request (the request's headers, cookies, TLS), the
 * steps to play (messages to send, waits for the server), and when to close, as
 * docs/websocket.md says:
 *
 * - the server closes the connection: the exchange ends there;
 * - the steps end with `=== wait-for-server`: close (1000) as soon as that message arrived;
 * - `# @keepStreaming` (httpyac): listen until the server closes, `stop` fires, or the timeout
 *   (the timeout then ends the exchange normally: the messages are kept);
 * - otherwise: close once the server has been quiet for `quietMs` (default 500 ms) after the
 *   last message either way, so the replies to the last message are in.
 *
 * The client is the `ws` package, not undici's WebSocket (which undici 7 also has): `ws` hands
 * over the upgrade response (status 101 and its headers, which the Exchange carries, and the
 * body of a refused upgrade, shown like any HTTP answer), takes TLS material per connection
 * (--cacert, --cert, --insecure) without a dispatcher, and is the same library the echo
 * server's WebSocket endpoint uses; it is pure JavaScript (its native add-ons are optional and
 * not installed), and it is loaded only when a WebSocket request is sent.
 */
import type { IncomingMessage } from 'node:http';
import type { ClientOptions, RawData, WebSocket } from 'ws';
import { nowMs } from '../../clock.js';
import { DialError } from '../../errors.js';
import { proxyFor } from '../proxy.js';
import { cancelledError, timeoutError, toTransportError } from '../transport-errors.js';
import type { Exchange, HeaderList, HttpRequest, SendOptions, StreamMessage } from '../types.js';
import type { WebSocketStep } from './script.js';

/** How long the server may stay silent after the last message before a script's connection closes. */
export const DEFAULT_QUIET_MS = 500;
/** How long a close handshake may take before the socket is dropped. */
const CLOSE_GRACE_MS = 1000;

export interface ConversationOptions extends SendOptions {
  /** Quiet period that closes a finished script (default DEFAULT_QUIET_MS). */
  quietMs?: number;
  /** Ends the conversation normally (close 1000, messages kept): interactive Ctrl+C, the TUI's close key. */
  stop?: AbortSignal;
  /** Sub-protocols to offer (Sec-WebSocket-Protocol), besides any the request's own header names. */
  protocols?: string[];
  /** Steps after the request's own (the workbench's composer); the conversation stays open while they may come. */
  composer?: AsyncIterable<WebSocketStep>;
  /** Called once the connection is open, before the first step. */
  onOpen?: (protocol: string) => void;
  /** Close as soon as the steps end (a protocol that knows when it is done: GraphQL's `complete`). */
  closeAfterSteps?: boolean;
  /** Sees every message a protocol layer reads (./graphql.ts); a string it returns is sent back at once (pong). */
  onProtocolMessage?: (message: StreamMessage) => string | undefined;
}

/** What the conversation collected: every message both ways, how it closed. */
interface Transcript {
  messages: StreamMessage[];
  received: number;
  closeCode?: number;
  closeReason?: string;
}

/** Plays `steps` over a WebSocket to request.url and resolves with the exchange (status 101, body: received messages). */
export async function converse(
  request: HttpRequest,
  steps: Iterable<WebSocketStep> | AsyncIterable<WebSocketStep>,
  options: ConversationOptions = {},
): Promise<Exchange> {
  const started = nowMs();
  const url = checkedUrl(request.url);
  const proxy = proxyFor(new URL(url.href.replace(/^ws/, 'http')), options.proxy, options.env ?? process.env);
  if (proxy) {
    throw new DialError('E_USAGE', `WebSocket requests through a proxy are not supported yet (${proxy})`, {
      hint: 'add the host to NO_PROXY, or unset --proxy / HTTP_PROXY / HTTPS_PROXY for this request',
    });
  }
  if (options.signal?.aborted) throw cancelledError(url.href);
  const { default: WebSocketClass } = await import('ws');
  const { headers, protocols } = upgradeHeaders(request, url, options);
  const socket = new WebSocketClass(url.href, protocols, {
    headers: headerRecord(headers),
    followRedirects: false,
    ...(await tlsOptions(options)),
    ...(options.connectTimeoutMs ? { handshakeTimeout: options.connectTimeoutMs } : {}),
  });
  const session = new Session(socket, started, options, url.href);
  try {
    const head = await session.opened();
    if (head.status !== 101) return await session.refusedExchange(request, headers, head);
    if (options.cookieJar) storeCookies(options, url, head.headers);
    options.onOpen?.(socket.protocol);
    await session.play(steps);
    await session.finish();
    return session.exchange(request, headers, head);
  } catch (error) {
    socket.terminate();
    throw session.failure(error);
  } finally {
    session.release();
  }
}

/** ws takes headers as a record: repeated names are joined with ', ' (as HTTP allows). */
function headerRecord(headers: HeaderList): Record<string, string> {
  const record: Record<string, string> = {};
  const names = new Map<string, string>();
  for (const [name, value] of headers) {
    const first = names.get(name.toLowerCase());
    if (first === undefined) {
      names.set(name.toLowerCase(), name);
      record[name] = value;
    } else record[first] = `${record[first]}, ${value}`;
  }
  return record;
}

function checkedUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw new DialError('E_USAGE', `invalid URL '${text}'`, {
      hint: 'write a full URL such as ws://localhost:4010/ws',
      cause: error,
    });
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') url.protocol = url.protocol === 'http:' ? 'ws:' : 'wss:';
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    throw new DialError('E_USAGE', `a WebSocket URL starts with ws:// or wss:// (got '${text}')`, {
      hint: 'write WEBSOCKET ws://host/path (or wss:// for TLS)',
    });
  }
  if (!url.hostname) throw new DialError('E_USAGE', `the URL '${text}' has no host`);
  return url;
}

/** The request's headers for the upgrade; Sec-WebSocket-Protocol is offered through ws (it checks the answer). */
function upgradeHeaders(
  request: HttpRequest,
  url: URL,
  options: ConversationOptions,
): { headers: HeaderList; protocols: string[] } {
  const protocols = [...(options.protocols ?? [])];
  const headers: HeaderList = [];
  for (const [name, value] of request.headers) {
    if (/[\r\n\0]/.test(value)) {
      throw new DialError(
        'E_HEADER_INJECTION',
        `the value of header '${name}' contains a line break or NUL character`,
        {
          hint: 'a variable used in this header probably holds a newline; check its value',
        },
      );
    }
    if (name.toLowerCase() === 'sec-websocket-protocol') {
      for (const protocol of value.split(',')) if (protocol.trim()) protocols.push(protocol.trim());
    } else headers.push([name, value]);
  }
  const cookie = options.cookieJar?.cookieHeaderFor(url.href.replace(/^ws/, 'http'));
  if (cookie && !headers.some(([name]) => name.toLowerCase() === 'cookie')) headers.push(['Cookie', cookie]);
  return { headers, protocols: [...new Set(protocols)] };
}

async function tlsOptions(options: SendOptions): Promise<ClientOptions> {
  const tls = options.tls;
  if (!tls) return {};
  const read = async (path: string | undefined, flag: string): Promise<Buffer | undefined> => {
    if (!path) return undefined;
    const { readFile } = await import('node:fs/promises');
    try {
      return await readFile(path);
    } catch (error) {
      throw new DialError('E_INPUT', `cannot read ${flag} file '${path}': ${(error as Error).message}`, {
        hint: `check the path given to ${flag}`,
        cause: error,
      });
    }
  };
  const [ca, cert, key] = await Promise.all([
    read(tls.caFile, '--cacert'),
    read(tls.certFile, '--cert'),
    read(tls.keyFile, '--key'),
  ]);
  return { rejectUnauthorized: tls.verify !== false, ca, cert, key };
}

function storeCookies(options: SendOptions, url: URL, headers: HeaderList): void {
  const values = headers.filter(([name]) => name.toLowerCase() === 'set-cookie').map(([, value]) => value);
  if (values.length > 0) options.cookieJar?.store(url.href.replace(/^ws/, 'http'), values);
}

/** The upgrade answer: 101, or the status of a refusal with its body. */
interface UpgradeHead {
  status: number;
  statusText: string;
  httpVersion: string;
  headers: HeaderList;
  firstByteMs: number;
  refusal?: IncomingMessage;
}

function headListOf(response: IncomingMessage): HeaderList {
  const list: HeaderList = [];
  for (let k = 0; k + 1 < response.rawHeaders.length; k += 2)
    list.push([response.rawHeaders[k], response.rawHeaders[k + 1]]);
  return list;
}

/** The running conversation: socket events become the transcript and wake whoever waits. */
class Session {
  private readonly transcript: Transcript = { messages: [], received: 0 };
  private waitsSatisfied = 0;
  private lastActivity: number;
  private closed = false;
  private stopped = false;
  /** Why the conversation must end early: a timeout, a cancel, a socket error. */
  private failureReason: 'timeout' | 'cancel' | undefined;
  private socketError: unknown;
  private wake: (() => void) | undefined;
  private readonly timer: ReturnType<typeof setTimeout> | undefined;
  private readonly timeoutMs: number;

  constructor(
    private readonly socket: WebSocket,
    private readonly started: number,
    private readonly options: ConversationOptions,
    private readonly url: string,
  ) {
    this.lastActivity = nowMs();
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.timer = this.timeoutMs > 0 ? setTimeout(() => this.expire('timeout'), this.timeoutMs) : undefined;
    options.signal?.addEventListener('abort', this.onCancel);
    options.stop?.addEventListener('abort', this.onStop);
    socket.on('message', (data: RawData, isBinary: boolean) => this.onSocketMessage(data, isBinary));
    socket.on('close', (code: number, reason: Buffer) => {
      this.closed = true;
      this.transcript.closeCode = code;
      this.transcript.closeReason = reason.toString('utf8');
      this.notify();
    });
    socket.on('error', (error: Error) => {
      this.socketError ??= error;
      this.notify();
    });
  }

  private readonly onCancel = (): void => this.expire('cancel');
  private readonly onStop = (): void => {
    this.stopped = true;
    this.notify();
  };

  private expire(reason: 'timeout' | 'cancel'): void {
    this.failureReason ??= reason;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** Resolves at the next event (message, close, error, stop, timeout) or after `ms`. */
  private nextEvent(ms?: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = ms === undefined ? undefined : setTimeout(resolve, Math.max(0, ms));
      this.wake = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
  }

  private onSocketMessage(data: RawData, isBinary: boolean): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
    this.record('received', isBinary ? bytes.toString('base64') : bytes.toString('utf8'), isBinary);
    this.transcript.received++;
    this.notify();
  }

  private record(direction: StreamMessage['direction'], data: string, binary: boolean): void {
    this.lastActivity = nowMs();
    const message: StreamMessage = { direction, data, atMs: Math.round(this.lastActivity - this.started) };
    if (binary) message.event = 'binary';
    this.transcript.messages.push(message);
    this.options.onMessage?.(message);
    const reply = this.options.onProtocolMessage?.(message);
    if (reply !== undefined && this.socket.readyState === this.socket.OPEN) this.socket.send(reply);
  }

  /** The upgrade answer, once the server gave it; a socket error before it is the failure. */
  opened(): Promise<UpgradeHead> {
    return new Promise<UpgradeHead>((resolve, reject) => {
      let head: UpgradeHead | undefined;
      this.socket.once('upgrade', (response: IncomingMessage) => {
        head = this.headOf(response);
      });
      this.socket.once('open', () => {
        this.socket.off('error', reject);
        resolve(
          head ?? { status: 101, statusText: 'Switching Protocols', httpVersion: '1.1', headers: [], firstByteMs: 0 },
        );
      });
      this.socket.once('unexpected-response', (_request: unknown, response: IncomingMessage) => {
        resolve({ ...this.headOf(response), refusal: response });
      });
      this.socket.once('error', reject);
      // A timeout or cancel before the upgrade answered; other events re-arm the watch.
      const watch = (): void => {
        if (this.failureReason) reject(new Error(this.failureReason));
        else this.wake = watch;
      };
      this.wake = watch;
    }).finally(() => {
      this.wake = undefined;
    });
  }

  private headOf(response: IncomingMessage): UpgradeHead {
    return {
      status: response.statusCode ?? 0,
      statusText: response.statusMessage ?? '',
      httpVersion: response.httpVersion,
      headers: headListOf(response),
      firstByteMs: nowMs() - this.started,
    };
  }

  /** Sends and waits as the steps say; a step list that is still open (stdin, a composer) is read as it comes. */
  async play(steps: Iterable<WebSocketStep> | AsyncIterable<WebSocketStep>): Promise<void> {
    let unsent = 0;
    let lastWasWait = false;
    const iterator = Symbol.asyncIterator in steps ? steps[Symbol.asyncIterator]() : toAsync(steps);
    for (;;) {
      const next = await this.race(iterator.next());
      if (next === 'interrupted') {
        // Ended by the server or by stop; a timeout ends a kept stream normally, anything else fails.
        if (!(this.failureReason === 'timeout' && this.options.keepStreaming)) this.throwIfFailed();
        break;
      }
      if (next.done) break;
      const step = next.value;
      if (this.closed) {
        if (step.kind === 'send') unsent++;
        continue;
      }
      this.throwIfFailed();
      lastWasWait = step.kind === 'wait';
      if (step.kind === 'wait') await this.waitForServer();
      else await this.send(step.data);
    }
    if (unsent > 0)
      this.options.onWarning?.(
        `the server closed the WebSocket (${this.closeText()}) before ${unsent} message${unsent === 1 ? ' was' : 's were'} sent`,
      );
    this.scriptEndedWithWait = lastWasWait;
  }

  private scriptEndedWithWait = false;

  /** Waits for `promise`, or gives up when the conversation must end (stop, timeout, cancel, close). */
  private async race<T>(promise: Promise<T>): Promise<T | 'interrupted'> {
    let settled: { value: T } | undefined;
    let failure: unknown;
    let done = false;
    promise.then(
      (value) => {
        settled = { value };
        done = true;
        this.notify();
      },
      (error: unknown) => {
        failure = error;
        done = true;
        this.notify();
      },
    );
    while (!done) {
      if (this.stopped || this.closed || this.failureReason || this.socketError) return 'interrupted';
      await this.nextEvent();
    }
    if (failure !== undefined) throw failure;
    return (settled as { value: T }).value;
  }

  private async send(data: string | Uint8Array): Promise<void> {
    const binary = typeof data !== 'string';
    await new Promise<void>((resolve, reject) =>
      this.socket.send(data, { binary }, (error) => (error ? reject(error) : resolve())),
    );
    this.record('sent', binary ? Buffer.from(data).toString('base64') : data, binary);
  }

  private async waitForServer(): Promise<void> {
    const wanted = ++this.waitsSatisfied;
    while (this.transcript.received < wanted) {
      this.throwIfFailed();
      if (this.closed) {
        throw new DialError(
          'E_CONNRESET',
          `the server closed the WebSocket (${this.closeText()}) while dial waited for message ${wanted} (=== wait-for-server) (${this.url})`,
          { hint: 'the server sent fewer messages than the script waits for' },
        );
      }
      if (this.stopped) return;
      await this.nextEvent();
    }
  }

  private throwIfFailed(): void {
    if (this.failureReason === 'timeout') throw new Error('timeout');
    if (this.failureReason === 'cancel') throw new Error('cancel');
    if (this.socketError) throw this.socketError;
  }

  private closeText(): string {
    const { closeCode, closeReason } = this.transcript;
    return `code ${closeCode ?? 1006}${closeReason ? ` ${closeReason}` : ''}`;
  }

  /** After the steps: listen as the close rule says, then close the connection cleanly. */
  async finish(): Promise<void> {
    const quietMs = this.options.quietMs ?? DEFAULT_QUIET_MS;
    while (!this.closed && !this.stopped) {
      if (this.failureReason === 'cancel') throw new Error('cancel');
      // Listening is what is left: the timeout ends it normally, the messages are kept.
      if (this.failureReason === 'timeout' || this.socketError) break;
      if (this.options.closeAfterSteps) break;
      if (this.scriptEndedWithWait && !this.options.keepStreaming) break;
      if (this.options.keepStreaming) await this.nextEvent();
      else {
        const silentFor = nowMs() - this.lastActivity;
        if (silentFor >= quietMs) break;
        await this.nextEvent(quietMs - silentFor);
      }
    }
    if (this.socketError && !this.closed) throw this.socketError;
    // The server ended it with an error code (1011 internal error, 1008 policy…): say so, the messages stay.
    const code = this.transcript.closeCode;
    if (this.closed && code !== undefined && code !== 1000 && code !== 1005)
      this.options.onWarning?.(`the server closed the WebSocket with ${this.closeText()} (${this.url})`);
    await this.close();
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.socket.close(1000);
    const deadline = nowMs() + CLOSE_GRACE_MS;
    while (!this.closed && nowMs() < deadline) await this.nextEvent(deadline - nowMs());
    if (!this.closed) this.socket.terminate();
  }

  /** The error to report for a failed conversation. */
  failure(error: unknown): DialError {
    if (this.failureReason === 'timeout') {
      return timeoutError(this.url, this.timeoutMs);
    }
    if (this.failureReason === 'cancel') return cancelledError(this.url);
    if (error instanceof DialError) return error;
    const message = error instanceof Error ? error.message : String(error);
    if (/Server sent (?:no|an invalid) subprotocol|subprotocol/i.test(message)) {
      return new DialError('E_NETWORK', `WebSocket handshake with ${this.url} failed: ${message}`, {
        hint: 'check the Sec-WebSocket-Protocol header the request offers',
        cause: error,
      });
    }
    if (/Opening handshake has timed out/i.test(message)) {
      return new DialError('E_TIMEOUT', `the WebSocket handshake with ${this.url} did not finish in time`, {
        hint: 'raise the limit with # @connection-timeout or --timeout',
        cause: error,
      });
    }
    const mapped = toTransportError(error, { url: this.url });
    if (mapped.code === 'E_NETWORK' && !/WebSocket/.test(mapped.message))
      mapped.message = `WebSocket ${mapped.message}`;
    return mapped;
  }

  release(): void {
    if (this.timer) clearTimeout(this.timer);
    this.options.signal?.removeEventListener('abort', this.onCancel);
    this.options.stop?.removeEventListener('abort', this.onStop);
  }

  /** The exchange of an open conversation: 101, the upgrade headers, and the received messages as a JSON array. */
  exchange(request: HttpRequest, headers: HeaderList, head: UpgradeHead): Exchange {
    const received = this.transcript.messages.filter((message) => message.direction === 'received');
    const bytes = Buffer.from(JSON.stringify(received.map(bodyValue), null, 2));
    const sent = this.transcript.messages.filter((message) => message.direction === 'sent');
    return this.exchangeOf(request, headers, head, bytes, sent.map((message) => message.data).join('\n'));
  }

  /** A refused upgrade (401, 404…) is an ordinary HTTP answer: its status, headers and body. */
  async refusedExchange(request: HttpRequest, headers: HeaderList, head: UpgradeHead): Promise<Exchange> {
    const chunks: Buffer[] = [];
    if (head.refusal) for await (const chunk of head.refusal) chunks.push(chunk as Buffer);
    this.socket.terminate();
    return this.exchangeOf(request, headers, head, Buffer.concat(chunks), undefined);
  }

  private exchangeOf(
    request: HttpRequest,
    headers: HeaderList,
    head: UpgradeHead,
    bytes: Buffer,
    sentText: string | undefined,
  ): Exchange {
    const total = nowMs() - this.started;
    return {
      request: {
        method: request.method,
        url: this.url,
        headers,
        bodyPreview: sentText || undefined,
        bodySize: sentText ? Buffer.byteLength(sentText) : undefined,
      },
      response: {
        status: head.status,
        statusText: head.statusText,
        httpVersion: head.httpVersion,
        headers: head.headers,
        url: this.url,
        body: { kind: 'memory', bytes },
        size: bytes.length,
      },
      timings: { dns: 0, connect: 0, tls: 0, firstByte: head.firstByteMs, total },
      redirects: [],
    };
  }
}

/** A received message as the body's array holds it: JSON when its text is JSON, else the text (binary: base64). */
export function bodyValue(message: StreamMessage): unknown {
  if (message.event === 'binary') return message.data;
  const text = message.data.trim();
  if (/^[[{"]|^-?\d|^(?:true|false|null)$/.test(text)) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return message.data;
    }
  }
  return message.data;
}

async function* toAsync<T>(items: Iterable<T>): AsyncGenerator<T> {
  for (const item of items) yield item;
}
