/**
 * `dial send` for WebSocket (docs/websocket.md):
 *
 * - `dial send FILE.http#name` whose request is `WEBSOCKET`/`WS`/`WSS` (or `GRAPHQL ws://…`):
 *   plays the messages written in the file and prints each received message as it arrives;
 * - `dial send ws://host/path [Header:value…]`: interactive; each stdin line is a message, and
 *   received messages are printed, until stdin ends (then the server's replies are awaited as a
 *   script's are) or Ctrl+C.
 *
 * stdout holds the received messages, one per line (`--json`: one JSON object per message,
 * with its direction and time); stderr the connection's story (with -v, or on a terminal).
 */
import type { Readable } from 'node:stream';
import { DialError } from '../../core/errors.js';
import { createStyle } from '../../core/style.js';
import type { Exchange, HeaderList, HttpRequest, SendOptions, StreamMessage } from '../../core/http/types.js';
import type { WebSocketStep } from '../../core/http/websocket/index.js';
import { historyPath, type Settings } from '../../core/settings/index.js';
import { appendHistory, toHistoryEntry } from '../../core/history/index.js';
import { parseItem } from '../../core/send/items.js';
import { Redactor } from '../../core/send/redact.js';
import type { SendCommandOptions } from './options.js';

/** The part of the send command's outside world a WebSocket uses (run-send's SendIo has it all). */
export interface WebSocketIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Piped stdin. */
  stdin?: Readable;
  /** stdin even when it is a terminal (interactive mode reads what a person types). */
  openStdin?: () => Readable;
  /** Whether stdin is a terminal: asked only when it matters (it may load node:tty). */
  stdinIsTTY?: () => Promise<boolean>;
  colorErr: boolean;
  verbose: boolean;
  quiet: boolean;
  env: Record<string, string | undefined>;
  /** Ctrl+C. */
  signal?: AbortSignal;
}

const WEBSOCKET_WORDS = new Set(['WS', 'WSS', 'WEBSOCKET']);

