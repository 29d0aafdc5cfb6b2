/**
 * The scheduler: files run concurrently up to `concurrency`, the requests of a file in order
 * (they chain); each request is tried up to 1 + retries times; `bail` stops scheduling after
 * the first failure. The work of one attempt is an injected executor, so the schedule is
 * testable without HTTP and the TUI can drive the same loop.
 */
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import type { PlannedFile, Shard } from './plan.js';
import { requestInfo } from './plan.js';
import {
  emptyTotals,
  tally,
  type FileInfo,
  type RequestInfo,
  type RequestResult,
  type RunEvent,
  type RunEventListener,
  type Totals,
} from './types.js';
import type { AssertionResult } from '../assert/evaluate.js';

/** What one attempt produced. */
export type AttemptOutcome = Omit<RequestResult, keyof RequestInfo | 'attempts' | 'skipReason'>;

/** Per-file state shared by the requests of one file (its cookie jar, in the default executor). */
export interface FileState {
  file: HttpFile;
  info: FileInfo;
  /** Free for the executor's use. */
  data: Map<string, unknown>;
}

export interface AttemptContext {
  file: HttpFile;
  node: RequestNode;
  info: RequestInfo;
  fileState: FileState;
  attempt: number;
  signal: AbortSignal;
  /** Set when another request's `# @ref` (or `{{name.…}}`) runs this one: its exchange is always kept. */
  asReference?: true;
  /** Streams progress to listeners (response, assertion events). */
  emit: (
    event:
      { type: 'response'; httpStatus: number; durationMs: number } | { type: 'assertion'; result: AssertionResult },
  ) => void;
}

export type RequestExecutor = (context: AttemptContext) => Promise<AttemptOutcome>;

export interface RunnerOptions {
  /** Files in parallel (default 1 here; the command defaults it to the CPU count). */
  concurrency?: number;
  /** Retries for every request without `# @retry`. */
  retry?: number;
  retryDelayMs?: number;
  bail?: boolean;
  signal?: AbortSignal;
  shard?: Shard;
  /** Called once per file before its first request, and after its last. */
  onFileStart?: (state: FileState) => void | Promise<void>;
  onFileEnd?: (state: FileState) => void | Promise<void>;
  /**
   * Emit the per-attempt progress events (`request:start`, `response`, `assertion`). Default
   * true (the TUI shows them); the CLI reporters need only the rest, so `dial run` turns them off.
   */
  progressEvents?: boolean;
}

export interface RunSummary {
  totals: Totals;
  durationMs: number;
  bailed: boolean;
  interrupted: boolean;
}

const noop = () => {};

