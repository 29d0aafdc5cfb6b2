/**
 * The script sandbox: QuickJS compiled to WebAssembly (quickjs-emscripten). A script runs in its
 * own JavaScript engine with its own heap, so no object of the host program is reachable from it:
 * the only way out is the JSON-only `host` function of host.ts. Limits:
 * - time: an interrupt handler stops synchronous loops, microtask loops and timer loops alike,
 *   because dial drives the job queue and the (virtual) timers itself;
 * - memory: the engine's heap limit and a stack limit end allocation bombs and deep recursion.
 * The WebAssembly module is loaded on the first script only (about 30 ms).
 */
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { EngineFailure, type HostState } from './engine-types.js';
import { hostCall } from './host.js';
import { PRELUDE_SOURCE } from './prelude.js';

// QuickJS's own stack guard must trip before the WebAssembly host stack overflows.
const STACK_BYTES = 256 * 1024;

type Core = typeof import('quickjs-emscripten-core');
type Variant = Parameters<Core['newQuickJSWASMModuleFromVariant']>[0];
let libraryPromise: Promise<{ core: Core; variant: Variant }> | undefined;

/**
 * A fresh QuickJS WebAssembly module (its own memory). The library code loads once per process;
 * each engine gets its own module, so an engine that hit a limit is simply dropped and the
 * garbage collector frees its whole memory (QuickJS aborts when a runtime with live objects is
 * freed, and an aborted module cannot be used again).
 */
export async function loadQuickJs(): Promise<QuickJSWASMModule> {
  await useBaselineWasm();
  libraryPromise ??= (async () => {
    const core = await import('quickjs-emscripten-core');
    const variantModule = (await import('@jitl/quickjs-singlefile-cjs-release-sync')) as { default: unknown };
    const variant = ((variantModule.default as { default?: unknown }).default ?? variantModule.default) as Variant;
    return { core, variant };
  })();
  const { core, variant } = await libraryPromise;
  return core.newQuickJSWASMModuleFromVariant(variant);
}

let baselineOnly = false;

/**
 * Keeps WebAssembly on V8's baseline compiler (Liftoff). By default V8 also compiles the hot
 * functions of QuickJS's 600 KB module with its optimising compiler on background threads, and
 * the process waits for those at exit: about 0.3 s of wall time per `dial run` on a busy
 * machine, for scripts that run a few milliseconds. Set once, before the first module compiles.
 */
async function useBaselineWasm(): Promise<void> {
  if (baselineOnly) return;
  baselineOnly = true;
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--liftoff-only');
}

interface Dumped {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
}

function failureOf(dumped: unknown, timedOut: boolean): EngineFailure {
  const error = (dumped && typeof dumped === 'object' ? dumped : { message: String(dumped) }) as Dumped;
  const name = typeof error.name === 'string' ? error.name : 'Error';
  const message = typeof error.message === 'string' ? error.message : String(error.message ?? dumped);
  const stack = typeof error.stack === 'string' ? error.stack : '';
  if (timedOut || (name === 'InternalError' && message === 'interrupted'))
    return new EngineFailure('timeout', name, message, stack);
  if (name === 'InternalError' && /out of memory|stack overflow/.test(message))
    return new EngineFailure('memory', name, message, stack);
  if (name === 'SyntaxError') return new EngineFailure('syntax', name, message, stack);
  return new EngineFailure('runtime', name, message, stack);
}

/** Blocks this thread for `ms` (the engine runs synchronously, so a timer's wait is a real pause). */
const pause = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/**
 * A timer of the script (`sleep(ms)`, `setTimeout`) is `ms` from due: wait for it, as Node does, or
 * fail at once when it is due after the time limit (never run it early: the request would go out
 * sooner, with other values, than in the tool the script was written for).
 */
function waitFor(ms: number, deadline: number): boolean {
  if (Date.now() + ms > deadline)
    throw new EngineFailure(
      'timeout',
      'Error',
      `a timer (sleep() or setTimeout) is due in ${Math.ceil(ms)} ms, past that limit`,
    );
  pause(ms);
  return true;
}

/** One sandbox runtime with the API prelude loaded; made again after a script hits a limit. */
class Sandbox {
  readonly runtime: QuickJSRuntime;
  readonly context: QuickJSContext;
  readonly api: QuickJSHandle;
  deadline = Number.POSITIVE_INFINITY;
  state: HostState | undefined;

  constructor(module: QuickJSWASMModule, memoryBytes: number) {
    this.runtime = module.newRuntime();
    this.runtime.setMemoryLimit(memoryBytes);
    this.runtime.setMaxStackSize(STACK_BYTES);
    this.runtime.setInterruptHandler(() => Date.now() > this.deadline);
    this.context = this.runtime.newContext();
    const ctx = this.context;
    const host = ctx.newFunction('host', (opHandle, argsHandle) => {
      const out = hostCall(this.state, ctx.getString(opHandle), ctx.getString(argsHandle));
      return ctx.newString(out);
    });
    const prelude = ctx.unwrapResult(ctx.evalCode(PRELUDE_SOURCE, 'dial-script-api'));
    this.api = ctx.unwrapResult(ctx.callFunction(prelude, ctx.undefined, host, ctx.undefined));
    prelude.dispose();
    host.dispose();
  }
}

/** Runs scripts in a QuickJS sandbox. */
export class QuickJsEngine {
  private sandbox: Sandbox | undefined;

  constructor(
    private readonly module: QuickJSWASMModule,
    private readonly timeoutMs: number,
    private readonly memoryBytes: number,
  ) {}

