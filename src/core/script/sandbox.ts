/**
 * Runs `.http` scripts. By default in the QuickJS sandbox (quickjs-engine.ts), which holds no
 * host object, with a time and a memory limit; with Node access granted by the user (trust.ts)
 * in node:vm with `require` (node-engine.ts). Errors point at the `.http` line (the code is
 * compiled with its first line where it stands in the file). A script that needs Node without
 * the user's consent is refused with file:line and the way to allow it.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { HttpFile, MetadataNode, ScriptNode } from '../httpfile/types.js';
import { COMMAND_KEYS } from '../httpfile/metadata.js';
import { checkListUses, literalListNames } from '../httpfile/list-iteration.js';
import type { ResponseView } from '../assert/response-view.js';
import { DialError } from '../errors.js';
import type { ScriptEnvironment, ScriptRecorder, ScriptTestResult } from './api.js';
import {
  EngineFailure,
  scriptData,
  type HostState,
  type ScriptFileVariables,
  type SubstitutedRequest,
} from './engine-types.js';
import type { QuickJsEngine } from './quickjs-engine.js';
import type { NodeEngine } from './node-engine.js';
import { defaultNodeAccess } from './trust.js';
import { isLuaCode } from '../httpfile/scripts.js';

/** Lua scripts: kulala's (inline code whose first line is `-- lua`, or a `.lua` file) and rest.nvim's (`# @lang=lua`). */
export function isLuaScript(node: ScriptNode, code: string): boolean {
  return node.kind === 'file' ? /\.lua$/i.test(node.path) : node.lua !== undefined || isLuaCode(code);
}

/** Whose Lua API a Lua script is written against. */
export function luaApiOf(node: ScriptNode): 'kulala' | 'rest.nvim' | 'rest.nvim-0' {
  return node.kind === 'inline' && node.lua ? node.lua : 'kulala';
}

/** Default heap limit of the sandbox (128 MiB). */
export const SCRIPT_MEMORY_BYTES = 128 * 1024 * 1024;

/** A script may run this long (synchronous code, microtasks and timers alike). */
export const SCRIPT_TIMEOUT_MS = 5000;

/** The outcome of one script. A thrown DialError (E_SCRIPT) means the script itself broke. */
export interface ScriptOutcome {
  tests: ScriptTestResult[];
  logs: string[];
}

/** How a ScriptRunner runs scripts. */
export interface ScriptRunnerOptions {
  /** Whether scripts of this file may use Node (default: DIAL_ALLOW_NODE=1 or a `dial trust`ed folder). */
  allowNode?: boolean | ((path: string) => boolean);
  /** Heap limit of the sandbox (default 128 MiB). */
  memoryBytes?: number;
}

import { importStatement, nodeOnlyModules } from './modules.js';

const ALLOW_HINT =
  'scripts run sandboxed; to give this workspace Node access run `dial trust DIR`, or pass --allow-node (DIAL_ALLOW_NODE=1 in CI)';

