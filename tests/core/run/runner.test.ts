import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import {
  parseShard,
  planFiles,
  planRun,
  runPlan,
  runEvents,
  selectShard,
  createRequestFilter,
  type AttemptOutcome,
  type RequestExecutor,
  type RunEvent,
  type PlannedFile,
} from '../../../src/core/run/index.js';
import { DialError } from '../../../src/core/errors.js';

function fileOf(name: string, text: string) {
  return { file: parseHttpFile(text, `/w/${name}`), relativePath: name };
}

const three = `### a
# @tag smoke
GET http://x/a

### b
# @tag slow
GET http://x/b

### c
# @skip not ready
GET http://x/c
`;

const pass: AttemptOutcome = { status: 'passed', durationMs: 1, assertions: [] };

function collect(): { events: RunEvent[]; listener: (e: RunEvent) => void } {
  const events: RunEvent[] = [];
  return { events, listener: (e) => events.push(e) };
}

describe('shards', () => {
  it('parses i/n and rejects nonsense as usage errors', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, total: 3 });
    for (const bad of ['0/3', '4/3', '1/0', 'x', '1-2', '']) {
      expect(() => parseShard(bad)).toThrow(DialError);
      try {
        parseShard(bad);
      } catch (error) {
        expect((error as DialError).exitCode).toBe(2);
      }
    }
  });

  it('every file lands in exactly one shard, whatever the input order (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.stringMatching(/^[a-z0-9/]{1,12}\.http$/), { maxLength: 40 }),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        (files, total, reverse) => {
          const input = reverse ? [...files].reverse() : files;
          const seen = new Map<string, number>();
          for (let index = 1; index <= total; index++) {
            for (const file of selectShard(input, { index, total }, (f) => f))
              seen.set(file, (seen.get(file) ?? 0) + 1);
          }
          expect(seen.size).toBe(files.length);
          for (const count of seen.values()) expect(count).toBe(1);
          // Deterministic: the same shard of a shuffled list is the same set.
          for (let index = 1; index <= total; index++) {
            expect(selectShard(files, { index, total }, (f) => f)).toEqual(
              selectShard([...files].reverse(), { index, total }, (f) => f),
            );
          }
        },
      ),
    );
  });

  it('balances shards to within one file', () => {
    const files = Array.from({ length: 10 }, (_, i) => `f${i}.http`);
    const sizes = [1, 2, 3].map((index) => selectShard(files, { index, total: 3 }, (f) => f).length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
  });
});

