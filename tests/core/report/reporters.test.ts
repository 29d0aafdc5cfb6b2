import { describe, expect, it } from 'vitest';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import {
  ReportCollector,
  mergeReports,
  renderGithub,
  renderHtml,
  renderJunit,
  renderTap,
  renderJson,
  createReporters,
  parseReporterSpec,
  readReport,
  type RunReport,
} from '../../../src/core/report/index.js';
import { runReportSchema } from '../../../src/core/report/json-schema.js';
import type { RequestResult, RunEvent } from '../../../src/core/run/types.js';
import { DialError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

function result(name: string, status: RequestResult['status'], extra: Partial<RequestResult> = {}): RequestResult {
  return {
    index: 0,
    name,
    line: 3,
    method: 'GET',
    url: '{{host}}/x',
    status,
    attempts: 1,
    durationMs: 12.345,
    assertions: [],
    ...extra,
  };
}

function events(file: string, results: RequestResult[]): RunEvent[] {
  const totals = { files: 1, requests: results.length, passed: 0, failed: 0, errored: 0, skipped: 0 };
  for (const r of results) totals[r.status]++;
  return [
    {
      type: 'run:start',
      startedAt: '2026-01-01T00:00:00.000Z',
      files: [{ path: `/w/${file}`, relativePath: file, requests: results.length }],
      requests: results.length,
    },
    { type: 'file:start', file: { path: `/w/${file}`, relativePath: file, requests: results.length } },
    ...results.map((r): RunEvent => ({ type: 'request:end', file, result: r })),
    { type: 'file:end', file, result: { relativePath: file, durationMs: 40, totals } },
    { type: 'run:end', totals, durationMs: 50, bailed: false, interrupted: false },
  ];
}

function sample(file = 'api/a <&>.http'): RunReport {
  const collector = new ReportCollector();
  const results = [
    result('ok', 'passed', {
      httpStatus: 200,
      assertions: [{ kind: 'assertion', source: 'status == 200', line: 5, passed: true }],
    }),
    result('bad "quotes" & <tags>', 'failed', {
      httpStatus: 500,
      assertions: [
        {
          kind: 'assertion',
          source: 'status == 200',
          line: 9,
          passed: false,
          expected: '== 200',
          actual: '500',
          message: 'expected == 200, got 500',
        },
      ],
      logs: ['log \u0001 line'],
    }),
    result('down', 'errored', {
      error: { code: 'E_CONNREFUSED', message: 'connection refused by 127.0.0.1:9\nsecond line' },
      attempts: 3,
    }),
    result('later', 'skipped', { skipReason: 'not # ready' }),
  ];
  for (const event of events(file, results)) collector.onEvent(event);
  return collector.report();
}

describe('reporters', () => {
  it('JSON validates against its zod schema', () => {
    const report = JSON.parse(renderJson(sample()));
    expect(runReportSchema.safeParse(report).success).toBe(true);
    expect(report.totals).toEqual({ files: 1, requests: 4, passed: 1, failed: 1, errored: 1, skipped: 1 });
    expect(report.files[0].requests[2]).toMatchObject({
      status: 'errored',
      attempts: 3,
      error: { code: 'E_CONNREFUSED' },
    });
  });

  it('JUnit is valid, escaped XML with a suite per file and a case per request', () => {
    const xml = renderJunit(sample());
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suites = doc.testsuites;
    expect(suites).toMatchObject({ tests: '4', failures: '1', errors: '1', skipped: '1' });
    const suite = suites.testsuite;
    expect(suite.name).toBe('api/a <&>.http');
    const cases = suite.testcase;
    expect(cases).toHaveLength(4);
    expect(cases[1].name).toBe('bad "quotes" & <tags>');
    expect(cases[1].failure.message).toBe('?? status == 200: expected == 200, got 500');
    expect(cases[1].failure['#text']).toContain('expected: == 200');
    expect(cases[2].error.type).toBe('E_CONNREFUSED');
    expect(cases[3].skipped.message).toBe('not # ready');
  });

  it('TAP 13 has a plan and one line per request', () => {
    const tap = renderTap(sample());
    const lines = tap.split('\n');
    expect(lines[0]).toBe('TAP version 13');
    expect(lines[1]).toBe('1..4');
    expect(lines.filter((l) => /^ok \d+/.test(l))).toHaveLength(2);
    expect(lines.filter((l) => /^not ok \d+/.test(l))).toHaveLength(2);
    expect(tap).toContain('# SKIP not # ready');
    expect(tap).toContain('ok 1 - api/a <&>.http › ok');
  });

  it('github annotations escape newlines and property separators', () => {
    const out = renderGithub(sample('a,b:c.http'));
    const errors = out.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/^::error file=a%2Cb%3Ac\.http,line=9,title=bad "quotes" & <tags>::/);
    expect(errors[1]).toContain('%0Asecond line');
    expect(out).toContain('::notice title=dial run::1 passed, 1 failed, 1 errored, 1 skipped');
  });

  it('HTML is one self-contained page', () => {
    const html = renderHtml(sample());
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('<style>');
    expect(html).not.toMatch(/<script|<link|src=|href=/);
    expect(html).toContain('bad &quot;quotes&quot; &amp; &lt;tags&gt;');
  });

  it('pretty and dot print plain lines without cursor movement', () => {
    for (const name of ['pretty', 'dot'] as const) {
      let out = '';
      const reporters = createReporters([{ name }], { stdout: (t) => (out += t), color: false });
      for (const event of events('a.http', sample().files[0].requests as RequestResult[])) reporters.onEvent(event);
      expect(out).not.toMatch(/\x1b/);
      expect(out).toContain('1 passed, 1 failed, 1 errored, 1 skipped (4 requests, 1 file)');
      expect(out).toContain('?? status == 200  a.http:9');
      if (name === 'dot') expect(out.startsWith('.FES')).toBe(true);
      else expect(out).toContain('✓ a.http › ok  200');
    }
  });

  it('the collected report keeps just the failed and errored requests, with or without file reporters', () => {
    const everything = sample();
    const live = createReporters([parseReporterSpec('dot')], { stdout: () => {}, color: false });
    const withJson = createReporters(
      [parseReporterSpec('dot'), parseReporterSpec(`json:${join(tempDir(), 'r.json')}`)],
      { stdout: () => {}, color: false },
    );
    for (const event of events('api/a <&>.http', everything.files[0].requests as RequestResult[])) {
      live.onEvent(event);
      withJson.onEvent(event);
    }
    expect(live.report().files[0].requests.map((r) => r.status)).toEqual(['failed', 'errored']);
    expect(live.report().totals).toEqual(everything.totals);
    expect(withJson.report().files[0].requests.map((r) => r.status)).toEqual(['failed', 'errored']);
  });

  it('parses reporter specs; unknown names are usage errors', () => {
    expect(parseReporterSpec('junit:out/r.xml')).toEqual({ name: 'junit', path: 'out/r.xml' });
    expect(parseReporterSpec('DOT')).toEqual({ name: 'dot' });
    expect(() => parseReporterSpec('xunit')).toThrow(/unknown reporter/);
  });
});

describe('merge', () => {
  it('combines shard reports: files sorted, totals summed', () => {
    const a = sample('b.http');
    const b = sample('a.http');
    const merged = mergeReports([a, b]);
    expect(merged.files.map((f) => f.path)).toEqual(['a.http', 'b.http']);
    expect(merged.totals).toEqual({ files: 2, requests: 8, passed: 2, failed: 2, errored: 2, skipped: 2 });
    expect(merged.merged).toBe(2);
    expect(runReportSchema.safeParse(merged).success).toBe(true);
  });

  it('a file that is not a report is E_INPUT naming the path', async () => {
    const dir = tempDir();
    const path = join(dir, 'bad.json');
    writeFileSync(path, JSON.stringify({ tool: 'dial', version: 1, totals: {} }));
    const error = (await readReport(path).catch((e: unknown) => e)) as DialError;
    expect(error.code).toBe('E_INPUT');
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain(path);
    writeFileSync(path, '{nope');
    expect(((await readReport(path).catch((e: unknown) => e)) as DialError).message).toMatch(/not JSON/);
  });
});
