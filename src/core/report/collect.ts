/** Builds the report model (the JSON report's shape) from runner events. */
import type { RequestResult, RunEvent, Totals } from '../run/types.js';
import { emptyTotals } from '../run/types.js';
import type { FileReport, RequestReport, RunReport } from './json-schema.js';

/**
 * Collects events into a RunReport; `report()` answers it with files sorted by path.
 * `failuresOnly` keeps just the failed and errored requests: when no reporter renders the whole
 * report at the end, a long run then holds nothing per passing request.
 */
export class ReportCollector {
  constructor(private readonly options: { failuresOnly?: boolean } = {}) {}

  private startedAt = new Date().toISOString();
  private durationMs = 0;
  private shard: RunReport['shard'];
  private totals: Totals = emptyTotals();
  private readonly files = new Map<string, FileReport>();

  /** Feeds one event. */
  onEvent(event: RunEvent): void {
    switch (event.type) {
      case 'run:start':
        this.startedAt = event.startedAt;
        if (event.shard) this.shard = { index: event.shard.index, total: event.shard.total };
        break;
      case 'file:start':
        // Keeping only failures, a file gets an entry with its first failure (memory stays flat).
        if (this.options.failuresOnly) break;
        this.files.set(event.file.relativePath, {
          path: event.file.relativePath,
          durationMs: 0,
          totals: emptyTotals(),
          requests: [],
        });
        break;
      case 'request:end':
        if (this.options.failuresOnly && event.result.status !== 'failed' && event.result.status !== 'errored') break;
        this.entry(event.file).requests.push(toRequestReport(event.result));
        break;
      case 'file:end': {
        if (this.options.failuresOnly && !this.files.has(event.file)) break;
        const entry = this.entry(event.file);
        entry.durationMs = round(event.result.durationMs);
        entry.totals = { ...event.result.totals };
        break;
      }
      case 'run:end':
        this.durationMs = round(event.durationMs);
        this.totals = { ...event.totals };
        break;
      default:
        break;
    }
  }

  private entry(path: string): FileReport {
    let entry = this.files.get(path);
    if (!entry) {
      entry = { path, durationMs: 0, totals: emptyTotals(), requests: [] };
      this.files.set(path, entry);
    }
    return entry;
  }

  /** Removes a file's entry and answers it (the run's reports keep it on disk from then on). */
  take(path: string): FileReport | undefined {
    const entry = this.files.get(path);
    this.files.delete(path);
    return entry;
  }

  /** The paths of the files held. */
  paths(): string[] {
    return [...this.files.keys()];
  }

  /** The report so far. */
  report(): RunReport {
    const files = [...this.files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return {
      tool: 'dial',
      version: 1,
      startedAt: this.startedAt,
      durationMs: this.durationMs,
      ...(this.shard ? { shard: this.shard } : {}),
      totals: this.totals,
      files,
    };
  }
}

/**
 * The per-file part of the structured reports, as text: each request's entry is serialised when
 * it ends and a file's JSON line (what JSON.stringify gives its FileReport, same keys in the same
 * order) is handed over when it ends. A request's entry then lives on as one string until its
 * file ends, not as a dozen objects the young-generation collector copies and promotes.
 */
export class FileReportLines {
  private readonly open = new Map<string, string[]>();

  constructor(private readonly onLine: (path: string, line: string) => void) {}

  /** Feeds one event (run:start and run:end are not the files' business). */
  onEvent(event: RunEvent): void {
    if (event.type === 'file:start') this.open.set(event.file.relativePath, []);
    else if (event.type === 'request:end') this.entries(event.file).push(requestReportJson(event.result));
    else if (event.type === 'file:end')
      this.end(event.file, round(event.result.durationMs), { ...event.result.totals });
  }

  /** Hands over the files that never ended (an interrupted run), as ReportCollector keeps them. */
  flush(): void {
    for (const path of [...this.open.keys()]) this.end(path, 0, emptyTotals());
  }

  private entries(path: string): string[] {
    let entries = this.open.get(path);
    if (!entries) {
      entries = [];
      this.open.set(path, entries);
    }
    return entries;
  }

