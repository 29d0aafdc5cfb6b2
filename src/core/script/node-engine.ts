/**
 * Scripts of a trusted workspace (`dial trust`, --allow-node, DIAL_ALLOW_NODE=1): the same API
 * prelude in a node:vm context that also has `require` (resolved from the script's folder),
 * `process`, `Buffer` and real timers. This is not a sandbox: it is for code the user chose to
 * trust, such as httpyac-style scripts that read files or load local modules.
 */
import vm from 'node:vm';
import { createRequire } from 'node:module';
import { EngineFailure, type HostState } from './engine-types.js';
import { hostCall } from './host.js';
import { PRELUDE_SOURCE } from './prelude.js';

interface PreludeApi {
  run: (fn: unknown, data: string) => Promise<unknown>;
  evaluate: (fn: unknown, data: string) => string;
}

function failureOf(error: unknown): EngineFailure {
  if (error instanceof EngineFailure) return error;
  const e = (error && typeof error === 'object' ? error : { message: String(error) }) as {
    name?: unknown;
    message?: unknown;
    stack?: unknown;
    code?: unknown;
  };
  const name = typeof e.name === 'string' ? e.name : 'Error';
  const message = String(e.message ?? error);
  const stack = typeof e.stack === 'string' ? e.stack : '';
  if (e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return new EngineFailure('timeout', name, message, stack);
  if (name === 'SyntaxError' && !stack.includes('\n    at ')) return new EngineFailure('syntax', name, message, stack);
  return new EngineFailure('runtime', name, message, stack);
}

/** Runs scripts with Node access, for trusted workspaces only. */
export class NodeEngine {
  private context: vm.Context | undefined;
  private api: PreludeApi | undefined;
  private state: HostState | undefined;
  private requireFrom = '';

  constructor(private readonly timeoutMs: number) {}

  private setUp(filename: string): { context: vm.Context; api: PreludeApi } {
    this.requireFrom = filename;
    if (this.context && this.api) return { context: this.context, api: this.api };
    const context = vm.createContext({
      process,
      Buffer,
      setTimeout,
      clearTimeout,
      setInterval,
      clearInterval,
      setImmediate,
      queueMicrotask,
      URL,
      URLSearchParams,
      TextEncoder,
      TextDecoder,
    });
    const prelude = vm.runInContext(PRELUDE_SOURCE, context, { filename: 'dial-script-api' }) as (
      host: unknown,
      node: unknown,
    ) => PreludeApi;
    const host = (op: string, args: string) => hostCall(this.state, op, args);
    const node = { require: (name: string) => createRequire(this.requireFrom)(name) as unknown };
    this.api = prelude(host, node);
    this.context = context;
    return { context, api: this.api };
  }

  private compile(context: vm.Context, source: string, filename: string, lineOffset: number): unknown {
    try {
      return new vm.Script(source, { filename, lineOffset }).runInContext(context);
    } catch (error) {
      throw failureOf(error);
    }
  }

  /** Runs `source` (an async function expression taking client, request, response, console). */
  async run(source: string, filename: string, lineOffset: number, data: string, state: HostState): Promise<void> {
    const { context, api } = this.setUp(filename);
    const fn = this.compile(context, source, filename, lineOffset);
    this.state = state;
    let timer: NodeJS.Timeout | undefined;
    try {
      context.__dialCall = () => api.run(fn, data);
      const promise = vm.runInContext('__dialCall()', context, { timeout: this.timeoutMs }) as Promise<unknown>;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new EngineFailure('timeout', 'Error', 'timed out')), this.timeoutMs);
      });
      await Promise.race([promise, timeout]);
    } catch (error) {
      throw failureOf(error);
    } finally {
      if (timer) clearTimeout(timer);
      context.__dialCall = undefined;
      this.state = undefined;
    }
  }

  /** Evaluates `source` (a function expression taking response); answers its value. */
  evaluate(source: string, filename: string, lineOffset: number, data: string, state: HostState): unknown {
    const { context, api } = this.setUp(filename);
    const fn = this.compile(context, source, filename, lineOffset);
    this.state = state;
    try {
      context.__dialCall = () => api.evaluate(fn, data);
      const text = vm.runInContext('__dialCall()', context, { timeout: this.timeoutMs }) as string;
      return text === 'undefined' ? undefined : (JSON.parse(text) as { value: unknown }).value;
    } catch (error) {
      throw failureOf(error);
    } finally {
      context.__dialCall = undefined;
      this.state = undefined;
    }
  }
}
