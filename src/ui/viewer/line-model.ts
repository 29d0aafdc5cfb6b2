/**
 * The response viewer's line models. A body is turned into lines ONCE (memoised by the
 * caller) and the viewer only ever asks for the handful of rows it shows, so a 100 MiB
 * body costs one pass to index its line starts and then O(visible rows) per key press.
 *
 * - JSON up to 2 MiB: pretty-printed lines with token kinds, foldable nodes.
 * - Anything else (or bigger): raw text lines, hard-wrapped at the viewer width, indexed
 *   by offset so nothing is copied until a row is shown.
 */
import { JSONPath } from 'jsonpath-plus';

export type TokenKind = 'key' | 'string' | 'number' | 'boolean' | 'null' | 'punctuation' | 'text';

export interface Segment {
  text: string;
  kind: TokenKind;
}

/** The largest body that is pretty-printed and highlighted (a render budget: larger bodies show raw). */
export const PRETTY_LIMIT = 2 * 1024 * 1024;

interface JsonLine {
  indent: number;
  key?: string;
  /** Token of the value part: a scalar, an opening bracket, or a closing bracket. */
  value: string;
  kind: TokenKind;
  comma: boolean;
  /** For an opening bracket line: the index of its closing line. */
  close: number;
  /** The index of the enclosing opening line (-1 for the root). */
  parent: number;
}

export interface JsonModel {
  kind: 'json';
  value: unknown;
  lines: JsonLine[];
}

export interface TextModel {
  kind: 'text';
  text: string;
  /** Start offset of each row; row i ends where row i+1 starts (minus its newline). */
  starts: Uint32Array;
  count: number;
  width: number;
  /** Lower-cased copy for case-insensitive search, made on first use. */
  lower?: string;
}

export type LineModel = JsonModel | TextModel;

const INDENT = 2;

/** Builds the pretty-printed line list of a parsed JSON value. */
export function buildJsonModel(value: unknown): JsonModel {
  const lines: JsonLine[] = [];
  const visit = (node: unknown, indent: number, key: string | undefined, comma: boolean, parent: number): void => {
    if (node !== null && typeof node === 'object') {
      const isArray = Array.isArray(node);
      const entries: Array<[string | undefined, unknown]> = isArray
        ? (node as unknown[]).map((item) => [undefined, item])
        : Object.entries(node as Record<string, unknown>).map(([k, v]) => [JSON.stringify(k), v]);
      if (entries.length === 0) {
        lines.push({ indent, key, value: isArray ? '[]' : '{}', kind: 'punctuation', comma, close: -1, parent });
        return;
      }
      const open = lines.length;
      lines.push({ indent, key, value: isArray ? '[' : '{', kind: 'punctuation', comma: false, close: -1, parent });
      entries.forEach(([k, v], i) => visit(v, indent + INDENT, k, i < entries.length - 1, open));
      lines[open].close = lines.length;
      lines.push({ indent, value: isArray ? ']' : '}', kind: 'punctuation', comma, close: -1, parent: open });
      return;
    }
    let kind: TokenKind;
    let text: string;
    if (typeof node === 'string') {
      kind = 'string';
      text = JSON.stringify(node);
    } else if (typeof node === 'number') {
      kind = 'number';
      text = String(node);
    } else if (typeof node === 'boolean') {
      kind = 'boolean';
      text = String(node);
    } else {
      kind = 'null';
      text = 'null';
    }
    lines.push({ indent, key, value: text, kind, comma, close: -1, parent });
  };
  visit(value, 0, undefined, false, -1);
  return { kind: 'json', value, lines };
}

