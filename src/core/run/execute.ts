/**
 * The default executor: one attempt of one request, end to end —
 * pre-request scripts → session.prepare → send → record → handler scripts → assertions.
 * Per-request work is kept small (compiled scripts and paths are cached; the body is decoded
 * only when something reads it; nothing synchronous touches the disk).
 */
import { existsSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import type { Exchange, HttpRequest, SendOptions, CookieJar, ResponseBody } from '../http/types.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import { createSnapshotStores, evaluateAssertion, type AssertionResult, type AssertContext } from '../assert/evaluate.js';
import { loadResponseView, type ResponseView } from '../assert/response-view.js';
import { ScriptRunner } from '../script/sandbox.js';
import { DEFAULT_MAX_BODY_SIZE } from '../http/sinks.js';
import type { ScriptEnvironment } from '../script/api.js';
import { DialError, errorCatalogue, isDialError, type ErrorCode } from '../errors.js';
import { credentialValues, maskHeaders, redactText } from '../secrets.js';
import { writeFileAtomic } from '../atomic-write.js';
import type { AttemptContext, AttemptOutcome, RequestExecutor } from './runner.js';
import type { FailedExchange, RequestError } from './types.js';

/** The part of the workspace session the runner uses (src/core/session). */
export interface RunSession {
  globals: Map<string, unknown>;
  prepare(file: HttpFile, node: RequestNode, options: { requestVariables?: Map<string, string>; promptAgain?: boolean }): Promise<{ request: HttpRequest; overrides?: Partial<SendOptions>; secretValues?: Iterable<string> }>;
  record(file: HttpFile, node: RequestNode, request: HttpRequest, exchange: Exchange): void;
  resolveTemplate(text: string, file: HttpFile, node: RequestNode): string | Promise<string>;
  secretValues(): Iterable<string>;
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
  /** The selected environment's values for a .http file's folder (`request.environment.get` in scripts). */
  environmentValues?: (dir: string) => Promise<Map<string, string>>;
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
  return { code: typeof e?.code === 'string' && e.code.startsWith('E_') ? e.code : 'E_INTERNAL', message: typeof e?.message === 'string' ? e.message : String(error) };
}

function failedExchange(request: HttpRequest | undefined, exchange: Exchange | undefined, view: ResponseView | undefined, secrets: string[]): FailedExchange | undefined {
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
    const body = view ? view.text() : exchange.response.body.kind === 'memory' ? exchange.response.body.bytes.toString('utf8') : undefined;
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

/**
 * The request names the given files may reference (dotted variables, `# @ref` and
 * `# @forceRef`), for ExecutorOptions.referencedNames. A superset is harmless: it only keeps
 * a few more exchanges in memory.
 */
export function referencedNames(files: Iterable<HttpFile>): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    for (const match of file.text.matchAll(REFERENCE)) names.add(match[1]);
    for (const request of file.requests) {
      for (const meta of request.metadata) {
        if (meta.key === 'ref' || meta.key === 'forceRef') for (const name of meta.value.split(/[\s,]+/)) if (name) names.add(name);
      }
    }
  }
  return names;
}

