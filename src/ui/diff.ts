/** A line diff (LCS) for the history screen: a response against the previous one of the same request. */

export interface DiffLine {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

const MAX_CELLS = 4_000_000;

/** Lines of `before` and `after` marked same/added/removed; falls back to remove-all/add-all when huge. */
export function diffLines(before: string, after: string): DiffLine[] {
  const a = before.split('\n');
  const b = after.split('\n');
  // Trim the common head and tail first: responses usually differ in a few places.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ kind: 'same', text }));
  if (midA.length * midB.length > MAX_CELLS) {
    out.push(
      ...midA.map((text) => ({ kind: 'removed' as const, text })),
      ...midB.map((text) => ({ kind: 'added' as const, text })),
    );
  } else {
    const n = midA.length;
    const m = midB.length;
    const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        table[i][j] = midA[i] === midB[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n && j < m) {
      if (midA[i] === midB[j]) {
        out.push({ kind: 'same', text: midA[i] });
        i++;
        j++;
      } else if (table[i + 1][j] >= table[i][j + 1]) out.push({ kind: 'removed', text: midA[i++] });
      else out.push({ kind: 'added', text: midB[j++] });
    }
    while (i < n) out.push({ kind: 'removed', text: midA[i++] });
    while (j < m) out.push({ kind: 'added', text: midB[j++] });
  }
  out.push(...a.slice(a.length - tail).map((text) => ({ kind: 'same' as const, text })));
  return out;
}

/** Rows of diff lines the history diff shows in a screen of `height` rows (border, title and footer take 4). */
export function historyDiffRows(height: number): number {
  return Math.max(1, height - 4);
}

const diffCache = new WeakMap<object, { before: string; after: string; lines: DiffLine[] }>();

/**
 * diffLines memoised per (older, newer) entry pair: the screen renders it on every key and the
 * reducer counts its lines to bound the scroll, and a large body's diff is not free.
 */
export function cachedDiff(older: { body: string }, newer: { body: string }): DiffLine[] {
  const hit = diffCache.get(newer);
  if (hit && hit.before === older.body && hit.after === newer.body) return hit.lines;
  const lines = diffLines(older.body, newer.body);
  diffCache.set(newer, { before: older.body, after: newer.body, lines });
  return lines;
}
