/**
 * The `?? <query> [argument] [not] <predicate> [expected]` line (httpyac's syntax, extended).
 *
 * Grammar, scanned left to right over whitespace-separated tokens:
 * - query: status | header | body | duration | js | xpath (case-insensitive);
 * - argument: `header` takes one token (the name); `body` takes one when it starts with `$`
 *   (a JSONPath; brackets and quotes are balanced, so `$[?(@.a == 1)]` is one token);
 *   `xpath` takes one balanced token; `js` takes every token up to the first token that is a
 *   predicate (or `not` followed by a predicate) at bracket depth 0 outside quotes, so
 *   `?? js response.body.a + 1 == 2` has the argument `response.body.a + 1`;
 * - `not` (optional), then the predicate (case-insensitive, `includes` = `contains`);
 * - expected: the rest of the line, trimmed (may hold spaces and {{variables}});
 *   `length` takes a comparison operator then the expected number; `schema` a path;
 *   `snapshot` optionally `ignore $.a $.b`; the type predicates and `exists` take nothing.
 */
import { isTrimmedSpace, trimmedSlice } from './trim.js';
import type { AssertionNode, AssertionPredicate, AssertionQuery } from './types.js';

const QUERIES = new Set<AssertionQuery>(['status', 'header', 'body', 'duration', 'js', 'xpath']);

const COMPARISONS = ['==', '!=', '<', '<=', '>', '>='] as const;
type Comparison = (typeof COMPARISONS)[number];

const PREDICATES = new Map<string, AssertionPredicate>([
  ...COMPARISONS.map((op) => [op, op] as [string, AssertionPredicate]),
  // httpyac's other names (see HTTPYAC_ASSERT_RE for what httpyac makes of `===` and `!==`).
  ['===', '=='],
  ['!==', '!='],
  ['equals', '=='],
  ['contains', 'contains'],
  ['includes', 'contains'],
  ['startswith', 'startsWith'],
  ['endswith', 'endsWith'],
  ['matches', 'matches'],
  ['exists', 'exists'],
  ['isnumber', 'isNumber'],
  ['isstring', 'isString'],
  ['isboolean', 'isBoolean'],
  ['isarray', 'isArray'],
  ['isobject', 'isObject'],
  ['isnull', 'isNull'],
  ['isempty', 'isEmpty'],
  ['istrue', 'isTrue'],
  ['isfalse', 'isFalse'],
  ['length', 'length'],
  ['schema', 'schema'],
  ['snapshot', 'snapshot'],
]);

const UNARY = new Set<AssertionPredicate>([
  'exists',
  'isNumber',
  'isString',
  'isBoolean',
  'isArray',
  'isObject',
  'isNull',
  'isEmpty',
  'isTrue',
  'isFalse',
]);

/** A parse failure inside an assertion: `offset` is the index in the text given to parseAssertion. */
export class AssertionSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    readonly hint?: string,
  ) {
    super(message);
  }
}

interface Token {
  text: string;
  start: number;
  end: number;
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9;
}

/** The next whitespace-separated token from `pos`; `balanced` keeps brackets and quotes together. */
function nextToken(s: string, pos: number, balanced: boolean): Token | undefined {
  let i = pos;
  while (i < s.length && isSpace(s.charCodeAt(i))) i++;
  if (i >= s.length) return undefined;
  const start = i;
  let depth = 0;
  let quote = '';
  for (; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
      continue;
    }
    if (balanced) {
      if (c === '"' || c === "'" || c === '`') {
        quote = c;
        continue;
      }
      if (c === '(' || c === '[' || c === '{') depth++;
      else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--;
    }
    if (depth === 0 && isSpace(s.charCodeAt(i))) break;
  }
  return { text: s.slice(start, i), start, end: i };
}

function predicateOf(token: Token | undefined): AssertionPredicate | undefined {
  return token ? PREDICATES.get(token.text.toLowerCase()) : undefined;
}

const PREDICATE_HINT =
  'predicates: == != < <= > >= contains includes startsWith endsWith matches exists isNumber isString isBoolean isArray isObject isNull isEmpty isTrue isFalse length schema snapshot (optionally preceded by not)';

/** The argument of a query (`header NAME`, `body $.path`, `js EXPR`, `xpath EXPR`) and where the rest starts. */
function readArgument(text: string, query: AssertionQuery, pos: number): { argument?: string; pos: number } {
  if (query === 'header' || query === 'xpath') {
    const token = nextToken(text, pos, query === 'xpath');
    if (!token)
      throw new AssertionSyntaxError(
        `'${query}' needs ${query === 'header' ? 'a header name' : 'an expression'}`,
        text.length,
      );
    return { argument: token.text, pos: token.end };
  }
  if (query === 'body') {
    const token = nextToken(text, pos, true);
    if (token && token.text.startsWith('$')) return { argument: token.text, pos: token.end };
    // httpyac's `?? body form exists`: a property path of the parsed body.
    if (
      token &&
      /^[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*|\[\d+\])*$/.test(token.text) &&
      !predicateOf(token) &&
      token.text !== 'not'
    )
      return { argument: `$.${token.text}`, pos: token.end };
    return { pos };
  }
  if (query === 'js') return readJsExpression(text, pos);
  return { pos };
}

