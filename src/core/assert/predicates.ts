/** The predicates of `?? …` assertions (docs/http-format.md), as pure functions over values. */
import type { AssertionPredicate } from '../httpfile/types.js';

/**
 * parseExpected's answers that are not objects (an object or array is parsed each time: a caller
 * could change it), for the expected texts a run meets again and again: each request of a run
 * has its assertions judged with the same texts. Emptied when full, so it stays small.
 */
const primitiveExpected = new Map<string, unknown>();
const PRIMITIVE_EXPECTED_LIMIT = 1024;

/** Expected values are JSON literals when they parse as JSON, else strings. */
export function parseExpected(text: string): unknown {
  const known = primitiveExpected.get(text);
  if (known !== undefined) return known;
  const value = parseExpectedText(text);
  if (value !== undefined && (value === null || typeof value !== 'object')) {
    if (primitiveExpected.size >= PRIMITIVE_EXPECTED_LIMIT) primitiveExpected.clear();
    primitiveExpected.set(text, value);
  }
  return value;
}

function parseExpectedText(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const c = trimmed[0];
  // Only try JSON when it can plausibly be JSON: saves a throw per plain-string expectation.
  if (
    c === '{' ||
    c === '[' ||
    c === '"' ||
    c === '-' ||
    (c >= '0' && c <= '9') ||
    trimmed === 'true' ||
    trimmed === 'false' ||
    trimmed === 'null'
  ) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return trimmed;
    }
  }
  return trimmed;
}

/** Deep structural equality of JSON-like values. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], other[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const key of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, key)) return false;
    if (!deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/** Equality as a tester means it: `header content-length == 12` compares "12" with 12 as equal. */
export function looseEqual(actual: unknown, expected: unknown): boolean {
  if (deepEqual(actual, expected)) return true;
  const ta = typeof actual;
  const te = typeof expected;
  if (ta === 'string' && (te === 'number' || te === 'boolean' || expected === null)) return actual === String(expected);
  if (te === 'string' && (ta === 'number' || ta === 'boolean' || actual === null)) return String(actual) === expected;
  return false;
}

function compare(actual: unknown, expected: unknown, op: '<' | '<=' | '>' | '>='): boolean {
  let a: number | string;
  let e: number | string;
  const na =
    typeof actual === 'number' ? actual : typeof actual === 'string' && actual.trim() !== '' ? Number(actual) : NaN;
  const ne =
    typeof expected === 'number'
      ? expected
      : typeof expected === 'string' && expected.trim() !== ''
        ? Number(expected)
        : NaN;
  if (!Number.isNaN(na) && !Number.isNaN(ne)) {
    a = na;
    e = ne;
  } else if (typeof actual === 'string' && typeof expected === 'string') {
    a = actual;
    e = expected;
  } else return false;
  switch (op) {
    case '<':
      return a < e;
    case '<=':
      return a <= e;
    case '>':
      return a > e;
    case '>=':
      return a >= e;
  }
}

/** Compares with one of == != < <= > >=. */
export function compareWith(op: '==' | '!=' | '<' | '<=' | '>' | '>=', actual: unknown, expected: unknown): boolean {
  if (op === '==') return looseEqual(actual, expected);
  if (op === '!=') return !looseEqual(actual, expected);
  return compare(actual, expected, op);
}

function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value) ?? String(value);
}

const regexCache = new Map<string, RegExp>();

/** `/re/flags` or a bare pattern; throws on an invalid expression. */
export function toRegExp(text: string): RegExp {
  let re = regexCache.get(text);
  if (!re) {
    const match = /^\/(.*)\/([dgimsuyv]*)$/s.exec(text.trim());
    re = match ? new RegExp(match[1], match[2].replace(/[gy]/g, '')) : new RegExp(text.trim());
    regexCache.set(text, re);
  }
  return re;
}

/** The length of a string, array or object (number of keys); undefined for other values. */
export function lengthOf(value: unknown): number | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (value !== null && typeof value === 'object') return Object.keys(value).length;
  return undefined;
}

/**
 * Applies a predicate (without `not`). `expected` is the parsed expected value; for
 * `matches` and the string predicates it is used as text.
 */
export function applyPredicate(
  predicate: Exclude<AssertionPredicate, 'schema' | 'snapshot'>,
  actual: unknown,
  expected: unknown,
  expectedText: string,
  lengthOperator?: '==' | '!=' | '<' | '<=' | '>' | '>=',
): boolean {
  switch (predicate) {
    case '==':
    case '!=':
    case '<':
    case '<=':
    case '>':
    case '>=':
      return compareWith(predicate, actual, expected);
    case 'contains':
      if (Array.isArray(actual)) return actual.some((item) => looseEqual(item, expected));
      if (actual !== null && typeof actual === 'object' && typeof expected === 'string')
        return Object.prototype.hasOwnProperty.call(actual, expected);
      return actual !== undefined && asText(actual).includes(asText(expected));
    case 'startsWith':
      return actual !== undefined && asText(actual).startsWith(asText(expected));
    case 'endsWith':
      return actual !== undefined && asText(actual).endsWith(asText(expected));
    case 'matches':
      return actual !== undefined && toRegExp(expectedText).test(asText(actual));
    case 'exists':
      return actual !== undefined;
    case 'isNumber':
      return typeof actual === 'number' && Number.isFinite(actual);
    case 'isString':
      return typeof actual === 'string';
    case 'isBoolean':
      return typeof actual === 'boolean';
    case 'isArray':
      return Array.isArray(actual);
    case 'isObject':
      return actual !== null && typeof actual === 'object' && !Array.isArray(actual);
    case 'isNull':
      return actual === null;
    case 'isEmpty':
      return actual === undefined || actual === null || lengthOf(actual) === 0;
    case 'isTrue':
      return Boolean(actual);
    case 'isFalse':
      return !actual;
    case 'length': {
      const length = lengthOf(actual);
      return length !== undefined && compareWith(lengthOperator ?? '==', length, expected);
    }
  }
}

/** A value as shown in failure messages: JSON for data, as is for strings, truncated. */
export function showValue(value: unknown, limit = 500): string {
  let text: string;
  if (value === undefined) text = '(none)';
  else if (typeof value === 'string') text = JSON.stringify(value);
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > limit ? `${text.slice(0, limit)}… (${text.length} chars)` : text;
}
