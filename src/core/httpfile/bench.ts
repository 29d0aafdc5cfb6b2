/** Micro-benchmark helpers for the parser (bench/run.mjs measures the same shape). */
import { parseHttpFile } from './parse.js';

/** A realistic `.http` text with `count` requests (name, tag, headers, JSON body, two assertions each). */
export function syntheticHttpFile(count: number): string {
  const blocks: string[] = [];
  for (let i = 0; i < count; i++) {
    blocks.push(
      `### request ${i}\n# @name r${i}\n# @tag smoke\nPOST {{host}}/widgets/${i}?page=1\nContent-Type: application/json\nAuthorization: Bearer {{token}}\n\n{"id": ${i}, "name": "w${i}"}\n\n?? status == 200\n?? body $.id == ${i}\n`,
    );
  }
  return blocks.join('\n');
}

/** Parses a synthetic file `runs` times; returns the request count and the best time in ms. */
export function benchParse(count = 10_000, runs = 5): { requests: number; bestMs: number } {
  const text = syntheticHttpFile(count);
  let bestMs = Infinity;
  let requests = 0;
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    requests = parseHttpFile(text, 'bench.http').requests.length;
    bestMs = Math.min(bestMs, performance.now() - start);
  }
  return { requests, bestMs };
}
