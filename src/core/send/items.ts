/**
 * HTTPie/xh request items: `Header:value`, `Header:` (remove), `Header;` (empty),
 * `Header:@file`, `name==value`, `name==@file`, `field=value`, `field=@file`,
 * `field:=json`, `field:=@file`, `field@file;type=mime`, bare `@file`. A backslash
 * escapes a separator character (`a\:b=c` is the field `a:b`). Parsing is pure: files are
 * read when the request is built.
 */
import { DialError } from '../errors.js';

/** One step of a nested JSON key (`a[b][0][]`). */
export type KeySegment = { kind: 'key'; name: string } | { kind: 'index'; index: number } | { kind: 'append' };

export type RequestItem =
  | { kind: 'header'; name: string; value: string; fromFile?: boolean; source: string }
  /** `Header:` — do not send this header (removes a default such as User-Agent). */
  | { kind: 'header-remove'; name: string; source: string }
  /** `Header;` — send the header with an empty value. */
  | { kind: 'header-empty'; name: string; source: string }
  | { kind: 'query'; name: string; value: string; fromFile?: boolean; source: string }
  /** `field=value` / `field=@file`: a string field. */
  | { kind: 'data'; key: string; path: KeySegment[]; value: string; fromFile?: boolean; source: string }
  /** `field:=json` / `field:=@file`: a raw JSON field. */
  | { kind: 'json'; key: string; path: KeySegment[]; value: string; fromFile?: boolean; source: string }
  /** `field@file;type=mime`: a multipart file upload. */
  | { kind: 'file'; key: string; path: string; contentType?: string; source: string }
  /** Bare `@file`: the whole request body from a file. */
  | { kind: 'body-file'; path: string; source: string };

/** Separators, tried longest first at each position. */
const separators = [':=@', '==@', '=@', ':@', '==', ':=', '=', ':', '@', ';'] as const;
type Separator = (typeof separators)[number];
const specialChars = new Set([':', '=', '@', ';', '\\', '[', ']']);

/** A character of an item and whether a backslash escaped it. */
interface Char {
  ch: string;
  escaped: boolean;
}

function toChars(text: string): Char[] {
  const chars: Char[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length && specialChars.has(text[i + 1])) {
      chars.push({ ch: text[i + 1], escaped: true });
      i++;
    } else {
      chars.push({ ch, escaped: false });
    }
  }
  return chars;
}

const plain = (chars: Char[]): string => chars.map((c) => c.ch).join('');

function findSeparator(chars: Char[]): { at: number; separator: Separator } | null {
  for (let at = 0; at < chars.length; at++) {
    if (chars[at].escaped) continue;
    for (const separator of separators) {
      let matches = true;
      for (let k = 0; k < separator.length; k++) {
        const c = chars[at + k];
        if (!c || c.escaped || c.ch !== separator[k]) {
          matches = false;
          break;
        }
      }
      if (matches) return { at, separator };
    }
  }
  return null;
}

const itemHint =
  'items are Header:value, name==query, field=string, field:=json, field@file, @file; escape a literal separator with \\ (a\\:b=c)';

/** Parses one request item; throws E_USAGE when it has no separator or no name. */
export function parseItem(source: string): RequestItem {
  const chars = toChars(source);
  const found = findSeparator(chars);
  if (!found) throw new DialError('E_USAGE', `'${source}' is not a request item`, { hint: itemHint });
  const keyChars = chars.slice(0, found.at);
  const key = plain(keyChars);
  const value = plain(chars.slice(found.at + found.separator.length));
  const needKey = () => {
    if (key === '')
      throw new DialError('E_USAGE', `'${source}' has no name before '${found.separator}'`, { hint: itemHint });
  };
  switch (found.separator) {
    case ':':
      needKey();
      return value === '' ? { kind: 'header-remove', name: key, source } : { kind: 'header', name: key, value, source };
    case ':@':
      needKey();
      return { kind: 'header', name: key, value, fromFile: true, source };
    case ';':
      needKey();
      if (value !== '')
        throw new DialError('E_USAGE', `'${source}': an empty header is written 'Name;' with nothing after ';'`, {
          hint: itemHint,
        });
      return { kind: 'header-empty', name: key, source };
    case '==':
    case '==@':
      needKey();
      return { kind: 'query', name: key, value, fromFile: found.separator === '==@' || undefined, source };
    case '=':
    case '=@':
      return {
        kind: 'data',
        key,
        path: parseKeyPath(keyChars, source),
        value,
        fromFile: found.separator === '=@' || undefined,
        source,
      };
    case ':=':
    case ':=@':
      return {
        kind: 'json',
        key,
        path: parseKeyPath(keyChars, source),
        value,
        fromFile: found.separator === ':=@' || undefined,
        source,
      };
    case '@': {
      if (key === '') {
        if (value === '') throw new DialError('E_USAGE', `'${source}' names no file`, { hint: itemHint });
        return { kind: 'body-file', path: value, source };
      }
      // `field@path;type=image/png`: the media type rides on the value.
      const typed = /^(.*);type=([^;]+)$/s.exec(value);
      const path = typed ? typed[1] : value;
      if (path === '') throw new DialError('E_USAGE', `'${source}' names no file`, { hint: itemHint });
      return { kind: 'file', key, path, contentType: typed?.[2], source };
    }
  }
}

/**
 * Splits a field key into nested-JSON steps: `a[b][0][]` -> key a, key b, index 0, append.
 * `[]` or `[0]` at the start address a top-level array. Escaped brackets are literal.
 */
export function parseKeyPath(
  chars: Char[] | string,
  source = typeof chars === 'string' ? chars : plain(chars),
): KeySegment[] {
  const list = typeof chars === 'string' ? toChars(chars) : chars;
  const isOpen = (c: Char | undefined) => c !== undefined && !c.escaped && c.ch === '[';
  const isClose = (c: Char | undefined) => c !== undefined && !c.escaped && c.ch === ']';
  const bad = (message: string) =>
    new DialError('E_USAGE', `'${source}': ${message}`, {
      hint: 'nested keys look like a[b][0]=x or a[]=x; escape a literal bracket with \\[',
    });
  let i = 0;
  let first = '';
  while (i < list.length && !isOpen(list[i])) {
    if (isClose(list[i])) throw bad(`unexpected ']' at position ${i + 1}`);
    first += list[i].ch;
    i++;
  }
  if (i === list.length) return [{ kind: 'key', name: first }];
  const segments: KeySegment[] = first === '' ? [] : [{ kind: 'key', name: first }];
  while (i < list.length) {
    if (!isOpen(list[i])) throw bad(`expected '[' at position ${i + 1}`);
    i++;
    let inner = '';
    let allDigits = true;
    let hasEscape = false;
    while (i < list.length && !isClose(list[i])) {
      if (isOpen(list[i])) throw bad(`unexpected '[' at position ${i + 1}`);
      // `[\1]` is the key "1", not index 1 (HTTPie's escape for numeric keys).
      if (list[i].ch === '\\' && !list[i].escaped && /[0-9]/.test(list[i + 1]?.ch ?? '')) {
        hasEscape = true;
        i++;
        continue;
      }
      if (list[i].escaped) hasEscape = true;
      if (!/[0-9]/.test(list[i].ch)) allDigits = false;
      inner += list[i].ch;
      i++;
    }
    if (i === list.length) throw bad("missing ']'");
    i++;
    if (inner === '' && !hasEscape) segments.push({ kind: 'append' });
    else if (allDigits && !hasEscape && inner !== '') segments.push({ kind: 'index', index: Number(inner) });
    else segments.push({ kind: 'key', name: inner });
  }
  return segments;
}