/** `js EXPR`: the expression runs up to the first predicate (or `not` and a predicate). */
function readJsExpression(text: string, pos: number): { argument: string; pos: number } {
  const tokens: Token[] = [];
  let at = pos;
  for (;;) {
    const token = nextToken(text, at, true);
    if (!token) break;
    tokens.push(token);
    at = token.end;
  }
  let stop = -1;
  for (let j = 1; j < tokens.length; j++) {
    if (predicateOf(tokens[j]) || (tokens[j].text === 'not' && predicateOf(tokens[j + 1]))) {
      stop = j;
      break;
    }
  }
  if (tokens.length === 0) throw new AssertionSyntaxError("'js' needs an expression", text.length);
  if (stop < 0)
    throw new AssertionSyntaxError(
      'missing predicate after the js expression',
      text.length,
      'add one such as `== true` or `exists`',
    );
  return { argument: text.slice(tokens[0].start, tokens[stop - 1].end), pos: tokens[stop - 1].end };
}

/** `?? body schema PATH` and `?? body snapshot [ignore $.a $.b]` (dial extensions). */
function readBodyCheck(
  text: string,
  node: Omit<AssertionNode, 'span'>,
  predicateToken: Token,
  rest: string,
): Omit<AssertionNode, 'span'> {
  const predicate = node.predicate;
  if (node.query !== 'body')
    throw new AssertionSyntaxError(
      `'${predicate}' applies to the body only`,
      predicateToken.start,
      `write \`?? body ${predicate}${predicate === 'schema' ? ' ./x.schema.json' : ''}\``,
    );
  if (predicate === 'schema') {
    if (!rest)
      throw new AssertionSyntaxError(
        "'schema' needs the path of a JSON Schema file",
        text.length,
        'write `?? body schema ./widget.schema.json`',
      );
    node.expected = rest;
    return node;
  }
  if (!rest) return node;
  const keyword = nextToken(text, predicateToken.end, false)!;
  if (keyword.text !== 'ignore')
    throw new AssertionSyntaxError(
      `unexpected '${keyword.text}' after snapshot`,
      keyword.start,
      'write `?? body snapshot ignore $.createdAt $.id`',
    );
  const ignore: string[] = [];
  let at = keyword.end;
  for (let t = nextToken(text, at, true); t; t = nextToken(text, at, true)) {
    ignore.push(t.text);
    at = t.end;
  }
  if (ignore.length === 0)
    throw new AssertionSyntaxError(
      "'ignore' needs JSONPaths",
      text.length,
      'write `?? body snapshot ignore $.createdAt $.id`',
    );
  node.ignore = ignore;
  return node;
}

/** `length <op> N`. */
function readLength(text: string, node: Omit<AssertionNode, 'span'>, pos: number): Omit<AssertionNode, 'span'> {
  const op = nextToken(text, pos, false);
  if (!op || !(COMPARISONS as readonly string[]).includes(op.text)) {
    throw new AssertionSyntaxError(
      "'length' needs a comparison",
      op ? op.start : text.length,
      'write `?? body $.items length > 0`',
    );
  }
  node.lengthOperator = op.text as Comparison;
  const expected = text.slice(op.end).trim();
  if (!expected) throw new AssertionSyntaxError("'length' needs a number to compare with", text.length);
  node.expected = expected;
  return node;
}

/** Parses the text after `??` (without it) into an assertion; throws AssertionSyntaxError. */
export function parseAssertion(text: string): Omit<AssertionNode, 'span'> {
  const source = text.trim();
  const first = nextToken(text, 0, false);
  if (!first) throw new AssertionSyntaxError('empty assertion', 0, 'write `?? status == 200`');
  const query = first.text.toLowerCase() as AssertionQuery;
  if (!QUERIES.has(query)) {
    throw new AssertionSyntaxError(
      `unknown assertion query '${first.text}'`,
      first.start,
      'queries: status, header, body, duration, js, xpath',
    );
  }
  const read = readArgument(text, query, first.end);
  let pos = read.pos;
  let token = nextToken(text, pos, false);
  let not = false;
  if (token && token.text === 'not') {
    not = true;
    pos = token.end;
    token = nextToken(text, pos, false);
  }
  if (!token) throw new AssertionSyntaxError('missing predicate', text.length, PREDICATE_HINT);
  const predicate = predicateOf(token);
  if (!predicate)
    throw new AssertionSyntaxError(`unknown assertion predicate '${token.text}'`, token.start, PREDICATE_HINT);
  pos = token.end;
  const rest = trimmedSlice(text, pos, text.length);
  const restStart = rest ? text.indexOf(rest, pos) : text.length;
  const node: Omit<AssertionNode, 'span'> = { source, query, not, predicate };
  if (read.argument !== undefined) node.argument = read.argument;

  if (UNARY.has(predicate)) {
    if (rest) throw new AssertionSyntaxError(`'${token.text}' takes no value`, restStart);
    return node;
  }
  if (predicate === 'schema' || predicate === 'snapshot') return readBodyCheck(text, node, token, rest);
  if (predicate === 'length') return readLength(text, node, pos);
  if (!rest) throw new AssertionSyntaxError(`'${token.text}' needs an expected value`, text.length);
  node.expected = rest;
  return node;
}

