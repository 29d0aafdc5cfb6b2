/**
 * A small JSON reader and printer that keeps what JSON.parse loses: the original key order
 * (integer-like keys included), duplicate keys, and number literals exactly as written
 * (`1.0`, `1e3`, 20-digit ids). Used to pretty-print responses and to build request bodies.
 */
import type { Style } from '../style.js';

/** A JSON value with its source spelling kept where it matters. */
export type JsonNode =
  | { type: 'null' }
  | { type: 'boolean'; value: boolean }
  /** `raw` is the literal as written, e.g. `1.50` or `12345678901234567890`. */
  | { type: 'number'; raw: string }
  /** `raw` is the quoted literal as written, escapes included. */
  | { type: 'string'; raw: string }
  | { type: 'array'; items: JsonNode[] }
  | { type: 'object'; entries: JsonEntry[] };

export interface JsonEntry {
  /** The quoted key literal as written. */
  keyRaw: string;
  value: JsonNode;
}

/** Thrown for malformed JSON; `offset` is the 0-based index of the offending character. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// A string literal: no raw control characters, only valid escapes.
const stringPattern = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/** Parses JSON text into a node tree that keeps key order and literal spellings. */
export function parseJson(text: string): JsonNode {
  let pos = 0;
  const length = text.length;
  // A leading byte-order mark is legal in files and common in responses.
  if (text.charCodeAt(0) === 0xfeff) pos = 1;

  const skipWhitespace = (): void => {
    while (pos < length) {
      const code = text.charCodeAt(pos);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) pos++;
      else break;
    }
  };
  const fail = (what: string): never => {
    if (pos >= length) throw new JsonSyntaxError(`unexpected end of JSON, expected ${what}`, pos);
    throw new JsonSyntaxError(`unexpected '${text[pos]}' at position ${pos + 1}, expected ${what}`, pos);
  };
  const readString = (): string => {
    stringPattern.lastIndex = pos;
    if (!stringPattern.test(text)) fail('a string');
    const raw = text.slice(pos, stringPattern.lastIndex);
    pos = stringPattern.lastIndex;
    return raw;
  };

  // Iterative, so deeply nested input cannot overflow the stack.
  type Frame = { node: Extract<JsonNode, { type: 'array' | 'object' }>; key?: string };
  const stack: Frame[] = [];
  let root: JsonNode | undefined;

  const attach = (value: JsonNode): void => {
    const top = stack[stack.length - 1];
    if (!top) root = value;
    else if (top.node.type === 'array') top.node.items.push(value);
    else top.node.entries.push({ keyRaw: top.key as string, value });
  };

  const readValue = (): JsonNode | 'open' => {
    skipWhitespace();
    const char = text[pos];
    if (char === '{' || char === '[') {
      const node: Frame['node'] = char === '{' ? { type: 'object', entries: [] } : { type: 'array', items: [] };
      pos++;
      attach(node);
      stack.push({ node });
      return 'open';
    }
    if (char === '"') return { type: 'string', raw: readString() };
    if (char === 't' && text.startsWith('true', pos)) return ((pos += 4), { type: 'boolean', value: true });
    if (char === 'f' && text.startsWith('false', pos)) return ((pos += 5), { type: 'boolean', value: false });
    if (char === 'n' && text.startsWith('null', pos)) return ((pos += 4), { type: 'null' });
    numberPattern.lastIndex = pos;
    if (numberPattern.test(text)) {
      const raw = text.slice(pos, numberPattern.lastIndex);
      pos = numberPattern.lastIndex;
      return { type: 'number', raw };
    }
    return fail('a value');
  };

  // State machine: after a value, close containers or expect a separator.
  let expectValue = true;
  for (;;) {
    if (expectValue) {
      const top = stack[stack.length - 1];
      if (top?.node.type === 'object') {
        skipWhitespace();
        if (text[pos] === '}' && top.node.entries.length === 0) {
          pos++;
          stack.pop();
          expectValue = false;
          if (stack.length === 0) break;
          continue;
        }
        top.key = readString();
        skipWhitespace();
        if (text[pos] !== ':') fail("':'");
        pos++;
      } else if (top?.node.type === 'array') {
        skipWhitespace();
        if (text[pos] === ']' && top.node.items.length === 0) {
          pos++;
          stack.pop();
          expectValue = false;
          if (stack.length === 0) break;
          continue;
        }
      }
      const value = readValue();
      if (value === 'open') continue;
      attach(value);
      expectValue = false;
      if (stack.length === 0) break;
      continue;
    }
    skipWhitespace();
    const top = stack[stack.length - 1];
    const char = text[pos];
    if (char === ',') {
      pos++;
      expectValue = true;
      // A trailing comma is not JSON.
      skipWhitespace();
      if (text[pos] === '}' || text[pos] === ']') fail('a value');
    } else if ((char === '}' && top.node.type === 'object') || (char === ']' && top.node.type === 'array')) {
      pos++;
      stack.pop();
      if (stack.length === 0) break;
    } else {
      fail(top.node.type === 'object' ? "',' or '}'" : "',' or ']'");
    }
  }
  skipWhitespace();
  if (pos < length) fail('the end of the JSON text');
  return root as JsonNode;
}

