/**
 * A reader for Bruno's `.bru` files: a sequence of top-level blocks, each `name {` … `}` (the
 * closing brace alone at the start of a line) or `name [` … `]`. Dictionary blocks hold
 * `key: value` lines (`~key` is disabled; `'''` starts a multi-line value indented four spaces);
 * text blocks (bodies, scripts, tests, docs) hold lines indented two spaces. Errors name file:line.
 */
import { DialError } from '../errors.js';

export interface BruPair {
  key: string;
  value: string;
  enabled: boolean;
  line: number;
}

export interface BruBlock {
  name: string;
  /** 1-based line of `name {`. */
  line: number;
  pairs: BruPair[];
  /** For text blocks: the content with the two-space indent removed. */
  text: string;
  /** For `[ … ]` blocks: the listed values. */
  values: string[];
}

const TEXT_BLOCKS =
  /^(body|body:(json|text|xml|sparql|graphql|graphql:vars)|script:(pre-request|post-response)|tests|docs)$/;
const BLOCK_START = /^([A-Za-z][\w:-]*)\s*([{[])\s*$/;

function fail(file: string, lines: string[], index: number, message: string, hint: string): never {
  throw new DialError('E_IMPORT', message, {
    location: { file, line: index + 1, col: 1, excerpt: lines[index] },
    hint,
  });
}

/** Reads the `key: value` lines of a dictionary block. */
function readPairs(body: string[], first: number, file: string, lines: string[]): BruPair[] {
  const pairs: BruPair[] = [];
  for (let k = 0; k < body.length; k++) {
    const raw = body[k].trim();
    if (raw === '') continue;
    const colon = raw.indexOf(':');
    if (colon <= 0)
      fail(
        file,
        lines,
        first + k,
        'expected `key: value` in this block',
        'each line of a .bru dictionary block is `key: value`',
      );
    const enabled = !raw.startsWith('~');
    const key = raw.slice(enabled ? 0 : 1, colon).trim();
    let value = raw.slice(colon + 1).trim();
    const line = first + k + 1;
    if (value.startsWith("'''") && (value.length < 6 || !value.endsWith("'''"))) {
      const collected: string[] = [value.slice(3)].filter((part) => part !== '');
      for (k++; k < body.length && !body[k].trim().endsWith("'''"); k++) collected.push(body[k].slice(4));
      if (k >= body.length)
        fail(
          file,
          lines,
          line - 1,
          "multi-line value without its closing '''",
          "close the value with ''' on its own line",
        );
      const last = body[k].replace(/'''\s*$/, '');
      if (last.trim() !== '') collected.push(last.slice(4));
      value = collected.join('\n');
    } else if (value.startsWith("'''") && value.endsWith("'''")) {
      value = value.slice(3, -3);
    }
    pairs.push({ key, value, enabled, line });
  }
  return pairs;
}

/** Parses a `.bru` file into its blocks. */
export function parseBru(text: string, file: string): BruBlock[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const blocks: BruBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const start = BLOCK_START.exec(lines[i].trimEnd());
    if (!start)
      fail(
        file,
        lines,
        i,
        'expected a block such as `get {` or `headers {`',
        'a .bru file is made of blocks: `name {`, its lines, then `}` at the start of a line',
      );
    const [, name, open] = start;
    const close = open === '{' ? /^\}\s*$/ : /^\s*\]\s*$/;
    let end = i + 1;
    while (end < lines.length && !close.test(lines[end])) end++;
    if (end >= lines.length)
      fail(
        file,
        lines,
        i,
        `block '${name}' is never closed`,
        open === '{' ? 'end the block with `}` at the start of a line' : 'end the list with `]`',
      );
    const body = lines.slice(i + 1, end);
    const block: BruBlock = { name, line: i + 1, pairs: [], text: '', values: [] };
    if (open === '[') {
      block.values = body
        .join('\n')
        .split(/[,\s]+/)
        .filter(Boolean);
    } else if (TEXT_BLOCKS.test(name)) {
      let first = 0;
      while (first < body.length && body[first].trim() === '') first++;
      block.text = body
        .slice(first)
        .map((line) => line.slice(2))
        .join('\n')
        .replace(/\s+$/, '');
    } else {
      block.pairs = readPairs(body, i + 1, file, lines);
    }
    blocks.push(block);
    i = end;
  }
  return blocks;
}