  private end(path: string, durationMs: number, totals: Totals): void {
    const requests = this.entries(path);
    this.open.delete(path);
    this.onLine(
      path,
      `{"path":${JSON.stringify(path)},"durationMs":${JSON.stringify(durationMs)},"totals":${JSON.stringify(totals)},"requests":[${requests.join(',')}]}`,
    );
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/**
 * JSON.stringify(toRequestReport(result)), written straight as text for the common entry (no
 * error, exchange, logs or skip reason; assertions with a kind, source, outcome and line only):
 * the entry and its assertions are not built as objects first, for every request of a run.
 * Anything else goes through toRequestReport. The text is the same either way (a property test
 * compares them).
 */
export function requestReportJson(result: RequestResult): string {
  const { assertions } = result;
  const durationMs = round(result.durationMs);
  if (
    result.error !== undefined ||
    result.exchange !== undefined ||
    result.skipReason !== undefined ||
    result.logs !== undefined ||
    typeof result.name !== 'string' ||
    typeof result.method !== 'string' ||
    typeof result.url !== 'string' ||
    typeof result.status !== 'string' ||
    !Number.isFinite(result.index) ||
    !Number.isFinite(result.line) ||
    !Number.isFinite(result.attempts) ||
    !Number.isFinite(durationMs) ||
    (result.httpStatus !== undefined && !Number.isFinite(result.httpStatus))
  )
    return JSON.stringify(toRequestReport(result));
  // Pieces joined once: `+` and template literals would leave the entry a tree of cons strings,
  // which lives until its file ends (many small objects for the collector to copy and promote);
  // join() writes one flat string.
  const parts: string[] = [
    '{"index":',
    String(result.index),
    ',"name":',
    JSON.stringify(result.name),
    ',"line":',
    String(result.line),
    ',"method":',
    JSON.stringify(result.method),
    ',"url":',
    JSON.stringify(result.url),
    ',"status":',
    JSON.stringify(result.status),
    ',"attempts":',
    String(result.attempts),
    ',"durationMs":',
    String(durationMs),
    ',"assertions":[',
  ];
  for (let i = 0; i < assertions.length; i++) {
    const a = assertions[i];
    if (
      a.expected !== undefined ||
      a.actual !== undefined ||
      a.message !== undefined ||
      a.diff !== undefined ||
      typeof a.kind !== 'string' ||
      typeof a.source !== 'string' ||
      typeof a.passed !== 'boolean' ||
      (a.line !== undefined && !Number.isFinite(a.line))
    )
      return JSON.stringify(toRequestReport(result));
    parts.push(
      i === 0 ? '{"kind":' : ',{"kind":',
      JSON.stringify(a.kind),
      ',"source":',
      JSON.stringify(a.source),
      a.passed ? ',"passed":true' : ',"passed":false',
    );
    if (a.line !== undefined) parts.push(',"line":', String(a.line));
    parts.push('}');
  }
  parts.push(']');
  if (result.httpStatus !== undefined) parts.push(',"httpStatus":', String(result.httpStatus));
  parts.push('}');
  return parts.join('');
}

/** A runner result as a report entry (durations rounded, undefined fields dropped). */
export function toRequestReport(result: RequestResult): RequestReport {
  const entry: RequestReport = {
    index: result.index,
    name: result.name,
    line: result.line,
    method: result.method,
    url: result.url,
    status: result.status,
    attempts: result.attempts,
    durationMs: round(result.durationMs),
    assertions: result.assertions.map((a) => {
      const out: RequestReport['assertions'][number] = { kind: a.kind, source: a.source, passed: a.passed };
      if (a.line !== undefined) out.line = a.line;
      if (a.expected !== undefined) out.expected = a.expected;
      if (a.actual !== undefined) out.actual = a.actual;
      if (a.message !== undefined) out.message = a.message;
      if (a.diff !== undefined) out.diff = a.diff;
      return out;
    }),
  };
  if (result.httpStatus !== undefined) entry.httpStatus = result.httpStatus;
  if (result.skipReason !== undefined) entry.skipReason = result.skipReason;
  if (result.logs?.length) entry.logs = result.logs;
  if (result.error) entry.error = result.error;
  if (result.exchange) entry.exchange = result.exchange;
  return entry;
}

/** Replays a report as runner events (pretty and dot output of a merged report). */
export function reportToEvents(report: RunReport): RunEvent[] {
  const events: RunEvent[] = [
    {
      type: 'run:start',
      startedAt: report.startedAt,
      files: report.files.map((f) => ({ path: f.path, relativePath: f.path, requests: f.requests.length })),
      requests: report.totals.requests,
    },
  ];
  for (const file of report.files) {
    events.push({
      type: 'file:start',
      file: { path: file.path, relativePath: file.path, requests: file.requests.length },
    });
    for (const request of file.requests)
      events.push({ type: 'request:end', file: file.path, result: request as RequestResult });
    events.push({
      type: 'file:end',
      file: file.path,
      result: { relativePath: file.path, durationMs: file.durationMs, totals: file.totals },
    });
  }
  events.push({
    type: 'run:end',
    totals: report.totals,
    durationMs: report.durationMs,
    bailed: false,
    interrupted: false,
  });
  return events;
}
