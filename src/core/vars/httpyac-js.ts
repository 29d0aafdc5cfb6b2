/**
 * httpyac's `{{ expression }}`: JavaScript evaluated with the variables it names in scope (a named
 * request's parsed response body included), run in dial's script sandbox (src/core/script).
 */
import { DialError } from '../errors.js';
import type { HttpFile, ScriptNode } from '../httpfile/types.js';
import { ScriptRunner } from '../script/index.js';

const RESULT = '__dialResult';
const IDENTIFIER_RE = /(?<![.\w$])[A-Za-z_$][\w$]*/g;
/** Names the sandbox provides or the language reserves: never looked up as variables. */
const BUILT_INS = new Set([
  'JSON',
  'Date',
  'Math',
  'String',
  'Number',
  'Boolean',
  'Object',
  'Array',
  'RegExp',
  'parseInt',
  'parseFloat',
  'encodeURIComponent',
  'decodeURIComponent',
  'encodeURI',
  'decodeURI',
  'isNaN',
  'isFinite',
  'undefined',
  'null',
  'true',
  'false',
  'new',
  'typeof',
  'instanceof',
  'void',
  'in',
  'of',
  'this',
  'function',
  'return',
  'const',
  'let',
  'var',
  'if',
  'else',
  'await',
  'async',
  'NaN',
  'Infinity',
  'request',
  'response',
  'client',
  'console',
  'exports',
  'module',
]);

let runner: ScriptRunner | undefined;

/** The identifiers an expression reads (outside string literals), minus built-ins: the variables to put in scope. */
export function expressionIdentifiers(expression: string): string[] {
  const code = expression.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, ' ').replace(/(["'`])(?:\\.|(?!\1)[^\\])*\1/g, '""');
  // Names the code declares itself are its own, never variables (nor requests to run).
  const declared = new Set(
    [...code.matchAll(/\b(?:const|let|var|function|class)\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]),
  );
  return [...new Set(code.match(IDENTIFIER_RE) ?? [])].filter((name) => !BUILT_INS.has(name) && !declared.has(name));
}

/** Evaluates one httpyac expression with `scope` as its variables; the value as text (JSON for objects). */
export async function evaluateHttpyacExpression(
  expression: string,
  scope: Record<string, unknown>,
  location: { file: string; line: number },
): Promise<string> {
  const declarations = Object.keys(scope)
    .map((name) => `const ${name} = __scope[${JSON.stringify(name)}];`)
    .join(' ');
  const code = ` const __scope = ${JSON.stringify(scope)}; ${declarations} const __value = (${expression}\n); request.variables.set(${JSON.stringify(RESULT)}, typeof __value === 'string' ? __value : JSON.stringify(__value));`;
  const file: HttpFile = { path: location.file, text: code, variables: [], requests: [] };
  const node: ScriptNode = { kind: 'inline', code, span: { start: 0, end: code.length, line: location.line, col: 1 } };
  const requestVariables = new Map<string, string>();
  runner ??= new ScriptRunner();
  try {
    await runner.run(node, file, { globals: new Map(), requestVariables, environment: () => undefined });
  } catch (error) {
    if (error instanceof DialError) {
      throw new DialError('E_SCRIPT', `{{${expression.trim()}}}: ${error.message}`, {
        location,
        hint: 'httpyac expressions run in dial’s script sandbox: no modules, no Buffer, no process',
      });
    }
    throw error;
  }
  const value = requestVariables.get(RESULT);
  if (value === undefined) throw new DialError('E_SCRIPT', `{{${expression.trim()}}} gave no value`, { location });
  return value;
}

/** Runs an httpyac `{{ … }}` block with `scope` as its variables; what it put on `exports`, as variable values. */
export async function runHttpyacBlock(
  code: string,
  scope: Record<string, unknown>,
  location: { file: string; line: number },
): Promise<Map<string, string>> {
  const declarations = Object.keys(scope)
    .map((name) => `const ${name} = __scope[${JSON.stringify(name)}];`)
    .join(' ');
  // The block's own declarations live in an inner scope, so they may reuse a variable's name.
  const wrapped = ` const __scope = ${JSON.stringify(scope)}; ${declarations} const exports = {}; const module = { exports }; {${code}\n} request.variables.set(${JSON.stringify(RESULT)}, JSON.stringify(module.exports));`;
  const file: HttpFile = { path: location.file, text: wrapped, variables: [], requests: [] };
  const node: ScriptNode = {
    kind: 'inline',
    code: wrapped,
    span: { start: 0, end: wrapped.length, line: location.line, col: 1 },
  };
  const requestVariables = new Map<string, string>();
  runner ??= new ScriptRunner();
  try {
    await runner.run(node, file, { globals: new Map(), requestVariables, environment: () => undefined });
  } catch (error) {
    if (error instanceof DialError)
      throw new DialError('E_SCRIPT', `httpyac {{ }} block: ${error.message}`, {
        location,
        hint: 'the block runs in dial’s script sandbox: no modules, no Buffer, no process',
      });
    throw error;
  }
  const exported = JSON.parse(requestVariables.get(RESULT) ?? '{}') as Record<string, unknown>;
  return new Map(
    Object.entries(exported).map(([name, value]) => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
}
