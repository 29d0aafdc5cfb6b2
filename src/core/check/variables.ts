/**
 * Undefined variables, per environment, without sending: every `{{name}}` a request uses (URL,
 * headers, inline body) must be set by `--var`, a `# @prompt`, a script, a file variable, the
 * environment (+ `$shared`) or `.env`. Values that are templates are followed (`{{a}}` whose
 * value uses `{{b}}`). Dynamic `{{$…}}` values and references to requests are not variables.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { findPlaceholders } from '../httpfile/placeholders.js';
import { commandVariable } from '../httpfile/metadata.js';
import { isLuaCode } from '../httpfile/scripts.js';
import { randomPlaceholderProblem } from '../vars/dynamic.js';
import { parseReference } from '../vars/references.js';
import type { HttpFile, RequestNode, Span } from '../httpfile/types.js';
import type { Finding } from './types.js';

/** What a request can read besides the environment. */
export interface VariableScope {
  cliVariables: Record<string, string>;
  /** Names any script of the workspace sets (client.global.set / request.variables.set). */
  scripted: Set<string>;
  /** Request names of the workspace (the first part of `{{login.response.body.$.x}}`). */
  requestNames: Set<string>;
  dotenv: Map<string, string>;
}

/** One environment's values; undefined name = no environment (only `$shared`). */
export interface EnvironmentValues {
  name?: string;
  values: Map<string, string>;
  /** Names of its `Security.Auth` configurations (`{{$auth.token("name")}}`). */
  auth?: Set<string>;
  /** The env file each value comes from and the secret names (./precedence.ts). */
  sources?: Map<string, string>;
  secretNames?: Set<string>;
}

const AUTH_USE = /^\$auth\.(?:token|idToken)\s*\(\s*(?:"([^"]+)"|'([^']+)')\s*\)$/;

/** `{{$auth.token("name")}}` whose configuration some environment lacks. */
function checkAuthUse(expression: string, environments: EnvironmentValues[], report: (message: string) => void): void {
  const match = AUTH_USE.exec(expression);
  if (!match) return;
  const name = match[1] ?? match[2];
  const lacking = environments.filter((environment) => !environment.auth?.has(name));
  if (lacking.length === 0) return;
  const named = lacking.map((environment) => environment.name).filter(Boolean);
  const where =
    named.length === 0
      ? ''
      : named.length === environments.length && environments.length > 1
        ? ` in every environment (${named.join(', ')})`
        : ` in environment${named.length > 1 ? 's' : ''} ${named.map((n) => `'${n}'`).join(', ')}`;
  report(`no auth configuration '${name}' (Security.Auth of the env file)${where}`);
}

type Report = (offset: number, rule: Finding['rule'], message: string) => void;

