/**
 * The default executor: one attempt of one request, end to end —
 * pre-request scripts → session.prepare → send → record → handler scripts → assertions.
 * Per-request work is kept small (compiled scripts and paths are cached; the body is decoded
 * only when something reads it; nothing synchronous touches the disk).
 */
import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { dirname, extname, resolve } from 'node:path';
import type { Exchange, HttpRequest, SendOptions, CookieJar, ResponseBody } from '../http/types.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import {
  createSnapshotStores,
  evaluateAssertion,
  evaluateAssertionNow,
  type AssertionResult,
  type AssertContext,
} from '../assert/evaluate.js';
import { loadResponseView, responseViewOf, type ResponseView } from '../assert/response-view.js';
import { ScriptRunner } from '../script/sandbox.js';
import { COMMAND_KEYS, commandVariable, skipsCertificateCheck } from '../httpfile/metadata.js';
import { HttpyacCancel, thisReads } from '../vars/httpyac-js.js';
import { httpyacVariableName } from '../httpfile/httpyac.js';
import { scriptEnvironment } from '../vars/kulala-environment.js';
import { readsVscodeUserSettings } from '../env/env-store.js';
import { listPasses } from '../httpfile/list-iteration.js';
import { DEFAULT_MAX_BODY_SIZE } from '../http/body-sinks.js';
import {
  scriptRequest,
  trySubstitute,
  type RequestControl,
  type RequestOverrides,
  type ScriptEnvironment,
} from '../script/api.js';
import { DialError, errorCatalogue, isDialError, type ErrorCode } from '../errors.js';
import { credentialValues, maskHeaders, redactText } from '../secrets.js';
import { writeFileAtomic } from '../atomic-write.js';
import { graphqlErrorsInText } from '../http/graphql-errors.js';
import type { AttemptContext, AttemptOutcome, FileState, RequestExecutor } from './runner.js';
import type { FailedExchange, RequestError } from './types.js';
import { loadHttpFileFromDisk, resolveRunTargets } from '../workspace/run-lines.js';
import { unassertedGrpcFailure } from './grpc-status.js';

/** The part of the workspace session the runner uses (src/core/session). */
export interface RunSession {
  globals: Map<string, unknown>;
  /** `client.global.headers` of a file: headers its later requests get (the session's prepare adds them). */
  globalHeadersOf?(file: HttpFile): Map<string, [string, string]>;
  prepare(
    file: HttpFile,
    node: RequestNode,
    options: { requestVariables?: Map<string, string>; promptAgain?: boolean },
  ): Promise<PreparedSend>;
  /** prepare() at once for a request with nothing to resolve or wait for; undefined for any other. */
  preparePlain?(file: HttpFile, node: RequestNode, promptAgain?: boolean): PreparedSend | undefined;
  record(file: HttpFile, node: RequestNode, request: HttpRequest, exchange: Exchange): void;
  /** The last recorded exchange of a named request (kulala's Lua `client.responses["name"]`). */
  recordedNamed?(name: string): { exchange: Exchange } | undefined;
  resolveTemplate(
    text: string,
    file: HttpFile,
    node: RequestNode,
    requestVariables?: Map<string, string>,
  ): string | Promise<string>;
  secretValues(): Iterable<string>;
  /** Reads a .http file that `run`/`import` lines name (the session's cache); default: read and parse it. */
  loadFile?(path: string): Promise<HttpFile>;
  /** httpyac: keeps the file's last response (`{{response.parsedBody.x}}` in a later request). */
  noteHttpyacResponse?(file: HttpFile, response: ResponseView): void;
  settleHttpyacVariables?(file: HttpFile, node: RequestNode, requestVariables?: Map<string, string>): Promise<void>;
  /** httpyac `# @loop`: the request variables of each pass. */
  httpyacLoopPasses?(file: HttpFile, node: RequestNode): Promise<Array<Map<string, string>>>;
  /** httpyac `# @disabled condition`: whether the condition holds (the request is then not sent). */
  httpyacDisabledHolds?(file: HttpFile, node: RequestNode): Promise<boolean>;
  /** httpyac `# @loop while condition`: whether the condition holds before pass `index`. */
  httpyacLoopHolds?(file: HttpFile, node: RequestNode, index: number): Promise<boolean>;
  /** httpyac `{{ }}` blocks after the request: their client.test results and logs. */
  runHttpyacPostScripts?(
    file: HttpFile,
    node: RequestNode,
    response: ResponseView,
    /** The `# @loop` pass's variables (`$index`, the loop variable). */
    requestVariables?: Map<string, string>,
  ): Promise<Array<{ tests: Array<{ name: string; passed: boolean; message?: string }>; logs: string[] }>>;
}

/** What the session's prepare gives: the request to send, with the send options it sets. */
export interface PreparedSend {
  request: HttpRequest;
  overrides?: Partial<SendOptions>;
  secretValues?: Iterable<string>;
  /** `Authorization: Digest user password`: answered to the server's challenge (core/send/digest.ts). */
  digest?: { username: string; password: string };
  /** kulala's `Authorization: NTLM user:password`: the NTLM handshake (core/send/ntlm.ts). */
  ntlm?: { username: string; password: string };
}

/** The HTTP engine functions the executor needs (src/core/http). */
export interface RunEngine {
  sendRequest(request: HttpRequest, options: SendOptions): Promise<Exchange>;
  createCookieJar(): CookieJar;
  releaseBody?(body: ResponseBody): void;
}

export interface ExecutorOptions {
  session: RunSession;
  engine: RunEngine;
  /** Base engine options (TLS, proxy, redirects). */
  sendOptions: SendOptions;
  /** Default per-request timeout (`--timeout`), ms; `# @timeout` wins. */
  timeoutMs?: number;
  /** Follow redirects unless `# @no-redirect` (default true for run). */
  followRedirects?: boolean;
  scripts?: boolean;
  updateSnapshots?: boolean;
  /** Script time limit (ms). */
  scriptTimeoutMs?: number;
  /** Cap on a decoded response body (the maxBodySize setting; default 1 GiB). */
  maxBodyBytes?: number;
  /**
   * Names that some planned file references (`{{name.response…}}`); only those exchanges are
   * recorded in the session, so memory stays flat over thousands of requests. Undefined = record all.
   */
  referencedNames?: Set<string>;
  /**
   * The selected environment's values for a .http file's folder (`request.environment.get` in
   * scripts); `vscodeUser`: whether the file reads the user's VS Code settings (readsVscodeUserSettings).
   */
  environmentValues?: (dir: string, vscodeUser: boolean) => Promise<Map<string, string>>;
}