/** Indexes raw text into rows: one per line, long lines hard-wrapped at `width` columns. */
export function buildTextModel(text: string, width: number): TextModel {
  const wrap = Math.max(1, width);
  let starts = new Uint32Array(Math.max(16, Math.ceil(text.length / 64)));
  let count = 0;
  const push = (offset: number): void => {
    if (count === starts.length) {
      const bigger = new Uint32Array(starts.length * 2);
      bigger.set(starts);
      starts = bigger;
    }
    starts[count++] = offset;
  };
  let lineStart = 0;
  const length = text.length;
  push(0);
  // indexOf is much faster than a char loop for the common case of many short lines.
  for (;;) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline === -1 ? length : newline;
    for (let at = lineStart + wrap; at < lineEnd; at += wrap) push(at);
    if (newline === -1) break;
    lineStart = newline + 1;
    if (lineStart >= length) break;
    push(lineStart);
  }
  return { kind: 'text', text, starts: starts.subarray(0, count), count, width: wrap };
}

/** Picks the model for a body: pretty JSON when it parses and is small enough, else text. */
export function buildLineModel(text: string, options: { width: number; contentType?: string }): LineModel {
  if (text.length <= PRETTY_LIMIT) {
    const trimmed = text.trimStart();
    const looksJson = /json/i.test(options.contentType ?? '') || trimmed.startsWith('{') || trimmed.startsWith('[');
    if (looksJson) {
      try {
        return buildJsonModel(JSON.parse(text));
      } catch {
        // Not valid JSON after all: show it as it is.
      }
    }
  }
  return buildTextModel(text, options.width);
}

// ---------------------------------------------------------------------------------------
// Views: a model seen through the set of folded nodes.

export interface View {
  model: LineModel;
  /** Number of visible rows. */
  count: number;
  /** The model line shown at a visible row. */
  lineAt(row: number): number;
  /** The visible row showing a model line (or the row of its nearest visible ancestor). */
  rowOf(line: number): number;
}

const viewCache = new WeakMap<LineModel, WeakMap<ReadonlySet<number>, View>>();

/** The visible rows of a model with some nodes folded (memoised per model and folded set). */
export function buildView(model: LineModel, folded: ReadonlySet<number>): View {
  let perModel = viewCache.get(model);
  if (!perModel) viewCache.set(model, (perModel = new WeakMap()));
  const cached = perModel.get(folded);
  if (cached) return cached;
  let view: View;
  if (model.kind === 'text' || folded.size === 0) {
    const count = model.kind === 'text' ? model.count : model.lines.length;
    view = { model, count, lineAt: (row) => row, rowOf: (line) => line };
  } else {
    const rows: number[] = [];
    const lines = model.lines;
    for (let i = 0; i < lines.length; i++) {
      rows.push(i);
      if (folded.has(i) && lines[i].close > i) i = lines[i].close;
    }
    const rowByLine = new Map<number, number>();
    rows.forEach((line, row) => rowByLine.set(line, row));
    view = {
      model,
      count: rows.length,
      lineAt: (row) => rows[row] ?? 0,
      rowOf: (line) => {
        let at = line;
        while (at >= 0 && !rowByLine.has(at)) at = lines[at].parent;
        return rowByLine.get(at) ?? 0;
      },
    };
  }
  perModel.set(folded, view);
  return view;
}

/** The plain text of a visible row (as it would be copied or searched). */
export function rowText(view: View, row: number, folded: ReadonlySet<number>): string {
  return rowSegments(view, row, folded)
    .map((s) => s.text)
    .join('');
}

/** The coloured segments of a visible row. */
export function rowSegments(view: View, row: number, folded: ReadonlySet<number>): Segment[] {
  const model = view.model;
  const line = view.lineAt(row);
  if (model.kind === 'text') {
    const start = model.starts[line];
    let end = line + 1 < model.count ? model.starts[line + 1] : model.text.length;
    if (end > start && model.text.charCodeAt(end - 1) === 10) end--;
    if (end > start && model.text.charCodeAt(end - 1) === 13) end--;
    return [{ text: model.text.slice(start, end), kind: 'text' }];
  }
  const item = model.lines[line];
  const segments: Segment[] = [];
  if (item.indent) segments.push({ text: ' '.repeat(item.indent), kind: 'text' });
  if (item.key !== undefined) {
    segments.push({ text: item.key, kind: 'key' });
    segments.push({ text: ': ', kind: 'punctuation' });
  }
  if (folded.has(line) && item.close > line) {
    const closing = model.lines[item.close];
    const hidden = countChildren(model, line);
    segments.push({ text: `${item.value} … ${closing.value}`, kind: 'punctuation' });
    segments.push({ text: ` ${hidden} ${hidden === 1 ? 'item' : 'items'}`, kind: 'null' });
    if (closing.comma) segments.push({ text: ',', kind: 'punctuation' });
    return segments;
  }
  segments.push({ text: item.value, kind: item.kind });
  if (item.comma) segments.push({ text: ',', kind: 'punctuation' });
  return segments;
}

