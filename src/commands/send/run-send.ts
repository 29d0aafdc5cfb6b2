/**
 * `dial send`: build one request (HTTPie items or a `.http` target), send it through the
 * engine, print it the way the output calls for (pretty on a terminal, exact bytes in a
 * pipe, streamed when large), record it in history and map the outcome to an exit code.
 * The engine and the curl printer are imported only when used (`--curl` loads no engine;
 * `--offline` loads it to print the head the engine would send, but opens no connection).
 */
import { existsSync } from 'node:fs';
import { openOutputFile, type OutputFile } from '../../core/atomic-write.js';
import { relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { DialError, isDialError } from '../../core/errors.js';
import { createStyle, type Style } from '../../core/style.js';
import type {
  Exchange,
  HeaderList,
  HttpRequest,
  RequestBody,
  ResponseHead,
  SendOptions,
} from '../../core/http/types.js';
import type { CookieStore } from '../../core/http/cookies.js';
import { loadSettings, settingsTimeoutMs, type Settings } from '../../core/settings/index.js';
import {
  PRETTY_LIMIT,
  formatBytes,
  formatMeta,
  formatResponseHead,
  headerValue,
  parsePrintSpec,
  type PrintSpec,
} from '../../core/format/exchange.js';
import { parseSendTarget, type SendTarget } from '../../core/workspace/target-name.js';
import type { ScriptOutcome } from '../../core/script/sandbox.js';
import { SENSITIVE_HEADERS } from '../../core/secrets.js';
import { basicAuthorization } from '../../core/http/basic-auth.js';
import { graphqlErrorsInText } from '../../core/http/graphql-errors.js';
import { isWebSocketRequest } from '../../core/http/protocols.js';
import { parseItem, type RequestItem } from '../../core/send/items.js';
import { expandUrl, normaliseProxy, splitPositionals } from '../../core/send/url.js';
import { buildRequest } from '../../core/send/build.js';
import { eventSourceHttpRequest, eventTypes } from '../../core/session/event-source.js';
import { collectStream, peekStdinBody } from '../../core/send/stdin.js';
import { downloadFileName, uniquePath } from '../../core/send/download.js';
import { Redactor } from '../../core/send/redact.js';
import type { SendCommandOptions } from './options.js';
import { Printer, Progress, readHead, streamedBody } from './printer.js';
import { TeeWriter } from './tee-writer.js';
import { maskJarCookies, saveState, useSession, withJarCookies } from './saved-state.js';
import { appendToHistory, type PreparedSend, type SendIo, type Transport } from './prepared.js';

export type { SendIo } from './prepared.js';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What printing and sending share once the request is built. */
interface SendContext {
  options: SendCommandOptions;
  io: SendIo;
  settings: Settings;
  prepared: PreparedSend;
  sendOptions: SendOptions;
  spec: PrintSpec;
  printer: Printer;
  redactor: Redactor;
  errStyle: Style;
  style: Style;
  warn: (message: string) => void;
  /** The request as the engine puts it on the wire, for the H and B parts. */
  asSent: (shown: HttpRequest) => Promise<{
    head: Pick<HttpRequest, 'method' | 'url' | 'headers' | 'httpVersion'>;
    body: string | Uint8Array | undefined;
  }>;
}

function looksLikeUrl(argument: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(argument) || argument.startsWith(':');
}

function setHeader(headers: HeaderList, name: string, value: string): HeaderList {
  const lower = name.toLowerCase();
  return [...headers.filter(([key]) => key.toLowerCase() !== lower), [name, value]];
}

/** Runs `dial send`; output goes to io.stdout/io.stderr, failures are DialErrors. */
export async function runSend(args: string[], options: SendCommandOptions, io: SendIo): Promise<void> {
  const settings = await loadSettings(io.env);
  const errStyle = createStyle(io.colorErr);
  const warn = (message: string): void => {
    io.stderr.write(`${errStyle.warn('warning:')} ${message}\n`);
  };
  const transport = transportOf(options, settings, io.cwd);
  // ./websocket.js loads only for a WebSocket: plain sends do not pay for it.
  const webSocketUrl = /^(?:wss?:\/\/|(?:ws|wss|websocket)$)/i.test(args[0] ?? '')
    ? (await import('./websocket.js')).webSocketUrlArgs(args)
    : undefined;
  if (webSocketUrl) {
    const webSocket = await import('./websocket.js');
    refuseWebSocketPrinting(options);
    refuseInteractiveWebSocketCredentials(options);
    const { tls, proxy, timeoutMs } = transport;
    return webSocket.sendWebSocketInteractive(
      { options, io, settings, warn, secretValues: [], sendOptions: { tls, proxy, timeoutMs, onWarning: warn } },
      webSocketUrl,
    );
  }
  const target = sendTarget(args, io.cwd);
  if (target && options.session)
    throw new DialError('E_USAGE', '--session is for URL sends; a .http request keeps cookies in the workspace jar', {
      hint: 'drop --session (see docs/cookies.md), or send the URL: dial send --session NAME URL',
    });
  // Loaded only for a .http target: dist/send-url.cjs hands those over to dist/send.cjs here,
  // before anything is read or written (scripts/build.mjs).
  const prepared = target
    ? await (await import('./file-target.js')).prepareFileTarget(target, args, options, settings, transport, io, warn)
    : await prepareItemsRequest(args, options, settings, io, warn);
  if (options.http2) prepared.request.httpVersion = '2';
  applyAuth(prepared, options);

  const sendOptions: SendOptions = {
    signal: io.signal,
    timeoutMs: transport.timeoutMs,
    followRedirects: prepared.follow,
    maxRedirects: transport.maxRedirects,
    tls: transport.tls,
    proxy: transport.proxy,
    // An https -> http redirect is followed (credentials dropped) but never silently.
    onWarning: warn,
    cookieJar: prepared.cookieJar,
    ...prepared.overrides,
  };
  // Explicit flags beat a request's own metadata (@timeout, @no-redirect).
  if (options.timeoutMs !== undefined) sendOptions.timeoutMs = options.timeoutMs;
  if (options.follow !== undefined) sendOptions.followRedirects = options.follow;
  if (options.maxRedirects !== undefined) sendOptions.maxRedirects = options.maxRedirects;
  if (!transport.verify) warn(`TLS certificate verification is off (${transport.verifySource})`);
  maskJarCookies(prepared, sendOptions);

  const { request } = prepared;
  // A WebSocket conversation (or a GraphQL subscription over one) prints messages, not a response.
  if (isWebSocketRequest(request)) {
    const webSocket = await import('./websocket.js');
    refuseWebSocketPrinting(options);
    const { secretValues, workspace, requestId } = prepared;
    const context = { options, io, settings, warn, sendOptions, secretValues, workspace, requestId };
    return webSocket.sendWebSocketFromFile(context, request);
  }
  if ((options.offline || options.curl || prepared.digest) && request.body.kind === 'stream') {
    // These need the body bytes more than once (printing, or answering a digest challenge).
    request.body = { kind: 'bytes', bytes: await collectStream(request.body.stream) };
  }
  if (request.method === 'GRPC') {
    // A flag that does not apply to the request is a usage error (exit 2), as for a WebSocket.
    if (options.curl)
      throw new DialError('E_USAGE', '--curl cannot print a gRPC call (it has no curl form)', {
        hint: 'send it without the flag, or print what dial would send with --offline',
      });
    refuseMessageDownload(options, 'a gRPC call');
  }
  // The curl command sends the cookies dial would: the saved jar's (or the session's) go in its Cookie header.
  if (options.curl)
    return printCurl(
      withJarCookies(request, sendOptions.cookieJar),
      prepared,
      options,
      settings,
      transport,
      sendOptions,
      io,
    );

  if (prepared.scripts) printScriptOutcomes(prepared.scripts.outcomes, io, errStyle);
  const context = await printingContext({ options, io, settings, prepared, sendOptions, errStyle, warn });
  if (options.offline) {
    // gRPC: the target, metadata and message as written; the HTTP/2 framing is grpc-js's.
    const shown =
      request.method === 'GRPC' ? { head: request, body: streamedBody(request.body) } : await context.asSent(request);
    context.printer.request(shown.head, context.spec, shown.body);
    return;
  }
  try {
    await sendAndPrint(context);
  } catch (error) {
    throw atRequestLine(error, prepared);
  } finally {
    saveState(prepared, warn);
  }
}

/** A problem with the request itself found while sending (a gRPC body or method the schema refuses) points at its line. */
function atRequestLine(error: unknown, prepared: PreparedSend): unknown {
  const where = prepared.requestLine;
  if (!isDialError(error) || error.code !== 'E_INPUT' || error.location || !where?.file) return error;
  return new DialError(error.code, error.message, {
    hint: error.hint,
    cause: error.cause,
    exitCode: error.exitCode,
    location: where,
  });
}

/** --curl and --offline print an HTTP request; a WebSocket conversation is not one. */
function refuseWebSocketPrinting(options: SendCommandOptions): void {
  if (options.curl || options.offline) {
    throw new DialError('E_USAGE', `${options.curl ? '--curl' : '--offline'} cannot print a WebSocket request`, {
      hint: 'send it without the flag; -v shows the messages as they go',
    });
  }
  refuseMessageDownload(options, 'a WebSocket request');
}

/** -o / --download save a response body; a WebSocket's or gRPC call's messages are printed instead, so refuse rather than ignore. */
function refuseMessageDownload(options: SendCommandOptions, what: string): void {
  if (!options.download) return;
  const flag = options.download.to === 'file' ? '-o/--output' : '--download';
  throw new DialError('E_USAGE', `${flag} does not apply to ${what}: its messages are printed as they arrive`, {
    hint: 'redirect stdout instead (dial send … > messages.jsonl)',
  });
}

/** An interactive `dial send ws://…` does not apply -a or a --session: refused rather than silently dropped. */
function refuseInteractiveWebSocketCredentials(options: SendCommandOptions): void {
  const flag = options.session
    ? options.session.readOnly
      ? '--session-read-only'
      : '--session'
    : options.auth
      ? '--auth'
      : undefined;
  if (flag)
    throw new DialError('E_USAGE', `${flag} does not apply to an interactive WebSocket (dial send ws://…)`, {
      hint: 'give the upgrade request its headers as items (Authorization:"Bearer …", Cookie:name=value), or write a WEBSOCKET request in a .http file',
    });
}

/** TLS, timeout, redirects and proxy: the settings, overridden by flags. */
function transportOf(options: SendCommandOptions, settings: Settings, cwd: string): Transport {
  const verify = options.verify?.verify ?? settings.verifyTls;
  const verifySource = options.verify?.source ?? 'the verifyTls setting';
  const abs = (path: string | undefined) => (path === undefined ? undefined : resolve(cwd, path));
  const tls = { verify, caFile: abs(options.caFile), certFile: abs(options.certFile), keyFile: abs(options.keyFile) };
  const proxy = options.proxy ?? (settings.proxy === undefined ? undefined : normaliseProxy(settings.proxy));
  return {
    verify,
    verifySource,
    tls,
    timeoutMs: options.timeoutMs ?? settingsTimeoutMs(settings),
    maxRedirects: options.maxRedirects ?? settings.maxRedirects,
    proxy,
  };
}

/** `FILE.http[#name]` as a target, or null when the first argument is a URL. */
function sendTarget(args: string[], cwd: string): SendTarget | null {
  const target = args.length > 0 && !looksLikeUrl(args[0]) ? parseSendTarget(args[0]) : null;
  // `example.com/docs.http` with no such local file is a URL without its scheme.
  if (target && !existsSync(resolve(cwd, target.path)) && /^[^/]+\.[a-z]{2,}(?::\d+)?\//i.test(args[0])) return null;
  return target;
}

/** A request from HTTPie-style items (`[METHOD] URL name=value Header:value…`), with piped stdin as its body. */
async function prepareItemsRequest(
  args: string[],
  options: SendCommandOptions,
  settings: Settings,
  io: SendIo,
  warn: (message: string) => void,
): Promise<PreparedSend> {
  if (options.variablesGiven) warn('--env and --var apply to .http targets; ignored for a URL');
  if (options.cookieJarPath !== undefined || !options.cookieJar)
    warn('--cookie-jar and --no-cookie-jar apply to .http targets; a URL send keeps cookies only with --session');
  const { method, url, items } = splitPositionals(args);
  const parsed: RequestItem[] = items.map(parseItem);
  const hasBodyItem = parsed.some(
    (item) => item.kind === 'data' || item.kind === 'json' || item.kind === 'file' || item.kind === 'body-file',
  );
  let stdinBody: RequestBody | undefined;
  // Items win over stdin: a pipe that never closes must not hang a request with fields.
  if (io.stdin && !options.ignoreStdin && !hasBodyItem) {
    // As HTTPie does: a pipe that stays open without data is usually a mistake; say so.
    const slow = setTimeout(
      () => warn('no data on stdin after 10s; pass --ignore-stdin to send without a body'),
      10_000,
    );
    slow.unref();
    try {
      stdinBody = await stdinWithin(io.stdin, io.stdinSize, options.timeoutMs ?? settingsTimeoutMs(settings));
    } finally {
      clearTimeout(slow);
    }
  }
  const built = buildRequest({
    // `dial send GRAPHQL url query='{ a }'`: the fields are the GraphQL payload, POSTed as JSON.
    method: method === 'GRAPHQL' ? 'POST' : method,
    url: expandUrl(url),
    items: parsed,
    mode: options.bodyMode,
    forceJson: options.forceJson || undefined,
    stdinBody,
    cwd: io.cwd,
    userAgent: io.userAgent,
    httpVersion: options.http2 ? '2' : undefined,
  });
  // `dial send SSE url`: a GET that asks for server-sent events, as in a .http file.
  const request = method === 'SSE' ? eventSourceHttpRequest(built) : built;
  const events = method === 'SSE' ? eventTypes(built) : undefined;
  const prepared: PreparedSend = {
    request,
    graphql: method === 'GRAPHQL' || undefined,
    overrides: events ? { sse: { events } } : {},
    secretValues: [],
    printSecrets: [],
    keptTexts: [],
    follow: options.follow ?? settings.followRedirects ?? false,
  };
  if (options.session) await useSession(prepared, parsed, options, io);
  return prepared;
}

/**
 * Piped stdin as the body, waited on for the timeout at most: a pipe that stays open without
 * data (CI runners, ssh, spawn) must not hang the command. 0 or undefined waits as long as it takes.
 */
async function stdinWithin(
  stdin: Readable,
  size: number | undefined,
  timeoutMs: number | undefined,
): Promise<RequestBody | undefined> {
  if (!timeoutMs) return peekStdinBody(stdin, size);
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      stdin.destroy();
      reject(
        new DialError('E_TIMEOUT', `no data on stdin within ${timeoutMs / 1000}s`, {
          hint: 'pass --ignore-stdin (-I) to send without a body, close stdin (< /dev/null), or raise --timeout',
        }),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([peekStdinBody(stdin, size), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** `-a/--auth`: a Bearer or Basic header, or digest credentials; credentials become history secrets. */
function applyAuth(prepared: PreparedSend, options: SendCommandOptions): void {
  const auth = options.auth ?? prepared.sessionAuth;
  const { request } = prepared;
  if (auth?.type === 'bearer') {
    request.headers = setHeader(request.headers, 'Authorization', `Bearer ${auth.token}`);
    prepared.secretValues = [...prepared.secretValues, ...auth.token.split(':').filter((part) => part.length >= 3)];
  } else if (auth) {
    if (auth.type === 'basic')
      request.headers = setHeader(request.headers, 'Authorization', basicAuthorization(auth.username, auth.password));
    else prepared.digest = { username: auth.username, password: auth.password };
    // The password must not show up in history.
    prepared.secretValues = [...prepared.secretValues, ...auth.secretParts];
  }
  // Credentials also come back in echoed bodies: redact them there, not just in the headers.
  for (const [name, value] of request.headers) {
    if (!SENSITIVE_HEADERS.has(name.toLowerCase())) continue;
    const credential = value.replace(/^(Basic|Bearer|Digest)\s+/i, '');
    prepared.secretValues.push(
      credential,
      ...credential.split(/;\s*/).map((pair) => pair.slice(pair.indexOf('=') + 1)),
    );
  }
}

/** `--curl`: the same command as `dial export curl` (and the TUI's copy as curl), with the real values: it is meant to run. */
async function printCurl(
  request: HttpRequest,
  prepared: PreparedSend,
  options: SendCommandOptions,
  settings: Settings,
  transport: Transport,
  sendOptions: SendOptions,
  io: SendIo,
): Promise<void> {
  // Settings and the request's metadata first (as export curl), then this command's flags.
  const { curlCommand, curlOptions } = await import('../../core/export/from-http.js');
  const curl = curlOptions(settings, prepared.overrides);
  curl.insecure = !transport.verify;
  if (options.proxy !== undefined) curl.proxy = transport.proxy;
  if (options.timeoutMs !== undefined) curl.timeoutMs = transport.timeoutMs;
  if (options.maxRedirects !== undefined) curl.maxRedirects = transport.maxRedirects;
  const { caFile, certFile, keyFile } = transport.tls;
  const text = curlCommand(request, {
    ...curl,
    caFile,
    certFile,
    keyFile,
    source: prepared.source,
    cwd: io.cwd,
    digest: prepared.digest,
    ntlm: prepared.ntlm,
    followRedirects: sendOptions.followRedirects,
  });
  io.stdout.write(`${text}\n`);
}

/** The printer, the parts to print and the as-sent view of the request. */
async function printingContext(
  base: Pick<SendContext, 'options' | 'io' | 'settings' | 'prepared' | 'sendOptions' | 'errStyle' | 'warn'>,
): Promise<SendContext> {
  const { options, io, prepared, sendOptions } = base;
  // The request head alone (no engine, no node:http) is all `--offline` needs.
  const [head, { multipartBoundary }] = await Promise.all([
    import('../../core/http/request-head.js'),
    import('../../core/http/body.js'),
  ]);
  const { request } = prepared;
  // One boundary for the multipart body printed and the one sent.
  if (request.body.kind === 'multipart' && request.body.boundary === undefined)
    request.body = { ...request.body, boundary: multipartBoundary() };
  const spec =
    options.print ?? parsePrintSpec(io.verbose ? 'HBhbm' : options.offline ? 'HB' : io.stdoutIsTTY ? 'hb' : 'b');
  const style = createStyle(io.color);
  const redactor = options.mask ? new Redactor(prepared.printSecrets) : new Redactor([], false);
  const printer = new Printer(io.stdout, style, io.stdoutIsTTY, redactor, prepared.keptTexts);
  // The request as the engine puts it on the wire: its default headers (Host, Accept-Encoding,
  // Connection, Content-Length…), the boundary, the body bytes. As HTTPie prints it.
  const asSent: SendContext['asSent'] = async (shown) => {
    if (!spec.requestHeaders && !spec.requestBody) return { head: shown, body: undefined };
    try {
      const preview = await head.previewRequest(shown, sendOptions, PRETTY_LIMIT);
      return {
        head: { ...preview, httpVersion: shown.httpVersion },
        body: shown.body.kind === 'stream' ? '(piped stdin)' : preview.body,
      };
    } catch (error) {
      // A reference kept as written (--offline of a .http request) may not make a URL yet: shown as built.
      if (prepared.keptTexts.length === 0) throw error;
      return { head: shown, body: streamedBody(shown.body) };
    }
  };
  return { ...base, spec, style, redactor, printer, asSent };
}

/** Where a streamed response body goes while the exchange runs: a download file, stdout, or memory. */
interface BodyRouting {
  /** The response's messages were printed as they came (gRPC): the body is not printed again. */
  messagesPrinted?: boolean;
  tee?: TeeWriter;
  savedTo?: string;
  /** The download file being written (in place only once complete: see openOutputFile). */
  output?: OutputFile;
  responsePrinted: boolean;
  /** A text/event-stream answer printed event by event. */
  printEvents?: boolean;
}

/** Sends the request (answering a digest challenge once), prints the exchange, records history, checks the status. */
async function sendAndPrint(context: SendContext): Promise<void> {
  const { options, io, prepared, sendOptions, redactor } = context;
  const http = await import('../../core/http/index.js');
  const downloadTo = options.download?.to === 'file' ? resolve(io.cwd, options.download.path) : options.download?.to;
  // node:crypto costs ~5 ms to load: only digest auth needs it.
  const digestAuth = prepared.digest ? await import('../../core/send/digest.js') : undefined;
  let digestPending = digestAuth !== undefined;
  const ntlmAuth = prepared.ntlm ? await import('../../core/send/ntlm.js') : undefined;
  let ntlmPending = ntlmAuth !== undefined;
  let current = prepared.request;
  const routing: BodyRouting = { responsePrinted: false };
  if (current.method === 'GRPC') printMessagesLive(context, routing);
  else {
    sendOptions.onMessage = (message) => {
      if (routing.printEvents) context.printer.event(message, options.forceJson);
    };
  }
  const progress = downloadTo && io.stderrIsTTY && !io.quiet ? new Progress(io.stderr) : undefined;
  sendOptions.bodyTarget = {
    kind: 'stream',
    open: async (head: ResponseHead) => {
      // The 401 a digest retry answers is not shown.
      if (digestPending && head.status === 401 && digestAuth?.parseDigestChallenge(head.headers)) return null;
      // So is the 401 that carries the NTLM challenge.
      if (ntlmPending && head.status === 401 && ntlmAuth?.challengeOf(head.headers)) {
        ntlmPending = false;
        return null;
      }
      return openBodyTarget(context, head, current, downloadTo, routing, progress);
    },
  };

  let exchange: Exchange;
  try {
    const send = (outgoing: HttpRequest) => {
      current = outgoing;
      return http.sendRequest(outgoing, sendOptions);
    };
    if (ntlmAuth && prepared.ntlm) {
      const credentials = ntlmAuth.ntlmCredentials(prepared.ntlm.username, prepared.ntlm.password);
      exchange = (await ntlmAuth.sendWithNtlm(send, prepared.request, credentials, { release: http.releaseBody }))
        .exchange;
    } else if (digestAuth && prepared.digest) {
      exchange = (
        await digestAuth.sendWithDigest(send, prepared.request, prepared.digest, {
          release: http.releaseBody,
          beforeRetry: () => (digestPending = false),
        })
      ).exchange;
    } else {
      exchange = await send(prepared.request);
    }
  } catch (error) {
    http.closeConnections();
    progress?.clear();
    // A failed download leaves no half file, and `-o FILE` keeps what FILE held.
    routing.output?.abort();
    if (routing.tee?.outputClosed) return; // the reader of our pipe went away (e.g. `| head`): not an error
    // Transport errors name the URL (and proxies, hosts): no secret value in them either.
    if (redactor.active && error instanceof DialError) error.message = redactor.text(error.message);
    throw error;
  }
  // The exchange is complete: its socket is back in the pool, idle (see closeConnections).
  http.closeConnections({ keepIdle: true });
  await routing.output?.finish();
  const historyBody = await printResponse(context, exchange, current, routing, http.releaseBody);
  if (routing.savedTo) {
    progress?.clear();
    const shown = relative(io.cwd, routing.savedTo);
    if (!io.quiet)
      io.stderr.write(
        `Saved ${formatBytes(exchange.response.size)} to ${shown && !shown.startsWith('..') ? shown : routing.savedTo}\n`,
      );
  }
  recordHistory(context, exchange, historyBody);
  if (prepared.graphql && historyBody) {
    // A GraphQL server answers 200 with `errors` when a query fails: never let that pass unseen.
    for (const error of graphqlErrorsInText(Buffer.from(historyBody).toString('utf8')))
      context.warn(`GraphQL error: ${redactor.text(error)}`);
  }
  const failedTests = await runHandlers(context, exchange, historyBody);
  checkStatus(context, exchange, downloadTo !== undefined);
  if (failedTests > 0) {
    throw new DialError('E_TEST_FAILED', `${failedTests} script test${failedTests === 1 ? '' : 's'} failed`, {
      hint: 'the tests are listed above',
    });
  }
}

/**
 * The request's response handlers, as `dial run` runs them, over the response (its first 64 KiB
 * when the body streamed past dial); their logs and tests go to stderr. Answers the failed tests.
 */
async function runHandlers(context: SendContext, exchange: Exchange, body: Uint8Array | undefined): Promise<number> {
  const { scripts, file, node } = context.prepared;
  if (!scripts || !file || !node || node.handlers.length === 0) return 0;
  const { createResponseView } = await import('../../core/assert/response-view.js');
  const { response } = exchange;
  const view = createResponseView({
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    durationMs: exchange.timings.total,
    bytes: body === undefined ? undefined : Buffer.from(body),
  });
  const outcomes = [];
  for (const handler of node.handlers) {
    outcomes.push(
      await scripts.runner.run(handler, file, {
        globals: scripts.globals,
        requestVariables: scripts.requestVariables,
        environment: scripts.environment,
        request: { method: node.method, url: node.url },
        response: view,
      }),
    );
  }
  return printScriptOutcomes(outcomes, context.io, context.errStyle);
}

/** A script's `client.log` lines and `client.test` results, on stderr; answers how many tests failed. */
function printScriptOutcomes(outcomes: ScriptOutcome[], io: SendIo, style: Style): number {
  let failed = 0;
  for (const outcome of outcomes) {
    for (const line of outcome.logs) io.stderr.write(`${line}\n`);
    for (const test of outcome.tests) {
      if (!test.passed) failed++;
      io.stderr.write(
        test.passed
          ? `${style.ok('✓')} ${test.name}\n`
          : `${style.error('✗')} ${test.name}${test.message && test.message !== test.name ? `: ${test.message}` : ''}\n`,
      );
    }
  }
  return failed;
}

/**
 * gRPC: the request first (as -v asks), then each received message as it arrives; the status
 * and trailers follow once the call ends (printResponse).
 */
function printMessagesLive(context: SendContext, routing: BodyRouting): void {
  const { spec, printer, prepared } = context;
  const { request } = prepared;
  context.sendOptions.onMessage = (message) => {
    if (message.direction !== 'received') return;
    printer.request(request, spec, request.body.kind === 'text' ? request.body.text : undefined);
    if (!spec.responseBody) return;
    printer.message(message.data, 'application/json');
    routing.messagesPrinted = true;
  };
}

/** Opens where a response body streams to, once its head is in; null keeps it in memory (printed when done). */
async function openBodyTarget(
  context: SendContext,
  head: ResponseHead,
  current: HttpRequest,
  downloadTo: string | undefined,
  routing: BodyRouting,
  progress: Progress | undefined,
): Promise<TeeWriter | null> {
  const { io, spec, printer, redactor, errStyle } = context;
  if (downloadTo) {
    if (head.status < 200 || head.status >= 300) return null;
    const path =
      downloadTo === 'auto'
        ? uniquePath(
            io.cwd,
            downloadFileName(
              head.url,
              headerValue(head.headers, 'content-disposition'),
              headerValue(head.headers, 'content-type'),
            ),
          )
        : downloadTo;
    // Headers go to stderr so stdout stays clean; the body goes to the file.
    if (spec.responseHeaders && io.stderrIsTTY)
      io.stderr.write(`${formatResponseHead({ ...head, headers: redactor.headers(head.headers) }, errStyle)}\n\n`);
    // A regular file is replaced atomically when complete; a FIFO or device is written in place.
    routing.output = openOutputFile(path, { exclusive: downloadTo === 'auto' });
    const file = routing.output.stream;
    routing.savedTo = path;
    const total = Number(headerValue(head.headers, 'content-length')) || undefined;
    routing.tee = new TeeWriter(file, {
      endTarget: true,
      onProgress: progress ? (bytes) => progress.update(bytes, total) : undefined,
    });
    routing.responsePrinted = true;
    return routing.tee;
  }
  const eventStream = /^\s*text\/event-stream/i.test(headerValue(head.headers, 'content-type') ?? '');
  if (spec.responseBody && io.stdoutIsTTY && !eventStream) return null;
  // Streamed: the request part is computed as the engine sent it (the exchange is not done yet).
  const shown = await context.asSent(current);
  printer.request(shown.head, spec, shown.body);
  if (spec.responseHeaders) printer.responseHead(head);
  // Server-sent events are printed one a line as they arrive (sendAndPrint's onMessage), not as raw bytes.
  routing.printEvents = eventStream && spec.responseBody;
  if (spec.responseBody && !eventStream) printer.startRaw();
  routing.tee = new TeeWriter(spec.responseBody && !eventStream ? io.stdout : null, {
    endTarget: false,
    redact: redactor.active ? redactor.stream() : undefined,
  });
  routing.responsePrinted = true;
  return routing.tee;
}

/** Prints what was not streamed (a buffered exchange) and the metadata; answers the body bytes kept for history. */
async function printResponse(
  context: SendContext,
  exchange: Exchange,
  current: HttpRequest,
  routing: BodyRouting,
  releaseBody: (body: Exchange['response']['body']) => void,
): Promise<Uint8Array | undefined> {
  const { spec, printer, style } = context;
  const { response } = exchange;
  let historyBody: Uint8Array | undefined = routing.tee?.head();
  if (!routing.responsePrinted) {
    // Buffered: show the request as it went on the wire (engine defaults, last redirect hop).
    printer.request({ ...exchange.request, httpVersion: current.httpVersion }, spec, exchange.request.bodyPreview);
    if (spec.responseHeaders) printer.responseHead(response);
    if (response.body.kind === 'memory') {
      historyBody = response.body.bytes;
      if (spec.responseBody && response.body.bytes.length > 0 && !routing.messagesPrinted)
        printer.body(response.body.bytes, headerValue(response.headers, 'content-type'));
    } else if (response.body.kind === 'file') {
      historyBody = readHead(response.body.path, 64 * 1024);
      if (spec.responseBody)
        await printer.fileBody(response.body.path, response.body.size, headerValue(response.headers, 'content-type'));
      releaseBody(response.body);
    }
  }
  if (spec.meta)
    printer.block(
      `${formatMeta({ ...response, timings: exchange.timings, redirects: exchange.redirects.length }, style)}\n`,
    );
  return historyBody;
}

/** Appends the exchange to history (secrets masked); a failure to write is a warning, not an error. */
function recordHistory(context: SendContext, exchange: Exchange, responseBody: Uint8Array | undefined): void {
  const { settings, prepared, io } = context;
  // Cookies the server set in this exchange (a login answering with a redirect shows them in the
  // next hop's URL or echo) stay out of history too: the jar file alone keeps them.
  const jar = context.sendOptions.cookieJar as Partial<CookieStore> | undefined;
  const setValues = jar?.changes ? [...jar.changes().values()].flatMap((cookie) => (cookie ? [cookie.value] : [])) : [];
  appendToHistory(settings, io, context.warn, exchange, {
    responseBody,
    secretValues: setValues.length ? [...prepared.secretValues, ...setValues] : prepared.secretValues,
    workspace: prepared.workspace,
    requestId: prepared.requestId,
  });
}

/** `--check-status` (and downloads): a 4xx/5xx fails the command; an unfollowed redirect is a warning. */
function checkStatus(context: SendContext, exchange: Exchange, download: boolean): void {
  const { options, redactor } = context;
  const { response } = exchange;
  if (exchange.request.method === 'GRPC') return checkGrpcStatus(exchange, redactor.text(exchange.request.url));
  const statusLine = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  // In a pipe only the body is written: an error status must still be seen (and --check-status fails on it).
  if (response.status >= 400 && !context.io.stdoutIsTTY && !context.io.quiet && !options.checkStatus && !download) {
    context.io.stderr.write(`${statusLine}\n`);
  }
  if ((options.checkStatus || download) && response.status >= 400) {
    throw new DialError('E_HTTP_STATUS', `${statusLine} (${redactor.text(response.url)})`, {
      hint: download ? 'nothing was saved; the response body is shown above' : undefined,
    });
  }
  if (options.checkStatus && REDIRECTS.has(response.status)) {
    const location = headerValue(response.headers, 'location');
    context.warn(
      `${statusLine}: redirect${location ? ` to ${redactor.text(location)}` : ''} not followed (add --follow)`,
    );
  }
}

/** A gRPC call whose status is not OK fails `dial send` (exit 1), --check-status or not: the call failed. */
function checkGrpcStatus(exchange: Exchange, url: string): void {
  const { response } = exchange;
  const code = headerValue(response.headers, 'grpc-status');
  if (code === undefined || code === '0') return;
  const message = headerValue(response.headers, 'grpc-message');
  throw new DialError(
    'E_HTTP_STATUS',
    `gRPC status ${response.statusText} (${code})${message ? `: ${message}` : ''} from ${url}`,
    { hint: 'assert on it in a .http file (`?? header grpc-status == ' + code + '`) to make it expected in dial run' },
  );
}