  private get box(): Sandbox {
    this.sandbox ??= new Sandbox(this.module, this.memoryBytes);
    return this.sandbox;
  }

  /** Set once a script hit a limit: the engine's state is not trusted any more; make a new one. */
  spent = false;

  /** Compiles `source` (a function expression) with its first line at `lineOffset` + 1 of `filename`. */
  private compile(box: Sandbox, source: string, filename: string, lineOffset: number): QuickJSHandle {
    const result = box.context.evalCode('\n'.repeat(Math.max(0, lineOffset)) + source, filename);
    if (result.error) {
      const dumped: unknown = box.context.dump(result.error);
      result.error.dispose();
      throw failureOf(dumped, false);
    }
    return result.value;
  }

  private call(box: Sandbox, method: string, fn: QuickJSHandle, data: string): QuickJSHandle {
    const ctx = box.context;
    const methodHandle = ctx.getProp(box.api, method);
    const dataHandle = ctx.newString(data);
    try {
      const result = ctx.callFunction(methodHandle, ctx.undefined, fn, dataHandle);
      if (result.error) {
        const dumped: unknown = ctx.dump(result.error);
        result.error.dispose();
        throw failureOf(dumped, Date.now() > box.deadline);
      }
      return result.value;
    } finally {
      methodHandle.dispose();
      dataHandle.dispose();
    }
  }

  /** Runs the job queue and the timers until `promise` settles, the time is up, or nothing can settle it. */
  private settle(box: Sandbox, promise: QuickJSHandle): void {
    const ctx = box.context;
    for (;;) {
      const state = ctx.getPromiseState(promise);
      if (state.type === 'fulfilled') {
        state.value.dispose();
        this.drain(box);
        return;
      }
      if (state.type === 'rejected') {
        const dumped: unknown = ctx.dump(state.error);
        state.error.dispose();
        throw failureOf(dumped, false);
      }
      if (Date.now() > box.deadline) throw new EngineFailure('timeout', 'InternalError', 'interrupted');
      const jobs = this.jobs(box);
      if (jobs > 0 || box.runtime.hasPendingJob()) continue;
      if (!this.tick(box))
        throw new EngineFailure('stalled', 'Error', 'the script waits for a promise that nothing can resolve');
    }
  }

  /** Runs queued jobs; an interrupted job is reported as a time-out (QuickJS itself only drops it). */
  private jobs(box: Sandbox): number {
    const jobs = box.runtime.executePendingJobs();
    if (jobs.error) {
      const dumped: unknown = box.context.dump(jobs.error);
      jobs.error.dispose();
      throw failureOf(dumped, Date.now() > box.deadline);
    }
    if (Date.now() > box.deadline) throw new EngineFailure('timeout', 'InternalError', 'interrupted');
    return jobs.value;
  }

  /** Work a script left queued without awaiting it (e.g. an un-awaited promise chain) still runs, under the same limit. */
  private drain(box: Sandbox): void {
    while (box.runtime.hasPendingJob()) this.jobs(box);
  }

  private tick(box: Sandbox): boolean {
    const ctx = box.context;
    const tick = ctx.getProp(box.api, 'tick');
    try {
      const result = ctx.callFunction(tick, ctx.undefined);
      if (result.error) {
        const dumped: unknown = ctx.dump(result.error);
        result.error.dispose();
        throw failureOf(dumped, Date.now() > box.deadline);
      }
      const answer: unknown = ctx.dump(result.value);
      result.value.dispose();
      if (typeof answer === 'number') return waitFor(answer, box.deadline);
      return answer === true;
    } finally {
      tick.dispose();
    }
  }

  /** Runs `source` (an async function expression taking client, request, response, console). */
  run(source: string, filename: string, lineOffset: number, data: string, state: HostState): void {
    this.guarded(state, (box) => {
      const fn = this.compile(box, source, filename, lineOffset);
      try {
        const promise = this.call(box, 'run', fn, data);
        try {
          this.settle(box, promise);
        } finally {
          promise.dispose();
        }
      } finally {
        fn.dispose();
      }
    });
  }

  /** Evaluates `source` (a function expression taking response); answers its value as plain data. */
  evaluate(source: string, filename: string, lineOffset: number, data: string, state: HostState): unknown {
    return this.guarded(state, (box) => {
      const fn = this.compile(box, source, filename, lineOffset);
      try {
        const handle = this.call(box, 'evaluate', fn, data);
        const text = box.context.getString(handle);
        handle.dispose();
        return text === 'undefined' ? undefined : (JSON.parse(text) as { value: unknown }).value;
      } finally {
        fn.dispose();
      }
    });
  }

  private guarded<T>(state: HostState, body: (box: Sandbox) => T): T {
    const box = this.box;
    box.state = state;
    box.deadline = Date.now() + this.timeoutMs;
    try {
      return body(box);
    } catch (error) {
      // A limit, or an engine error of the host side (e.g. its own stack), leaves the runtime in doubt.
      if (
        !(error instanceof EngineFailure) ||
        error.reason === 'timeout' ||
        error.reason === 'memory' ||
        error.reason === 'stalled'
      ) {
        this.spent = true;
        this.sandbox = undefined;
      }
      if (error instanceof EngineFailure) throw error;
      throw new EngineFailure('memory', 'RangeError', error instanceof Error ? error.message : String(error));
    } finally {
      box.state = undefined;
      box.deadline = Number.POSITIVE_INFINITY;
    }
  }
}
