/** A small fuzzy matcher for the palette and the tree filter: subsequence match with a score. */

/** Score of `query` as a subsequence of `text` (higher is better), or -1 when it does not match. */
export function fuzzyScore(query: string, text: string): number {
  if (!query) return 0;
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  const direct = t.indexOf(q);
  if (direct !== -1) return 1000 - direct - (t.length - q.length) * 0.01;
  let score = 0;
  let at = -1;
  let streak = 0;
  for (const ch of q) {
    if (ch === ' ') continue;
    const next = t.indexOf(ch, at + 1);
    if (next === -1) return -1;
    streak = next === at + 1 ? streak + 1 : 0;
    // Consecutive letters and letters after a separator count for more.
    const boundary = next === 0 || /[\s/_.\-#:]/.test(t[next - 1]);
    score += 1 + streak * 2 + (boundary ? 3 : 0);
    at = next;
  }
  return score - t.length * 0.01;
}

/** The items matching `query`, best first (stable for equal scores). */
export function fuzzyFilter<T>(items: readonly T[], query: string, text: (item: T) => string): T[] {
  if (!query.trim()) return [...items];
  return items
    .map((item, index) => ({ item, index, score: fuzzyScore(query.trim(), text(item)) }))
    .filter((entry) => entry.score >= 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.item);
}
