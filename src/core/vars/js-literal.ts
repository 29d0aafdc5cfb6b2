/**
 * A JavaScript config that is one literal: `module.exports = { … }` (or `export default { … }`)
 * whose value holds only objects, arrays, strings, numbers, `true`, `false` and `null`, with
 * unquoted or quoted keys, single or double quotes, trailing commas and comments. Such a file says
 * what it sets without running anything, so its settings can be read without Node access. Anything
 * else (a call, a variable, `process.env`, a template string, a function) gives undefined: the
 * caller then treats the file as code.
 */

type Token = { kind: 'punct' | 'string' | 'number' | 'word'; text: string; value?: unknown };

function tokenize(source: string): Token[] | undefined {
  const tokens: Token[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source[i];
    if (/\s/.test(c)) i++;
    else if (c === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) return undefined;
      i = end + 2;
    } else if ('{}[]:,;='.includes(c)) {
      tokens.push({ kind: 'punct', text: c });
      i++;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      let body = '';
      for (; j < source.length && source[j] !== c; j++) {
        if (source[j] === '\n') return undefined;
        if (source[j] === '\\') {
          const next = source[++j];
          if (next === undefined) return undefined;
          // `\'` in a single-quoted string is a plain quote; the rest are JSON's escapes.
          body += next === "'" ? "'" : next === '"' ? '\\"' : `\\${next}`;
        } else body += source[j] === '"' ? '\\"' : source[j];
      }
      if (j >= source.length) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(`"${body}"`);
      } catch {
        return undefined;
      }
      tokens.push({ kind: 'string', text: source.slice(i, j + 1), value });
      i = j + 1;
    } else {
      const number = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/.exec(source.slice(i));
      const word = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/.exec(source.slice(i));
      if (number) {
        tokens.push({ kind: 'number', text: number[0], value: Number(number[0]) });
        i += number[0].length;
      } else if (word) {
        tokens.push({ kind: 'word', text: word[0] });
        i += word[0].length;
      } else return undefined;
    }
  }
  return tokens;
}

const NOT_LITERAL = Symbol('not a literal');

function parseValue(tokens: Token[], at: { i: number }): unknown {
  const token = tokens[at.i++];
  if (!token) return NOT_LITERAL;
  if (token.kind === 'string' || token.kind === 'number') return token.value;
  if (token.kind === 'word') {
    if (token.text === 'true') return true;
    if (token.text === 'false') return false;
    if (token.text === 'null') return null;
    return NOT_LITERAL;
  }
  if (token.text === '[') {
    const list: unknown[] = [];
    while (tokens[at.i]?.text !== ']') {
      const item = parseValue(tokens, at);
      if (item === NOT_LITERAL) return NOT_LITERAL;
      list.push(item);
      if (tokens[at.i]?.text === ',') at.i++;
      else if (tokens[at.i]?.text !== ']') return NOT_LITERAL;
    }
    at.i++;
    return list;
  }
  if (token.text === '{') {
    const object: Record<string, unknown> = {};
    while (tokens[at.i]?.text !== '}') {
      const key = tokens[at.i++];
      if (!key || key.kind === 'punct' || (key.kind === 'word' && key.text.includes('.'))) return NOT_LITERAL;
      if (tokens[at.i++]?.text !== ':') return NOT_LITERAL;
      const value = parseValue(tokens, at);
      if (value === NOT_LITERAL) return NOT_LITERAL;
      const name = key.kind === 'word' ? key.text : String(key.value);
      if (name === '__proto__') return NOT_LITERAL;
      object[name] = value;
      if (tokens[at.i]?.text === ',') at.i++;
      else if (tokens[at.i]?.text !== '}') return NOT_LITERAL;
    }
    at.i++;
    return object;
  }
  return NOT_LITERAL;
}

/** The object a literal-only config exports, or undefined when the file is more than that literal. */
export function literalConfig(source: string): Record<string, unknown> | undefined {
  const tokens = tokenize(source);
  if (!tokens) return undefined;
  const at = { i: 0 };
  if (tokens[0]?.kind === 'string' && tokens[0].value === 'use strict') at.i = tokens[1]?.text === ';' ? 2 : 1;
  const head = tokens[at.i];
  if (head?.kind === 'word' && head.text === 'module.exports' && tokens[at.i + 1]?.text === '=') at.i += 2;
  else if (head?.kind === 'word' && head.text === 'export' && tokens[at.i + 1]?.text === 'default') at.i += 2;
  else return undefined;
  const value = parseValue(tokens, at);
  if (tokens[at.i]?.text === ';') at.i++;
  if (
    at.i !== tokens.length ||
    value === NOT_LITERAL ||
    value === null ||
    typeof value !== 'object' ||
    Array.isArray(value)
  )
    return undefined;
  return value as Record<string, unknown>;
}
