/**
 * A unified diff of two texts, line by line (longest common subsequence), for `dial fmt
 * --check`. Files too big for the table are shown as one hunk replacing everything.
 */

const MAX_CELLS = 4_000_000;
const CONTEXT = 3;

type Edit = { op: ' ' | '-' | '+'; text: string };

function lines(text: string): string[] {
  const all = text.split('\n');
  if (all.at(-1) === '') all.pop();
  return all.map((line) => line.replace(/\r$/, '␍'));
}

function editScript(a: string[], b: string[]): Edit[] {
  if ((a.length + 1) * (b.length + 1) > MAX_CELLS)
    return [...a.map((text) => ({ op: '-' as const, text })), ...b.map((text) => ({ op: '+' as const, text }))];
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? table[(i + 1) * width + j + 1] + 1
          : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const edits: Edit[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      edits.push({ op: ' ', text: a[i++] });
      j++;
    } else if (i < a.length && (j === b.length || table[(i + 1) * width + j] >= table[i * width + j + 1])) {
      // Deletions before insertions, as diff(1) prints them.
      edits.push({ op: '-', text: a[i++] });
    } else {
      edits.push({ op: '+', text: b[j++] });
    }
  }
  return edits;
}

/** Groups of changed edits closer than twice the context, as [first, last] indexes. */
function changeGroups(edits: Edit[]): Array<[number, number]> {
  const groups: Array<[number, number]> = [];
  edits.forEach((edit, index) => {
    if (edit.op === ' ') return;
    const last = groups.at(-1);
    if (last && index - last[1] <= CONTEXT * 2 + 1) last[1] = index;
    else groups.push([index, index]);
  });
  return groups;
}

/** `--- a/path`, `+++ b/path` and `@@` hunks with three lines of context; '' when the texts are equal. */
export function unifiedDiff(before: string, after: string, path: string): string {
  if (before === after) return '';
  const edits = editScript(lines(before), lines(after));
  const out = [`--- a/${path}`, `+++ b/${path}`];
  for (const [first, last] of changeGroups(edits)) {
    const start = Math.max(0, first - CONTEXT);
    const end = Math.min(edits.length, last + CONTEXT + 1);
    const prior = edits.slice(0, start);
    const hunk = edits.slice(start, end);
    const aCount = hunk.filter((e) => e.op !== '+').length;
    const bCount = hunk.filter((e) => e.op !== '-').length;
    const aStart = prior.filter((e) => e.op !== '+').length + (aCount ? 1 : 0);
    const bStart = prior.filter((e) => e.op !== '-').length + (bCount ? 1 : 0);
    out.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`);
    for (const edit of hunk) out.push(`${edit.op}${edit.text}`);
  }
  if (before.length > 0 && !before.endsWith('\n')) out.push('\\ No newline at end of the original file');
  return `${out.join('\n')}\n`;
}
