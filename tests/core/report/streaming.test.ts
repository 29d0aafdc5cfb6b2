/**
 * Reports written from the spill file (streaming.ts) are byte for byte the reports rendered from
 * the whole report in memory, whatever order the files finish in; the spill file is removed.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ReportCollector,
  createReporters,
  renderGithub,
  renderHtml,
  renderJson,
  renderJunit,
  renderTap,
  type RunReport,
} from '../../../src/core/report/index.js';
import { FileReportSpill } from '../../../src/core/report/streaming.js';
import { HTML_ROW_LIMIT } from '../../../src/core/report/render.js';
import type { RequestResult, RunEvent, Totals } from '../../../src/core/run/types.js';
import { tempDir } from '../../helpers/cli.js';

const STATUSES: RequestResult['status'][] = ['passed', 'failed', 'errored', 'skipped'];

function request(index: number, status: RequestResult['status']): RequestResult {
  return {
    index,
    name: `r${index} <&>`,
    line: 3 + index * 4,
    method: 'GET',
    url: '{{host}}/x',
    status,
    attempts: 1,
    durationMs: index + 0.5,
    httpStatus: status === 'errored' ? undefined : 200,
    assertions:
      status === 'failed'
        ? [{ kind: 'assertion', source: 'status == 201', line: 5, passed: false, expected: '== 201', actual: '200' }]
        : [],
    ...(status === 'errored' && { error: { code: 'E_CONNREFUSED', message: 'refused' } }),
    ...(status === 'skipped' && { skipReason: 'later' }),
  };
}

/** Events of a run over `fileCount` files of `perFile` requests, files finishing in a scrambled order. */
function runEvents(fileCount: number, perFile: number): RunEvent[] {
  const totals: Totals = { files: fileCount, requests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 };
  const files = Array.from(
    { length: fileCount },
    (_, f) => `dir/f${String((f * 7) % fileCount).padStart(3, '0')}.http`,
  );
  const events: RunEvent[] = [
    {
      type: 'run:start',
      startedAt: '2026-01-01T00:00:00.000Z',
      files: files.map((path) => ({ path: `/w/${path}`, relativePath: path, requests: perFile })),
      requests: fileCount * perFile,
    },
  ];
  for (const file of files) {
    const fileTotals: Totals = { files: 1, requests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 };
    events.push({ type: 'file:start', file: { path: `/w/${file}`, relativePath: file, requests: perFile } });
    for (let i = 0; i < perFile; i++) {
      const status = STATUSES[(i + file.length) % 4];
      fileTotals.requests++;
      fileTotals[status]++;
      totals.requests++;
      totals[status]++;
      events.push({ type: 'request:end', file, result: request(i, status) });
    }
    events.push({ type: 'file:end', file, result: { relativePath: file, durationMs: 10, totals: fileTotals } });
  }
  events.push({ type: 'run:end', totals, durationMs: 99, bailed: false, interrupted: false });
  return events;
}

function inMemory(events: RunEvent[]): RunReport {
  const collector = new ReportCollector();
  for (const event of events) collector.onEvent(event);
  return collector.report();
}

describe('streamed reports', () => {
  it('equal the reports rendered in memory, byte for byte, for every format', async () => {
    const events = runEvents(23, 9);
    const dir = tempDir();
    const names = ['json', 'junit', 'tap', 'html', 'github'] as const;
    const reporters = createReporters(
      names.map((name) => ({ name, path: join(dir, `report.${name}`) })),
      { stdout: () => {}, color: false },
    );
    for (const event of events) reporters.onEvent(event);
    await reporters.finish();
    const report = inMemory(events);
    const expected = {
      json: renderJson(report),
      junit: renderJunit(report),
      tap: renderTap(report),
      html: renderHtml(report),
      github: renderGithub(report),
    };
    for (const name of names) expect(readFileSync(join(dir, `report.${name}`), 'utf8'), name).toBe(expected[name]);
    expect(JSON.parse(expected.json)).toEqual(report);
  });

  it('equal the in-memory reports for an interrupted run (files that never ended, a file with no start)', async () => {
    const events = runEvents(5, 4);
    const runEnd = events.pop()!;
    // The last two files never end; a request ends in a file that never said it started.
    const ends = events.filter((event) => event.type === 'file:end');
    for (const end of ends.slice(-2)) events.splice(events.indexOf(end), 1);
    events.push({ type: 'request:end', file: 'late.http', result: request(0, 'passed') }, runEnd);
    let out = '';
    const reporters = createReporters([{ name: 'json' }], { stdout: (text) => (out += text), color: false });
    for (const event of events) reporters.onEvent(event);
    await reporters.finish();
    expect(out).toBe(renderJson(inMemory(events)));
    expect(JSON.parse(out).files.map((file: { path: string }) => file.path)).toContain('late.http');
  });

  it('write a report with no files as before', async () => {
    let out = '';
    const reporters = createReporters([{ name: 'json' }], { stdout: (text) => (out += text), color: false });
    const events = runEvents(0, 0);
    for (const event of events) reporters.onEvent(event);
    await reporters.finish();
    expect(out).toBe(renderJson(inMemory(events)));
  });

  it('keep only the failed and errored requests in memory', () => {
    const reporters = createReporters([{ name: 'junit', path: join(tempDir(), 'r.xml') }], {
      stdout: () => {},
      color: false,
    });
    for (const event of runEvents(4, 8)) reporters.onEvent(event);
    const kept = reporters.report().files.flatMap((file) => file.requests.map((r) => r.status));
    expect(kept.length).toBe(16);
    expect(new Set(kept)).toEqual(new Set(['failed', 'errored']));
  });

  it('spill files to disk, read them back sorted by path, and remove the spill', () => {
    const spill = new FileReportSpill();
    const file = (path: string) => ({
      path,
      durationMs: 1,
      totals: { files: 1, requests: 0, passed: 0, failed: 0, errored: 0, skipped: 0 },
      requests: [],
    });
    for (const path of ['b.http', 'a/z.http', 'ä.http', 'a.http']) spill.add(file(path));
    expect([...spill.files()].map((f) => f.path)).toEqual(['a.http', 'a/z.http', 'b.http', 'ä.http']);
    expect(existsSync(spill.dir)).toBe(true);
    spill.close();
    expect(existsSync(spill.dir)).toBe(false);
  });

  it(`HTML lists only failures past ${HTML_ROW_LIMIT} requests and counts the rest`, () => {
    const report = inMemory(runEvents(30, 70));
    const html = renderHtml(report);
    const rows = html.match(/<td class="s (passed|failed|errored|skipped)">/g) ?? [];
    expect(rows.length).toBe(report.totals.failed + report.totals.errored);
    expect(html).toContain(`${report.totals.requests} requests: only the failed and errored ones are listed.`);
    expect(html).toMatch(/\d+ passed and \d+ skipped not listed/);
  });
});