const BODY_LIMIT = 4096;

function truncate(text: string, limit = BODY_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length - limit} more chars)` : text;
}

function toRequestError(error: unknown): RequestError {
  if (isDialError(error)) {
    return {
      code: error.code,
      message: error.message,
      ...(error.location ? { file: error.location.file, line: error.location.line } : {}),
      ...(error.hint ? { hint: error.hint } : {}),
    };
  }
  const e = error as { code?: unknown; message?: unknown };
  return {
    code: typeof e?.code === 'string' && e.code.startsWith('E_') ? e.code : 'E_INTERNAL',
    message: typeof e?.message === 'string' ? e.message : String(error),
  };
}

function failedExchange(
  request: HttpRequest | undefined,
  exchange: Exchange | undefined,
  view: ResponseView | undefined,
  secrets: string[],
): FailedExchange | undefined {
  if (!request && !exchange) return undefined;
  const sent = exchange?.request;
  const requestBody = sent?.bodyPreview ?? (request?.body.kind === 'text' ? request.body.text : undefined);
  const result: FailedExchange = {
    request: {
      method: sent?.method ?? request!.method,
      url: redactText(sent?.url ?? request!.url, secrets),
      headers: maskHeaders(sent?.headers ?? request!.headers, secrets),
      ...(requestBody ? { body: redactText(truncate(requestBody), secrets) } : {}),
    },
  };
  if (exchange) {
    const body = view
      ? view.text()
      : exchange.response.body.kind === 'memory'
        ? exchange.response.body.bytes.toString('utf8')
        : undefined;
    result.response = {
      status: exchange.response.status,
      statusText: exchange.response.statusText,
      headers: maskHeaders(exchange.response.headers, secrets),
      ...(body ? { body: redactText(truncate(body), secrets) } : {}),
    };
  }
  return result;
}

function redactResult(result: AssertionResult, secrets: string[]): AssertionResult {
  if (secrets.length === 0 || result.passed) return result;
  const copy = { ...result };
  if (copy.expected) copy.expected = redactText(copy.expected, secrets);
  if (copy.actual) copy.actual = redactText(copy.actual, secrets);
  if (copy.message) copy.message = redactText(copy.message, secrets);
  if (copy.diff) copy.diff = copy.diff.map((line) => redactText(line, secrets));
  return copy;
}

async function saveBody(node: RequestNode, file: HttpFile, view: ResponseView): Promise<void> {
  if (!node.outputRedirect) return;
  let path = resolve(dirname(file.path), node.outputRedirect.path);
  if (!node.outputRedirect.overwrite && existsSync(path)) {
    // `>>` never overwrites (JetBrains): pick the next free name.
    const ext = extname(path);
    const stem = path.slice(0, path.length - ext.length);
    let n = 1;
    while (existsSync(`${stem}-${n}${ext}`)) n++;
    path = `${stem}-${n}${ext}`;
  }
  writeFileAtomic(path, view.text());
}

// `{{login.response…}}`, `{{login.request…}}` and httpyac's `{{login.token}}` after `# @ref login`.
const REFERENCE = /\{\{\s*([^\s{}.$]+)\./g;
// kulala's Lua `client.responses["login"]` / `client.responses.login`.
const LUA_RESPONSES = /\bclient\s*\.\s*responses\s*(?:\[\s*(["'])([^"'\n]+)\1\s*\]|\.\s*([A-Za-z_]\w*))/g;

/**
 * The request names the given files may reference (dotted variables, `# @ref` and
 * `# @forceRef`), for ExecutorOptions.referencedNames. A superset is harmless: it only keeps
 * a few more exchanges in memory.
 */
export function referencedNames(files: Iterable<HttpFile>): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    for (const match of file.text.matchAll(REFERENCE)) names.add(match[1]);
    if (file.text.includes('responses'))
      for (const match of file.text.matchAll(LUA_RESPONSES)) names.add(match[2] ?? match[3]);
    // httpyac's `this.login` / `` this[`forOfLoop${$index}`] `` (every pass of that loop: `forOfLoop$index`).
    if (file.dialect === 'httpyac') for (const name of thisReads(file.text, '$index').names) names.add(name);
    for (const request of file.requests) {
      // httpyac reads request `get user` as the variable `getUser`.
      if (file.dialect === 'httpyac' && request.name && names.has(httpyacVariableName(request.name)))
        names.add(request.name);
      for (const meta of request.metadata) {
        if (meta.key === 'ref' || meta.key === 'forceRef')
          for (const name of meta.value.split(/[\s,]+/)) if (name) names.add(name);
      }
    }
  }
  return names;
}

/** What the executor keeps across attempts: caches, cookie jars, the signal of each file's running request. */
interface ExecutorShared {
  options: ExecutorOptions;
  scripts: ScriptRunner;
  scriptsOn: boolean;
  snapshotStore: AssertContext['snapshotStore'];
  snapshotKeys: WeakMap<RequestNode, string>;
  /** Environment values per .http file folder, read once. */
  environments: Map<string, Promise<Map<string, string>>>;
  /** One cookie jar per file (requests that chain a login share it). */
  jars: Map<string, CookieJar>;
  // The signal of the request being executed, per file: a referenced request always lives in the
  // same file as the one that needs it (the session runs only same-file targets), and requests of
  // one file run one at a time, so cancelling a request also cancels the references it runs.
  activeSignals: Map<string, AbortSignal>;
}

/** What one attempt has gathered so far; an outcome is built from it whichever step stopped it. */
interface Attempt {
  context: AttemptContext;
  started: number;
  assertions: AssertionResult[];
  logs: string[];
  requestVariables: Map<string, string>;
  /** Lists the pre-request scripts gave `request.variables.set` (JetBrains: one send per item). */
  requestLists?: Map<string, unknown[]>;
  /** The pass over those lists (`request.iteration()`). */
  iteration?: number;
  /** What the scripts of the current send asked (kulala `request.skip()` / `abort()` / `replay()`). */
  control?: RequestControl;
  /** kulala's `request.url_raw` / `body_raw` as a Lua pre-request script of this send set them. */
  overrides?: RequestOverrides;
  /** How many times kulala's `request.replay()` has sent the request again. */
  replays?: number;
  request?: HttpRequest;
  exchange?: Exchange;
  view?: ResponseView;
}

/** The selected environment's values for the file's folder, as a lookup (read once per folder). */
async function environmentOf(shared: ExecutorShared, file: HttpFile): Promise<(name: string) => string | undefined> {
  const { environmentValues } = shared.options;
  if (!environmentValues) return () => undefined;
  const dir = dirname(file.path);
  const vscodeUser = readsVscodeUserSettings(file);
  const key = vscodeUser ? dir : `\0${dir}`;
  let values = shared.environments.get(key);
  if (!values) {
    values = environmentValues(dir, vscodeUser).catch(() => new Map<string, string>());
    shared.environments.set(key, values);
  }
  const map = await values;
  return (name) => map.get(name);
}

function snapshotKeyOf(shared: ExecutorShared, node: RequestNode): string {
  let key = shared.snapshotKeys.get(node);
  if (!key) {
    key = node.name ?? `#${node.index + 1}`;
    shared.snapshotKeys.set(node, key);
  }
  return key;
}

/** The attempt's outcome, with every secret the session knows now redacted; releases the response body. */
function attemptOutcome(
  shared: ExecutorShared,
  attempt: Attempt,
  status: AttemptOutcome['status'],
  error?: unknown,
): AttemptOutcome {
  const { assertions, logs, exchange } = attempt;
  const values = shared.options.session.secretValues();
  let secrets = Array.isArray(values) ? values : [...values];
  // Credential headers are masked by name; their values also wherever the server echoes them.
  if (attempt.request?.headers.length) {
    const credentials = credentialValues(attempt.request.headers);
    if (credentials.length) secrets = [...secrets, ...credentials];
  }
  // The Cookie header the engine added from the jar (saved cookies): masked in reports like the rest.
  const sentCookie = exchange?.request.headers.find(([name]) => name.length === 6 && name.toLowerCase() === 'cookie');
  if (sentCookie) secrets = [...secrets, ...credentialValues([sentCookie])];
  const result: AttemptOutcome = {
    status,
    durationMs: exchange ? exchange.timings.total : performance.now() - attempt.started,
    assertions: secrets.length ? assertions.map((a) => redactResult(a, secrets)) : assertions,
  };
  if (exchange) result.httpStatus = exchange.response.status;
  if (error !== undefined) {
    const e = toRequestError(error);
    e.message = redactText(e.message, secrets);
    result.error = e;
  }
  if (logs.length) result.logs = secrets.length ? logs.map((l) => redactText(l, secrets)) : logs;
  if (status !== 'passed') result.exchange = failedExchange(attempt.request, exchange, attempt.view, secrets);
  if (exchange) shared.options.engine.releaseBody?.(exchange.response.body);
  return result;
}

/** Runs pre-request scripts (no `response`) or response handlers, gathering their logs and client.test results. */
async function runScripts(shared: ExecutorShared, attempt: Attempt, kind: 'preScripts' | 'handlers'): Promise<void> {
  if (!shared.scriptsOn) return;
  const { file, node } = attempt.context;
  const { session } = shared.options;
  // kulala files: the file's variables under the environment (vars/kulala-environment.ts).
  const lookup = await scriptEnvironment(file, node, await environmentOf(shared, file), (template) =>
    session.resolveTemplate(template, file, node),
  );
  // JetBrains: the 0-based pass over a list; kulala (a request whose scripts replay it): 1 + the replays so far.
  const iteration = attempt.iteration ?? (replaysItself(node) ? (attempt.replays ?? 0) + 1 : undefined);
  const request = scriptRequest(node, (text, variables) =>
    trySubstitute(text, async (template) => session.resolveTemplate(template, file, node, variables)),
  );
  for (const script of node[kind]) {
    const environment: ScriptEnvironment = {
      globals: session.globals,
      ...(session.globalHeadersOf ? { globalHeaders: session.globalHeadersOf(file) } : {}),
      requestVariables: attempt.requestVariables,
      requestLists: (attempt.requestLists ??= new Map()),
      ...(iteration !== undefined ? { iteration } : {}),
      control: (attempt.control ??= {}),
      // kulala keeps url_raw / body_raw on the request object: a handler's change is what a replay sends.
      requestOverrides: (attempt.overrides ??= {}),
      ...(session.recordedNamed ? { recordedResponse: recordedResponseOf(session) } : {}),
      environment: lookup,
      request,
      ...(kind === 'handlers' && attempt.view ? { response: attempt.view } : {}),
      ...(kind === 'handlers' && attempt.exchange
        ? { sent: { method: attempt.exchange.request.method, url: attempt.exchange.request.url } }
        : {}),
    };
    const result = await shared.scripts.run(script, file, environment);
    attempt.logs.push(...result.logs);
    for (const test of result.tests) {
      const assertion: AssertionResult = {
        kind: 'test',
        source: test.name,
        line: script.span.line,
        passed: test.passed,
        ...(test.message ? { message: test.message } : {}),
      };
      attempt.assertions.push(assertion);
      attempt.context.emit({ type: 'assertion', result: assertion });
    }
  }
}

/** kulala's `client.responses["name"]`: the named request's last response in this run, as a view. */
function recordedResponseOf(session: RunSession): (name: string) => Promise<ResponseView | undefined> {
  return async (name) => {
    const exchange = session.recordedNamed?.(name)?.exchange;
    return exchange ? loadResponseView(exchange) : undefined;
  };
}

/**
 * The request with the URL or body a kulala Lua pre-request script wrote (`request.url_raw`,
 * `request.body_raw`): templates, filled in by prepare as the written ones are.
 */
function withOverrides(node: RequestNode, overrides: RequestOverrides | undefined): RequestNode {
  if (!overrides || (overrides.url === undefined && overrides.body === undefined)) return node;
  const changed: RequestNode = { ...node };
  if (overrides.url !== undefined) changed.url = overrides.url;
  if (overrides.body !== undefined)
    changed.body = { kind: 'inline', text: overrides.body, span: node.body?.span ?? node.requestLineSpan };
  return changed;
}

/** kulala's `request.replay()` in one of the request's inline scripts (its `request.iteration()` counts sends from 1). */
function replaysItself(node: RequestNode): boolean {
  for (const script of node.handlers) if (script.kind === 'inline' && REPLAY_RE.test(script.code)) return true;
  return false;
}
const REPLAY_RE = /\brequest\s*\.\s*replay\s*\(/;

/** The most sends kulala's `request.replay()` may add to one request: a loop that never stops is an error, not a hang. */
export const MAX_REPLAYS = 100;

/** kulala `request.skip()` in a pre-request script: the request is not sent (a skip, in `dial run`). */
class RequestSkipped extends DialError {
  constructor(location: { file: string; line: number }, message: string) {
    super(
      'E_INPUT',
      `the request was skipped by its pre-request script (request.skip(${message ? JSON.stringify(message) : ''}))`,
      {
        location,
      },
    );
  }
}

/** httpyac `{{ }}` blocks after the request, over its response: their tests join the attempt's assertions. */
async function runHttpyacPostScripts(shared: ExecutorShared, attempt: Attempt, view: ResponseView): Promise<void> {
  const { file, node } = attempt.context;
  const outcomes =
    (await shared.options.session.runHttpyacPostScripts?.(file, node, view, attempt.requestVariables)) ?? [];
  outcomes.forEach((outcome, index) => {
    attempt.logs.push(...outcome.logs);
    for (const test of outcome.tests) {
      const assertion: AssertionResult = {
        kind: 'test',
        source: test.name,
        line: node.httpyacPostScripts![index].line,
        passed: test.passed,
        ...(test.message ? { message: test.message } : {}),
      };
      attempt.assertions.push(assertion);
      attempt.context.emit({ type: 'assertion', result: assertion });
    }
  });
}

/** The file's cookie jar, made on first use; none with `# @no-cookie-jar`. */
function cookieJarFor(shared: ExecutorShared, file: HttpFile, node: RequestNode): CookieJar | undefined {
  let jar = shared.jars.get(file.path);
  if (!jar && !node.noCookieJar) {
    jar = shared.options.engine.createCookieJar();
    shared.jars.set(file.path, jar);
  }
  return node.noCookieJar ? undefined : jar;
}

/** Engine options for one request: the run's base, the session's overrides, then the request's own metadata. */
export function requestSendOptions(
  options: ExecutorOptions,
  node: RequestNode,
  overrides: Partial<SendOptions> | undefined,
  cookieJar: CookieJar | undefined,
  signal: AbortSignal,
): SendOptions {
  // One copy of the base options per request; `{ ...a, ...b, key }` takes V8's slow path (~3 µs).
  const sendOptions: SendOptions = Object.assign({}, options.sendOptions);
  if (overrides) Object.assign(sendOptions, overrides);
  // kulala's `# @curl-insecure` (curl --insecure): this request does not check the server's certificate.
  if (node.metadata.length > 0 && skipsCertificateCheck(node.metadata))
    sendOptions.tls = { ...(sendOptions.tls ?? { verify: true }), verify: false };
  return Object.assign(sendOptions, {
    timeoutMs: node.timeoutMs ?? overrides?.timeoutMs ?? options.timeoutMs ?? options.sendOptions.timeoutMs ?? 30_000,
    followRedirects: node.noRedirect ? false : (overrides?.followRedirects ?? options.followRedirects ?? true),
    // The session turns the jar off for a request (`# @no-cookie-jar`, httpyac's `cookieJarEnabled: false`).
    cookieJar: overrides !== undefined && Object.hasOwn(overrides, 'cookieJar') ? overrides.cookieJar : cookieJar,
    signal,
    bodyTarget: { kind: 'buffer', maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_SIZE },
  });
}

/**
 * kulala's `# @env-json-key NAME a.b.c`: after the response, NAME holds the value at that dotted
 * path of the JSON body (as `client.global.set` would). As in kulala (internal_processing), a path
 * that is not there, or holds null or false, unsets NAME (a later `{{NAME}}` is then an error, never
 * a stale value), and a body that is not JSON leaves it as it was. dial also takes a leading `$.`.
 */
function setResponseKeyVariables(shared: ExecutorShared, node: RequestNode, view: ResponseView): void {
  for (const meta of node.metadata) {
    if (meta.key === 'env-header-key') setHeaderKeyVariable(shared, meta.value, view);
    if (meta.key !== 'env-json-key') continue;
    const [name, path] = meta.value.split(/\s+/);
    if (!name || !path) continue;
    let value: unknown = view.json();
    if (value === undefined) continue;
    for (const key of path.replace(/^\$\./, '').split('.')) {
      value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
      if (value === undefined) break;
    }
    if (value === undefined || value === null || value === false) shared.options.session.globals.delete(name);
    else shared.options.session.globals.set(name, value);
  }
}

/**
 * kulala's `# @env-header-key NAME Header-Name` (internal_processing.env_header_key): after the
 * response, NAME holds that header's value (the name in any case); as in kulala, a header the
 * response lacks leaves NAME as it was.
 */
function setHeaderKeyVariable(shared: ExecutorShared, value: string, view: ResponseView): void {
  const [name, header] = value.trim().split(/\s+/);
  if (!name || !header) return;
  const found = view.headerValues(header.toLowerCase());
  if (found.length > 0) shared.options.session.globals.set(name, found.join(', '));
}

function hasCommand(node: RequestNode): boolean {
  for (const meta of node.metadata) if (COMMAND_KEYS.has(meta.key)) return true;
  return false;
}

/**
 * kulala's shell commands: before the request (`-pre`, nothing on stdin) or after it (the response
 * body on stdin), in the .http file's folder; an `env-` key's output becomes the variable it names
 * (as `client.global.set` would). Only in a workspace the user lets run code: checked here too, for
 * the workbench (dial run refuses the file up front). Off with --no-scripts, as scripts are.
 */
async function runCommands(shared: ExecutorShared, attempt: Attempt, when: 'pre' | 'post'): Promise<void> {
  const { file, node, signal } = attempt.context;
  if (!shared.scriptsOn) return;
  for (const meta of node.metadata) {
    if (!COMMAND_KEYS.has(meta.key) || meta.key.endsWith('-pre') !== (when === 'pre')) continue;
    const output = await shared.scripts.runCommand(meta, file, {
      timeoutMs: node.timeoutMs ?? shared.options.timeoutMs ?? 30_000,
      signal,
      ...(when === 'post' && attempt.view ? { stdin: attempt.view.text() } : {}),
    });
    const name = commandVariable(meta);
    if (name) shared.options.session.globals.set(name, output);
  }
}

/** Evaluates the request's `> assert` lines against the response, emitting each result. */
function checkAssertions(shared: ExecutorShared, attempt: Attempt, view: ResponseView): Promise<void> | undefined {
  const { node } = attempt.context;
  if (!node.assertions.length) return undefined;
  // Most assertions (status, headers, JSON paths against plain values) are evaluated at once, with
  // no context (it serves scripts, placeholders and snapshots only); from the first that has to
  // wait, the rest go through checkAssertionsFrom, in order, with the context made then.
  for (let index = 0; index < node.assertions.length; index++) {
    const result = evaluateAssertionNow(node.assertions[index], view);
    if (result === undefined || result instanceof Promise)
      return checkAssertionsFrom(attempt, view, assertContextOf(shared, attempt), index, result);
    attempt.assertions.push(result);
    attempt.context.emit({ type: 'assertion', result });
  }
  return undefined;
}

/** What an assertion that waits may need: the resolver, the script runner, the snapshot store. */
function assertContextOf(shared: ExecutorShared, attempt: Attempt): AssertContext {
  const { file, node } = attempt.context;
  return {
    file,
    resolve: (template) => shared.options.session.resolveTemplate(template, file, node),
    scripts: shared.scripts,
    snapshotStore: shared.snapshotStore,
    updateSnapshots: Boolean(shared.options.updateSnapshots),
    snapshotKey: snapshotKeyOf(shared, node),
    ownName: file.dialect === 'httpyac' ? node.name : undefined,
  };
}

/** checkAssertions from the assertion at `from` on, each awaited. */
async function checkAssertionsFrom(
  attempt: Attempt,
  view: ResponseView,
  assertContext: AssertContext,
  from: number,
  started?: Promise<AssertionResult>,
): Promise<void> {
  const { node } = attempt.context;
  // Snapshot assertions are numbered over the request (none is evaluated at once).
  let snapshotIndex = 0;
  for (let index = 0; index < from; index++) if (node.assertions[index].predicate === 'snapshot') snapshotIndex++;
  for (let index = from; index < node.assertions.length; index++) {
    const assertion = node.assertions[index];
    // The assertion at `from` may be under way already (evaluateAssertionNow's promise).
    const result =
      index === from && started
        ? await started
        : await evaluateAssertion(
            assertion,
            view,
            assertContext,
            assertion.predicate === 'snapshot' ? snapshotIndex++ : 0,
          );
    attempt.assertions.push(result);
    attempt.context.emit({ type: 'assertion', result });
  }
}

/**
 * A GraphQL answer with `errors` fails the request, as a test named "no GraphQL errors", unless
 * the request looks at them itself (an assertion or handler that reads `errors`).
 */
function checkGraphqlErrors(attempt: Attempt, view: ResponseView): void {
  const { node } = attempt.context;
  const errors = graphqlErrorsInText(view.text());
  if (errors.length === 0) return;
  const readsErrors =
    node.assertions.some((assertion) => /\berrors\b/.test(assertion.argument ?? '')) ||
    node.handlers.some((handler) => handler.kind === 'inline' && /\berrors\b/.test(handler.code));
  if (readsErrors) return;
  const result: AssertionResult = {
    kind: 'test',
    source: 'no GraphQL errors',
    line: node.requestLineSpan.line,
    passed: false,
    message: `the answer has ${errors.length} GraphQL error${errors.length === 1 ? '' : 's'}: ${errors.join('; ')} (assert on them with \`?? body $.errors exists\` to expect them)`,
  };
  attempt.assertions.push(result);
  attempt.context.emit({ type: 'assertion', result });
}

/** Prepares, sends and records the request, then runs handlers and assertions on its response (once per `# @loop` pass). */
async function sendAndCheck(shared: ExecutorShared, attempt: Attempt): Promise<AttemptOutcome> {
  const { session, engine } = shared.options;
  const { file, node } = attempt.context;
  // httpyac `# @sleep 500` and kulala `# @delay 500`: wait that many ms first (an expression for the
  // time is not evaluated: no wait; the parser refuses a kulala delay that is not a number). Under
  // an httpyac `# @loop` line the wait is one of the hooks each pass runs (see passSleep).
  const wait = passSleep(node);
  const sleep = wait === undefined ? sleepMs(node) : undefined;
  if (sleep !== undefined) await delay(sleep, undefined, { signal: attempt.context.signal });
  // httpyac `# @disabled condition`: skipped when it holds, as httpyac skips the region.
  if (node.httpyacDisabled && (await session.httpyacDisabledHolds?.(file, node)))
    throw new HttpyacCancel({ file: file.path, line: node.httpyacDisabled.line });
  if (node.httpyacLoop?.kind === 'while') await sendWhile(shared, attempt, wait);
  else {
    const passes =
      node.httpyacLoop && session.httpyacLoopPasses ? await session.httpyacLoopPasses(file, node) : undefined;
    if (!passes) await sendWithReplays(shared, attempt);
    for (const [index, pass] of (passes ?? []).entries()) {
      if (index > 0 && attempt.exchange) engine.releaseBody?.(attempt.exchange.response.body);
      attempt.requestVariables = new Map(pass);
      if (wait !== undefined) await delay(wait, undefined, { signal: attempt.context.signal });
      await sendOnce(shared, attempt, index);
    }
  }
  let passed = true;
  for (const result of attempt.assertions) if (!result.passed) passed = false;
  return attemptOutcome(shared, attempt, passed ? 'passed' : 'failed');
}

/** The wait of `# @sleep N` / kulala's `# @delay N` in ms (undefined without one, or for an expression). */
function sleepMs(node: RequestNode): number | undefined {
  const sleep = node.metadata.find((meta) => meta.key === 'sleep' || meta.key === 'delay')?.value;
  return sleep && /^\d+$/.test(sleep) ? Number(sleep) : undefined;
}

/**
 * httpyac runs a region's hooks in the order of their lines, and `# @loop` repeats the hooks
 * registered after it: a `# @sleep N` below the loop line waits before every pass (polling at that
 * pace), one above it once before the loop. The wait per pass, or undefined.
 */
function passSleep(node: RequestNode): number | undefined {
  const loop = node.httpyacLoop;
  if (!loop) return undefined;
  const sleep = node.metadata.find((meta) => meta.key === 'sleep');
  return sleep && sleep.span.line > loop.line ? sleepMs(node) : undefined;
}

/** The most passes of an httpyac `# @loop while`: a condition that never turns false is an error, not a hang. */
export const MAX_WHILE_PASSES = 1000;

/**
 * httpyac `# @loop while condition`: a pass while the condition holds, evaluated before each (the
 * passes change it); `wait`: the ms to wait before each pass (passSleep).
 */
async function sendWhile(shared: ExecutorShared, attempt: Attempt, wait: number | undefined): Promise<void> {
  const { session, engine } = shared.options;
  const { file, node } = attempt.context;
  const loop = node.httpyacLoop!;
  for (let index = 0; await session.httpyacLoopHolds!(file, node, index); index++) {
    if (index >= MAX_WHILE_PASSES)
      throw new DialError(
        'E_SCRIPT',
        `@loop while: the condition still held after ${MAX_WHILE_PASSES} passes; stopped there`,
        {
          location: { file: file.path, line: loop.line },
          hint: 'change what the condition reads in each pass ({{counter.index++}} in the request), or loop a fixed number of times with `# @loop for 3`',
        },
      );
    if (index > 0 && attempt.exchange) engine.releaseBody?.(attempt.exchange.response.body);
    attempt.requestVariables = new Map([['$index', String(index)]]);
    if (wait !== undefined) await delay(wait, undefined, { signal: attempt.context.signal });
    await sendOnce(shared, attempt, index);
  }
}

/**
 * One send, then again while a handler calls kulala's `request.replay()` (pre-request scripts run
 * before each send; a `request.skip()` on a replay ends the loop). At most MAX_REPLAYS more sends.
 */
async function sendWithReplays(shared: ExecutorShared, attempt: Attempt): Promise<void> {
  attempt.replays = 0;
  for (;;) {
    attempt.control = undefined;
    await sendOnce(shared, attempt);
    if (!(attempt.control as RequestControl | undefined)?.replay) return;
    const { file, node } = attempt.context;
    if (attempt.replays >= MAX_REPLAYS)
      throw new DialError('E_SCRIPT', `request.replay() sent the request ${MAX_REPLAYS + 1} times; stopped there`, {
        location: { file: file.path, line: node.handlers[0]?.span.line ?? node.requestLineSpan.line },
        hint: 'call request.replay() only while there is something left to send',
      });
    if (attempt.exchange) shared.options.engine.releaseBody?.(attempt.exchange.response.body);
    attempt.replays++;
  }
}

/** sendAndCheck, where an httpyac `exports.$cancel` or a kulala `request.skip()` skips the request (nothing was sent). */
async function sendAndCheckOrSkip(shared: ExecutorShared, attempt: Attempt): Promise<AttemptOutcome> {
  try {
    return await sendAndCheck(shared, attempt);
  } catch (error) {
    if (error instanceof HttpyacCancel || error instanceof RequestSkipped)
      return attemptOutcome(shared, attempt, 'skipped');
    throw error;
  }
}

/** One send of the request: pre-request scripts, prepare, send, record, handlers, httpyac blocks, assertions. */
function sendOnce(shared: ExecutorShared, attempt: Attempt, pass?: number): Promise<void> {
  const { node } = attempt.context;
  // Most requests have no scripts or commands: no async frame (a promise and a tick) for nothing.
  if (node.preScripts.length === 0 && (node.metadata.length === 0 || !hasCommand(node)))
    return sendPrepared(shared, attempt, pass);
  return sendAfterPreWork(shared, attempt, pass);
}

/** kulala's `-pre` commands and the pre-request scripts, then the send (once per list item when they set a list). */
async function sendAfterPreWork(shared: ExecutorShared, attempt: Attempt, pass?: number): Promise<void> {
  const { file, node } = attempt.context;
  if (node.metadata.length > 0 && hasCommand(node)) await runCommands(shared, attempt, 'pre');
  attempt.requestLists = undefined;
  attempt.iteration = undefined;
  // A replay sends the URL and body the scripts of the last send left (kulala replays the same request object).
  if (!attempt.replays) attempt.overrides = undefined;
  if (node.preScripts.length > 0) await runScripts(shared, attempt, 'preScripts');
  const control = attempt.control as RequestControl | undefined;
  if (control?.abort !== undefined)
    throw new DialError(
      'E_SCRIPT',
      `the pre-request script aborted the request${control.abort ? `: ${control.abort}` : ''}; nothing was sent`,
      {
        location: { file: file.path, line: node.preScripts[0].span.line },
      },
    );
  if (control?.skip !== undefined) {
    // On a replay, a skip ends the replays; on the first send, the request is skipped.
    if (attempt.replays) return;
    throw new RequestSkipped({ file: file.path, line: node.preScripts[0].span.line }, control.skip);
  }
  // JetBrains: a list set by the pre-request script sends the request once per item.
  // (runScripts fills attempt.requestLists; TypeScript's narrowing from the line above does not see it.)
  const lists = attempt.requestLists as Map<string, unknown[]> | undefined;
  const items = lists?.size ? listPasses(file, node, lists) : undefined;
  if (!items) return sendPrepared(shared, attempt, pass);
  const base = attempt.requestVariables;
  for (const [index, values] of items.entries()) {
    if (index > 0 && attempt.exchange) shared.options.engine.releaseBody?.(attempt.exchange.response.body);
    attempt.requestVariables = new Map([...base, ...values]);
    attempt.iteration = index;
    await sendPrepared(shared, attempt, pass);
  }
  attempt.requestVariables = base;
}

/** The send of a request whose pre-request work is done: prepare, send, record, handlers, httpyac blocks, assertions. */
async function sendPrepared(
  shared: ExecutorShared,
  attempt: Attempt,
  pass?: number,
  plain?: PreparedSend,
): Promise<void> {
  const { options } = shared;
  const { session, engine } = options;
  const { file, node, signal } = attempt.context;
  // Each attempt is a new send: `# @prompt` values are asked again (only a session with a prompt asks at all).
  const prepared =
    plain ??
    (await session.prepare(file, withOverrides(node, attempt.overrides), {
      requestVariables: attempt.requestVariables,
      promptAgain: true,
    }));
  let request = (attempt.request = prepared.request);
  const sendOptions = requestSendOptions(options, node, prepared.overrides, cookieJarFor(shared, file, node), signal);
  let exchange: Exchange;
  if (prepared.ntlm) {
    // The NEGOTIATE round's 401 is not recorded: the request that authenticated is.
    const { ntlmCredentials, sendWithNtlm } = await import('../send/ntlm.js');
    ({ exchange, request } = await sendWithNtlm(
      (outgoing) => engine.sendRequest(outgoing, sendOptions),
      request,
      ntlmCredentials(prepared.ntlm.username, prepared.ntlm.password),
      { release: engine.releaseBody },
    ));
    attempt.request = request;
  } else if (prepared.digest) {
    // The challenge's answer is a second request: the one recorded and reported is that one.
    const { sendWithDigest } = await import('../send/digest.js');
    ({ exchange, request } = await sendWithDigest(
      (outgoing) => engine.sendRequest(outgoing, sendOptions),
      request,
      prepared.digest,
      {
        release: engine.releaseBody,
      },
    ));
    attempt.request = request;
  } else exchange = await engine.sendRequest(request, sendOptions);
  attempt.exchange = exchange;
  // A request run for a reference is kept even when its name is read only by an imported file
  // (`# @import ./b.http`, whose `# @ref a` the run's own files do not show).
  if (
    !options.referencedNames ||
    attempt.context.asReference ||
    (node.name !== undefined && options.referencedNames.has(node.name))
  )
    session.record(file, node, request, exchange);
  // httpyac names each pass of a `# @loop` request `<name><index>` (`{{foo3.args.item}}`).
  const passName = pass !== undefined && node.name !== undefined ? `${node.name}${pass}` : undefined;
  if (
    passName &&
    (!options.referencedNames ||
      options.referencedNames.has(passName) ||
      options.referencedNames.has(`${node.name}$index`))
  )
    session.record(file, { ...node, name: passName }, request, exchange);
  attempt.context.emit({ type: 'response', httpStatus: exchange.response.status, durationMs: exchange.timings.total });
  // A body kept in memory (most) is looked at without a promise; one spilled to a file is read.
  const body = exchange.response.body;
  const view = (attempt.view =
    body.kind === 'file'
      ? await loadResponseView(exchange)
      : responseViewOf(exchange, body.kind === 'memory' ? body.bytes : undefined));
  if (node.outputRedirect) await saveBody(node, file, view);
  if (file.dialect === 'httpyac') session.noteHttpyacResponse?.(file, view);
  if (node.handlers.length > 0) await runScripts(shared, attempt, 'handlers');
  if (node.metadata.length > 0) setResponseKeyVariables(shared, node, view);
  if (node.metadata.length > 0 && hasCommand(node)) await runCommands(shared, attempt, 'post');
  if (node.httpyacPostScripts && shared.scriptsOn) await runHttpyacPostScripts(shared, attempt, view);
  // httpyac's `@name = {{…}}` lines under the request take their values now, over this response.
  if (file.dialect === 'httpyac' && node.variables.length > 0)
    await session.settleHttpyacVariables?.(file, node, attempt.requestVariables);
  if (node.assertions.length > 0) {
    const checking = checkAssertions(shared, attempt, view);
    if (checking) await checking;
  }
  if (node.graphql) checkGraphqlErrors(attempt, view);
  const grpcFailure = unassertedGrpcFailure(node, exchange);
  if (grpcFailure) {
    attempt.assertions.push(grpcFailure);
    attempt.context.emit({ type: 'assertion', result: grpcFailure });
  }
}

/** One attempt of one request (with the requests its `run` lines run first); any error becomes an `errored` outcome. */
function executeAttempt(shared: ExecutorShared, context: AttemptContext): Promise<AttemptOutcome> {
  return context.node.runs ? executeWithRuns(shared, context) : executeOne(shared, context);
}

/**
 * JetBrains/kulala `run` lines: the requests they name run in order (each with its own scripts
 * and assertions, the line's `(@var=value)` as variables), then the block's own request if it
 * has one. One outcome for the block: the worst status (the first error); assertions and logs add up.
 */
async function executeWithRuns(shared: ExecutorShared, context: AttemptContext): Promise<AttemptOutcome> {
  const started = performance.now();
  const combined: AttemptOutcome = { status: 'passed', durationMs: 0, assertions: [] };
  const logs: string[] = [];
  // Like a run of a file, a failing or erroring request does not stop the ones after it.
  const add = (outcome: AttemptOutcome): void => {
    combined.assertions.push(...outcome.assertions);
    if (outcome.logs) logs.push(...outcome.logs);
    if (outcome.httpStatus !== undefined) combined.httpStatus = outcome.httpStatus;
    if (outcome.status === 'passed' || combined.status === 'errored') return;
    if (combined.status === 'failed' && outcome.status !== 'errored') return;
    combined.status = outcome.status;
    if (outcome.error) combined.error = outcome.error;
    if (outcome.exchange) combined.exchange = outcome.exchange;
  };
  const session = shared.options.session;
  try {
    const load = session.loadFile ? (path: string) => session.loadFile!(path) : loadHttpFileFromDisk;
    const targets = await resolveRunTargets(context.file, context.node, load);
    for (const target of targets) {
      if (context.signal.aborted) break;
      // `(@host={{base}})`: a value is resolved where the run line is written.
      const variables = new Map(target.variables);
      for (const [name, value] of variables)
        if (value.includes('{{')) variables.set(name, await session.resolveTemplate(value, context.file, context.node));
      add(await executeOne(shared, { ...context, file: target.file, node: target.node }, variables));
    }
    if (!context.node.runOnly && !context.signal.aborted) add(await executeOne(shared, context));
  } catch (error) {
    // The targets could not be found: nothing of the block was sent.
    add({ status: 'errored', durationMs: 0, assertions: [], error: toRequestError(error) });
  }
  combined.durationMs = performance.now() - started;
  if (logs.length) combined.logs = logs;
  return combined;
}

const passedResult = (result: AssertionResult): boolean => result.passed;

/**
 * The prepared request when sendAndCheck would do nothing before the send but prepare it (no
 * `# @sleep`, `# @loop`, pre-request script or command: all but scripts are metadata) and the
 * session can prepare it at once; else undefined.
 */
function plainSend(shared: ExecutorShared, context: AttemptContext): PreparedSend | undefined {
  const { node, file } = context;
  const session = shared.options.session;
  if (node.metadata.length > 0 || node.preScripts.length > 0 || node.httpyacLoop || !session.preparePlain)
    return undefined;
  return session.preparePlain(file, node, true);
}

/** One attempt of one request, its `run` lines aside. */
async function executeOne(
  shared: ExecutorShared,
  context: AttemptContext,
  variables?: Map<string, string>,
): Promise<AttemptOutcome> {
  const { file, signal } = context;
  const attempt: Attempt = {
    context,
    started: performance.now(),
    assertions: [],
    logs: [],
    requestVariables: variables ? new Map(variables) : new Map(),
  };
  const outerSignal = shared.activeSignals.get(file.path);
  shared.activeSignals.set(file.path, signal);
  try {
    // Most requests of a run have no script, command, loop, wait or placeholder: prepared at once
    // and sent without the steps (and their async frames) that would have nothing to do.
    const plain = variables === undefined ? plainSend(shared, context) : undefined;
    if (plain) {
      await sendPrepared(shared, attempt, undefined, plain);
      return attemptOutcome(shared, attempt, attempt.assertions.every(passedResult) ? 'passed' : 'failed');
    }
    return await sendAndCheckOrSkip(shared, attempt);
  } catch (error) {
    return attemptOutcome(shared, attempt, 'errored', error);
  } finally {
    if (outerSignal) shared.activeSignals.set(file.path, outerSignal);
    else shared.activeSignals.delete(file.path);
  }
}

/**
 * Runs a referenced request that has not run yet (session.runReference): scripts and all, no
 * events. It runs under `signal`, else under the signal of the request of that file being
 * executed (the one that references it), so Esc / Ctrl+C / --bail cancel it too.
 */
async function runReferencedRequest(
  shared: ExecutorShared,
  file: HttpFile,
  node: RequestNode,
  signal?: AbortSignal,
): Promise<void> {
  const result = await executeAttempt(shared, {
    file,
    node,
    info: {
      index: node.index,
      name: node.name ?? `${node.method} ${node.url}`,
      line: node.requestLineSpan.line,
      method: node.method,
      url: node.url,
    },
    fileState: { file, info: { path: file.path, relativePath: file.path, requests: 1 }, data: new Map() },
    attempt: 1,
    signal: signal ?? shared.activeSignals.get(file.path) ?? new AbortController().signal,
    asReference: true,
    emit: () => {},
  });
  // httpyac skips a request whose `# @ref` was cancelled or skipped (isReferenceErroredOrSkipped).
  if (result.status === 'skipped' && file.dialect === 'httpyac')
    throw new HttpyacCancel(undefined, `referenced request '${node.name ?? node.index + 1}' was skipped`);
  if (result.status === 'errored' && result.error) {
    throw new DialError(
      (result.error.code in errorCatalogue ? result.error.code : 'E_INPUT') as ErrorCode,
      `referenced request '${node.name ?? node.index + 1}' failed: ${result.error.message}`,
    );
  }
}

/** Builds the executor that sends requests through the engine and checks them. */
export function createExecutor(options: ExecutorOptions): RequestExecutor & {
  scripts: ScriptRunner;
  runReference: (file: HttpFile, node: RequestNode, signal?: AbortSignal) => Promise<void>;
  /** For the runner's onFileStart: makes the file's cookie jar then rather than at its first request. */
  startFile: (state: FileState) => void;
} {
  const shared: ExecutorShared = {
    options,
    scripts: new ScriptRunner(options.scriptTimeoutMs),
    scriptsOn: options.scripts !== false,
    snapshotStore: createSnapshotStores(),
    snapshotKeys: new WeakMap(),
    environments: new Map(),
    jars: new Map(),
    activeSignals: new Map(),
  };
  const execute = (context: AttemptContext): Promise<AttemptOutcome> => executeAttempt(shared, context);
  const runReference = (file: HttpFile, node: RequestNode, signal?: AbortSignal): Promise<void> =>
    runReferencedRequest(shared, file, node, signal);
  // The jar made when the file starts (code run once per file) instead of inside the send (code
  // V8 optimises early in a run, before a ninth file starts: the jar's creation was code it had
  // never seen, and the optimised send was thrown away). A file all of whose requests say
  // `# @no-cookie-jar` gets none, as before.
  const startFile = (state: FileState): void => {
    const { file } = state;
    if (!shared.jars.has(file.path) && file.requests.some((node) => !node.noCookieJar))
      shared.jars.set(file.path, options.engine.createCookieJar());
  };
  return Object.assign(execute, { scripts: shared.scripts, runReference, startFile });
}