describe('filters', () => {
  const file = parseHttpFile(three, '/w/t.http');
  it('--grep takes a substring, a regular expression or /re/flags', () => {
    expect(file.requests.filter(createRequestFilter({ grep: 'b' })).map((r) => r.name)).toEqual(['b']);
    expect(file.requests.filter(createRequestFilter({ grep: '^(a|c)$' })).map((r) => r.name)).toEqual(['a', 'c']);
    expect(file.requests.filter(createRequestFilter({ grep: '/A/i' })).map((r) => r.name)).toEqual(['a']);
    expect(file.requests.filter(createRequestFilter({ grep: '(' })).map((r) => r.name)).toEqual([]);
  });
  it('--tag selects any of the tags', () => {
    expect(file.requests.filter(createRequestFilter({ tags: ['smoke'] })).map((r) => r.name)).toEqual(['a']);
    expect(file.requests.filter(createRequestFilter({ tags: ['smoke,slow'] })).map((r) => r.name)).toEqual(['a', 'b']);
  });
  it('files with nothing selected are dropped from the plan', () => {
    const plan = planFiles([fileOf('t.http', three), fileOf('u.http', 'GET http://x/u\n')], { tags: ['slow'] });
    expect(plan.map((p) => p.info.relativePath)).toEqual(['t.http']);
  });
  it('keeps no tree between planning and running: each open() parses the file again', async () => {
    const [planned] = planFiles([fileOf('t.http', three)], { tags: ['slow'] });
    const first = await planned.open();
    const second = await planned.open();
    expect(second.file).not.toBe(first.file);
    expect(second.requests.map((r) => r.name)).toEqual(['b']);
    expect(second.requests[0]).toEqual(first.requests[0]);
  });
  it('with readAgain, a planned file is read again at its turn and must be the file that was planned', async () => {
    let onDisk = three;
    const reads: string[] = [];
    const [planned] = planFiles([fileOf('t.http', three)], {
      tags: ['slow'],
      readAgain: async (path) => {
        reads.push(path);
        return onDisk;
      },
    });
    expect((await planned.open()).requests.map((r) => r.name)).toEqual(['b']);
    expect(reads).toEqual(['/w/t.http']);
    onDisk = three.replace('### b', '### c');
    await expect(planned.open()).rejects.toMatchObject({
      code: 'E_INPUT',
      message: '/w/t.http changed while the run was under way',
    });
  });
  it('within the tree budget a planned file keeps its tree (parsed once); past it, it is parsed again at its turn', async () => {
    const reads: string[] = [];
    const budget = { requests: 4 };
    const readAgain = async (path: string) => {
      reads.push(path);
      return three;
    };
    const [kept] = planFiles([fileOf('t.http', three)], { readAgain }, budget);
    expect(budget.requests).toBe(1);
    const first = await kept.open();
    expect(first.file).toBe(await kept.open().then((again) => again.file));
    expect(first.requests.map((r) => r.name)).toEqual(['a', 'b', 'c']);
    // Three requests do not fit in the one left: this file is read and parsed again when it runs.
    const [again] = planFiles([fileOf('u.http', three)], { readAgain, tags: ['slow'] }, budget);
    expect(budget.requests).toBe(1);
    expect((await again.open()).requests.map((r) => r.name)).toEqual(['b']);
    expect(reads).toEqual(['/w/u.http']);
  });
  it('planRun plans each file then lets the loader forget it; references are gathered first', async () => {
    const texts: Record<string, string> = {
      '/w/a.http': three,
      '/w/b.http': '### use\nGET http://x/{{a.response.body.$.id}}\n',
    };
    const forgotten: string[] = [];
    const { plan, referenced } = await planRun({
      paths: ['/w'],
      cwd: '/w',
      discover: async () => Object.keys(texts),
      loadFile: async (path) => parseHttpFile(texts[path], path),
      forgetFile: (path) => forgotten.push(path),
    });
    expect(plan.map((p) => p.info.relativePath)).toEqual(['a.http', 'b.http']);
    expect(forgotten).toEqual(['/w/a.http', '/w/b.http']);
    expect([...referenced]).toEqual(['a']);
  });
});

