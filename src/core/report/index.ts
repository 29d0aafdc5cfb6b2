/**
 * Reporters (`--reporter NAME[:PATH]`, repeatable): pretty, dot, json, junit, tap, html,
 * github. All consume the runner's events; a PATH writes the report to that file atomically,
 * else it goes to stdout. Also `mergeReports` for `dial report merge`.
 */
import { readFile } from 'node:fs/promises';
import { writeFileAtomic } from '../atomic-write.js';
import { DialError } from '../errors.js';
import { createStyle } from '../style.js';
import type { RunEvent } from '../run/types.js';
import { emptyTotals } from '../run/types.js';
import { FileReportLines, ReportCollector, reportToEvents } from './collect.js';
import type { RunReport } from './json-schema.js';
import { createDotReporter, createPrettyReporter, type LiveReporter } from './live.js';
import {
  githubSections,
  htmlSections,
  jsonSections,
  junitSections,
  renderSections,
  tapSections,
  type ReportSections,
} from './render.js';
import { FileReportSpill, reportFileSink, writeSpilledReport, type ReportSink } from './streaming.js';

export { ReportCollector, reportToEvents } from './collect.js';
export type { RunReport, FileReport, RequestReport } from './json-schema.js';
export { renderGithub, renderHtml, renderJson, renderJunit, renderTap, escapeXml } from './render.js';
export { createDotReporter, createPrettyReporter } from './live.js';
export { exchangeLines } from './text.js';

/** Every reporter `--reporter` accepts. */
export const REPORTER_NAMES = ['pretty', 'dot', 'json', 'junit', 'tap', 'html', 'github'] as const;
export type ReporterName = (typeof REPORTER_NAMES)[number];

export interface ReporterSpec {
  name: ReporterName;
  /** Write here (atomically) instead of stdout. */
  path?: string;
}

/** Parses `name` or `name:path`; unknown names are a usage error. */
export function parseReporterSpec(text: string): ReporterSpec {
  const colon = text.indexOf(':');
  const name = (colon < 0 ? text : text.slice(0, colon)).trim().toLowerCase();
  const path = colon < 0 ? undefined : text.slice(colon + 1).trim();
  if (!(REPORTER_NAMES as readonly string[]).includes(name)) {
    throw new DialError('E_USAGE', `unknown reporter '${name}'`, {
      hint: `reporters: ${REPORTER_NAMES.join(', ')} (optionally NAME:PATH)`,
    });
  }
  if (path === '') throw new DialError('E_USAGE', `--reporter ${name}: needs a path after ':'`);
  return { name: name as ReporterName, ...(path ? { path } : {}) };
}

/**
 * A JSON, JUnit, TAP or HTML report on standard output must be all there is on it, or it cannot
 * be parsed: with any other reporter there, it needs a path. Throws E_USAGE. The commands call
 * it before reading anything (`dial run`, `dial report merge`).
 */
export function checkReporterSpecs(specs: ReporterSpec[]): void {
  const onStdout = specs.filter((spec) => spec.path === undefined);
  const structured = onStdout.find(
    (spec) => spec.name === 'json' || spec.name === 'junit' || spec.name === 'tap' || spec.name === 'html',
  );
  if (structured && onStdout.length > 1) {
    throw new DialError(
      'E_USAGE',
      `--reporter ${structured.name} and --reporter ${onStdout.find((spec) => spec !== structured)!.name} would both write to standard output`,
      {
        hint: `give one a file: --reporter ${structured.name}:report.${structured.name === 'junit' ? 'xml' : structured.name}`,
      },
    );
  }
}

/** Writes a report file: atomically over a regular file, in place into a FIFO or device; E_IO with the path on failure. */
function writeReportFile(path: string, text: string): void {
  writeFileAtomic(path, text, undefined, 'report');
}

export interface ReporterOptions {
  /** Writes to stdout. */
  stdout: (text: string) => void;
  color: boolean;
  verbose?: boolean;
  outputFailed?: boolean;
  /** Resolves a reporter path (relative to the working folder). */
  resolvePath?: (path: string) => string;
}

/** A set of reporters behind one event sink. */
export interface Reporters {
  onEvent(event: RunEvent): void;
  /** Writes the reports that render at the end. */
  finish(): Promise<void>;
  /** The report collected so far, with only its failed and errored requests (the rest went to disk). */
  report(): RunReport;
}

const sectionsOf: Record<Exclude<ReporterName, 'pretty' | 'dot'>, () => ReportSections> = {
  json: jsonSections,
  junit: junitSections,
  tap: tapSections,
  html: htmlSections,
  github: githubSections,
};

function stdoutSink(stdout: (text: string) => void): ReportSink {
  return { write: stdout, finish: async () => {}, abort: () => {} };
}

