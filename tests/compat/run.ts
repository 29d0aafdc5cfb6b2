/** `npm run compat`: runs the compatibility suite and prints the pass rate per source. */
import { loadManifest, runAll, summaryTable } from './harness.js';

const manifest = loadManifest();
const only = process.argv[2];
const cases = only ? manifest.cases.filter((c) => c.id.includes(only)) : manifest.cases;
const results = await runAll(cases);
for (const result of results) if (result.verdict !== 'correct' && result.verdict !== 'refused-as-expected') console.log(`✗ ${result.id}: ${result.verdict}: ${result.detail}`);
console.log(summaryTable(manifest, results));
process.exitCode = results.every((r) => r.verdict === 'correct' || r.verdict === 'refused-as-expected') ? 0 : 1;
