/**
 * httpyac's `{{ expression }}`: JavaScript evaluated with the variables it names in scope (a named
 * request's parsed response body included), run in dial's script sandbox (src/core/script).
 */
import { DialError } from '../errors.js';
import type { HttpFile, ScriptNode } from '../httpfile/types.js';
import { ScriptRunner, type ScriptOutcome } from '../script/index.js';
// Read by the sandbox before a block runs, so they live beside it (core/script may not import core/vars).
export { computedThisLine, httpyacExecuteNames, thisReads, unsupportedHttpyacApi } from '../script/httpyac-code.js';
import type { ResponseView } from '../assert/response-view.js';

const RESULT = '__dialResult';
// Not after a `.` (a property), except a spread's `...name`.
const IDENTIFIER_RE = /(?<![\w$]|(?<!\.\.)\.)[A-Za-z_$][\w$]*/g;
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
  // httpyac's script globals, and what the sandbox itself provides.
  'require',
  'test',
  'sleep',
  'Buffer',
  'URL',
  'URLSearchParams',
  'Promise',
  'Error',
  'TypeError',
  'Symbol',
  'Map',
  'Set',
  'setTimeout',
  'clearTimeout',
  'globalThis',
  'crypto',
  'btoa',
  'atob',
  'try',
  'catch',
  'finally',
  'throw',
  'for',
  'while',
  'do',
  'break',
  'continue',
  'switch',
  'case',
  'default',
  'delete',
  'class',
  'extends',
  'super',
  'yield',
]);

let runner: ScriptRunner | undefined;

/**
 * httpyac's `$global` (globalVariableProvider): one object shared by every script and
 * expression of a run (`$global.token = …` in a block, `{{$global.token}}` in a request).
 */
const GLOBAL = '$global';
const GLOBAL_RE = /(?<![\w$])\$global\b/;

function globalObjectJson(globals: Map<string, unknown> | undefined): string {
  const value = globals?.get(GLOBAL);
  return JSON.stringify(value !== null && typeof value === 'object' ? value : {});
}

/** True for an httpyac expression that reads `$global` (`{{$global.token}}`): JavaScript, not a dynamic variable. */
export function readsHttpyacGlobal(expression: string): boolean {
  return expression.startsWith(GLOBAL) && /^\$global(?:$|[.[\s])/.test(expression);
}

/** Where a `/` starts a regular expression rather than a division: after these, or at the start. */
const REGEX_AFTER = new Set([
  '',
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
  '~',
  '^',
]);
const REGEX_AFTER_WORDS =
  /(?:^|[^\w$])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|instanceof|yield|await)$/;

/**
 * The code of an expression without its comments, string literals (`""`), regular expression
 * literals (`""`: `/token=(\w+)/` names no variable) and the text of template literals (their
 * `${…}` parts kept): what is left is what it reads and calls.
 */