/** A file being run: what its requests share. */
interface FileRun {
  state: FileState;
  /** Its report path. */
  rel: string;
  /** Its first request has been tried (onFileStart called). */
  started: boolean;
  /** Counts and reports a request's result. */
  finish: (result: RequestResult) => void;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

function errorOutcome(error: unknown, durationMs: number): AttemptOutcome {
  const e = error as { code?: unknown; message?: unknown; hint?: unknown; location?: { file?: string; line?: number } };
  return {
    status: 'errored',
    durationMs,
    assertions: [],
    error: {
      code: typeof e?.code === 'string' ? e.code : 'E_INTERNAL',
      message: typeof e?.message === 'string' ? e.message : String(error),
      ...(e?.location?.file ? { file: e.location.file, line: e.location.line } : {}),
      ...(typeof e?.hint === 'string' ? { hint: e.hint } : {}),
    },
  };
}

/** The result of a request that is not tried. */
function skippedResult(info: RequestInfo, skipReason: string): RequestResult {
  return { ...info, status: 'skipped', attempts: 0, durationMs: 0, assertions: [], skipReason };
}

/**
 * `{ ...info, ...outcome, attempts, durationMs }` with Object.assign: V8 builds spread literals
 * that add keys on a slow path (~3 µs each, measured). Same keys in the same order.
 */
function requestResult(
  info: RequestInfo,
  outcome: AttemptOutcome,
  attempts: number,
  durationMs: number,
): RequestResult {
  const result: RequestResult = Object.assign({}, info, outcome, { attempts: 0 });
  result.attempts = attempts;
  result.durationMs = durationMs;
  return result;
}

/**
 * Runs a plan, emitting events to `listener`; resolves with the totals. Never throws for failing
 * requests. The plan is consumed: each entry is released once its file has started, so nothing
 * of a file that has run stays reachable from the plan.
 */
export async function runPlan(
  plan: Array<PlannedFile | undefined>,
  execute: RequestExecutor,
  options: RunnerOptions,
  listener: RunEventListener,
): Promise<RunSummary> {
  const started = performance.now();
  const totals = emptyTotals();
  totals.files = plan.length;
  let bailed = false;
  const signal = options.signal;
  const emit = (event: RunEvent) => listener(event);
  const stopped = () => bailed || Boolean(signal?.aborted);
  const progress = options.progressEvents !== false;
  emit({
    type: 'run:start',
    startedAt: new Date().toISOString(),
    files: plan.map((p) => p!.info),
    requests: plan.reduce((n, p) => n + p!.info.requests, 0),
    ...(options.shard ? { shard: options.shard } : {}),
  });

  /** Why a request is not tried, if it is not: the run stopped, or `# @skip`. */
  const skipReason = (node: RequestNode): string | undefined => {
    if (stopped()) return signal?.aborted ? 'interrupted' : 'bail';
    if (node.skip) return node.skip.reason || '@skip';
    return undefined;
  };

  /** One request of a file that is running, tried up to 1 + retries times. */
  const runRequest = async (file: FileRun, node: RequestNode, info: RequestInfo): Promise<void> => {
    const rel = file.rel;
    const policy = node.retry ?? { count: options.retry ?? 0, delayMs: options.retryDelayMs ?? 0 };
    const requestStarted = performance.now();
    let outcome: AttemptOutcome;
    let attempt = 0;
    for (;;) {
      attempt++;
      if (progress) emit({ type: 'request:start', file: rel, request: info, attempt });
      const attemptStarted = performance.now();
      const context: AttemptContext = {
        file: file.state.file,
        node,
        info,
        fileState: file.state,
        attempt,
        signal: signal ?? new AbortController().signal,
        emit: progress ? (event) => emit({ ...event, file: rel, request: info, attempt } as RunEvent) : noop,
      };
      try {
        outcome = await execute(context);
      } catch (error) {
        outcome = errorOutcome(error, performance.now() - attemptStarted);
      }
      if (outcome.status === 'passed' || attempt > policy.count || signal?.aborted) break;
      const reason = outcome.error ? `${outcome.error.code}: ${outcome.error.message}` : 'assertion failed';
      emit({ type: 'request:retry', file: rel, request: info, attempt, delayMs: policy.delayMs, reason });
      await sleep(policy.delayMs, signal);
      if (signal?.aborted) break;
    }
    file.finish(requestResult(info, outcome, attempt, performance.now() - requestStarted));
  };

  /**
   * The requests of a file, in order. Its own function, with nothing after its loop: V8 optimises
   * it while the first files run, and a file's end (code no file had reached by then) would
   * throw that code away if it were here, as it did runFile's when runFile held the loop.
   */
  const runRequests = async (run: FileRun, requests: RequestNode[]): Promise<void> => {
    for (const node of requests) {
      const info = requestInfo(node);
      const skipped = skipReason(node);
      if (skipped !== undefined) {
        run.finish(skippedResult(info, skipped));
        continue;
      }
      if (!run.started) {
        run.started = true;
        await options.onFileStart?.(run.state);
      }
      await runRequest(run, node, info);
    }
  };

  // The work of a request is in runRequest, and what happens once per file (its start, its end)
  // stays here: V8 optimises runRequest early in a run, and code that had not run by then (a new
  // file's start, the first end of a file) would throw that code away when it first ran.
  const runFile = async (planned: PlannedFile): Promise<void> => {
    const fileStarted = performance.now();
    const fileTotals = emptyTotals();
    fileTotals.files = 1;
    const { file, requests } = await planned.open();
    const rel = planned.info.relativePath;
    const run: FileRun = {
      state: { file, info: planned.info, data: new Map() },
      rel,
      started: false,
      finish: (result: RequestResult) => {
        // Errors inside this file point at it by its report path, not the absolute one.
        if (result.error?.file === planned.info.path) result.error = { ...result.error, file: rel };
        tally(totals, result.status);
        tally(fileTotals, result.status);
        emit({ type: 'request:end', file: rel, result });
        if ((result.status === 'failed' || result.status === 'errored') && options.bail) bailed = true;
      },
    };
    emit({ type: 'file:start', file: planned.info });
    try {
      await runRequests(run, requests);
    } finally {
      if (run.started) await options.onFileEnd?.(run.state);
    }
    emit({
      type: 'file:end',
      file: rel,
      result: { relativePath: rel, durationMs: performance.now() - fileStarted, totals: fileTotals },
    });
  };

  // A pool of workers taking files in plan order; after a bail the rest are reported skipped.
  let next = 0;
  const concurrency = Math.max(1, Math.min(options.concurrency ?? 1, plan.length || 1));
  const worker = async () => {
    while (next < plan.length) {
      const planned = plan[next]!;
      plan[next++] = undefined;
      await runFile(planned);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const durationMs = performance.now() - started;
  const interrupted = Boolean(signal?.aborted);
  emit({ type: 'run:end', totals, durationMs, bailed, interrupted });
  return { totals, durationMs, bailed, interrupted };
}

/** The same run as an async iterator of events (for consumers that prefer pulling, like the TUI). */
export async function* runEvents(
  plan: PlannedFile[],
  execute: RequestExecutor,
  options: RunnerOptions,
): AsyncGenerator<RunEvent, RunSummary> {
  const queue: RunEvent[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  let failure: unknown;
  let summary: RunSummary | undefined;
  runPlan(plan, execute, options, (event) => {
    queue.push(event);
    wake?.();
  }).then(
    (result) => {
      summary = result;
      done = true;
      wake?.();
    },
    (error: unknown) => {
      failure = error;
      done = true;
      wake?.();
    },
  );
  for (;;) {
    while (queue.length) yield queue.shift()!;
    if (done) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  if (failure) throw failure;
  return summary!;
}