/** `ws://…` / `wss://…` first (or after WS/WSS/WEBSOCKET): the interactive mode. */
export function webSocketUrlArgs(args: string[]): { url: string; items: string[] } | undefined {
  const skip = args.length > 1 && WEBSOCKET_WORDS.has(args[0].toUpperCase()) ? 1 : 0;
  const url = args[skip];
  if (url === undefined || !/^wss?:\/\//i.test(url)) return undefined;
  return { url, items: args.slice(skip + 1) };
}

/** What the WebSocket printer needs from the send command. */
export interface WebSocketSendContext {
  options: SendCommandOptions;
  io: WebSocketIo;
  settings: Settings;
  sendOptions: SendOptions;
  /** Secret values to mask in what is printed (and in history). */
  secretValues: string[];
  workspace?: string;
  requestId?: string;
  warn: (message: string) => void;
}

/** Prints messages as they come: stdout received, stderr sent (with -v). */
function messagePrinter(context: WebSocketSendContext): (message: StreamMessage) => void {
  const { io, options } = context;
  const redactor = options.mask ? new Redactor(context.secretValues) : new Redactor([], false);
  const style = createStyle(io.colorErr);
  return (message) => {
    const data = redactor.text(message.data);
    if (options.forceJson) {
      const line: Record<string, unknown> = { direction: message.direction, data, atMs: message.atMs };
      if (message.event) line.event = message.event;
      if (message.direction === 'received' || io.verbose) io.stdout.write(`${JSON.stringify(line)}\n`);
      return;
    }
    if (message.direction === 'received') io.stdout.write(`${data}\n`);
    else if (io.verbose) io.stderr.write(`${style.dim('>')} ${data}\n`);
  };
}

/** Sends a WebSocket request of a .http file: its scripted messages; prints what arrives. */
export async function sendWebSocketFromFile(context: WebSocketSendContext, request: HttpRequest): Promise<void> {
  const { sendWebSocket, sendGraphqlOverWebSocket } = await import('../../core/http/websocket/index.js');
  const sendOptions: SendOptions & { stop?: AbortSignal } = {
    ...context.sendOptions,
    onMessage: messagePrinter(context),
  };
  // A kept stream (# @keepStreaming) is meant to be ended by Ctrl+C: that closes it cleanly, keeping what arrived.
  if (sendOptions.keepStreaming) {
    sendOptions.stop = sendOptions.signal;
    sendOptions.signal = undefined;
  }
  const send = request.method === 'GRAPHQL' ? sendGraphqlOverWebSocket : sendWebSocket;
  announce(context, request.url);
  const exchange = await send(request, sendOptions);
  finishExchange(context, exchange);
}

/** `dial send ws://host/path [Header:value…]`: stdin lines out, received messages to stdout. */
export async function sendWebSocketInteractive(
  context: WebSocketSendContext,
  target: { url: string; items: string[] },
): Promise<void> {
  const { converse } = await import('../../core/http/websocket/index.js');
  const request: HttpRequest = {
    method: 'WEBSOCKET',
    url: target.url,
    headers: upgradeHeaders(target.items),
    body: { kind: 'none' },
  };
  const { io } = context;
  const stdin = io.stdin ?? io.openStdin?.();
  const lines = stdin ? await stdinLines(stdin) : undefined;
  // Ctrl+C ends the conversation as stdin's end does (close 1000), not as a failure.
  const stop = new AbortController();
  const onInterrupt = (): void => stop.abort();
  io.signal?.addEventListener('abort', onInterrupt);
  announce(context, request.url, Boolean(stdin && (await io.stdinIsTTY?.())));
  try {
    const exchange = await converse(request, lines ? linesAsSteps(lines.lines) : [], {
      ...context.sendOptions,
      // A person types at their pace: no overall time limit unless --timeout says so.
      timeoutMs: context.options.timeoutMs ?? 0,
      signal: undefined,
      stop: stop.signal,
      onMessage: messagePrinter(context),
    });
    finishExchange(context, exchange);
  } finally {
    io.signal?.removeEventListener('abort', onInterrupt);
    lines?.close();
  }
}

/** The connection's first line on stderr (with -v, or when a person types). */
function announce(context: WebSocketSendContext, url: string, typing = false): void {
  const { io } = context;
  if (io.quiet || (!io.verbose && !typing)) return;
  const style = createStyle(io.colorErr);
  io.stderr.write(
    style.dim(`WebSocket ${url}${typing ? ': type a message and press Enter; Ctrl+D or Ctrl+C closes' : ''}\n`),
  );
}

/** Only headers go on the upgrade request; anything else is refused before connecting. */
function upgradeHeaders(items: string[]): HeaderList {
  const headers: HeaderList = [];
  for (const text of items) {
    const item = parseItem(text);
    if (item.kind !== 'header') {
      throw new DialError('E_USAGE', `a WebSocket URL takes only Header:value items (got '${text}')`, {
        hint: 'type the messages on stdin, one per line, or write them in a .http file (WEBSOCKET ws://…)',
      });
    }
    headers.push([item.name, item.value]);
  }
  return headers;
}

async function stdinLines(stdin: Readable): Promise<{ lines: AsyncIterable<string>; close: () => void }> {
  const { createInterface } = await import('node:readline');
  const reader = createInterface({ input: stdin, crlfDelay: Infinity, terminal: false });
  // Taken now: readline buffers lines for an iterator only once it exists, and lines typed
  // (or piped) while the connection opens must not be lost.
  const iterator = reader[Symbol.asyncIterator]();
  return {
    lines: { [Symbol.asyncIterator]: () => iterator },
    close: () => {
      reader.close();
      // A terminal's stdin would keep the process alive.
      stdin.pause();
      if ('unref' in stdin && typeof stdin.unref === 'function') (stdin as unknown as { unref(): void }).unref();
    },
  };
}

async function* linesAsSteps(lines: AsyncIterable<string>): AsyncGenerator<WebSocketStep> {
  for await (const line of lines) if (line.length > 0) yield { kind: 'send', data: line };
}

/** A refused upgrade fails the command (its answer printed); a conversation is recorded in history. */
function finishExchange(context: WebSocketSendContext, exchange: Exchange): void {
  const { io } = context;
  const { response } = exchange;
  const body = response.body.kind === 'memory' ? response.body.bytes : undefined;
  recordHistory(context, exchange, body);
  if (response.status !== 101) {
    if (body && body.length > 0) io.stdout.write(`${body.toString()}${body.toString().endsWith('\n') ? '' : '\n'}`);
    throw new DialError(
      'E_HTTP_STATUS',
      `the server refused the WebSocket upgrade: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''} (${response.url})`,
      { hint: 'check the URL path and the headers the endpoint needs (e.g. Authorization)' },
    );
  }
  if (io.verbose && !io.quiet) io.stderr.write(`closed after ${Math.round(exchange.timings.total)} ms\n`);
}

function recordHistory(context: WebSocketSendContext, exchange: Exchange, body: Uint8Array | undefined): void {
  const { settings, io } = context;
  if (settings.historyLimit <= 0) return;
  try {
    appendHistory(
      toHistoryEntry(exchange, {
        responseBody: body,
        secretValues: context.secretValues,
        workspace: context.workspace,
        requestId: context.requestId,
      }),
      { path: historyPath(io.env), limit: settings.historyLimit },
    );
  } catch (error) {
    context.warn(`could not record history: ${(error as Error).message}`);
  }
}