function countChildren(model: JsonModel, open: number): number {
  let count = 0;
  for (let i = open + 1; i < model.lines[open].close; i++) {
    if (model.lines[i].parent === open && model.lines[i].value !== ']' && model.lines[i].value !== '}') count++;
  }
  return count;
}

/** The foldable node a row belongs to: the row itself when it opens a node, else its parent. */
export function foldTarget(view: View, row: number): number | undefined {
  const model = view.model;
  if (model.kind !== 'json') return undefined;
  const line = view.lineAt(row);
  const item = model.lines[line];
  if (item.close > line) return line;
  const closingOf = item.value === '}' || item.value === ']' ? item.parent : item.parent;
  return closingOf >= 0 ? closingOf : undefined;
}

/** Every foldable node below the root (fold all keeps the top level visible). */
export function allFoldable(model: LineModel): Set<number> {
  const set = new Set<number>();
  if (model.kind !== 'json') return set;
  model.lines.forEach((line, i) => {
    if (line.close > i && line.parent >= 0) set.add(i);
  });
  return set;
}

/** Smart case: a query with an upper-case letter matches case-sensitively. */
export function isCaseSensitive(query: string): boolean {
  return query !== query.toLowerCase();
}

/**
 * The next visible row (after `from` going forward, before it going backward) containing
 * `query`, wrapping around; -1 when none.
 */
export function findRow(
  view: View,
  folded: ReadonlySet<number>,
  query: string,
  from: number,
  direction: 1 | -1,
): number {
  if (!query || view.count === 0) return -1;
  const sensitive = isCaseSensitive(query);
  const needle = sensitive ? query : query.toLowerCase();
  const model = view.model;
  if (model.kind === 'text') return findTextRow(model, needle, sensitive, from, direction);
  for (let step = 1; step <= view.count; step++) {
    const row = (((from + step * direction) % view.count) + view.count) % view.count;
    const text = rowText(view, row, folded);
    if ((sensitive ? text : text.toLowerCase()).includes(needle)) return row;
  }
  return -1;
}

function findTextRow(model: TextModel, needle: string, sensitive: boolean, from: number, direction: 1 | -1): number {
  const haystack = sensitive ? model.text : (model.lower ??= model.text.toLowerCase());
  const rowAt = (offset: number): number => {
    let lo = 0;
    let hi = model.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (model.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  if (direction === 1) {
    const startOffset = from + 1 < model.count ? model.starts[from + 1] : haystack.length;
    let at = haystack.indexOf(needle, startOffset);
    if (at === -1) at = haystack.indexOf(needle);
    return at === -1 ? -1 : rowAt(at);
  }
  const before = from > 0 ? model.starts[from] - 1 : -1;
  let at = before >= 0 ? haystack.lastIndexOf(needle, before) : -1;
  if (at === -1) at = haystack.lastIndexOf(needle);
  if (at === -1) return -1;
  // A match that spans into `from` itself from the previous row still counts as that row.
  return rowAt(at);
}

/** Runs a JSONPath expression (jsonpath-plus, safe evaluation only) and returns the matches. */
export function applyJsonPath(value: unknown, path: string): unknown[] {
  const result: unknown = JSONPath({ path, json: value as object, eval: 'safe', wrap: true });
  return Array.isArray(result) ? result : [];
}