/** Builds the executor that sends requests through the engine and checks them. */
export function createExecutor(
  options: ExecutorOptions,
): RequestExecutor & { scripts: ScriptRunner; runReference: (file: HttpFile, node: RequestNode, signal?: AbortSignal) => Promise<void> } {
  const { session, engine } = options;
  const scripts = new ScriptRunner(options.scriptTimeoutMs);
  const snapshotStore = createSnapshotStores();
  const scriptsOn = options.scripts !== false;
  const environments = new Map<string, Promise<Map<string, string>>>();
  const environmentOf = async (file: HttpFile): Promise<(name: string) => string | undefined> => {
    if (!options.environmentValues) return () => undefined;
    const dir = dirname(file.path);
    let values = environments.get(dir);
    if (!values) {
      values = options.environmentValues(dir).catch(() => new Map<string, string>());
      environments.set(dir, values);
    }
    const map = await values;
    return (name) => map.get(name);
  };
  const jars = new Map<string, CookieJar>();
  // The signal of the request being executed, per file: a referenced request always lives in the
  // same file as the one that needs it (the session runs only same-file targets), and requests of
  // one file run one at a time, so cancelling a request also cancels the references it runs.
  const activeSignals = new Map<string, AbortSignal>();
  const snapshotKeys = new WeakMap<RequestNode, string>();
  const keyOf = (node: RequestNode) => {
    let key = snapshotKeys.get(node);
    if (!key) {
      key = node.name ?? `#${node.index + 1}`;
      snapshotKeys.set(node, key);
    }
    return key;
  };

  const execute = async (context: AttemptContext): Promise<AttemptOutcome> => {
    const { file, node, signal } = context;
    const started = performance.now();
    const assertions: AssertionResult[] = [];
    const logs: string[] = [];
    let request: HttpRequest | undefined;
    let exchange: Exchange | undefined;
    let view: ResponseView | undefined;
    let secrets: string[] = [];
    const outcome = (status: AttemptOutcome['status'], error?: unknown): AttemptOutcome => {
      const values = session.secretValues();
      secrets = Array.isArray(values) ? values : [...values];
      // Credential headers are masked by name; their values also wherever the server echoes them.
      if (request && request.headers.length) {
        const credentials = credentialValues(request.headers);
        if (credentials.length) secrets = [...secrets, ...credentials];
      }
      const result: AttemptOutcome = {
        status,
        durationMs: exchange ? exchange.timings.total : performance.now() - started,
        assertions: secrets.length ? assertions.map((a) => redactResult(a, secrets)) : assertions,
      };
      if (exchange) result.httpStatus = exchange.response.status;
      if (error !== undefined) {
        const e = toRequestError(error);
        e.message = redactText(e.message, secrets);
        result.error = e;
      }
      if (logs.length) result.logs = secrets.length ? logs.map((l) => redactText(l, secrets)) : logs;
      if (status !== 'passed') result.exchange = failedExchange(request, exchange, view, secrets);
      if (exchange) engine.releaseBody?.(exchange.response.body);
      return result;
    };
    const scriptEnv = async (requestVariables: Map<string, string>, response?: ResponseView): Promise<ScriptEnvironment> => ({
      globals: session.globals,
      requestVariables,
      environment: await environmentOf(file),
      request: { method: node.method, url: node.url },
      ...(response ? { response } : {}),
    });
    const addTests = (tests: Array<{ name: string; passed: boolean; message?: string }>, line: number) => {
      for (const test of tests) {
        const result: AssertionResult = { kind: 'test', source: test.name, line, passed: test.passed, ...(test.message ? { message: test.message } : {}) };
        assertions.push(result);
        context.emit({ type: 'assertion', result });
      }
    };

    const outerSignal = activeSignals.get(file.path);
    activeSignals.set(file.path, signal);
    try {
      const requestVariables = new Map<string, string>();
      if (scriptsOn) {
        for (const script of node.preScripts) {
          const result = await scripts.run(script, file, await scriptEnv(requestVariables));
          logs.push(...result.logs);
          addTests(result.tests, script.span.line);
        }
      }
      // Each attempt is a new send: `# @prompt` values are asked again (only a session with a prompt asks at all).
      const prepared = await session.prepare(file, node, { requestVariables, promptAgain: true });
      request = prepared.request;
      // One cookie jar per file (requests that chain a login share it), none with @no-cookie-jar.
      let jar = jars.get(file.path);
      if (!jar && !node.noCookieJar) {
        jar = engine.createCookieJar();
        jars.set(file.path, jar);
      }
      // One copy of the base options per request; `{ ...a, ...b, key }` takes V8's slow path (~3 µs).
      const sendOptions: SendOptions = Object.assign({}, options.sendOptions);
      if (prepared.overrides) Object.assign(sendOptions, prepared.overrides);
      Object.assign(sendOptions, {
        timeoutMs: node.timeoutMs ?? prepared.overrides?.timeoutMs ?? options.timeoutMs ?? options.sendOptions.timeoutMs ?? 30_000,
        followRedirects: node.noRedirect ? false : (prepared.overrides?.followRedirects ?? options.followRedirects ?? true),
        cookieJar: node.noCookieJar ? undefined : jar,
        signal,
        bodyTarget: { kind: 'buffer', maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_SIZE },
      });
      exchange = await engine.sendRequest(request, sendOptions);
      if (!options.referencedNames || (node.name !== undefined && options.referencedNames.has(node.name))) session.record(file, node, request, exchange);
      context.emit({ type: 'response', httpStatus: exchange.response.status, durationMs: exchange.timings.total });
      view = await loadResponseView(exchange);
      if (node.outputRedirect) await saveBody(node, file, view);
      if (scriptsOn) {
        for (const script of node.handlers) {
          const result = await scripts.run(script, file, await scriptEnv(requestVariables, view));
          logs.push(...result.logs);
          addTests(result.tests, script.span.line);
        }
      }
      if (node.assertions.length) {
        const assertContext: AssertContext = {
          file,
          resolve: (template) => session.resolveTemplate(template, file, node),
          scripts,
          snapshotStore,
          updateSnapshots: Boolean(options.updateSnapshots),
          snapshotKey: keyOf(node),
        };
        let snapshotIndex = 0;
        for (const assertion of node.assertions) {
          const result = await evaluateAssertion(assertion, view, assertContext, assertion.predicate === 'snapshot' ? snapshotIndex++ : 0);
          assertions.push(result);
          context.emit({ type: 'assertion', result });
        }
      }
      let passed = true;
      for (const result of assertions) if (!result.passed) passed = false;
      return outcome(passed ? 'passed' : 'failed');
    } catch (error) {
      return outcome('errored', error);
    } finally {
      if (outerSignal) activeSignals.set(file.path, outerSignal);
      else activeSignals.delete(file.path);
    }
  };
  /**
   * Runs a referenced request that has not run yet (session.runReference): scripts and all, no
   * events. It runs under `signal`, else under the signal of the request of that file being
   * executed (the one that references it), so Esc / Ctrl+C / --bail cancel it too.
   */
  const runReference = async (file: HttpFile, node: RequestNode, signal?: AbortSignal): Promise<void> => {
    const result = await execute({
      file,
      node,
      info: { index: node.index, name: node.name ?? `${node.method} ${node.url}`, line: node.requestLineSpan.line, method: node.method, url: node.url },
      fileState: { file, info: { path: file.path, relativePath: file.path, requests: 1 }, data: new Map() },
      attempt: 1,
      signal: signal ?? activeSignals.get(file.path) ?? new AbortController().signal,
      emit: () => {},
    });
    if (result.status === 'errored' && result.error) {
      throw new DialError((result.error.code in errorCatalogue ? result.error.code : 'E_INPUT') as ErrorCode, `referenced request '${node.name ?? node.index + 1}' failed: ${result.error.message}`);
    }
  };
  return Object.assign(execute, { scripts, runReference });
}