describe('runner', () => {
  it('runs requests of a file in order, reports @skip, and totals', async () => {
    const plan = planFiles([fileOf('t.http', three)], {});
    const order: string[] = [];
    const execute: RequestExecutor = async ({ node }) => {
      order.push(node.name!);
      return pass;
    };
    const { events, listener } = collect();
    const summary = await runPlan(plan, execute, {}, listener);
    expect(order).toEqual(['a', 'b']);
    // The plan is consumed, so nothing of a file that ran stays reachable through it.
    expect(plan).toEqual([undefined]);
    expect(summary.totals).toEqual({ files: 1, requests: 3, passed: 2, failed: 0, errored: 0, skipped: 1 });
    const ends = events
      .filter((e) => e.type === 'request:end')
      .map((e) => e.type === 'request:end' && [e.result.name, e.result.status, e.result.skipReason]);
    expect(ends).toEqual([
      ['a', 'passed', undefined],
      ['b', 'passed', undefined],
      ['c', 'skipped', 'not ready'],
    ]);
    expect(events[0].type).toBe('run:start');
    expect(events.at(-1)?.type).toBe('run:end');
  });

  it('keeps at most `concurrency` files in flight', async () => {
    const plan = planFiles(
      Array.from({ length: 6 }, (_, i) => fileOf(`f${i}.http`, 'GET http://x/\n\n###\nGET http://x/2\n')),
      {},
    );
    let inFlight = 0;
    let peak = 0;
    const execute: RequestExecutor = async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight--;
      return pass;
    };
    const summary = await runPlan(plan, execute, { concurrency: 3 }, () => {});
    expect(peak).toBe(3);
    expect(summary.totals.passed).toBe(12);
  });

  it('retries failed attempts (flag and @retry) and counts attempts', async () => {
    const plan = planFiles(
      [fileOf('r.http', '### flaky\n# @retry 3 1ms\nGET http://x/\n\n### never\nGET http://x/n\n')],
      {},
    );
    let flakyCalls = 0;
    const execute: RequestExecutor = async ({ node }) => {
      if (node.name === 'flaky') return ++flakyCalls < 3 ? { status: 'failed', durationMs: 1, assertions: [] } : pass;
      return { status: 'errored', durationMs: 1, assertions: [], error: { code: 'E_CONNRESET', message: 'reset' } };
    };
    const { events, listener } = collect();
    await runPlan(plan, execute, { retry: 1 }, listener);
    const results = events.flatMap((e) => (e.type === 'request:end' ? [e.result] : []));
    expect(results.map((r) => [r.name, r.status, r.attempts])).toEqual([
      ['flaky', 'passed', 3],
      ['never', 'errored', 2],
    ]);
    expect(events.filter((e) => e.type === 'request:retry')).toHaveLength(3);
  });

  it('--bail stops scheduling and reports the rest as skipped', async () => {
    const plan = planFiles(
      [fileOf('a.http', 'GET http://x/1\n\n###\nGET http://x/2\n'), fileOf('b.http', 'GET http://x/3\n')],
      {},
    );
    let calls = 0;
    const execute: RequestExecutor = async () => {
      calls++;
      return { status: 'failed', durationMs: 1, assertions: [] };
    };
    const { events, listener } = collect();
    const summary = await runPlan(plan, execute, { bail: true, concurrency: 1 }, listener);
    expect(calls).toBe(1);
    expect(summary.bailed).toBe(true);
    expect(summary.totals).toMatchObject({ failed: 1, skipped: 2, requests: 3 });
    const skipped = events.flatMap((e) =>
      e.type === 'request:end' && e.result.status === 'skipped' ? [e.result.skipReason] : [],
    );
    expect(skipped).toEqual(['bail', 'bail']);
  });

  it('an executor that throws makes an errored request, not a crash', async () => {
    const plan = planFiles([fileOf('a.http', 'GET http://x/1\n')], {});
    const summary = await runPlan(
      plan,
      async () => {
        throw new DialError('E_VAR_UNDEFINED', 'variable x is not defined');
      },
      {},
      () => {},
    );
    expect(summary.totals.errored).toBe(1);
  });

  it('stops on abort and reports the rest as interrupted', async () => {
    const plan = planFiles([fileOf('a.http', 'GET http://x/1\n\n###\nGET http://x/2\n')], {});
    const controller = new AbortController();
    const { events, listener } = collect();
    const summary = await runPlan(
      plan,
      async () => {
        controller.abort();
        return pass;
      },
      { signal: controller.signal },
      listener,
    );
    expect(summary.interrupted).toBe(true);
    expect(events.flatMap((e) => (e.type === 'request:end' ? [e.result.status] : []))).toEqual(['passed', 'skipped']);
  });

  it('is also an async iterator of the same events', async () => {
    const plan: PlannedFile[] = planFiles([fileOf('a.http', 'GET http://x/1\n')], {});
    const types: string[] = [];
    for await (const event of runEvents(plan, async () => pass, {})) types.push(event.type);
    expect(types).toEqual(['run:start', 'file:start', 'request:start', 'request:end', 'file:end', 'run:end']);
  });
});

describe('referencedNames', () => {
  it('finds dotted references and # @ref / # @forceRef names', async () => {
    const { referencedNames } = await import('../../../src/core/run/index.js');
    const file = parseHttpFile(
      '### a\n# @ref login, other\nGET {{host}}/x?t={{token.response.body.$.t}}&u={{ user.id }}&d={{$dotenv X}}\n\n### b\n# @forceRef setup\nGET {{host}}/y\n',
      '/w/r.http',
    );
    expect([...referencedNames([file])].sort()).toEqual(['login', 'other', 'setup', 'token', 'user']);
  });
});
