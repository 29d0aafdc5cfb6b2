/**
 * `dial send`: build one request (HTTPie items or a `.http` target), send it through the
 * engine, print it the way the output calls for (pretty on a terminal, exact bytes in a
 * pipe, streamed when large), record it in history and map the outcome to an exit code.
 * The engine and the curl printer are imported only when used (`--curl` loads no engine;
 * `--offline` loads it to print the head the engine would send, but opens no connection).
 */
import { createReadStream, createWriteStream, existsSync, openSync, readSync, closeSync, readFileSync, rmSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { DialError } from '../errors.js';
import { SENSITIVE_HEADERS } from '../secrets.js';
import { parseDuration } from '../duration.js';
import { createStyle, type Style } from '../style.js';
import type { Exchange, HeaderList, HttpRequest, RequestBody, ResponseHead, SendOptions } from '../http/types.js';
import type { RequestNode } from '../httpfile/types.js';
import type { CurlCommandOptions } from '../export/from-http.js';
import { loadSettings, settingsTimeoutMs, historyPath } from '../settings/index.js';
import { appendHistory, toHistoryEntry } from '../history/index.js';
import {
  BINARY_NOTE, PRETTY_LIMIT, formatBodyForTerminal, formatBytes, formatMeta, formatRequestHead, formatResponseHead, headerValue, isBinary, parsePrintSpec, type PrintSpec,
} from '../format/exchange.js';
import { parseSendTarget, prepareFileRequest, type PreparedFileRequest } from '../workspace/send-target.js';
import { parseItem, type RequestItem } from './items.js';
import { expandUrl, normaliseProxy, splitPositionals } from './url.js';
import { buildRequest, type BodyMode } from './build.js';
import { collectStream, peekStdinBody } from './stdin.js';
import { TeeWriter } from './sinks.js';
import { downloadFileName, uniquePath } from './download.js';
import { Redactor } from './redact.js';

export { parseItem, parseKeyPath } from './items.js';
export type { RequestItem, KeySegment } from './items.js';
export { expandUrl, splitPositionals, isMethodToken } from './url.js';
export { buildRequest, buildJson } from './build.js';

/** Flags of `dial send` as Commander hands them over. */
export interface SendFlags {
  json?: boolean;
  form?: boolean;
  multipart?: boolean;
  offline?: boolean;
  curl?: boolean;
  print?: string;
  checkStatus?: boolean;
  download?: boolean;
  output?: string;
  follow?: boolean;
  maxRedirects?: string;
  timeout?: string;
  verify?: string;
  insecure?: boolean;
  cacert?: string;
  cert?: string;
  key?: string;
  proxy?: string;
  http2?: boolean;
  auth?: string;
  authType?: string;
  ignoreStdin?: boolean;
  env?: string;
  var?: string[];
}

type Out = Writable & { isTTY?: boolean };

/** The outside world `runSend` talks to (the command passes process streams). */
export interface SendIo {
  stdout: Out;
  stderr: Out;
  /** Piped stdin, or undefined when stdin is a terminal / not data. */
  stdin?: Readable;
  /** Byte size when stdin is a regular file. */
  stdinSize?: number;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout / stderr (NO_COLOR, --no-color decided by the command). */
  color: boolean;
  colorErr: boolean;
  verbose: boolean;
  quiet: boolean;
  cwd: string;
  env: Record<string, string | undefined>;
  userAgent: string;
  /** Aborted on Ctrl+C: the exchange stops with E_CANCELLED (exit 130). */
  signal?: AbortSignal;
  pick?: (requests: RequestNode[]) => Promise<RequestNode>;
  prompt?: (name: string, description?: string) => Promise<string>;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const SENSITIVE = SENSITIVE_HEADERS;

function parseVars(pairs: string[] | undefined): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const pair of pairs ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new DialError('E_USAGE', `--var '${pair}' is not NAME=VALUE`, { hint: 'e.g. --var host=localhost:3000' });
    vars[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return vars;
}

function looksLikeUrl(argument: string): boolean {
  return /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(argument) || argument.startsWith(':');
}

function setHeader(headers: HeaderList, name: string, value: string): HeaderList {
  const lower = name.toLowerCase();
  return [...headers.filter(([key]) => key.toLowerCase() !== lower), [name, value]];
}

/** Runs `dial send`; output goes to io.stdout/io.stderr, failures are DialErrors. */
export async function runSend(args: string[], flags: SendFlags, io: SendIo): Promise<void> {
  const settings = await loadSettings(io.env);
  const style = createStyle(io.color);
  const errStyle = createStyle(io.colorErr);
  const warn = (message: string): void => {
    io.stderr.write(`${errStyle.warn('warning:')} ${message}\n`);
  };

  // --- options from settings, overridden by flags -------------------------------------------
  const modes = [flags.json && 'json', flags.form && 'form', flags.multipart && 'multipart'].filter(Boolean);
  if (modes.length > 1) throw new DialError('E_USAGE', `--${modes[0]} and --${modes[1]} cannot be combined`);
  const mode: BodyMode = flags.multipart ? 'multipart' : flags.form ? 'form' : 'json';

  let verify = settings.verifyTls;
  let verifySource = 'the verifyTls setting';
  let caFromVerify: string | undefined;
  if (flags.verify !== undefined) {
    const lower = flags.verify.toLowerCase();
    if (['yes', 'true', '1', 'on'].includes(lower)) verify = true;
    else if (['no', 'false', '0', 'off'].includes(lower)) {
      verify = false;
      verifySource = '--verify no';
    } else caFromVerify = flags.verify; // HTTPie: --verify PATH is a CA bundle.
  }
  if (flags.insecure) {
    verify = false;
    verifySource = '--insecure';
  }
  if (flags.key && !flags.cert) throw new DialError('E_USAGE', '--key needs --cert', { hint: 'pass the client certificate with --cert FILE and its key with --key FILE' });
  const abs = (path: string | undefined) => (path === undefined ? undefined : resolve(io.cwd, path));
  const tls = { verify, caFile: abs(flags.cacert ?? caFromVerify), certFile: abs(flags.cert), keyFile: abs(flags.key) };
  const timeoutMs = flags.timeout !== undefined ? parseDuration(flags.timeout, '--timeout') : settingsTimeoutMs(settings);
  let maxRedirects = settings.maxRedirects;
  if (flags.maxRedirects !== undefined) {
    if (!/^\d+$/.test(flags.maxRedirects)) throw new DialError('E_USAGE', `--max-redirects takes a whole number, got '${flags.maxRedirects}'`);
    maxRedirects = Number(flags.maxRedirects);
  }
  const proxyFlag = flags.proxy ?? settings.proxy;
  const proxy = proxyFlag === undefined ? undefined : normaliseProxy(proxyFlag);
  const authType = (flags.authType ?? 'basic').toLowerCase();
  if (!['basic', 'digest', 'bearer'].includes(authType)) {
    throw new DialError('E_USAGE', `unknown --auth-type '${flags.authType}'`, { hint: 'use basic, digest or bearer' });
  }
  if (flags.authType && !flags.auth) throw new DialError('E_USAGE', '--auth-type needs --auth', { hint: 'e.g. -a user:password --auth-type digest' });

  // --- the request ------------------------------------------------------------------------
  let request: HttpRequest;
  let overrides: Partial<SendOptions> = {};
  let secretValues: string[] = [];
  let workspace: string | undefined;
  let requestId: string | undefined;
  let fileDigest: { username: string; password: string } | undefined;
  // The .http request the command is printed from (--curl).
  let source: CurlCommandOptions['source'];
  // Secret values the request used (# @secret, private env, .env): masked in everything printed.
  let printSecrets: string[] = [];
  // References left as written (--curl, --offline).
  let keptTexts: string[] = [];
  let follow: boolean;
  let target = args.length > 0 && !looksLikeUrl(args[0]) ? parseSendTarget(args[0]) : null;
  // `example.com/docs.http` with no such local file is a URL without its scheme.
  if (target && !existsSync(resolve(io.cwd, target.path)) && /^[^/]+\.[a-z]{2,}(?::\d+)?\//i.test(args[0])) target = null;
  if (target) {
    if (args.length > 1) {
      throw new DialError('E_USAGE', `request items cannot be added to a .http target (${args.slice(1).join(' ')})`, {
        hint: 'edit the request in the file, or pass values with --var NAME=VALUE',
      });
    }
    follow = flags.follow ?? settings.followRedirects ?? true;
    const common = { target, cwd: io.cwd, environment: flags.env, cliVariables: parseVars(flags.var), pick: io.pick, prompt: io.prompt };
    let prepared: Pick<PreparedFileRequest, 'request' | 'file' | 'node' | 'overrides' | 'secretValues' | 'digest'>;
    if (flags.curl || flags.offline) {
      // Printing sends nothing: requests this one references are not run (their {{…}} stays).
      const { prepareUnsent, keptReferenceWarning } = await import('../export/from-http.js');
      const unsent = await prepareUnsent(common);
      for (const kept of unsent.kept) warn(keptReferenceWarning(kept));
      source = unsent;
      keptTexts = unsent.kept.map((kept) => kept.text);
      prepared = unsent;
    } else {
      prepared = await prepareFileRequest({ ...common, sendOptions: { timeoutMs, followRedirects: follow, maxRedirects, tls, proxy } });
    }
    request = prepared.request;
    // A copy: credentials added below for history are not secrets to mask on screen.
    printSecrets = [...prepared.secretValues];
    overrides = prepared.overrides;
    secretValues = prepared.secretValues;
    // `Authorization: Digest user password` in the file: answered on the 401 challenge below.
    fileDigest = prepared.digest;
    workspace = io.cwd;
    requestId = `${relative(io.cwd, prepared.file.path) || prepared.file.path}#${prepared.node.name ?? prepared.node.index}`;
  } else {
    if (flags.env !== undefined || (flags.var?.length ?? 0) > 0) warn('--env and --var apply to .http targets; ignored for a URL');
    follow = flags.follow ?? settings.followRedirects ?? false;
    const { method, url, items } = splitPositionals(args);
    const parsed: RequestItem[] = items.map(parseItem);
    const hasBodyItem = parsed.some((item) => item.kind === 'data' || item.kind === 'json' || item.kind === 'file' || item.kind === 'body-file');
    let stdinBody: RequestBody | undefined;
    // Items win over stdin: a pipe that never closes must not hang a request with fields.
    if (io.stdin && !flags.ignoreStdin && !hasBodyItem) {
      // As HTTPie does: a pipe that stays open without data is usually a mistake; say so.
      const slow = setTimeout(() => warn('no data on stdin after 10s; pass --ignore-stdin to send without a body'), 10_000);
      slow.unref();
      try {
        stdinBody = await peekStdinBody(io.stdin, io.stdinSize);
      } finally {
        clearTimeout(slow);
      }
    }
    request = buildRequest({
      method,
      url: expandUrl(url),
      items: parsed,
      mode,
      forceJson: flags.json,
      stdinBody,
      cwd: io.cwd,
      userAgent: io.userAgent,
      httpVersion: flags.http2 ? '2' : undefined,
    });
  }
  if (flags.http2) request.httpVersion = '2';

  let digest: { username: string; password: string } | undefined = fileDigest;
  if (flags.auth !== undefined) {
    if (authType === 'bearer') request.headers = setHeader(request.headers, 'Authorization', `Bearer ${flags.auth}`);
    else {
      const colon = flags.auth.indexOf(':');
      if (colon < 0) throw new DialError('E_USAGE', `--auth '${flags.auth}' is not USER:PASSWORD`, { hint: 'write -a user:password (an empty password is -a user:)' });
      const credentials = { username: flags.auth.slice(0, colon), password: flags.auth.slice(colon + 1) };
      if (authType === 'basic') {
        request.headers = setHeader(request.headers, 'Authorization', `Basic ${Buffer.from(`${credentials.username}:${credentials.password}`, 'utf8').toString('base64')}`);
      } else digest = credentials;
    }
    // The password must not show up in history.
    secretValues = [...secretValues, ...flags.auth.split(':').filter((part) => part.length >= 3)];
  }
  // Credentials also come back in echoed bodies: redact them there, not just in the headers.
  for (const [name, value] of request.headers) {
    if (!SENSITIVE.has(name.toLowerCase())) continue;
    const credential = value.replace(/^(Basic|Bearer|Digest)\s+/i, '');
    secretValues.push(credential, ...credential.split(/;\s*/).map((pair) => pair.slice(pair.indexOf('=') + 1)));
  }

  const sendOptions: SendOptions = {
    signal: io.signal,
    timeoutMs,
    followRedirects: follow,
    maxRedirects,
    tls,
    proxy,
    ...overrides,
  };
  // Explicit flags beat a request's own metadata (@timeout, @no-redirect).
  if (flags.timeout !== undefined) sendOptions.timeoutMs = timeoutMs;
  if (flags.follow !== undefined) sendOptions.followRedirects = flags.follow;
  if (flags.maxRedirects !== undefined) sendOptions.maxRedirects = maxRedirects;
  if (!verify) warn(`TLS certificate verification is off (${verifySource})`);

  // --- print-only modes ----------------------------------------------------------------------
  if ((flags.offline || flags.curl || digest) && request.body.kind === 'stream') {
    // These need the body bytes more than once (printing, or answering a digest challenge).
    request.body = { kind: 'bytes', bytes: await collectStream(request.body.stream) };
  }
  if (flags.curl) {
    // The same command as `dial export curl` (and the TUI's copy as curl), with the real values: it is meant to run.
    // Settings and the request's metadata first (as export curl), then this command's flags.
    const { curlCommand, curlOptions } = await import('../export/from-http.js');
    const transport = curlOptions(settings, overrides);
    transport.insecure = !verify;
    if (flags.proxy !== undefined) transport.proxy = proxy;
    if (flags.timeout !== undefined) transport.timeoutMs = timeoutMs;
    if (flags.maxRedirects !== undefined) transport.maxRedirects = maxRedirects;
    io.stdout.write(`${curlCommand(request, {
      ...transport,
      caFile: tls.caFile,
      certFile: tls.certFile,
      keyFile: tls.keyFile,
      source,
      cwd: io.cwd,
      digest,
      followRedirects: sendOptions.followRedirects,
    })}\n`);
    return;
  }

  // The request head alone (no engine, no node:http) is all `--offline` needs.
  const [head, { multipartBoundary }] = await Promise.all([import('../http/request-head.js'), import('../http/body.js')]);
  // One boundary for the multipart body printed and the one sent.
  if (request.body.kind === 'multipart' && request.body.boundary === undefined) request.body = { ...request.body, boundary: multipartBoundary() };
  const spec = parsePrintSpec(flags.print ?? (io.verbose ? 'HBhbm' : flags.offline ? 'HB' : io.stdoutIsTTY ? 'hb' : 'b'));
  const redactor = new Redactor(printSecrets);
  const printer = new Printer(io.stdout, style, io.stdoutIsTTY, redactor, keptTexts);
  // The request as the engine puts it on the wire: its default headers (Host, Accept-Encoding,
  // Connection, Content-Length…), the boundary, the body bytes. As HTTPie prints it.
  const asSent = async (shown: HttpRequest): Promise<{ head: Pick<HttpRequest, 'method' | 'url' | 'headers' | 'httpVersion'>; body: string | Uint8Array | undefined }> => {
    if (!spec.requestHeaders && !spec.requestBody) return { head: shown, body: undefined };
    try {
      const preview = await head.previewRequest(shown, sendOptions, PRETTY_LIMIT);
      return { head: { ...preview, httpVersion: shown.httpVersion }, body: shown.body.kind === 'stream' ? '(piped stdin)' : preview.body };
    } catch (error) {
      // A reference kept as written (--offline of a .http request) may not make a URL yet: shown as built.
      if (keptTexts.length === 0) throw error;
      return { head: shown, body: streamedBody(shown.body) };
    }
  };

  if (flags.offline) {
    const shown = await asSent(request);
    printer.request(shown.head, spec, shown.body);
    return;
  }

  // --- send ---------------------------------------------------------------------------------
  const http = await import('../http/index.js');
  const downloadTo = flags.output !== undefined ? resolve(io.cwd, flags.output) : flags.download ? 'auto' : undefined;
  let current = request;
  let digestPending = digest !== undefined;
  // node:crypto costs ~5 ms to load: only digest auth needs it.
  const digestAuth = digest ? await import('./digest.js') : undefined;
  let tee: TeeWriter | undefined;
  let savedTo: string | undefined;
  let createdFile: string | undefined;
  let responsePrinted = false;
  const progress = downloadTo && io.stderrIsTTY && !io.quiet ? new Progress(io.stderr) : undefined;

  sendOptions.bodyTarget = {
    kind: 'stream',
    open: async (head: ResponseHead) => {
      if (digestPending && head.status === 401 && digestAuth?.parseDigestChallenge(head.headers)) return null;
      if (downloadTo) {
        if (head.status < 200 || head.status >= 300) return null;
        const path = downloadTo === 'auto'
          ? uniquePath(io.cwd, downloadFileName(head.url, headerValue(head.headers, 'content-disposition'), headerValue(head.headers, 'content-type')))
          : downloadTo;
        // Headers go to stderr so stdout stays clean; the body goes to the file.
        if (spec.responseHeaders && io.stderrIsTTY) io.stderr.write(`${formatResponseHead({ ...head, headers: redactor.headers(head.headers) }, errStyle)}\n\n`);
        const file = createWriteStream(path, { flags: downloadTo === 'auto' ? 'wx' : 'w' });
        createdFile = path;
        savedTo = path;
        const total = Number(headerValue(head.headers, 'content-length')) || undefined;
        tee = new TeeWriter(file, { endTarget: true, onProgress: progress ? (bytes) => progress.update(bytes, total) : undefined });
        responsePrinted = true;
        return tee;
      }
      const eventStream = /^text\/event-stream/i.test(headerValue(head.headers, 'content-type') ?? '');
      if (!spec.responseBody || !io.stdoutIsTTY || eventStream) {
        // Streamed: the request part is computed as the engine sent it (the exchange is not done yet).
        const shown = await asSent(current);
        printer.request(shown.head, spec, shown.body);
        if (spec.responseHeaders) printer.responseHead(head);
        if (spec.responseBody) printer.startRaw();
        tee = new TeeWriter(spec.responseBody ? io.stdout : null, { endTarget: false, redact: redactor.active ? redactor.stream() : undefined });
        responsePrinted = true;
        return tee;
      }
      return null;
    },
  };

  let exchange: Exchange;
  try {
    exchange = await http.sendRequest(current, sendOptions);
    if (digest && digestAuth && digestPending && exchange.response.status === 401) {
      const challenge = digestAuth.parseDigestChallenge(exchange.response.headers);
      if (challenge) {
        http.releaseBody(exchange.response.body);
        digestPending = false;
        const redirected = exchange.redirects.length > 0;
        current = {
          ...request,
          method: redirected ? exchange.request.method : request.method,
          url: exchange.response.url,
          body: redirected && exchange.request.method !== request.method ? { kind: 'none' } : request.body,
        };
        current.headers = setHeader(current.headers, 'Authorization', digestAuth.digestAuthorization(challenge, digest, current.method, current.url));
        exchange = await http.sendRequest(current, sendOptions);
      }
    }
  } catch (error) {
    progress?.clear();
    if (createdFile && downloadTo === 'auto') rmSync(createdFile, { force: true });
    if (tee?.outputClosed) return; // the reader of our pipe went away (e.g. `| head`): not an error
    // Transport errors name the URL (and proxies, hosts): no secret value in them either.
    if (redactor.active && error instanceof DialError) error.message = redactor.text(error.message);
    throw error;
  } finally {
    await http.closeConnections();
  }

  // --- output -------------------------------------------------------------------------------
  const { response } = exchange;
  let historyBody: Uint8Array | undefined = tee?.head();
  if (!responsePrinted) {
    // Buffered: show the request as it went on the wire (engine defaults, last redirect hop).
    printer.request({ ...exchange.request, httpVersion: current.httpVersion }, spec, exchange.request.bodyPreview);
    if (spec.responseHeaders) printer.responseHead(response);
    if (response.body.kind === 'memory') {
      historyBody = response.body.bytes;
      if (spec.responseBody && response.body.bytes.length > 0) printer.body(response.body.bytes, headerValue(response.headers, 'content-type'));
    } else if (response.body.kind === 'file') {
      historyBody = readHead(response.body.path, 64 * 1024);
      if (spec.responseBody) await printer.fileBody(response.body.path, response.body.size, headerValue(response.headers, 'content-type'));
      http.releaseBody(response.body);
    }
  }
  if (spec.meta) printer.block(`${formatMeta({ ...response, timings: exchange.timings, redirects: exchange.redirects.length }, style)}\n`);
  if (savedTo) {
    progress?.clear();
    const shown = relative(io.cwd, savedTo);
    if (!io.quiet) io.stderr.write(`Saved ${formatBytes(response.size)} to ${shown && !shown.startsWith('..') ? shown : savedTo}\n`);
  }

  if (settings.historyLimit > 0) {
    try {
      appendHistory(toHistoryEntry(exchange, { responseBody: historyBody, secretValues, workspace, requestId }), {
        path: historyPath(io.env),
        limit: settings.historyLimit,
      });
    } catch (error) {
      warn(`could not record history: ${(error as Error).message}`);
    }
  }

  const statusLine = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if ((flags.checkStatus || downloadTo) && response.status >= 400) {
    throw new DialError('E_HTTP_STATUS', `${statusLine} (${redactor.text(response.url)})`, {
      hint: downloadTo ? 'nothing was saved; the response body is shown above' : undefined,
    });
  }
  if (flags.checkStatus && REDIRECTS.has(response.status)) {
    const location = headerValue(response.headers, 'location');
    warn(`${statusLine}: redirect${location ? ` to ${redactor.text(location)}` : ''} not followed (add --follow)`);
  }
}

/** A text as URL() writes it in a path (`{{` becomes `%7B%7B`). */
function inUrlPath(text: string): string {
  try {
    return new URL(`http://x/${text}`).pathname.slice(1);
  } catch {
    return text;
  }
}

/** The request body as shown when it cannot be computed as sent (a kept reference in the URL). */
function streamedBody(body: RequestBody): string | Uint8Array | undefined {
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'text':
      return body.text;
    case 'bytes':
      return body.bytes;
    case 'file':
      return readHead(body.path, PRETTY_LIMIT);
    case 'stream':
      return '(piped stdin)';
    case 'multipart':
      return '(multipart body)';
  }
}

function readHead(path: string, limit: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(limit);
    const read = readSync(fd, buffer, 0, limit, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes the parts of an exchange as blocks separated by a blank line. Terminal output is
 * formatted; pipe output keeps body bytes exactly as received.
 */
class Printer {
  private wrote = false;
  private endsWithNewline = true;
  private requestDone = false;

  constructor(
    private readonly out: Out,
    private readonly style: Style,
    private readonly terminal: boolean,
    /** Secret values are masked in everything printed. */
    private readonly redactor: Redactor,
    /** References left as written (--offline): shown so in the URL too, not percent-encoded. */
    private readonly kept: string[] = [],
  ) {}

  private write(chunk: string | Uint8Array): void {
    if (chunk.length === 0) return;
    this.out.write(chunk);
    const last = typeof chunk === 'string' ? chunk.charCodeAt(chunk.length - 1) : chunk[chunk.length - 1];
    this.endsWithNewline = last === 0x0a;
  }

  /** Starts a new block: a blank line after the previous one. */
  block(text: string | Uint8Array): void {
    if (this.wrote) this.write(this.endsWithNewline ? '\n' : '\n\n');
    this.write(text);
    this.wrote = true;
  }

  /** Before raw streamed bytes: separate them from what came before. */
  startRaw(): void {
    if (this.wrote) this.write(this.endsWithNewline ? '\n' : '\n\n');
    this.wrote = true;
  }

  /** H and B parts, once. */
  request(request: Pick<HttpRequest, 'method' | 'url' | 'headers' | 'httpVersion'>, spec: PrintSpec, body: string | Uint8Array | undefined): void {
    if (this.requestDone) return;
    this.requestDone = true;
    const redact = this.redactor;
    if (spec.requestHeaders) {
      let head = formatRequestHead({ ...request, url: redact.text(request.url), headers: redact.headers(request.headers) }, this.style);
      for (const text of this.kept) head = head.split(inUrlPath(text)).join(text);
      this.block(`${head}\n`);
    }
    if (spec.requestBody && body !== undefined && body.length > 0) {
      const contentType = headerValue(request.headers, 'content-type');
      this.body(typeof body === 'string' ? Buffer.from(body, 'utf8') : body, contentType);
    }
  }

  /** A response status line and headers. */
  responseHead(head: Pick<ResponseHead, 'status' | 'statusText' | 'httpVersion' | 'headers'>): void {
    this.block(`${formatResponseHead({ ...head, headers: this.redactor.headers(head.headers) }, this.style)}\n`);
  }

  /** A body: formatted on a terminal, exact bytes in a pipe (secret values masked in both). */
  body(bytes: Uint8Array, contentType: string | undefined): void {
    bytes = this.redactor.bytes(bytes);
    if (this.terminal) this.block(formatBodyForTerminal(bytes, contentType, this.style));
    else this.block(bytes);
  }

  /** A body spilled to a temp file (over 16 MiB): copied through without loading it. */
  async fileBody(path: string, size: number, contentType: string | undefined): Promise<void> {
    if (this.terminal) {
      const head = readHead(path, 8192);
      if (isBinary(head, contentType)) {
        this.block(`${BINARY_NOTE}\n`);
        return;
      }
      if (size <= PRETTY_LIMIT) {
        this.body(readFileSync(path), contentType);
        return;
      }
    }
    this.startRaw();
    const redact = this.redactor.active ? this.redactor.stream() : undefined;
    const write = async (buffer: Buffer): Promise<void> => {
      if (buffer.length === 0) return;
      if (!this.out.write(buffer)) await new Promise((resolveDrain) => this.out.once('drain', resolveDrain));
      this.endsWithNewline = buffer[buffer.length - 1] === 0x0a;
    };
    for await (const chunk of createReadStream(path)) await write(redact ? redact.push(chunk as Buffer) : (chunk as Buffer));
    if (redact) await write(redact.end());
    if (this.terminal && !this.endsWithNewline) this.write('\n');
  }
}

/** A one-line download progress meter on a terminal's stderr. */
class Progress {
  private last = 0;
  private readonly started = Date.now();
  private shown = false;

  constructor(private readonly err: Out) {}

  update(bytes: number, total: number | undefined): void {
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = `${formatBytes(Math.round(bytes / seconds))}/s`;
    const part = total ? `${formatBytes(bytes)} / ${formatBytes(total)} ${Math.floor((bytes / total) * 100)}%` : formatBytes(bytes);
    this.err.write(`\r${`Downloading ${part}  ${rate}`.padEnd(60)}`);
    this.shown = true;
  }

  clear(): void {
    if (this.shown) this.err.write(`\r${' '.repeat(60)}\r`);
    this.shown = false;
  }
}