/**
 * Builds the reporters of a run. Live reporters (pretty, dot) print as events come; the others
 * are assembled at the end from a spill file that holds each finished file's results (see
 * streaming.ts), so no reporter keeps a passing request in memory.
 */
export function createReporters(specs: ReporterSpec[], options: ReporterOptions): Reporters {
  const failures = new ReportCollector({ failuresOnly: true });
  const structured = specs.filter((spec) => spec.name !== 'pretty' && spec.name !== 'dot');
  const spill = structured.length > 0 ? new FileReportSpill() : undefined;
  // The run's summary (start, duration, totals); the files' results go to the spill as text.
  const summary = spill ? new ReportCollector({ failuresOnly: true }) : undefined;
  const files = spill ? new FileReportLines((path, line) => spill.addLine(path, line)) : undefined;
  const live: LiveReporter[] = [];
  const liveFiles: ReportSink[] = [];
  const resolvePath = options.resolvePath ?? ((p: string) => p);
  for (const spec of specs) {
    if (spec.name !== 'pretty' && spec.name !== 'dot') continue;
    // To a file, live output streams there as it comes (nothing piles up in memory).
    const sink = spec.path === undefined ? undefined : reportFileSink(resolvePath(spec.path));
    if (sink) liveFiles.push(sink);
    const write = sink ? (text: string) => sink.append(text) : options.stdout;
    const style = createStyle(!sink && options.color);
    const make = spec.name === 'pretty' ? createPrettyReporter : createDotReporter;
    live.push(make({ write, style, verbose: options.verbose, outputFailed: options.outputFailed }));
  }
  return {
    onEvent(event) {
      failures.onEvent(event);
      if (files && summary) {
        if (event.type === 'run:start' || event.type === 'run:end') summary.onEvent(event);
        else files.onEvent(event);
      }
      for (const reporter of live) reporter.onEvent(event);
    },
    async finish() {
      for (const sink of liveFiles) await sink.finish();
      if (!files || !spill || !summary) return;
      try {
        // Files that never ended (an interrupted run) still go into the reports.
        files.flush();
        const { files: _none, ...head } = summary.report();
        for (const spec of structured) {
          const sink = spec.path ? reportFileSink(resolvePath(spec.path)) : stdoutSink(options.stdout);
          await writeSpilledReport(sectionsOf[spec.name as keyof typeof sectionsOf](), head, spill, sink);
        }
      } finally {
        spill.close();
      }
    },
    report: () => failures.report(),
  };
}

/** Reads and validates one JSON report; a bad file is E_INPUT naming the path. */
export async function readReport(path: string): Promise<RunReport> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new DialError('E_NOT_FOUND', `report not found: ${path}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new DialError('E_INPUT', `${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`, {
      location: { file: path, line: 1 },
      hint: 'give reports written with --reporter json:PATH',
    });
  }
  // zod is loaded only here: a run that writes reports never pays for it.
  const { runReportSchema } = await import('./json-schema.js');
  const result = runReportSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const at = issue?.path.length
      ? issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
      : '(root)';
    throw new DialError('E_INPUT', `${path} is not a dial JSON report: ${issue?.message ?? 'invalid'} at ${at}`, {
      location: { file: path, line: 1 },
      hint: 'give reports written with --reporter json:PATH (version 1)',
    });
  }
  return result.data;
}

/** Combines the JSON reports of sharded runs into one (files sorted by path; wall time = the longest shard). */
export function mergeReports(reports: RunReport[]): RunReport {
  const totals = emptyTotals();
  const files = reports.flatMap((r) => r.files).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const report of reports) {
    for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += report.totals[key];
  }
  const startedAt = reports.map((r) => r.startedAt).sort()[0] ?? new Date().toISOString();
  return {
    tool: 'dial',
    version: 1,
    startedAt,
    durationMs: Math.max(0, ...reports.map((r) => r.durationMs)),
    merged: reports.length,
    totals,
    files,
  };
}

/** Renders a finished report with any reporter (used by `dial report merge`). */
export async function renderReport(report: RunReport, spec: ReporterSpec, options: ReporterOptions): Promise<void> {
  if (spec.name === 'pretty' || spec.name === 'dot') {
    const reporters = createReporters([spec], options);
    for (const event of reportToEvents(report)) reporters.onEvent(event);
    return reporters.finish();
  }
  // Straight from the merged report, so its metadata (merged count, shard) is kept.
  const text = renderSections(sectionsOf[spec.name](), report);
  if (spec.path) writeReportFile((options.resolvePath ?? ((p: string) => p))(spec.path), text);
  else options.stdout(text);
}
