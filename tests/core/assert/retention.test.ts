/**
 * Memory regression for `dial run`: what one request leaves behind must die young. The
 * response view used to be an object literal with a getter; in V8 each such object pinned
 * itself, its exchange and body into old space until the next full GC (50,000 views grew old
 * space by ~12 MB, and `dial run`'s peak RSS grew with the number of requests). Measured as
 * old-space growth while views over fresh exchanges are made and dropped; a full GC in
 * between can only make the number smaller, so this never fails spuriously.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { loadResponseView } from '../../../src/core/assert/response-view.js';
import { createResponseApi } from '../../../src/core/script/api.js';
import type { Exchange } from '../../../src/core/http/types.js';

const oldSpaceUsed = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_used_size;

function exchange(i: number): Exchange {
  return {
    request: { method: 'GET', url: 'http://127.0.0.1/json', headers: [] },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: '1.1',
      headers: [
        ['Content-Type', 'application/json'],
        ['X-N', String(i)],
      ],
      url: 'http://127.0.0.1/json',
      body: { kind: 'memory', bytes: Buffer.from(`{"id":${i},"pad":"${'x'.repeat(200)}"}`) },
      size: 0,
    },
    timings: { dns: 0, connect: 0, tls: 0, firstByte: 0, total: 1 },
    redirects: [],
  } as Exchange;
}

describe('per-request objects do not outlive their request', () => {
  it('50,000 response views (and script response objects) leave old space flat', async () => {
    const before = oldSpaceUsed();
    let sum = 0;
    for (let i = 0; i < 50_000; i++) {
      const view = await loadResponseView(exchange(i));
      sum += (view.json() as { id: number }).id;
      if (i % 10 === 0) sum += (createResponseApi(view).body as { id: number }).id === i ? 0 : 1;
    }
    expect(sum).toBe((49_999 * 50_000) / 2);
    const grownMiB = (oldSpaceUsed() - before) / 1048576;
    // Held views grew it by ~12 MiB; released ones by ~1.5 MiB (what was in flight at each scavenge).
    expect(grownMiB).toBeLessThan(6);
  });
});
