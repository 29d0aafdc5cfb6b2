/**
 * kulala's Lua scripts (`-- lua` as the first line, or a `.lua` script file), run in wasmoon (Lua
 * 5.4 compiled to WebAssembly) inside a worker thread made for that one script:
 * - the Lua state has no file, process or network access (lua-prelude.ts builds its environment
 *   from a short list), and JavaScript is unreachable from it: the data goes in and the outcome
 *   comes out as JSON text;
 * - time: the worker is terminated when the limit is reached. Lua's own instruction hook cannot
 *   be the limit: a `pcall` catches its error, and neither a pattern match (one C call) nor a
 *   `__gc` finalizer runs hooks, so only ending the thread is sure;
 * - memory: the Lua allocator refuses to pass the limit (wasmoon's setMemoryMax), and the worker's
 *   JavaScript heap has a limit of its own.
 * wasmoon loads in the worker only, on the first Lua script (about 30 ms): nothing of it is on the
 * start path of `dial send` or `dial run`.
 */
import { Worker } from 'node:worker_threads';
import { setFlagsFromString } from 'node:v8';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LUA_PRELUDE } from './lua-prelude.js';

/** What a Lua script left: its tests, logs, variables written and what it asked of the send. */
export interface LuaOutcome {
  tests: Array<{ name: string; passed: boolean; message?: string }>;
  logs: string[];
  /** Request variables written (`request.environment.NAME = value`). */
  vars: Record<string, string>;
  globals: { set: Record<string, unknown>; removed: string[]; cleared: boolean };
  control: { skip?: string; replay?: boolean };
  /** `request.url_raw` / `request.body_raw` as a pre-request script set them. */
  request: { url?: string; body?: string };
  /** kulala.utils.fs writes, in order (lua-fs.ts applies them). */
  files: Array<{ path: string; content: string; append?: boolean; pretty?: boolean }>;
  error?: { kind: 'syntax' | 'runtime' | 'memory' | 'timeout'; message: string };
}

/** The worker: loads wasmoon, runs the prelude with the script, posts the JSON outcome back. */
const WORKER_SOURCE = String.raw`
const { parentPort, workerData } = require('node:worker_threads');
const { LuaFactory } = require(workerData.wasmoon);
(async () => {
  const factory = new LuaFactory(workerData.wasm);
  const engine = await factory.createEngine({ openStandardLibs: true, injectObjects: false, enableProxy: false, traceAllocations: true });
  engine.global.setMemoryMax(workerData.memoryBytes);
  engine.global.set('DIAL_DATA', workerData.data);
  engine.global.set('DIAL_CODE', workerData.code);
  engine.global.set('DIAL_CHUNK', workerData.chunk);
  let text;
  try {
    text = engine.doStringSync(workerData.prelude);
  } catch (error) {
    const message = String(error && error.message || error);
    text = JSON.stringify({ error: { kind: /not enough memory/.test(message) ? 'memory' : 'runtime', message } });
  }
  parentPort.postMessage(typeof text === 'string' ? text : JSON.stringify({ error: { kind: 'runtime', message: 'the script engine gave no outcome' } }));
})().catch((error) => parentPort.postMessage(JSON.stringify({ error: { kind: 'runtime', message: String(error && error.message || error) } })));
`;

let located: { wasmoon: string; wasm: string } | undefined;

/**
 * Where wasmoon and its WebAssembly file are: next to the bundle (dist/lib, scripts/build.mjs
 * copies them there) or, running from the sources, in node_modules.
 */
function locate(): { wasmoon: string; wasm: string } {
  if (located) return located;
  // The bundles get their own path as __filename (bin/dial.js), vitest gives each source module
  // its own; else (tsx src/cli.ts, an ES module) the module's URL says where it is.
  const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
  const bundled = join(dirname(here), 'lib', 'wasmoon.cjs');
  if (here.endsWith('.cjs') && existsSync(bundled)) {
    located = { wasmoon: bundled, wasm: join(dirname(here), 'lib', 'wasmoon.wasm') };
  } else {
    const entry = createRequire(here).resolve('wasmoon');
    located = { wasmoon: entry, wasm: join(dirname(entry), 'glue.wasm') };
  }
  return located;
}