/**
 * httpyac's predicate names, in the order its assert parser lists them (assertHttpRegionParser):
 * a `??` line is an httpyac test only when one of them follows a space somewhere after the first
 * word; otherwise httpyac reads the line as something else (body text, after a request line).
 */
const HTTPYAC_PREDICATE_IDS = [
  'endsWith',
  '==',
  '===',
  'equals',
  'exists',
  'isTrue',
  '>=',
  '>',
  'contains',
  'includes',
  'isArray',
  'isBoolean',
  'isNumber',
  'isString',
  '<=',
  '<',
  'matches',
  '!=',
  '!==',
  'not equals',
  'startsWith',
  'sha256',
  'md5',
  'sha512',
  'isFalse',
];

/**
 * httpyac's assert line: `?? type [value] predicate [expected]`. The value is greedy and the
 * predicate needs no space after it, so `?? status === 200` is `==` with the expected text
 * `= 200` there (a test that never holds), and `?? status 200` is no test at all.
 */
const HTTPYAC_ASSERT_RE = new RegExp(
  `^\\s*\\?\\?\\s*(?<type>[^\\s]*)(\\s+(?<value>.*))?\\s+(?<predicate>(${HTTPYAC_PREDICATE_IDS.join('|')}))\\s*(?<expected>.*)\\s*$`,
  'iu',
);

/** The parts httpyac reads from a `??` line, or undefined when httpyac does not read it as a test. */
export function httpyacAssertParts(line: string): { type: string; predicate: string; expected: string } | undefined {
  const match = HTTPYAC_ASSERT_RE.exec(line);
  const groups = match?.groups;
  if (!groups?.type || !groups.predicate) return undefined;
  return { type: groups.type, predicate: groups.predicate, expected: groups.expected ?? '' };
}

/** The queries httpyac answers (its provideAssertValue hooks); any other word there tests the value `false`. */
export const HTTPYAC_QUERIES = new Set(['status', 'header', 'body', 'js', 'duration', 'xpath']);

/** `==` or `!=` followed (after any spaces) by `=`: where httpyac's reading of a test differs from dial's. */
const EQUALS_AFTER_PREDICATE_RE = /[=!]=\s*=/;

/**
 * True when httpyacOnlyTest has nothing to say about a `??` line (`at` just past the `??`),
 * answered without httpyac's assert pattern (a backtracking search over 27 predicates, run for
 * every test line of every file): its query, the first word (what the pattern's `type` group
 * takes whenever it matches), is one httpyac has, and no `==`/`!=` is followed by `=`, so the
 * pattern's `expected` cannot start with `=` after either. Whitespace as the pattern's `\s`
 * (isTrimmedSpace is the same set).
 */
export function httpyacReadsAsDial(line: string, at: number): boolean {
  let from = at;
  while (from < line.length && isTrimmedSpace(line.charCodeAt(from))) from++;
  let to = from;
  while (to < line.length && !isTrimmedSpace(line.charCodeAt(to))) to++;
  return HTTPYAC_QUERIES.has(line.slice(from, to).toLowerCase()) && !EQUALS_AFTER_PREDICATE_RE.test(line);
}

/** Prints an assertion in canonical form (without the leading `?? `). */
export function formatAssertion(assertion: Omit<AssertionNode, 'span' | 'source'>): string {
  const parts: string[] = [assertion.query];
  if (assertion.argument !== undefined) parts.push(assertion.argument);
  if (assertion.not) parts.push('not');
  parts.push(assertion.predicate);
  if (assertion.predicate === 'length' && assertion.lengthOperator) parts.push(assertion.lengthOperator);
  if (assertion.predicate === 'snapshot' && assertion.ignore?.length) parts.push('ignore', ...assertion.ignore);
  else if (assertion.expected !== undefined) parts.push(assertion.expected);
  return parts.join(' ');
}
