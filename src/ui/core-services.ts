/**
 * The real WorkbenchServices: the TUI's only road to core. Everything here delegates to
 * src/core (httpfile, workspace-io, http, export, and the session once it lands).
 */
import { dirname, relative } from 'node:path';
import { DialError, formatError } from '../core/errors.js';
import type { Exchange, SendOptions } from '../core/http/types.js';
import type { HttpFile, RequestNode } from '../core/httpfile/types.js';
import { createCookieJar, releaseBody, sendRequest } from '../core/http/index.js';
import { createSession, type PreparedRequest, type Session } from '../core/session/index.js';
import { createExecutor, type RunSession } from '../core/run/index.js';
import { insertRequestText, removeRequestText, replaceRequestText } from '../core/httpfile/index.js';
import { curlCommand, curlOptions, followsRedirects } from '../core/export/from-http.js';
import { historyPath, rememberEnvironment, rememberLastRequest, settingsTimeoutMs, type Settings } from '../core/settings/index.js';
import { appendHistory, readHistory, toHistoryEntry } from '../core/history/index.js';
import { discoverHttpFiles } from '../core/workspace/discover.js';
import { EnvStore } from '../core/env/index.js';
import { externalCommand, loadHttpFile, readTextFile, rewriteHttpFile, runExternal, saveBodyTo } from '../core/editing/index.js';
import type { ExecuteOptions, ResponseResult, TestOutcome, WorkbenchServices, WorkspaceFileEntry } from './services.js';

export interface CoreServicesOptions {
  /** The workspace root (env files, settings and history are keyed by it). */
  root: string;
  /** The folder opened (its request files fill the tree); default the root. */
  dir?: string;
  environment?: string;
  cliVariables: Record<string, string>;
  suspend: (run: () => void) => void;
  env?: Record<string, string | undefined>;
  settings: Settings;
}

/** An error from the executor, carrying its code (E_CANCELLED, E_TIMEOUT, …) for the status bar. */
export class ExecuteError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ExecuteError';
  }
}

interface Runner {
  session: Session;
  run: ReturnType<typeof createExecutor>;
}

/** A request as the session prepared it, with where it came from (for copy as curl). */
type Prepared = PreparedRequest & { file: HttpFile; node: RequestNode };

/** Reads a response body as text, from memory or from the temp file it spilled to. */
export async function bodyTextOf(body: ResponseResult['exchange']['response']['body']): Promise<string> {
  if (body.kind === 'memory') return body.bytes.toString('utf8');
  if (body.kind === 'file') return readTextFile(body.path);
  return '';
}

