/** `npm run compat`: runs the compatibility suite and prints the pass rate per source. */
import { loadManifest, runAll, summaryTable } from './harness.js';

const manifest = loadManifest();
const only = process.argv[2];
const cases = only ? manifest.cases.filter((c) => c.id.includes(only)) : manifest.cases;
const results = await runAll(cases);
for (const result of results)
  if (result.verdict !== 'correct' && result.verdict !== 'refused-as-expected')
    console.log(
      `${result.verdict === 'refused-known-gap' ? '○' : '✗'} ${result.id}: ${result.verdict}: ${result.detail}`,
    );
console.log(summaryTable(manifest, results));
// Fails on regressions only: a case marked knownGap may be refused or fail; none may be silently wrong.
const knownGaps = new Set(cases.filter((c) => c.knownGap).map((c) => c.id));
const regressions = results.filter(
  (r) =>
    r.verdict === 'silently-wrong' ||
    (!knownGaps.has(r.id) && r.verdict !== 'correct' && r.verdict !== 'refused-as-expected'),
);
process.exitCode = regressions.length === 0 ? 0 : 1;
