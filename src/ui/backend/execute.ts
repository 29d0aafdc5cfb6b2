/** Sending one request for the workbench through the executor `dial run` uses, and shaping what comes back for the screen. */
import { dirname, relative } from 'node:path';
import type { Exchange } from '../../core/http/types.js';
import type { HttpFile, RequestNode } from '../../core/httpfile/types.js';
import { releaseBody } from '../../core/http/index.js';
import { historyPath, type Settings } from '../../core/settings/index.js';
import { appendHistory, toHistoryEntry } from '../../core/history/index.js';
import { readTextFile } from '../../core/editing/index.js';
import { displayName } from '../../core/request-name.js';
import type { EnvStore } from '../../core/env/index.js';
import type { AssertionResult } from '../../core/assert/evaluate.js';
import type { ExecuteOptions, ResponseResult, TestOutcome } from '../services.js';
import type { Current, Prepared, Runner } from './runner.js';
import { cookieValuesOf } from '../../core/cookies/exchange-cookies.js';

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

/** Reads a response body as text, from memory or from the temp file it spilled to. */
export async function bodyTextOf(body: ResponseResult['exchange']['response']['body']): Promise<string> {
  if (body.kind === 'memory') return body.bytes.toString('utf8');
  if (body.kind === 'file') return readTextFile(body.path);
  return '';
}

/** Values of the private env file(s) for the environment: masked even when this request did not use them. */
export async function privateValues(
  envStore: EnvStore,
  dir: string,
  environment: string | undefined,
): Promise<string[]> {
  try {
    const resolved = await envStore.resolve(dir, environment);
    return [...resolved.secretNames].flatMap((name) => resolved.values.get(name) ?? []);
  } catch {
    return [];
  }
}

export interface ExecuteContext {
  root: string;
  env: Record<string, string | undefined>;
  settings: Settings;
  /** The env files as read now (read again after they change on disk). */
  envStore: () => EnvStore;
  runnerFor: (environment: string | undefined) => Runner;
  /** Sets (or clears) the request being executed now. */
  setCurrent: (current: Current | undefined) => void;
  /** Copy as curl prints the request as prepared from the file (whole body, `< file` parts), not the sent preview. */
  preparedOf: WeakMap<Exchange, Prepared>;
  requestId: (file: HttpFile, node: RequestNode) => string;
}

function testOutcomes(assertions: AssertionResult[]): TestOutcome[] {
  return assertions.map((a) => ({
    source: a.source,
    passed: a.passed,
    message: a.passed
      ? undefined
      : (a.message ??
        (a.expected !== undefined || a.actual !== undefined
          ? `expected ${a.expected ?? '?'}, got ${a.actual ?? '?'}`
          : undefined)),
  }));
}

/** Builds `execute`: sends one request and returns its result; only one body is kept at a time. */
export function createExecute(
  context: ExecuteContext,
): (file: HttpFile, node: RequestNode, options: ExecuteOptions) => Promise<ResponseResult> {
  let previousExchange: Exchange | undefined;
  return async (file, node, executeOptions) => {
    const { session, run } = context.runnerFor(executeOptions.environment);
    const current: Current = { node, options: executeOptions };
    context.setCurrent(current);
    executeOptions.onState('resolving');
    try {
      const outcome = await run({
        file,
        node,
        info: {
          index: node.index,
          name: displayName(node),
          line: node.requestLineSpan.line,
          method: node.method,
          url: node.url,
        },
        fileState: {
          file,
          info: { path: file.path, relativePath: relative(context.root, file.path), requests: file.requests.length },
          data: new Map(),
        },
        attempt: 1,
        signal: executeOptions.signal,
        emit: () => undefined,
      });
      const exchange = current.exchange;
      if (!exchange) {
        const error = outcome.error ?? { code: 'E_NETWORK', message: 'no response' };
        throw new ExecuteError(
          executeOptions.signal.aborted ? 'E_CANCELLED' : error.code,
          error.message + (error.hint ? ` (${error.hint})` : ''),
        );
      }
      if (previousExchange && previousExchange !== exchange) releaseBody(previousExchange.response.body);
      previousExchange = exchange;
      if (current.prepared) context.preparedOf.set(exchange, current.prepared);
      const secretValues = [
        ...new Set([
          ...session.secretValues(),
          ...(await privateValues(context.envStore(), dirname(file.path), executeOptions.environment)),
        ]),
      ];
      const bytes = exchange.response.body.kind === 'memory' ? exchange.response.body.bytes : undefined;
      try {
        const entry = toHistoryEntry(exchange, {
          responseBody: bytes,
          // The cookies sent and received stay in the saved jar only (a server may echo them).
          secretValues: [...secretValues, ...cookieValuesOf(exchange)],
          workspace: context.root,
          requestId: context.requestId(file, node),
        });
        appendHistory(entry, { path: historyPath(context.env), limit: context.settings.historyLimit });
      } catch {
        // History is best effort: a full disk must not lose the response on screen.
      }
      const contentType = exchange.response.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      return {
        exchange,
        bodyText: await bodyTextOf(exchange.response.body),
        contentType,
        tests: testOutcomes(outcome.assertions),
        secrets: secretValues,
        ...(outcome.error ? { error: { code: outcome.error.code, message: outcome.error.message } } : {}),
      };
    } finally {
      context.setCurrent(undefined);
    }
  };
}