let workerIsolatesCompileInline = false;

/**
 * The workers' isolates compile optimised code on their own thread instead of on V8's background
 * threads. Node 20 can deadlock when a worker thread ends while one of its background compile
 * jobs waits for a garbage collection on that thread (NodePlatform::DrainTasks, nodejs/node
 * issue 54918): the worker never ends, and `dial run` stayed alive after its summary (about once
 * in 100 runs of a file with Lua scripts, seen with gdb). V8 reads the flag when it makes an
 * isolate, so the program's own isolate keeps its background compiler; a script's worker runs for
 * milliseconds and loses nothing that counts.
 */
function compileInlineInWorkers(): void {
  if (workerIsolatesCompileInline) return;
  workerIsolatesCompileInline = true;
  setFlagsFromString('--no-concurrent-recompilation');
}

/** Runs one Lua script (`code`, its first line at `lineOffset` + 1 of `chunk`) over `data` (JSON). */
export function runLua(
  code: string,
  chunk: string,
  data: Record<string, unknown>,
  limits: { timeoutMs: number; memoryBytes: number },
): Promise<LuaOutcome> {
  const { wasmoon, wasm } = locate();
  compileInlineInWorkers();
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        wasmoon,
        wasm,
        prelude: LUA_PRELUDE,
        code,
        chunk,
        data: JSON.stringify(data),
        memoryBytes: limits.memoryBytes,
      },
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
      env: {},
      stdout: true,
      stderr: true,
    });
    let done = false;
    const finish = (outcome: LuaOutcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // A worker that gave its outcome has nothing left to run and exits by itself: terminating
      // it then (a thread that has run WebAssembly) now and then never finished on Node 20, and
      // the run stayed alive after its summary. Only a script past its limit is terminated. Either
      // way the worker no longer keeps the process alive.
      if (outcome.error?.kind === 'timeout') void worker.terminate();
      worker.unref();
      resolve(outcome);
    };
    const failed = (kind: NonNullable<LuaOutcome['error']>['kind'], message: string): LuaOutcome => ({
      tests: [],
      logs: [],
      vars: {},
      globals: { set: {}, removed: [], cleared: false },
      control: {},
      request: {},
      files: [],
      error: { kind, message },
    });
    // The limit counts from the start of the worker: loading wasmoon is part of it (about 30 ms).
    const timer = setTimeout(() => finish(failed('timeout', 'time limit')), limits.timeoutMs);
    worker.on('message', (text: string) => {
      try {
        finish(normalise(JSON.parse(text) as Partial<LuaOutcome>));
      } catch {
        finish(failed('runtime', 'the script engine gave an unreadable outcome'));
      }
    });
    worker.on('error', (error: Error) =>
      finish(failed(/memory|heap/i.test(error.message) ? 'memory' : 'runtime', error.message)),
    );
    worker.on('exit', () => finish(failed('runtime', 'the script engine stopped')));
  });
}

/** Lua's JSON writes an empty list as `{}`: lists and maps are made what they should be. */
function normalise(raw: Partial<LuaOutcome>): LuaOutcome {
  const list = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);
  const map = <T>(value: unknown): Record<string, T> =>
    value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, T>) : {};
  const globals = map<unknown>(raw.globals);
  const outcome: LuaOutcome = {
    tests: list(raw.tests),
    logs: list<unknown>(raw.logs).map(String),
    vars: map<string>(raw.vars),
    globals: {
      set: map<unknown>(globals.set),
      removed: list<unknown>(globals.removed).map(String),
      cleared: globals.cleared === true,
    },
    control: map<unknown>(raw.control) as LuaOutcome['control'],
    request: map<string>(raw.request),
    files: list<LuaOutcome['files'][number]>(raw.files).filter(
      (write) => typeof write?.path === 'string' && typeof write.content === 'string',
    ),
  };
  if (raw.error) outcome.error = raw.error;
  return outcome;
}