/** Builds the services over the real core. */
export function createCoreServices(options: CoreServicesOptions): WorkbenchServices {
  const env = options.env ?? process.env;
  const settings = options.settings;
  const timeoutMs = settingsTimeoutMs(settings);
  const sendOptions: SendOptions = {
    timeoutMs,
    maxRedirects: settings.maxRedirects,
    tls: { verify: settings.verifyTls },
    ...(settings.proxy ? { proxy: settings.proxy } : {}),
  };
  // The request being executed now: its prompt dialog, its state callback, its prepared request and its exchange once recorded.
  let current: { node: RequestNode; options: ExecuteOptions; prepared?: Prepared; exchange?: Exchange } | undefined;
  // Copy as curl prints the request as prepared from the file (whole body, `< file` parts), not the sent preview.
  const preparedOf = new WeakMap<Exchange, Prepared>();
  let previousExchange: Exchange | undefined;
  // One session (and executor) per environment: variables, cookies and referenced responses are per environment.
  const runners = new Map<string, Runner>();
  // Env files of the workspace, read once (as `dial run` does): script environments and private values to mask.
  const envStore = new EnvStore(options.root);
  /** Values of the private env file(s) for the environment: masked even when this request did not use them. */
  const privateValues = async (dir: string, environment: string | undefined): Promise<string[]> => {
    try {
      const resolved = await envStore.resolve(dir, environment);
      return [...resolved.secretNames].flatMap((name) => resolved.values.get(name) ?? []);
    } catch {
      return [];
    }
  };
  const runnerFor = (environment: string | undefined): Runner => {
    const key = environment ?? '';
    let runner = runners.get(key);
    if (runner) return runner;
    let executor: ReturnType<typeof createExecutor> | undefined;
    const session = createSession({
      workspaceRoot: options.root,
      environment,
      cliVariables: options.cliVariables,
      sendOptions,
      prompt: (name, description) => {
        if (!current) throw new DialError('E_VAR_UNDEFINED', `no value for @prompt variable '${name}'`);
        return current.options.prompt(name, description);
      },
      runReference: (file, node) => executor!.runReference(file, node),
    });
    const runSession: RunSession = {
      globals: session.globals,
      prepare: async (file, node, extra) => {
        const prepared = await session.prepare(file, node, extra);
        if (current && node === current.node) current.prepared = { ...prepared, file, node };
        return prepared;
      },
      record: (file, node, request, exchange) => {
        session.record(file, node, request, exchange);
        if (current && node === current.node) current.exchange = exchange;
      },
      resolveTemplate: (text, file, node) => session.resolveTemplate(text, file, node),
      secretValues: () => session.secretValues(),
    };
    executor = createExecutor({
      session: runSession,
      engine: {
        sendRequest: (request, sendOpts) => {
          const active = current;
          active?.options.onState('sending');
          const target = sendOpts.bodyTarget;
          if (!active || (target && (target.kind !== 'buffer' || target.maxInMemoryBytes !== undefined))) return sendRequest(request, sendOpts);
          // The same default buffering (a stream target that answers null buffers), plus a signal when the head arrives.
          return sendRequest(request, {
            ...sendOpts,
            bodyTarget: {
              kind: 'stream',
              open: () => {
                if (current === active) active.options.onState('receiving');
                return null;
              },
            },
          });
        },
        createCookieJar,
        // Bodies stay until the next response replaces them (the viewer reads them).
        releaseBody: () => undefined,
      },
      sendOptions,
      timeoutMs,
      followRedirects: settings.followRedirects ?? true,
      // `request.environment.get(name)` in scripts: the selected environment's values, with --var on top (as `dial run`).
      environmentValues: async (dir) => new Map([...(await envStore.resolve(dir, environment)).values, ...Object.entries(options.cliVariables)]),
    });
    runner = { session, run: executor };
    runners.set(key, runner);
    return runner;
  };
  const requestId = (file: HttpFile, node: RequestNode): string => `${relative(options.root, file.path).split('\\').join('/')}#${node.name ?? node.index + 1}`;

  return {
    root: options.root,
    async loadWorkspace() {
      const paths = await discoverHttpFiles(options.root, [options.dir ?? options.root]);
      return Promise.all(
        paths.map(async (path): Promise<WorkspaceFileEntry> => {
          const relativePath = relative(options.root, path) || path;
          try {
            return { path, relativePath, file: await loadHttpFile(path) };
          } catch (error) {
            return { path, relativePath, error: formatError(error).replace(/^error(\[\w+\])?:?\s*/, '') };
          }
        }),
      );
    },
    environments() {
      return runnerFor(options.environment).session.environments();
    },
    async execute(file, node, executeOptions) {
      const { session, run } = runnerFor(executeOptions.environment);
      current = { node, options: executeOptions };
      executeOptions.onState('resolving');
      try {
        const outcome = await run({
          file,
          node,
          info: { index: node.index, name: node.name ?? `${node.method} ${node.url}`, line: node.requestLineSpan.line, method: node.method, url: node.url },
          fileState: { file, info: { path: file.path, relativePath: relative(options.root, file.path), requests: file.requests.length }, data: new Map() },
          attempt: 1,
          signal: executeOptions.signal,
          emit: () => undefined,
        });
        const exchange = current.exchange;
        if (!exchange) {
          const error = outcome.error ?? { code: 'E_NETWORK', message: 'no response' };
          throw new ExecuteError(executeOptions.signal.aborted ? 'E_CANCELLED' : error.code, error.message + (error.hint ? ` (${error.hint})` : ''));
        }
        if (previousExchange && previousExchange !== exchange) releaseBody(previousExchange.response.body);
        previousExchange = exchange;
        if (current.prepared) preparedOf.set(exchange, current.prepared);
        const secretValues = [...new Set([...session.secretValues(), ...(await privateValues(dirname(file.path), executeOptions.environment))])];
        const bytes = exchange.response.body.kind === 'memory' ? exchange.response.body.bytes : undefined;
        try {
          appendHistory(toHistoryEntry(exchange, { responseBody: bytes, secretValues, workspace: options.root, requestId: requestId(file, node) }), {
            path: historyPath(env),
            limit: settings.historyLimit,
          });
        } catch {
          // History is best effort: a full disk must not lose the response on screen.
        }
        const tests: TestOutcome[] = outcome.assertions.map((a) => ({
          source: a.source,
          passed: a.passed,
          message: a.passed ? undefined : (a.message ?? (a.expected !== undefined || a.actual !== undefined ? `expected ${a.expected ?? '?'}, got ${a.actual ?? '?'}` : undefined)),
        }));
        const contentType = exchange.response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
        return {
          exchange,
          bodyText: await bodyTextOf(exchange.response.body),
          contentType,
          tests,
          secrets: secretValues,
          ...(outcome.error ? { error: { code: outcome.error.code, message: outcome.error.message } } : {}),
        };
      } finally {
        current = undefined;
      }
    },
    async saveRequest(file, index, blockText) {
      return rewriteHttpFile(file, replaceRequestText(file, index, blockText));
    },
    async appendRequest(file, blockText) {
      return rewriteHttpFile(file, insertRequestText(file, blockText));
    },
    async deleteRequest(file, index) {
      return rewriteHttpFile(file, removeRequestText(file, index));
    },
    async history() {
      return readHistory({ path: historyPath(env) })
        .filter((entry) => entry.workspace === options.root)
        .map((entry) => ({
          time: entry.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
          requestKey: entry.requestId ?? `${entry.exchange.request.method} ${entry.exchange.request.url}`,
          label: `${entry.requestId ?? ''}  ${entry.exchange.request.method} ${entry.exchange.request.url}`.trim(),
          status: entry.exchange.response.status,
          durationMs: entry.exchange.timings.total,
          body: entry.exchange.response.bodyEncoding === 'base64' ? '(binary body)' : (entry.exchange.response.body ?? ''),
        }));
    },
    async rememberEnvironment(name) {
      await rememberEnvironment(options.root, name, env);
    },
    curl(result) {
      const prepared = preparedOf.get(result.exchange);
      // The settings that change what is sent (TLS, proxy, timeouts, redirects), as for export.
      const options = { multiline: false, ...curlOptions(settings, prepared?.overrides) };
      if (!prepared) {
        // Not executed here (nothing to prepare from): the request as sent, body as far as it was kept.
        const sent = result.exchange.request;
        const body = sent.bodyPreview !== undefined ? { kind: 'text' as const, text: sent.bodyPreview } : { kind: 'none' as const };
        return curlCommand({ method: sent.method, url: sent.url, headers: sent.headers, body }, options);
      }
      // The same command as `dial export curl` and `dial send --curl`, from the request as the file resolved it.
      return curlCommand(prepared.request, {
        ...options,
        source: prepared,
        cwd: process.cwd(),
        digest: prepared.digest,
        followRedirects: followsRedirects(settings, prepared.overrides),
      });
    },
    saveBody: (result, path) => saveBodyTo(result.exchange.response.body, path),
    external(kind, text, suffix) {
      return runExternal(externalCommand(kind, env, kind === 'editor' ? settings.editor : settings.pager), text, suffix, options.suspend);
    },
    requestKey: requestId,
    lastRequest: settings.lastRequest[options.root],
    async rememberRequest(key) {
      if (settings.lastRequest[options.root] === key) return;
      settings.lastRequest = { ...settings.lastRequest, [options.root]: key };
      await rememberLastRequest(options.root, key, env);
    },
  };
}
