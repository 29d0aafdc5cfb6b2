/** The parser's line table: where each line of a text starts and ends, built in one pass. */
import { finishHints, lineHints } from './dialect.js';

export interface LineTable {
  count: number;
  /** Content [start, end) of each line without its line break (a leading byte-order mark is not content). */
  starts: Int32Array;
  ends: Int32Array;
  /** Where the next line begins. */
  nexts: Int32Array;
  /** Which dialect patterns may match the text (dialect.ts, lineHints), found on the same pass. */
  hints: number;
}

function grown(array: Int32Array, size: number): Int32Array {
  const bigger = new Int32Array(size);
  bigger.set(array);
  return bigger;
}

/**
 * Typed arrays, not plain ones: the table holds three numbers a line (330,000 for a
 * 10,000-request file) that the collector then never scans; they grow by doubling from a guess
 * of one line per 16 characters.
 */
export function lineTable(text: string): LineTable {
  const len = text.length;
  let capacity = (len >> 4) + 16;
  let starts: Int32Array = new Int32Array(capacity);
  let ends: Int32Array = new Int32Array(capacity);
  let nexts: Int32Array = new Int32Array(capacity);
  let count = 0;
  let hints = 0;
  for (let pos = 0; pos < len; count++) {
    if (count === capacity) {
      capacity *= 2;
      starts = grown(starts, capacity);
      ends = grown(ends, capacity);
      nexts = grown(nexts, capacity);
    }
    hints |= lineHints(text, pos);
    let nl = text.indexOf('\n', pos);
    const next = nl < 0 ? len : nl + 1;
    if (nl < 0) nl = len;
    // A byte-order mark (files saved by Visual Studio) is not part of the first line; it stays in the text.
    starts[count] = pos === 0 && text.charCodeAt(0) === 0xfeff ? 1 : pos;
    ends[count] = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    nexts[count] = next;
    pos = next;
  }
  return { count, starts, ends, nexts, hints: finishHints(text, hints) };
}