/** The decoded text of a string literal (fast path when it has no escapes). */
export function decodeJsonString(raw: string): string {
  return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
}

/** A string node for a JS string. */
export function jsonString(value: string): JsonNode {
  return { type: 'string', raw: JSON.stringify(value) };
}

/** Compact JSON text for a node (as sent in a request body). */
export function stringifyJson(node: JsonNode): string {
  const parts: string[] = [];
  const write = (value: JsonNode): void => {
    switch (value.type) {
      case 'null':
        parts.push('null');
        break;
      case 'boolean':
        parts.push(value.value ? 'true' : 'false');
        break;
      case 'number':
      case 'string':
        parts.push(value.raw);
        break;
      case 'array':
        parts.push('[');
        value.items.forEach((item, index) => {
          if (index > 0) parts.push(',');
          write(item);
        });
        parts.push(']');
        break;
      case 'object':
        parts.push('{');
        value.entries.forEach((entry, index) => {
          if (index > 0) parts.push(',');
          parts.push(entry.keyRaw, ':');
          write(entry.value);
        });
        parts.push('}');
        break;
    }
  };
  write(node);
  return parts.join('');
}

/** Indented, optionally coloured JSON text for a node; keys stay in their original order. */
export function formatJson(node: JsonNode, style?: Style, indent = 4): string {
  const syntax = style?.syntax;
  const paint = (kind: keyof NonNullable<typeof syntax>, text: string) => (syntax ? syntax[kind](text) : text);
  const parts: string[] = [];
  const pad = (depth: number) => '\n' + ' '.repeat(depth * indent);
  const write = (value: JsonNode, depth: number): void => {
    switch (value.type) {
      case 'null':
        parts.push(paint('null', 'null'));
        break;
      case 'boolean':
        parts.push(paint('boolean', value.value ? 'true' : 'false'));
        break;
      case 'number':
        parts.push(paint('number', value.raw));
        break;
      case 'string':
        parts.push(paint('string', value.raw));
        break;
      case 'array':
        if (value.items.length === 0) {
          parts.push(paint('punctuation', '[]'));
          break;
        }
        parts.push(paint('punctuation', '['));
        value.items.forEach((item, index) => {
          if (index > 0) parts.push(paint('punctuation', ','));
          parts.push(pad(depth + 1));
          write(item, depth + 1);
        });
        parts.push(pad(depth), paint('punctuation', ']'));
        break;
      case 'object':
        if (value.entries.length === 0) {
          parts.push(paint('punctuation', '{}'));
          break;
        }
        parts.push(paint('punctuation', '{'));
        value.entries.forEach((entry, index) => {
          if (index > 0) parts.push(paint('punctuation', ','));
          parts.push(pad(depth + 1), paint('key', entry.keyRaw), paint('punctuation', ':'), ' ');
          write(entry.value, depth + 1);
        });
        parts.push(pad(depth), paint('punctuation', '}'));
        break;
    }
  };
  write(node, 0);
  return parts.join('');
}

/** Pretty-prints JSON text, or returns null when the text is not valid JSON. */
export function prettyJson(text: string, style?: Style, indent = 4): string | null {
  try {
    return formatJson(parseJson(text), style, indent);
  } catch (error) {
    // Nesting deeper than the printer's recursion allows is shown raw, like invalid JSON.
    if (error instanceof JsonSyntaxError || error instanceof RangeError) return null;
    throw error;
  }
}