export function withoutLiterals(expression: string): string {
  let out = '';
  let i = 0;
  const n = expression.length;
  while (i < n) {
    const c = expression[i];
    const next = expression[i + 1];
    if (c === '/' && next === '*') {
      const end = expression.indexOf('*/', i + 2);
      i = end < 0 ? n : end + 2;
      out += ' ';
    } else if (c === '/' && next === '/') {
      const end = expression.indexOf('\n', i + 2);
      i = end < 0 ? n : end;
      out += ' ';
    } else if (c === '"' || c === "'") {
      let k = i + 1;
      while (k < n && expression[k] !== c) k += expression[k] === '\\' ? 2 : 1;
      i = k + 1;
      out += '""';
    } else if (c === '`') {
      let k = i + 1;
      const parts: string[] = [];
      while (k < n && expression[k] !== '`') {
        if (expression[k] === '\\') k += 2;
        else if (expression[k] === '$' && expression[k + 1] === '{') {
          // The `${…}` part, up to its matching brace.
          let depth = 1;
          let m = k + 2;
          while (m < n && depth > 0) {
            if (expression[m] === '{') depth++;
            else if (expression[m] === '}') depth--;
            m++;
          }
          parts.push(withoutLiterals(expression.slice(k + 2, m - 1)));
          k = m;
        } else k++;
      }
      i = k + 1;
      out += ` ${parts.join(' ')} `;
    } else if (c === '/' && startsRegex(out)) {
      let k = i + 1;
      let inClass = false;
      while (k < n && expression[k] !== '\n' && (inClass || expression[k] !== '/')) {
        if (expression[k] === '\\') k++;
        else if (expression[k] === '[') inClass = true;
        else if (expression[k] === ']') inClass = false;
        k++;
      }
      k++;
      while (k < n && /[a-z]/.test(expression[k])) k++;
      i = k;
      out += '""';
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** True when a `/` after `before` (the code so far) starts a regular expression. */
function startsRegex(before: string): boolean {
  const trimmed = before.trimEnd();
  return REGEX_AFTER.has(trimmed.slice(-1)) || REGEX_AFTER_WORDS.test(trimmed);
}

/** The identifiers an expression reads (outside string literals), minus built-ins: the variables to put in scope. */
export function expressionIdentifiers(expression: string): string[] {
  // Strings and regular expressions are no code, except the `${…}` parts of template literals.
  const code = withoutLiterals(expression);
  // Names the code declares itself are its own, never variables (nor requests to run).
  const declared = new Set(
    [...code.matchAll(/\b(?:const|let|var|function|class)\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]),
  );
  // `$random`, `$httpyac`, `$context`: httpyac's own objects, never variables.
  return [...new Set(code.match(IDENTIFIER_RE) ?? [])].filter(
    (name) => !BUILT_INS.has(name) && !declared.has(name) && !name.startsWith('$'),
  );
}

/** `++`, `--`, an assignment or a mutating method call: the expression may change the objects it reads. */
const MUTATION_RE =
  /\+\+|--|(?<![=!<>])=(?![=>])|\.\s*(?:push|pop|shift|unshift|splice|sort|reverse|fill|set|add|delete|clear)\s*\(|\bdelete\b/;

/** True for an expression that may change a variable it reads (`{{expression.index++}}`): evaluated each time, never cached. */
export function mayChangeVariables(expression: string): boolean {
  return MUTATION_RE.test(expression);
}

const IDENTIFIER_ONLY_RE = /^[A-Za-z_$][\w$]*$/;

/** `let name = …;` for each variable of `scope` that can be a JavaScript name (`this['a b']` reads the others). */
function declarationsOf(scope: Record<string, unknown>): string {
  const names = Object.keys(scope).filter((name) => IDENTIFIER_ONLY_RE.test(name) && !BUILT_INS.has(name));
  const revive = names.some((name) => holdsFunction(scope[name]));
  return (
    (revive ? `${REVIVE_SOURCE} ` : '') +
    names
      .map((name) =>
        revive && holdsFunction(scope[name])
          ? `let ${name} = __dialRevive(__scope[${JSON.stringify(name)}], ${JSON.stringify(name)});`
          : `let ${name} = __scope[${JSON.stringify(name)}];`,
      )
      .join(' ')
  );
}

/**
 * A function a block exported (`exports.refreshCookie = (response) => …`, or one inside an
 * exported object): httpyac keeps the function itself among the variables. dial moves variables
 * between scripts as JSON, so it carries the function's source and makes it again where it is
 * read, in that script's scope: its free names are the variables there, as they are in httpyac
 * (a block's `exports` run `with` the variables). A function that reads a name its block declared
 * for itself (a closure dial cannot carry) is made to refuse when called, naming where it came from.
 */
export interface ExportedFunction {
  [FUNCTION_KEY]: string;
  /** Names of its block it reads (const, let, function…): it fails when called. */
  __dialClosure?: string[];
  /** Where its block is (`file:line`), for that failure. */
  __dialAt?: string;
}
const FUNCTION_KEY = '__dialFunction';

function isExportedFunction(value: unknown): value is ExportedFunction {
  return (
    value !== null && typeof value === 'object' && typeof (value as Record<string, unknown>)[FUNCTION_KEY] === 'string'
  );
}

/** True when `value` is, or holds (in plain objects and arrays, a few levels deep), an exported function. */
export function holdsFunction(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object' || depth > 8) return false;
  if (isExportedFunction(value)) return true;
  return Object.values(value as Record<string, unknown>).some((item) => holdsFunction(item, depth + 1));
}

/** The variables the exported functions `value` holds read (their free names), to put in scope beside them. */
export function functionReads(value: unknown, depth = 0): string[] {
  if (value === null || typeof value !== 'object' || depth > 8) return [];
  if (isExportedFunction(value)) return value.__dialClosure ? [] : freeNames(value[FUNCTION_KEY]);
  return Object.values(value as Record<string, unknown>).flatMap((item) => functionReads(item, depth + 1));
}

/** A function's parameters: `(a, b = x)`, `a =>`, `name(a) {`, destructured ones too (defaults are read, not declared). */
function parameterNames(source: string): string[] {
  const code = withoutLiterals(source);
  const single = /^\s*(?:async\s+)?([A-Za-z_$][\w$]*)\s*=>/.exec(code);
  if (single) return [single[1]];
  const open = code.indexOf('(');
  if (open < 0) return [];
  let depth = 0;
  let close = open;
  for (; close < code.length; close++) {
    if ('([{'.includes(code[close])) depth++;
    else if (')]}'.includes(code[close]) && --depth === 0) break;
  }
  // Each name not right after `=` or `:` (a default value, or a destructured key renamed).
  const list = code.slice(open + 1, close).replace(/=[^,{}[\]]*/g, ' ');
  const names = [...list.matchAll(/(?<![\w$:]|(?<!\.\.)\.)([A-Za-z_$][\w$]*)(?!\s*:)/g)].map((m) => m[1]);
  // A method's own name (`twice(n) {…}`, `async clear() {…}`) is no read either.
  const method = /^\s*(?:async\s+)?(?:\*\s*)?([A-Za-z_$][\w$]*)\s*\(/.exec(code)?.[1];
  return method && method !== 'function' ? [...names, method] : names;
}

/** The names a function's source reads from outside itself: neither declared in it nor its parameters. */
function freeNames(source: string): string[] {
  const parameters = new Set(parameterNames(source));
  return expressionIdentifiers(source).filter((name) => !parameters.has(name));
}

/**
 * Makes the functions of an exported value again (see ExportedFunction); runs inside the script,
 * after the variables' `let`s, so a direct eval there sees them. A method written `name() {…}`
 * is made from its object literal.
 */
const REVIVE_SOURCE = `function __dialRevive(v, key) {
  if (v === null || typeof v !== 'object') return v;
  if (typeof v.${FUNCTION_KEY} === 'string') {
    if (v.__dialClosure) return function () { throw new Error('the function ' + key + ' exported at ' + v.__dialAt + ' reads ' + v.__dialClosure.join(', ') + ' of its own block, which dial cannot carry to another script: export ' + (v.__dialClosure.length > 1 ? 'them' : 'it') + ' too, or define it inside the function'); };
    var src = v.${FUNCTION_KEY};
    try { return eval('(' + src + '\n)'); } catch (e) { if (!(e instanceof SyntaxError)) throw e; }
    var made = eval('({' + src + '\n})'); var names = Object.keys(made); return made[names[0]];
  }
  if (Array.isArray(v)) { for (var i = 0; i < v.length; i++) v[i] = __dialRevive(v[i], key + '[' + i + ']'); return v; }
  for (var k of Object.keys(v)) v[k] = __dialRevive(v[k], k);
  return v;
}`.replace(/\n\s*/g, ' ');

/** Encodes a block's exports for JSON: a function as its source (plain objects and arrays are walked). */
const ENCODE_SOURCE = `const __dialEncode = function (v, depth) {
  if (typeof v === 'function') return { ${FUNCTION_KEY}: String(v) };
  if (v === null || typeof v !== 'object' || depth > 8) return v;
  if (Array.isArray(v)) return v.map(function (x) { return __dialEncode(x, depth + 1); });
  var proto = Object.getPrototypeOf(v);
  if (proto !== Object.prototype && proto !== null) return v;
  var out = {}; for (var k of Object.keys(v)) out[k] = __dialEncode(v[k], depth + 1); return out;
};`.replace(/\n\s*/g, ' ');

/**
 * Marks each exported function that reads a name its block declares outside the function (see
 * ExportedFunction), and notes where the block is.
 */
function markClosures(value: unknown, code: string, at: string, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > 8) return;
  if (isExportedFunction(value)) {
    const source = value[FUNCTION_KEY];
    value.__dialAt = at;
    if (source.includes('[native code]')) {
      value.__dialClosure = ['native code'];
      return;
    }
    const rest = code.includes(source) ? code.replace(source, ' ') : code;
    const declared = new Set(
      [...withoutLiterals(rest).matchAll(/\b(?:const|let|var|function|class)\s+([A-Za-z_$][\w$]*)/g)].map((m) => m[1]),
    );
    const closure = freeNames(source).filter((name) => declared.has(name));
    if (closure.length > 0) value.__dialClosure = closure;
    return;
  }
  for (const item of Object.values(value as Record<string, unknown>)) markClosures(item, code, at, depth + 1);
}

/** Evaluates one httpyac expression with `scope` as its variables; the value as text (JSON for objects). */
export async function evaluateHttpyacExpression(
  expression: string,
  scope: Record<string, unknown>,
  location: { file: string; line: number },
  /** httpyac's `response`: the file's last response (httpyacResponse()), when the expression names it. */
  response?: Record<string, unknown>,
  /** The run's values, for httpyac's `$global` object. */
  globals?: Map<string, unknown>,
  /**
   * Filled with the object variables the expression changed (name -> JSON): in httpyac an
   * expression works on the variables' own objects, so `{{counter.index++}}` changes `counter`.
   */
  changed?: Map<string, string>,
): Promise<string> {
  // `let`: httpyac evaluates `with` a copy of its variables, so `{{n++}}` is allowed (and changes nothing).
  const declarations = declarationsOf(scope);
  const global = GLOBAL_RE.test(expression) ? ` const $global = ${globalObjectJson(globals)};` : '';
  // httpyac's evalExpression gives `httpFile` too (see fileSource).
  const httpFile = /(?<![\w$.])httpFile\b/.test(withoutLiterals(expression)) ? ` ${fileSource(location.file)}` : '';
  const after = changed ? ` request.variables.set('__dialScope', JSON.stringify(__scope));` : '';
  const code = ` const __scope = ${JSON.stringify(scope)}; ${declarations}${global}${httpFile} { const response = ${JSON.stringify(response ?? null)} ?? undefined; const __value = ${/\bthis\b/.test(expression) ? `(function () { return (${expression}\n); }).call(__scope)` : `(${expression}\n)`}; if (__value !== undefined) request.variables.set(${JSON.stringify(RESULT)}, typeof __value === 'string' ? __value : __value instanceof Date ? __value.toISOString() : __value instanceof Error ? __value.message : JSON.stringify(__value));${after} }`;
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
  if (changed) noteChangedObjects(scope, requestVariables.get('__dialScope'), changed);
  const value = requestVariables.get(RESULT);
  if (value === undefined)
    throw new DialError('E_SCRIPT', `{{${expression.trim()}}} is undefined`, {
      location,
      hint: 'httpyac would send the {{…}} text as written; set the value first (a script that runs before, or --var)',
    });
  return value;
}

/** The object variables of `scope` whose JSON differs in `after` (the scope's JSON once the expression ran). */
function noteChangedObjects(
  scope: Record<string, unknown>,
  after: string | undefined,
  changed: Map<string, string>,
): void {
  if (after === undefined) return;
  const values = JSON.parse(after) as Record<string, unknown>;
  for (const [name, before] of Object.entries(scope)) {
    if (before === null || typeof before !== 'object') continue;
    const text = JSON.stringify(values[name]);
    if (text !== undefined && text !== JSON.stringify(before)) changed.set(name, text);
  }
}

/** httpyac `exports.$cancel = true` in a block before the request: the request is not sent (a skip, in `dial run`). */
export class HttpyacCancel extends DialError {
  constructor(
    location: { file: string; line: number } | undefined,
    message = 'the request was cancelled by its {{ }} block (exports.$cancel)',
  ) {
    super('E_INPUT', message, {
      location,
      hint: 'httpyac skips a request whose script sets exports.$cancel, and a request whose # @ref was skipped',
    });
  }
}

/** What an httpyac block sees besides its variables: the request (as written) and, after it, the response. */
export interface HttpyacBlockContext {
  request?: { method: string; url: string; headers: Record<string, string>; body?: string };
  /** Built by httpyacResponse(). */
  response?: Record<string, unknown>;
  /** `client.global`: what the block exports is kept here too, so later requests of the run see it (as in httpyac). */
  globals?: Map<string, unknown>;
  /** httpyac's `httpRegion.metaData` of the request the block belongs to (see regionSource). */
  region?: Record<string, string | true>;
}

export interface HttpyacBlockOutcome {
  /** `exports.name = value`, as variable values (JSON for objects). */
  exported: Map<string, string>;
  tests: ScriptOutcome['tests'];
  logs: string[];
  /** The `request` after the block ran (httpyac sends what a block before it changed). */
  request?: HttpyacBlockContext['request'];
}

/**
 * httpyac's `test` (testUtils.testFactory): `test(name, fn)` and its shorthands, over the
 * block's `response`; each becomes a client.test result.
 */
const HTTPYAC_TEST = `const test = function (name, fn) { client.test(String(name), typeof fn === 'function' ? fn : function () {}); };
  const __check = function (ok, message) { if (!ok) throw new Error(message); };
  const __header = function (name) { return response && response.headers ? response.headers[String(name).toLowerCase()] : undefined; };
  test.status = function (s) { test('response status equals to ' + s, function () { __check(response.statusCode === s, 'response status is ' + response.statusCode + ' (expected: ' + s + ')'); }); };
  test.totalTime = function (t) { test('total time exceeded ' + t, function () { __check(response.timings.total < t, 'total time is ' + response.timings.total + ' (expected max ' + t + ')'); }); };
  test.header = function (k, v) { test('response header ' + k + ' equals ' + v, function () { __check(__header(k) === v, 'response header ' + k + ' is ' + __header(k) + ' (expected: ' + v + ')'); }); };
  test.headerContains = function (k, v) { test('response header ' + k + ' contains ' + v, function () { __check(String(__header(k)).indexOf(v) >= 0, 'response header contains ' + v); }); };
  test.responseBody = function (v) { test('response body equals ' + v, function () { __check(response.body === v, 'response body equals ' + v); }); };
  test.hasResponseBody = function () { test('response body exists', function () { __check(!!response.body, 'response body exists'); }); };
  test.hasNoResponseBody = function () { test('response body does not exists', function () { __check(!response.body, 'response body does not exists'); }); };
  const sleep = function (ms) { return new Promise(function (done) { setTimeout(done, ms); }); };`;

/**
 * httpyac's response object (models/httpResponse): statusCode, headers (lower-case names),
 * body (text), parsedBody (JSON), contentType, timings. Scripts written for httpyac 2 read the
 * parsed body's fields on `response` itself (`response.slideshow.title`), so those are there too,
 * under the response fields.
 */
export function httpyacResponse(view: ResponseView, jwt?: string): Record<string, unknown> {
  const headers: Record<string, string> = {};
  for (const [name, value] of view.headers) {
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  }
  let parsedBody: unknown;
  if (view.isJson) {
    try {
      parsedBody = view.json();
    } catch {
      parsedBody = undefined;
    }
  }
  if (jwt !== undefined && parsedBody !== null && typeof parsedBody === 'object' && !Array.isArray(parsedBody))
    parsedBody = withParsedJwts(parsedBody as Record<string, unknown>, jwt);
  const fields = {
    statusCode: view.status,
    statusMessage: view.statusText,
    headers,
    body: view.text(),
    parsedBody,
    contentType: { mimeType: view.mimeType, charset: view.charset },
    timings: { total: view.durationMs },
  };
  const own = parsedBody !== null && typeof parsedBody === 'object' && !Array.isArray(parsedBody) ? parsedBody : {};
  return { ...own, ...fields };
}

/** The payload of a JWT (`header.payload.signature`), or undefined when the text is none. */
export function decodeJwtPayload(token: unknown): unknown {
  if (typeof token !== 'string') return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    return JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * httpyac `# @jwt [keys]` (jwtMetaDataHandler): each top-level string of the body that is a JWT
 * (only the keys the value names, when it names any) gets a `<key>_parsed` sibling with its payload.
 */
function withParsedJwts(body: Record<string, unknown>, keys: string): Record<string, unknown> {
  const result: Record<string, unknown> = { ...body };
  for (const [key, value] of Object.entries(body)) {
    if (keys && !keys.includes(key)) continue;
    const payload = decodeJwtPayload(value);
    if (payload !== undefined) result[`${key}_parsed`] = payload;
  }
  return result;
}

/**
 * httpyac's `httpRegion` in a block: dial gives its `metaData` (the request's name, title and
 * `# @key value` lines; a flag is `true`). Setting `title` or `description` (`httpRegion.metaData.title
 * = testCase.description` in a loop) only renames the request in httpyac's report; any other change,
 * and any other part of `httpRegion`, could change what is sent and fails the block at its line.
 */
function regionSource(metaData: Record<string, string | true>): string {
  return `const __dialRegionMeta = ${JSON.stringify(metaData)}; const __dialRegionBefore = JSON.stringify(__dialRegionMeta); ${limitedObjectSource('httpRegion', '{ metaData: __dialRegionMeta }', 'metaData')}`;
}
/** httpyac's `httpFile` in a block: its `fileName` (what the file's own blocks may log or read); any other part fails the block at its line. */
function fileSource(fileName: string): string {
  return limitedObjectSource('httpFile', `{ fileName: ${JSON.stringify(fileName)} }`, 'fileName');
}
/**
 * `const name = …` in a block: the object `target` (script source) through a Proxy that gives only
 * its member `kept`; reading another member, or setting any, fails the block at its line.
 */
function limitedObjectSource(name: string, target: string, kept: string): string {
  return `const ${name} = new Proxy(${target}, { get: function (target, key) { if (key === '${kept}') return target.${kept}; if (typeof key === 'symbol' || key === 'toJSON' || key === 'then') return undefined; throw new Error('${name}.' + String(key) + ' is not supported in dial scripts yet (${name}.${kept} is)'); }, set: function (target, key) { throw new Error('${name}.' + String(key) + ' cannot be set in dial scripts'); } });`;
}
const REGION_CHECK = `{ const __before = JSON.parse(__dialRegionBefore); for (const __k of new Set([...Object.keys(__before), ...Object.keys(__dialRegionMeta)])) { if (__k === 'title' || __k === 'description') continue; if (JSON.stringify(__before[__k]) !== JSON.stringify(__dialRegionMeta[__k])) throw new Error('httpRegion.metaData.' + __k + ' was changed, which dial does not apply (only title and description, which name the request in the report)'); } }`;

/** Runs an httpyac `{{ … }}` block with `scope` as its variables; what it put on `exports`, as variable values. */
export async function runHttpyacBlock(
  code: string,
  scope: Record<string, unknown>,
  location: { file: string; line: number },
  context: HttpyacBlockContext = {},
): Promise<HttpyacBlockOutcome> {
  // `let`: httpyac runs a block `with` its variables, so assigning one is allowed (and stays local).
  const declarations = declarationsOf(scope);
  const given = { request: context.request, response: context.response };
  const usesGlobal = GLOBAL_RE.test(code);
  const bare = withoutLiterals(code);
  const usesRegion = /(?<![\w$.])httpRegion\b/.test(bare);
  const usesFile = /(?<![\w$.])httpFile\b/.test(bare);
  // One line of set-up before the code (so its lines keep their numbers), the block's own
  // declarations in an inner scope (they may reuse a variable's name), then the exports. A failed
  // assert (`assert.equal(…)` outside test()) after the response is a failed test, as httpyac
  // reports it, not a crash; before the request it stops the request, as in httpyac (the region's
  // hooks stop at the error, HttpRegion.execute), so nothing is sent.
  const wrapped =
    ` const __scope = ${JSON.stringify(scope)}; const __given = ${JSON.stringify(given)}; const __variables = request.variables; ${declarations}` +
    (usesGlobal ? ` const $global = ${globalObjectJson(context.globals)};` : '') +
    // `$httpyac.execute('name')`: the request ran before the block (checked before sending: nothing else is used).
    (code.includes('$httpyac')
      ? ' const $httpyac = { execute: function () { return Promise.resolve(__scope); } };'
      : '') +
    (usesRegion ? ` ${regionSource(context.region ?? {})}` : '') +
    (usesFile ? ` ${fileSource(location.file)}` : '') +
    ` { const request = __given.request; const response = __given.response; const exports = {}; const module = { exports }; ${HTTPYAC_TEST.replace(/\n\s*/g, ' ')} try {${/\bthis\b/.test(code) ? ` await (async function () {${code}\n}).call(Object.assign({ $context: {} }, __scope));` : `${code}\n`}} catch (__e) { if (!__e || !/^(?:Script)?AssertionError/.test(__e.name) || !response) throw __e; test(__e.message, function () { throw __e; }); }` +
    (usesRegion ? ` ${REGION_CHECK}` : '') +
    ` ${ENCODE_SOURCE} let __out = await module.exports; const __values = {}; for (const __k of Object.keys(__out || {})) __values[__k] = __dialEncode(await __out[__k], 0);` +
    ` __variables.set(${JSON.stringify(RESULT)}, JSON.stringify(__values)); __variables.set('__dialRequest', JSON.stringify(request === undefined ? null : request));` +
    (usesGlobal ? ` __variables.set('__dialGlobal', JSON.stringify($global));` : '') +
    ` } `;
  const file: HttpFile = { path: location.file, text: wrapped, variables: [], requests: [] };
  const node: ScriptNode = {
    kind: 'inline',
    code: wrapped,
    span: { start: 0, end: wrapped.length, line: location.line, col: 1 },
  };
  const requestVariables = new Map<string, string>();
  runner ??= new ScriptRunner();
  let outcome: ScriptOutcome;
  try {
    outcome = await runner.run(node, file, { globals: new Map(), requestVariables, environment: () => undefined });
  } catch (error) {
    if (error instanceof DialError)
      throw new DialError('E_SCRIPT', `httpyac {{ }} block: ${error.message}`, {
        location,
        hint: error.hint ?? 'the block runs in dial’s script sandbox: require gives assert, chai and crypto only',
      });
    throw error;
  }
  const exportedValues = JSON.parse(requestVariables.get(RESULT) ?? '{}') as Record<string, unknown>;
  const exported = new Map<string, string>();
  if (exportedValues.$cancel && context.response === undefined) throw new HttpyacCancel(location);
  for (const [name, value] of Object.entries(exportedValues)) {
    if (value === undefined || name === '$cancel') continue;
    if (holdsFunction(value)) markClosures(value, code, `${location.file}:${location.line}`);
    exported.set(name, typeof value === 'string' ? value : JSON.stringify(value));
    context.globals?.set(name, value);
  }
  const global = requestVariables.get('__dialGlobal');
  if (global !== undefined) context.globals?.set(GLOBAL, JSON.parse(global));
  const changed = JSON.parse(requestVariables.get('__dialRequest') ?? 'null') as HttpyacBlockContext['request'] | null;
  return changed
    ? { exported, tests: outcome.tests, logs: outcome.logs, request: changed }
    : { exported, tests: outcome.tests, logs: outcome.logs };
}
