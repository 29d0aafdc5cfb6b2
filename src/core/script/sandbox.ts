/**
 * Runs `.http` scripts in one `node:vm` context per run, with a time limit (vm `timeout` for
 * synchronous code, a timer for promises). Compiled scripts are cached, so a handler costs
 * one call per request. Errors point at the `.http` line (the vm line offset is the line the
 * code starts on), and unsupported JetBrains APIs fail with a clear E_SCRIPT message.
 */
import vm from 'node:vm';
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { HttpFile, ScriptNode } from '../httpfile/types.js';
import type { ResponseView } from '../assert/response-view.js';
import { DialError } from '../errors.js';
import { createResponseApi, createScriptApi, ScriptAssertionError, UnsupportedApiError, type ScriptEnvironment, type ScriptRecorder, type ScriptTestResult } from './api.js';

/** A script may run this long (sync code via vm timeout, promises via a timer). */
export const SCRIPT_TIMEOUT_MS = 5000;

/** The outcome of one script. A thrown DialError (E_SCRIPT) means the script itself broke. */
export interface ScriptOutcome {
  tests: ScriptTestResult[];
  logs: string[];
}

interface Compiled {
  script: vm.Script;
  filename: string;
  lineOffset: number;
}

const ARGS = '__dialArgs';
const UNSUPPORTED_GLOBALS = ['crypto', '$random', 'WebSocket', 'websocket', 'require', 'process', 'fetch'];

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function isTimeout(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && (error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT');
}

function messageOf(error: unknown): string {
  if (error && typeof error === 'object' && 'message' in error) {
    const name = (error as { name?: unknown }).name;
    const message = String((error as { message: unknown }).message);
    return typeof name === 'string' && name !== 'Error' && name !== 'UnsupportedApiError' ? `${name}: ${message}` : message;
  }
  return String(error);
}

/** The line in `filename` a vm error points at (first stack frame or syntax error header). */
function errorLine(error: unknown, filename: string): number | undefined {
  const stack = error && typeof error === 'object' ? String((error as { stack?: unknown }).stack ?? '') : '';
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  return match ? Number(match[1]) : undefined;
}

/** Runs scripts and `?? js` expressions for one run. */
export class ScriptRunner {
  private contextCache: vm.Context | undefined;
  private readonly cache = new Map<string, Compiled>();
  private readonly expressions = new Map<string, vm.Script>();
  private readonly fileCode = new Map<string, Promise<string>>();

  constructor(private readonly timeoutMs = SCRIPT_TIMEOUT_MS) {}

  /** The vm context, made on first use: runs without scripts never pay for it. */
  private get context(): vm.Context {
    if (this.contextCache) return this.contextCache;
    const sandbox: Record<string, unknown> = {};
    for (const name of UNSUPPORTED_GLOBALS) {
      Object.defineProperty(sandbox, name, {
        get: () => {
          throw new UnsupportedApiError(name);
        },
      });
    }
    this.contextCache = vm.createContext(sandbox, { codeGeneration: { strings: false, wasm: false } });
    return this.contextCache;
  }

  private compile(code: string, filename: string, lineOffset: number): Compiled {
    const key = `${filename}\0${lineOffset}\0${code}`;
    let compiled = this.cache.get(key);
    if (!compiled) {
      // The wrapper sits on the code's first line, so vm line numbers are .http line numbers.
      const source = `(async function (client, request, response, console) {${code}\n})(${ARGS}.client, ${ARGS}.request, ${ARGS}.response, ${ARGS}.console)`;
      let script: vm.Script;
      try {
        script = new vm.Script(source, { filename, lineOffset });
      } catch (error) {
        const line = errorLine(error, filename);
        throw new DialError('E_SCRIPT', `script syntax error: ${messageOf(error)}`, { location: { file: filename, line: line ?? lineOffset + 1 } });
      }
      compiled = { script, filename, lineOffset };
      this.cache.set(key, compiled);
    }
    return compiled;
  }

  private async load(node: ScriptNode, file: HttpFile): Promise<Compiled> {
    if (node.kind === 'inline') {
      let at = file.text.indexOf(node.code, node.span.start);
      if (at < 0) at = node.span.start;
      return this.compile(node.code, file.path || '<script>', lineAt(file.text, at) - 1);
    }
    const path = resolve(dirname(file.path), node.path);
    let code = this.fileCode.get(path);
    if (!code) {
      code = readFile(path, 'utf8');
      this.fileCode.set(path, code);
    }
    try {
      return this.compile(await code, path, 0);
    } catch (error) {
      if (error instanceof DialError) throw error;
      this.fileCode.delete(path);
      throw new DialError('E_NOT_FOUND', `script file not found: ${node.path}`, { location: { file: file.path, line: node.span.line }, hint: 'script paths are relative to the .http file' });
    }
  }

  /** Runs one pre-request or handler script. Throws DialError E_SCRIPT when the script breaks or times out. */
  async run(node: ScriptNode, file: HttpFile, env: ScriptEnvironment): Promise<ScriptOutcome> {
    const compiled = await this.load(node, file);
    const recorder: ScriptRecorder = { tests: [], logs: [], pending: [] };
    const { client, request } = createScriptApi(env, recorder);
    const response = env.response ? createResponseApi(env.response) : undefined;
    const log = (client as { log: (...args: unknown[]) => void }).log;
    (this.context as Record<string, unknown>)[ARGS] = { client, request, response, console: { log, info: log, warn: log, error: log } };
    const fail = (error: unknown): never => {
      const line = errorLine(error, compiled.filename) ?? node.span.line;
      const where = { file: compiled.filename, line };
      if (isTimeout(error)) throw new DialError('E_SCRIPT', `script timed out after ${this.timeoutMs / 1000} s`, { location: where });
      if (error instanceof UnsupportedApiError) throw new DialError('E_SCRIPT', error.message, { location: where, hint: 'remove that call or run with --no-scripts' });
      throw new DialError('E_SCRIPT', `script error: ${messageOf(error)}`, { location: where });
    };
    let timer: NodeJS.Timeout | undefined;
    try {
      const promise = compiled.script.runInContext(this.context, { timeout: this.timeoutMs }) as Promise<unknown>;
      (this.context as Record<string, unknown>)[ARGS] = undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('timed out'), { code: 'ERR_SCRIPT_EXECUTION_TIMEOUT' })), this.timeoutMs);
      });
      await Promise.race([promise, timeout]);
      if (recorder.pending.length) await Promise.race([Promise.all(recorder.pending), timeout]);
    } catch (error) {
      if (error instanceof ScriptAssertionError || (error && (error as { name?: unknown }).name === 'ScriptAssertionError')) {
        const message = String((error as { message?: unknown }).message);
        recorder.tests.push({ name: message, passed: false, message });
      } else fail(error);
    } finally {
      if (timer) clearTimeout(timer);
      (this.context as Record<string, unknown>)[ARGS] = undefined;
    }
    return { tests: recorder.tests, logs: recorder.logs };
  }

  /** Evaluates a `?? js` expression over `response`; throws DialError E_SCRIPT on errors. */
  evaluate(expression: string, view: ResponseView, location: { file: string; line: number }): unknown {
    let script = this.expressions.get(expression);
    if (!script) {
      try {
        script = new vm.Script(`(${expression}\n)`, { filename: location.file || '<js>', lineOffset: location.line - 1 });
      } catch (error) {
        throw new DialError('E_SCRIPT', `invalid js expression: ${messageOf(error)}`, { location });
      }
      this.expressions.set(expression, script);
    }
    (this.context as Record<string, unknown>).response = createResponseApi(view);
    try {
      return script.runInContext(this.context, { timeout: this.timeoutMs });
    } catch (error) {
      if (isTimeout(error)) throw new DialError('E_SCRIPT', `js expression timed out after ${this.timeoutMs / 1000} s`, { location });
      throw new DialError('E_SCRIPT', `js expression failed: ${messageOf(error)}`, { location });
    } finally {
      (this.context as Record<string, unknown>).response = undefined;
    }
  }
}