/** The hint for a file whose scripts need Node: the command, with the file's folder filled in. */
function allowHintFor(httpFile: string): string {
  const dir = dirname(resolve(httpFile));
  const quoted = /^[\w@%+=:,./-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`;
  return `Node modules can read and write your files, so scripts run sandboxed: if you trust this folder's files, run \`dial trust ${quoted}\` once (or pass --allow-node; DIAL_ALLOW_NODE=1 in CI)`;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The line in `filename` an error points at (its first stack frame there). */
function errorLine(stack: string, filename: string): number | undefined {
  const escaped = filename.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`${escaped}:(\\d+)`).exec(stack);
  return match ? Number(match[1]) : undefined;
}

function describe(failure: EngineFailure): string {
  return failure.errorName !== 'Error' && failure.errorName !== 'UnsupportedApiError'
    ? `${failure.errorName}: ${failure.message}`
    : failure.message;
}

interface LoadedScript {
  code: string;
  filename: string;
  lineOffset: number;
}

/** Runs scripts and `?? js` expressions for one run. */
export class ScriptRunner {
  private sandbox: QuickJsEngine | undefined;
  private nodeEngine: NodeEngine | undefined;
  private readonly fileCode = new Map<string, Promise<string>>();
  private readonly allowNode: (path: string) => boolean;

  constructor(
    private readonly timeoutMs = SCRIPT_TIMEOUT_MS,
    private readonly options: ScriptRunnerOptions = {},
  ) {
    const allow = options.allowNode;
    this.allowNode = typeof allow === 'function' ? allow : allow === undefined ? defaultNodeAccess() : () => allow;
  }

  /**
   * Runs one of kulala's command lines (`# @env-stdin-cmd NAME command`) of `file` and answers its
   * output; refused (E_SCRIPT at the line) where the workspace may not run code.
   */
  async runCommand(
    meta: MetadataNode,
    file: HttpFile,
    options: { timeoutMs: number; stdin?: string; signal?: AbortSignal },
  ): Promise<string> {
    if (!this.allowNode(file.path)) throw commandRefusal(file.path, meta);
    const { runShellCommand } = await import('./shell-command.js');
    return runShellCommand(meta, { ...options, cwd: dirname(file.path), file: file.path });
  }

  /** Lets the sandbox's memory go (the runner makes a new one if used again). */
  dispose(): void {
    this.sandbox = undefined;
  }

  /** The engine for a script file; both load on first use (QuickJS, node:crypto and node:vm cost start-up time). */
  private async engineFor(path: string): Promise<QuickJsEngine | NodeEngine> {
    if (this.allowNode(path)) {
      if (!this.nodeEngine) {
        const { NodeEngine } = await import('./node-engine.js');
        this.nodeEngine ??= new NodeEngine(this.timeoutMs);
      }
      return this.nodeEngine;
    }
    if (this.sandbox?.spent) this.sandbox = undefined;
    if (!this.sandbox) {
      const { loadQuickJs, QuickJsEngine } = await import('./quickjs-engine.js');
      const module = await loadQuickJs();
      this.sandbox ??= new QuickJsEngine(module, this.timeoutMs, this.options.memoryBytes ?? SCRIPT_MEMORY_BYTES);
    }
    return this.sandbox;
  }

  private async load(node: ScriptNode, file: HttpFile): Promise<LoadedScript> {
    if (node.kind === 'inline') {
      let at = file.text.indexOf(node.code, node.span.start);
      if (at < 0) at = node.span.start;
      return { code: node.code, filename: file.path || '<script>', lineOffset: lineAt(file.text, at) - 1 };
    }
    const path = resolve(dirname(file.path), node.path);
    let code = this.fileCode.get(path);
    if (!code) {
      code = readFile(path, 'utf8');
      this.fileCode.set(path, code);
    }
    try {
      return { code: await code, filename: path, lineOffset: 0 };
    } catch {
      this.fileCode.delete(path);
      throw new DialError('E_NOT_FOUND', `script file not found: ${node.path}`, {
        location: { file: file.path, line: node.span.line },
        hint: 'script paths are relative to the .http file',
      });
    }
  }

  /**
   * Refuses, before anything is sent, a file whose scripts load a module only Node can give
   * while its workspace has no Node access, or use an ES `import` statement (E_SCRIPT at the
   * script's line). Script files are read to look.
   */
  async checkModules(file: HttpFile): Promise<void> {
    // Most files have nothing below to look at: a small loop answers that without the walk's
    // arrays per request, and the walk below is then never run often enough to be compiled
    // (it was ~18 ms of TurboFan in a 5,000-request run of script-free files).
    if (nothingToCheck(file)) return;
    // Asked only of a script that needs Node: the trust check reads trusted.json and resolves
    // the folder's real path, which a run's files without scripts never need.
    let nodeAllowed: boolean | undefined;
    const refuse = (code: string, filename: string, firstLine: number): void => {
      refuseLongWaits(code, filename, firstLine, this.timeoutMs);
      if (nodeOnlyModules(code).names.length === 0) return;
      if (!(nodeAllowed ??= this.allowNode(file.path))) this.refuseNodeModules(code, filename, firstLine, file.path);
    };
    for (const node of file.requests) {
      // A list written in the pre-request script: how the request reads it is checked up front.
      if (node.preScripts.length > 0) {
        const lists = literalListNames(node);
        if (lists.size > 0) checkListUses(file, node, lists);
      }
      const command = node.metadata.find((meta) => COMMAND_KEYS.has(meta.key));
      if (command && !(nodeAllowed ??= this.allowNode(file.path))) throw commandRefusal(file.path, command);
      for (const script of [...node.preScripts, ...node.handlers]) {
        const { code, filename, lineOffset } = await this.load(script, file);
        if (isLuaScript(script, code)) {
          const { refuseUnsupportedLua } = await import('./lua-check.js');
          const api = luaApiOf(script);
          refuseUnsupportedLua(code, filename, lineOffset + 1, node.preScripts.includes(script), api);
          if (api === 'kulala' && code.includes('kulala.utils.fs'))
            (await import('./lua-fs.js')).refuseLuaFileAccess(code, filename, lineOffset + 1, file.path);
          continue;
        }
        const location = { file: filename, line: script.kind === 'inline' ? lineOffset + 1 : script.span.line };
        const imported = importStatement(code);
        if (imported !== undefined) {
          throw new DialError(
            'E_SCRIPT',
            `the script imports '${imported}' with an ES import statement, which scripts cannot use`,
            { location, hint: `load it with require('${imported}')` },
          );
        }
        refuse(code, filename, lineOffset + 1);
        refuseUnsupportedApis(code, filename, lineOffset + 1);
      }
      // httpyac `{{ }}` blocks: their code starts at the end of the `{{` line.
      for (const block of node.httpyacScripts ?? []) await checkHttpyacBlock(block, file.path, refuse, true);
      for (const block of [...(node.httpyacRequestScripts ?? []), ...(node.httpyacPostScripts ?? [])])
        await checkHttpyacBlock(block, file.path, refuse, false);
    }
    for (const block of file.httpyacFileScripts ?? []) await checkHttpyacBlock(block, file.path, refuse, false);
    if (file.dialect === 'httpyac') refuseNodeModulesInPlaceholders(file, refuse);
  }

  /** E_SCRIPT at the line of the first `require` of a module only Node gives (the workspace has no Node access). */
  private refuseNodeModules(code: string, filename: string, firstLine: number, httpFile: string): void {
    const needed = nodeOnlyModules(code);
    if (needed.names.length === 0) return;
    const line = firstLine + (code.slice(0, needed.firstIndex).match(/\n/g)?.length ?? 0);
    throw new DialError(
      'E_SCRIPT',
      `the script loads ${needed.names.map((name) => `'${name}'`).join(', ')}, which needs Node access; nothing was sent`,
      { location: { file: filename, line }, hint: allowHintFor(httpFile) },
    );
  }

  private toDialError(
    failure: EngineFailure,
    filename: string,
    fallbackLine: number,
    what: 'script' | 'js expression',
  ): DialError {
    const location = { file: filename, line: errorLine(failure.stack, filename) ?? fallbackLine };
    switch (failure.reason) {
      case 'timeout':
        return new DialError(
          'E_SCRIPT',
          `${what} timed out after ${this.timeoutMs / 1000} s` +
            (failure.message.startsWith('a timer ') ? ` (${failure.message})` : ''),
          failure.message.startsWith('a timer ')
            ? { location, hint: 'dial waits for a script’s timers for real, within its time limit; shorten the wait' }
            : { location },
        );
      case 'memory':
        return new DialError(
          'E_SCRIPT',
          `${what} ran out of memory (${failure.message}; the sandbox allows ${Math.round((this.options.memoryBytes ?? SCRIPT_MEMORY_BYTES) / 1048576)} MiB)`,
          { location },
        );
      case 'stalled':
        return new DialError('E_SCRIPT', `${what} never finished: ${failure.message}`, { location });
      case 'syntax':
        return new DialError(
          'E_SCRIPT',
          `${what === 'script' ? 'script syntax error' : 'invalid js expression'}: ${describe(failure)}`,
          { location },
        );
      case 'runtime':
        break;
    }
    if (failure.errorName === 'NodeAccessRequired')
      return new DialError(
        'E_SCRIPT',
        `script needs Node access (${failure.message}), which this workspace has not been given`,
        { location, hint: ALLOW_HINT },
      );
    if (failure.errorName === 'UnsupportedApiError')
      return new DialError(
        'E_SCRIPT',
        `${failure.message} (supported: client, request, response, crypto, $random, assert, require of assert/chai/crypto)`,
        { location, hint: 'remove that call or run with --no-scripts' },
      );
    return new DialError(
      'E_SCRIPT',
      `${what === 'script' ? 'script error' : 'js expression failed'}: ${describe(failure)}`,
      { location },
    );
  }

  /** Runs one pre-request or handler script. Throws DialError E_SCRIPT when the script breaks or hits a limit. */
  async run(node: ScriptNode, file: HttpFile, env: ScriptEnvironment): Promise<ScriptOutcome> {
    const script = await this.load(node, file);
    if (isLuaScript(node, script.code)) {
      const { runLuaScript } = await import('./lua-run.js');
      return runLuaScript(script, node, file, env, {
        timeoutMs: this.timeoutMs,
        memoryBytes: this.options.memoryBytes ?? SCRIPT_MEMORY_BYTES,
      });
    }
    const engine = await this.engineFor(script.filename);
    const recorder: ScriptRecorder = { tests: [], logs: [], pending: [] };
    const state: HostState = { env, recorder };
    // The wrapper sits on the code's first line, so engine line numbers are .http line numbers.
    const source = `(async function (client, request, response, console) {${script.code}\n})`;
    try {
      const substituted = await substitutedRequest(env, script.code);
      const fileVariables = await scriptFileVariables(env, script.code, file);
      await engine.run(source, script.filename, script.lineOffset, scriptData(env, substituted, fileVariables), state);
    } catch (error) {
      if (!(error instanceof EngineFailure)) throw error;
      if (error.reason === 'runtime' && error.errorName === 'ClientExit') {
        // client.exit(): the script ends there, as JetBrains ends it; nothing failed.
      } else if (error.reason === 'runtime' && error.errorName === 'ScriptAssertionError') {
        recorder.tests.push({ name: error.message, passed: false, message: error.message });
      } else throw this.toDialError(error, script.filename, node.span.line, 'script');
    }
    return { tests: recorder.tests, logs: recorder.logs };
  }

  /** Evaluates a `?? js` expression over `response`; resolves to its value (plain data), rejects with DialError E_SCRIPT. */
  async evaluate(
    expression: string,
    view: ResponseView,
    location: { file: string; line: number },
    /** httpyac: the request's name, bound to the response body where the expression uses it. */
    ownName?: string,
  ): Promise<unknown> {
    const filename = location.file || '<js>';
    const engine = await this.engineFor(filename);
    const env: ScriptEnvironment = {
      globals: new Map(),
      requestVariables: new Map(),
      environment: () => undefined,
      response: view,
    };
    const state: HostState = { env, recorder: { tests: [], logs: [], pending: [] } };
    try {
      return engine.evaluate(
        `(function (response) { ${ownNameBinding(expression, ownName)}return (${expression}\n); })`,
        filename,
        location.line - 1,
        scriptData(env),
        state,
      );
    } catch (error) {
      if (!(error instanceof EngineFailure)) throw error;
      const dialError = this.toDialError(error, filename, location.line, 'js expression');
      throw new DialError('E_SCRIPT', dialError.message, { location });
    }
  }
}

/**
 * JetBrains' `request.url.tryGetSubstituted()` and friends, computed before a script that calls
 * them runs, with the request variables set before it; a variable the script sets itself and then
 * reads this way is caught at the call (host.ts, `checkSubstituted`), never left in silently.
 */
async function substitutedRequest(env: ScriptEnvironment, code: string): Promise<SubstitutedRequest | undefined> {
  const request = env.request;
  if (!request?.substitute || !code.includes('tryGetSubstituted')) return undefined;
  const substitute = (text: string) => request.substitute!(text, env.requestVariables);
  const headers: string[] = [];
  for (const [, value] of request.headers ?? []) headers.push(await substitute(value));
  return {
    url: await substitute(request.url),
    headers,
    body: request.body?.kind === 'inline' ? await substitute(request.body.text) : null,
  };
}

const FILE_GET = /\bvariables\s*\.\s*file\s*\.\s*get\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g;
/** A placeholder that names a variable or a dynamic one, not another request's exchange. */
const PLAIN_PLACEHOLDER = /\{\{\s*(?:[\w-]+|\$[\w.]+(?:\s[^{}]*)?)\s*\}\}/g;

/**
 * JetBrains' `client.variables.file.get("name")`: the file's `@name = value` variables the code
 * names literally, with their `{{…}}` filled in for this request (a value that reads another
 * request is left out: reading it is an error at the call, since filling it in would send that
 * request for a script's read).
 */
async function scriptFileVariables(
  env: ScriptEnvironment,
  code: string,
  file: HttpFile,
): Promise<ScriptFileVariables | undefined> {
  if (!code.includes('file') || file.variables.length === 0) return undefined;
  const names = new Set([...code.matchAll(FILE_GET)].map((match) => match[2]));
  const declared = [...new Set(file.variables.map((variable) => variable.name))];
  const values: Record<string, string> = {};
  const substitute = env.request?.substitute;
  for (const name of names) {
    const variable = file.variables.findLast((v) => v.name === name);
    if (!variable) continue;
    if (!variable.value.includes('{{')) values[name] = variable.value;
    else if (
      substitute &&
      variable.value.replace(PLAIN_PLACEHOLDER, '') === variable.value.replace(/\{\{[^{}]*\}\}/g, '')
    ) {
      const filled = await substitute(variable.value, env.requestVariables);
      if (!/\{\{[^{}]*\}\}/.test(filled)) values[name] = filled;
    }
  }
  return { values, declared };
}

/**
 * JetBrains script APIs that change what is sent and whose meaning dial does not implement:
 * `request.templateValue(i)` (a pass's value of the i-th collection placeholder) and the global
 * `xpath(node, expression)` over the DOM JetBrains makes of an XML body, and a streamed body's
 * `onEachLine` / `onEachMessage` subscriptions. Running such a
 * file would send something else, so it is refused before anything is sent. (A list in
 * `request.variables.set`, one request per item, is done: httpfile/list-iteration.ts;
 * `client.global.headers` too: session prepare.)
 */
const UNSUPPORTED_APIS: Array<[RegExp, string, string]> = [
  [
    /\brequest\.templateValue\s*\(/,
    'request.templateValue() (the value of a collection placeholder in this pass)',
    'read the item with request.variables.get(name)[request.iteration()]',
  ],
  [
    /(?<![\w$.])xpath\s*\(/,
    "xpath(node, expression) (JetBrains' XPath over an XML response body's DOM)",
    'test the XML body with a `?? xpath //path == value` assertion line instead',
  ],
  [
    /\.\s*onEach(?:Line|Message)\s*\(/,
    'response.body.onEachLine() / onEachMessage() (JetBrains: a streamed response, line by line or message by message)',
    'test the whole body (response.body) or use `?? body` assertion lines',
  ],
];

function refuseUnsupportedApis(code: string, filename: string, firstLine: number): void {
  for (const [pattern, what, hint] of UNSUPPORTED_APIS) {
    const match = pattern.exec(code);
    if (!match) continue;
    const line = firstLine + (code.slice(0, match.index).match(/\n/g)?.length ?? 0);
    throw new DialError('E_SCRIPT', `${what} is not supported; nothing was sent`, {
      location: { file: filename, line },
      hint,
    });
  }
}

/**
 * The checks of an httpyac `{{ }}` block (`before`: one above the request line), then what dial
 * refuses in it before anything is sent (E_SCRIPT at the line): `this[key]` with a key it cannot
 * tell before the block runs (httpyac's `this` holds every variable, dial's only those the code
 * names), and any use of the `$httpyac` API but `$httpyac.execute('name')` in a block before the request.
 */
async function checkHttpyacBlock(
  block: { code: string; line: number },
  file: string,
  refuse: (code: string, filename: string, firstLine: number) => void,
  before: boolean,
): Promise<void> {
  refuse(block.code, file, block.line);
  if (!block.code.includes('this') && !block.code.includes('$httpyac')) return;
  const { computedThisLine, unsupportedHttpyacApi } = await import('./httpyac-code.js');
  const line = computedThisLine(block.code, block.line);
  if (line !== undefined)
    throw new DialError('E_SCRIPT', 'this[…] with a computed key is not supported in a {{ }} block; nothing was sent', {
      location: { file, line },
      hint: "name the variable (this.name, this['name'], or just name); a loop pass's own response: this[`name${$index}`]",
    });
  const api = unsupportedHttpyacApi(block.code, before);
  if (api !== undefined)
    throw new DialError('E_SCRIPT', 'this use of httpyac’s $httpyac API is not supported; nothing was sent', {
      location: { file, line: block.line + (block.code.slice(0, api).match(/\n/g)?.length ?? 0) },
      hint: "dial runs $httpyac.execute('name') in a {{ }} block above the request (as # @forceRef name); for $httpyac.import use # @import",
    });
}

/** `sleep(10000)`, `setTimeout(fn, 10000)`: a wait written as a number. */
const LITERAL_WAIT_RE = /\b(?:sleep\s*\(\s*|set(?:Timeout|Interval)\s*\([^;]*?,\s*)(\d[\d_]*)\s*\)/g;

/**
 * E_SCRIPT, before anything is sent, at a wait written as a number longer than the script time
 * limit: timers wait for real (never cut short), so the script would fail there anyway, after the
 * requests before it went out. Waits the code computes are checked when they happen.
 */
function refuseLongWaits(code: string, filename: string, firstLine: number, timeoutMs: number): void {
  if (!/sleep|setTimeout|setInterval/.test(code)) return;
  for (const match of code.matchAll(LITERAL_WAIT_RE)) {
    const ms = Number(match[1].replace(/_/g, ''));
    if (ms <= timeoutMs) continue;
    const line = firstLine + (code.slice(0, match.index).match(/\n/g)?.length ?? 0);
    throw new DialError(
      'E_SCRIPT',
      `the script waits ${ms} ms, past the ${timeoutMs / 1000} s script time limit; nothing was sent`,
      {
        location: { file: filename, line },
        hint: 'dial waits for a script’s timers for real, within its time limit; shorten the wait (or use # @sleep before the request)',
      },
    );
  }
}

/** E_SCRIPT for kulala's `# @env-stdin-cmd` (a shell command) in a workspace the user has not trusted. */
function commandRefusal(file: string, meta: MetadataNode): DialError {
  return new DialError(
    'E_SCRIPT',
    `\`# @${meta.key}\` runs a shell command, which this workspace has not been allowed to do; nothing was sent`,
    {
      location: { file, line: meta.span.line },
      hint: 'to let this workspace run commands (and Node in scripts) run `dial trust DIR`, or pass --allow-node (DIAL_ALLOW_NODE=1 in CI)',
    },
  );
}

/** httpyac `{{ require('x')… }}` expressions in requests: the same check, at the placeholder's line. */
/**
 * True when checkModules would find nothing to check in the file: no pre-request script or
 * handler, no command metadata, no httpyac `{{ }}` block, and in an httpyac file no `require`
 * in its text (refuseNodeModulesInPlaceholders looks no further without one).
 */
function nothingToCheck(file: HttpFile): boolean {
  if (file.httpyacFileScripts?.length) return false;
  if (file.dialect === 'httpyac' && file.text.includes('require')) return false;
  const { requests } = file;
  for (let i = 0; i < requests.length; i++) {
    const node = requests[i];
    if (node.preScripts.length > 0 || node.handlers.length > 0) return false;
    if (node.httpyacScripts?.length || node.httpyacRequestScripts?.length || node.httpyacPostScripts?.length)
      return false;
    const { metadata } = node;
    for (let j = 0; j < metadata.length; j++) if (COMMAND_KEYS.has(metadata[j].key)) return false;
  }
  return true;
}

function refuseNodeModulesInPlaceholders(
  file: HttpFile,
  refuse: (code: string, filename: string, firstLine: number) => void,
): void {
  if (!file.text.includes('require')) return;
  for (const node of file.requests) {
    const text = file.text.slice(node.requestLineSpan.start, node.span.end);
    for (const match of text.matchAll(/\{\{([^{}\n]*\brequire\s*\([^{}\n]*)\}\}/g)) {
      const line = node.requestLineSpan.line + (text.slice(0, match.index).match(/\n/g)?.length ?? 0);
      refuse(match[1], file.path, line);
    }
  }
}

/** `const name = response.body; ` when `name` is an identifier the expression uses (and not `response`). */
function ownNameBinding(expression: string, name: string | undefined): string {
  if (!name || name === 'response' || !/^[A-Za-z_$][\w$]*$/.test(name)) return '';
  return new RegExp(`(?<![\\w$.])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(expression)
    ? `const ${name} = response.body; `
    : '';
}