const SET_CALL =
  /(?:client\.global|request\.variables|client\.variables\.(?:global|request))\.set\(\s*(["'`])([^"'`]+)\1/g;

/** kulala's Lua: `client.global.NAME = …`, `request.environment["NAME"] = …` (and `request.variables`). */
const LUA_SET =
  /\b(?:client\s*\.\s*global|request\s*\.\s*(?:environment|variables))\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*(["'])([^"'\n]+)\2\s*\])\s*=(?!=)/g;

/** rest.nvim's Lua: `vim.env.NAME = …`, `vim.env["NAME"] = …`. */
const VIM_ENV_SET = /\bvim\s*\.\s*env\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*(["'])([^"'\n]+)\2\s*\])\s*=(?!=)/g;

/** httpyac: `exports.name = …` in `{{ }}` blocks, and the variable of `# @loop for name of …`. */
const HTTPYAC_SET =
  /\bexports\.([A-Za-z_$][\w$]*)\s*=(?!=)|^[ \t]*(?:#+|\/\/)[ \t]*@loop[ \t]+for[ \t]+(?:const[ \t]+|let[ \t]+)?([A-Za-z_$][\w$]*)[ \t]+of\b/gm;

/** The names the scripts of these files set. */
export function scriptedNames(files: HttpFile[]): Set<string> {
  const names = new Set<string>();
  for (const file of files) {
    if (file.dialect === 'httpyac')
      for (const match of file.text.matchAll(HTTPYAC_SET)) names.add(match[1] ?? match[2]);
    for (const node of file.requests) {
      // kulala's `# @env-stdin-cmd NAME …` / `# @env-json-key NAME …` set NAME.
      for (const meta of node.metadata) {
        const name = commandVariable(meta);
        if (name) names.add(name);
      }
      for (const script of [...node.preScripts, ...node.handlers]) {
        const code = script.kind === 'inline' ? script.code : scriptFileText(file, script.path);
        for (const match of code.matchAll(SET_CALL)) names.add(match[2]);
        if (script.kind === 'inline' ? isLuaCode(code) : /\.lua$/i.test(script.path))
          for (const match of code.matchAll(LUA_SET)) names.add(match[1] ?? match[3]);
        // rest.nvim's Lua: `vim.env.NAME = …` is client.global.set (its {{NAME}} falls back to vim.env).
        if (script.kind === 'inline' && script.lua === 'rest.nvim')
          for (const match of code.matchAll(VIM_ENV_SET)) names.add(match[1] ?? match[3]);
      }
    }
  }
  return names;
}

/** A `< ./script.js` / `> ./script.js` file's text ('' when it cannot be read: check reports it as missing). */
function scriptFileText(file: HttpFile, path: string): string {
  try {
    return readFileSync(resolve(dirname(file.path), path), 'utf8');
  } catch {
    return '';
  }
}

/** Spans of a request whose text is sent (placeholders in them must resolve). */
function sentSpans(node: RequestNode): Span[] {
  const spans = [node.requestLineSpan, ...node.headers.map((h) => h.span)];
  if (node.body?.kind === 'inline') spans.push(node.body.span);
  return spans;
}

/** Names an httpyac expression finds without a variable: JavaScript's globals, the sandbox's helpers, `response`. */
const HTTPYAC_EXPRESSION_GLOBALS = new Set([
  'Buffer',
  'btoa',
  'atob',
  'JSON',
  'Math',
  'Date',
  'Number',
  'String',
  'Boolean',
  'Object',
  'Array',
  'parseInt',
  'parseFloat',
  'encodeURIComponent',
  'decodeURIComponent',
  'encodeURI',
  'decodeURI',
  'require',
  'process',
  'response',
  'request',
  'undefined',
  'null',
  'true',
  'false',
  'new',
  'typeof',
]);

/**
 * Names a placeholder expression needs: none for dynamic values and request references. In
 * httpyac files an expression is JavaScript: the name it starts with (`doc` of
 * `doc.cores[0].core`); a loop pass (`cores1` of request `cores`) is a request too.
 */
function neededName(expression: string, scope: VariableScope, httpyac = false): string | undefined {
  if (!expression || expression.startsWith('$')) return undefined;
  if (httpyac) {
    const head = /^[A-Za-z_$][\w$]*/.exec(expression)?.[0];
    if (head === undefined || head !== expression.trim().split(/[.[\s(]/)[0]) return undefined;
    if (scope.requestNames.has(head) || scope.requestNames.has(head.replace(/\d+$/, ''))) return undefined;
    // httpyac's `{{jsonResponse.headers.server}}`: the response (or request) of request `json`.
    const exchange = /^(.+)(?:Response|Request)$/.exec(head)?.[1];
    if (exchange && scope.requestNames.has(exchange)) return undefined;
    // JavaScript's own names (`{{Buffer.from(user).toString('base64')}}`) and the expression's scope.
    if (HTTPYAC_EXPRESSION_GLOBALS.has(head)) return undefined;
    return head;
  }
  const reference = parseReference(expression);
  if (reference && scope.requestNames.has(reference.name)) return undefined;
  const dot = expression.indexOf('.');
  // httpyac's `{{login.token}}` after `# @ref login`.
  if (dot > 0 && scope.requestNames.has(expression.slice(0, dot))) return undefined;
  return expression;
}

/** The first name in the chain from `name` that nothing defines, or undefined when all resolve. */
function missingName(
  name: string,
  defined: (name: string) => string | undefined,
  scope: VariableScope,
  seen: Set<string>,
  /** httpyac: the values' placeholders are JavaScript too (`@session = {{refreshCookie(response)}}`). */
  httpyac = false,
): string | undefined {
  if (seen.has(name)) return undefined;
  seen.add(name);
  const value = defined(name);
  if (value === undefined) return name;
  for (const placeholder of findPlaceholders(value)) {
    const inner = neededName(placeholder.expression, scope, httpyac);
    const missing = inner === undefined ? undefined : missingName(inner, defined, scope, seen, httpyac);
    if (missing !== undefined) return missing;
  }
  return undefined;
}

/**
 * The chain `a -> b -> a` when `name` leads back to itself through environment values only
 * (`"root_uri": "{{root_uri}}"`), which `dial run` refuses as a cycle. A chain through a file
 * variable is left alone: a file variable naming itself stands for the environment's value in
 * most dialects (the resolver's rule), so only env-file chains are sure to be cycles.
 */
function environmentCycle(
  name: string,
  environmentValue: (name: string) => string | undefined,
  scope: VariableScope,
  chain: string[],
): string[] | undefined {
  if (chain.includes(name)) return [...chain.slice(chain.indexOf(name)), name];
  const value = environmentValue(name);
  if (value === undefined) return undefined;
  for (const placeholder of findPlaceholders(value)) {
    const inner = neededName(placeholder.expression, scope);
    const cycle = inner === undefined ? undefined : environmentCycle(inner, environmentValue, scope, [...chain, name]);
    if (cycle) return cycle;
  }
  return undefined;
}

/** Reports each `{{name}}` of the file's requests that some environment leaves undefined (one finding per place, naming the environments). */
export function checkVariables(
  file: HttpFile,
  environments: EnvironmentValues[],
  scope: VariableScope,
  report: Report,
  /** Variables of the files it imports (httpyac `# @import`), under its own. */
  imported: ReadonlyMap<string, string> = new Map(),
): void {
  const fileVariables = new Map([...imported, ...file.variables.map((v): [string, string] => [v.name, v.value])]);
  for (const node of file.requests) {
    // kulala's `# @secret name` asks for the value, as `# @prompt` does.
    const prompted = new Set([...node.prompts.map((p) => p.name), ...node.secrets]);
    for (const span of sentSpans(node)) {
      for (const placeholder of findPlaceholders(file.text.slice(span.start, span.end))) {
        const reference = parseReference(placeholder.expression);
        if (reference && !scope.requestNames.has(reference.name)) {
          report(
            span.start + placeholder.start,
            'missing-request',
            `{{${placeholder.expression}}} refers to request '${reference.name}', which no .http file of the workspace defines`,
          );
          continue;
        }
        if (placeholder.expression.startsWith('$random.')) {
          const problem = randomPlaceholderProblem(placeholder.expression);
          if (problem) report(span.start + placeholder.start, 'dynamic-variable', problem);
          continue;
        }
        if (placeholder.expression.startsWith('$auth.'))
          checkAuthUse(placeholder.expression, environments, (text) =>
            report(span.start + placeholder.start, 'undefined-auth', text),
          );
        const name = neededName(placeholder.expression, scope, file.dialect === 'httpyac');
        if (name === undefined) continue;
        const failing = new Map<string, string[]>();
        const cycles = new Map<string, string[]>();
        for (const environment of environments) {
          const defined = (n: string): string | undefined => {
            if (Object.hasOwn(scope.cliVariables, n) || prompted.has(n) || scope.scripted.has(n)) return '';
            return fileVariables.get(n) ?? environment.values.get(n) ?? scope.dotenv.get(n);
          };
          const missing = missingName(name, defined, scope, new Set(), file.dialect === 'httpyac');
          if (missing === undefined) {
            // Only where the run would take the value from the environment file: no --var, prompt,
            // script, file variable or .env value of that name comes first.
            const environmentValue = (n: string): string | undefined =>
              defined(n) === environment.values.get(n) && !fileVariables.has(n) ? environment.values.get(n) : undefined;
            const cycle = environmentCycle(name, environmentValue, scope, []);
            if (cycle)
              cycles.set(cycle.join(' -> '), [...(cycles.get(cycle.join(' -> ')) ?? []), environment.name ?? '']);
            continue;
          }
          failing.set(missing, [...(failing.get(missing) ?? []), environment.name ?? '']);
        }
        for (const [chain, names] of cycles) {
          const named = names.filter(Boolean);
          report(
            span.start + placeholder.start,
            'variable-cycle',
            `variable cycle: ${chain}${named.length ? ` in environment${named.length > 1 ? 's' : ''} ${named.map((n) => `'${n}'`).join(', ')}` : ''}`,
          );
        }
        for (const [missing, names] of failing)
          report(
            span.start + placeholder.start,
            'undefined-variable',
            message(name, missing, names, environments.length),
          );
      }
    }
  }
}

function message(used: string, missing: string, environments: string[], total: number): string {
  const what =
    used === missing ? `undefined variable '${used}'` : `undefined variable '${missing}' (used by '${used}')`;
  const named = environments.filter(Boolean);
  if (named.length === 0) return what;
  if (named.length === total && total > 1) return `${what} in every environment (${named.join(', ')})`;
  return `${what} in environment${named.length > 1 ? 's' : ''} ${named.map((n) => `'${n}'`).join(', ')}`;
}
