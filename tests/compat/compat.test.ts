/**
 * The public compatibility suite inside `npm test` (needs the built bin/dial.js, which `npm test`
 * builds first). A case marked `knownGap` in manifest.json may be refused or fail; no case may be
 * silently wrong, and every other case must match what its own tool sends.
 */
import { describe, expect, it } from 'vitest';
import { loadManifest, runAll, type CaseResult } from './harness.js';

const manifest = loadManifest();

describe('public .http files (tests/compat/manifest.json)', () => {
  let results: CaseResult[] = [];

  it('runs every case', async () => {
    results = await runAll(manifest.cases);
    expect(results).toHaveLength(manifest.cases.length);
  }, 120_000);

  it('sends nothing silently wrong', () => {
    expect(results.filter((r) => r.verdict === 'silently-wrong').map((r) => `${r.id}: ${r.detail}`)).toEqual([]);
  });

  it('matches each tool on every case not marked as a known gap', () => {
    const gaps = new Set(manifest.cases.filter((c) => c.knownGap).map((c) => c.id));
    const failing = results.filter(
      (r) => !gaps.has(r.id) && r.verdict !== 'correct' && r.verdict !== 'refused-as-expected',
    );
    expect(failing.map((r) => `${r.id}: ${r.verdict}: ${r.detail}`)).toEqual([]);
  });

  it('refuses known gaps before sending, never by sending something else', () => {
    const gaps = results.filter((r) => manifest.cases.find((c) => c.id === r.id)?.knownGap);
    expect(gaps.filter((r) => r.verdict === 'silently-wrong')).toEqual([]);
  });
});
