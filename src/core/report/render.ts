/**
 * Reports rendered from the report model: json, junit, tap, html, github. Each format is a head
 * (which may show the totals), one section per file and a tail, so a run can write its report
 * one file at a time from disk (streaming.ts) and memory does not grow with the request count;
 * `renderX(report)` puts the same pieces together for a report already in memory.
 */
import type { FileReport, RequestReport, RunReport } from './json-schema.js';

/** A report without its files: what the head and tail of a report show. */
export type ReportSummary = Omit<RunReport, 'files'>;

/** One report format, in pieces. A new one per report: TAP numbers its lines as they are rendered. */
export interface ReportSections {
  head(summary: ReportSummary): string;
  file(file: FileReport): string;
  /**
   * The same section from the file's report as JSON.stringify wrote it (what the run keeps on
   * disk), for a format that can do without parsing it back.
   */
  fileFromJson?(json: string): string;
  tail(summary: ReportSummary): string;
}

/** The whole report in one string. */
export function renderSections(sections: ReportSections, report: RunReport): string {
  const { files, ...summary } = report;
  return sections.head(summary) + files.map((file) => sections.file(file)).join('') + sections.tail(summary);
}

/** The JSON report (schema in json-schema.ts), byte for byte as JSON.stringify(report, null, 2) writes it. */
export function jsonSections(): ReportSections {
  let first = true;
  return {
    head(summary) {
      first = true;
      return `${JSON.stringify({ ...summary, files: [] }, null, 2).slice(0, -'[]\n}'.length)}[`;
    },
    file(file) {
      const text = `${first ? '' : ','}\n    ${JSON.stringify(file, null, 2).replace(/\n/g, '\n    ')}`;
      first = false;
      return text;
    },
    // The spilled line re-indented: the same text, without parsing it and serialising it again.
    fileFromJson(json) {
      const text = `${first ? '' : ','}\n    ${indentJson(json, '    ')}`;
      first = false;
      return text;
    },
    tail: () => (first ? ']\n}\n' : '\n  ]\n}\n'),
  };
}

/**
 * JSON.stringify(JSON.parse(json), null, 2) with `indent` after each line break, for `json` that
 * JSON.stringify wrote without spaces (so the only whitespace is inside strings, and parsing it
 * back would give the same keys in the same order).
 */
export function indentJson(json: string, indent: string): string {
  const first = json.charCodeAt(0);
  // A string, number, boolean or null is written the same either way.
  if (first !== 0x7b && first !== 0x5b) return json;
  let out = '';
  let pad = indent;
  let from = 0;
  const length = json.length;
  for (let i = 0; i < length; i++) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      // A string: to its closing quote, the one not escaped by an odd run of backslashes.
      let end = json.indexOf('"', i + 1);
      for (;;) {
        let slashes = 0;
        while (json.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end = json.indexOf('"', end + 1);
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      // `{}` and `[]` stay as they are.
      const next = json.charCodeAt(i + 1);
      if (next === 0x7d || next === 0x5d) {
        out += json.slice(from, i + 2);
        from = i + 2;
        i++;
        continue;
      }
      pad += '  ';
      out += `${json.slice(from, i + 1)}\n${pad}`;
      from = i + 1;
    } else if (c === 0x7d || c === 0x5d) {
      pad = pad.slice(0, -2);
      out += `${json.slice(from, i)}\n${pad}${c === 0x7d ? '}' : ']'}`;
      from = i + 1;
    } else if (c === 0x2c) {
      out += `${json.slice(from, i + 1)}\n${pad}`;
      from = i + 1;
    } else if (c === 0x3a) {
      out += `${json.slice(from, i + 1)} `;
      from = i + 1;
    }
  }
  // An object or array ends in its bracket, written above: nothing is left to add here, where V8's
  // code for the loop (compiled while the first file's line was read) had never been and would be
  // thrown away.
  return out;
}

/** The JSON report of a report in memory. */
export function renderJson(report: RunReport): string {
  return renderSections(jsonSections(), report);
}

const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes text for XML attributes and content (and drops characters XML 1.0 forbids). */
export function escapeXml(text: string): string {
  return text
    .replace(XML_INVALID, '')
    .replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/** The lines explaining a failed or errored request (for junit/tap/html/github). */
export function failureText(request: RequestReport, file: string): string {
  const lines: string[] = [];
  if (request.error)
    lines.push(
      `${request.error.code}: ${request.error.message}${request.error.file ? ` (${request.error.file}${request.error.line ? `:${request.error.line}` : ''})` : ''}`,
    );
  for (const a of request.assertions) {
    if (a.passed) continue;
    lines.push(`${a.kind === 'test' ? `test "${a.source}"` : `?? ${a.source}`} (${file}${a.line ? `:${a.line}` : ''})`);
    if (a.expected !== undefined) lines.push(`  expected: ${a.expected}`);
    if (a.actual !== undefined) lines.push(`  actual:   ${a.actual}`);
    if (a.message && (a.expected === undefined || a.diff)) lines.push(`  ${a.message}`);
    for (const d of a.diff ?? []) lines.push(`    ${d}`);
  }
  return lines.join('\n');
}

/** The first line that says why a request failed. */
export function failureHeadline(request: RequestReport): string {
  if (request.error) return `${request.error.code}: ${request.error.message}`;
  const failed = request.assertions.find((a) => !a.passed);
  if (!failed) return request.status;
  const label = failed.kind === 'test' ? `test "${failed.source}" failed` : `?? ${failed.source}`;
  return failed.message ? `${label}: ${failed.message}` : label;
}

function firstFailureLine(request: RequestReport, file: string): number {
  if (
    request.error?.line &&
    (!request.error.file || request.error.file === file || request.error.file.endsWith(`/${file}`))
  )
    return request.error.line;
  return request.assertions.find((a) => !a.passed)?.line ?? request.line;
}

/** JUnit XML: a testsuite per file, a testcase per request (loads in GitLab and Jenkins). */
export function junitSections(): ReportSections {
  return {
    head(summary) {
      const t = summary.totals;
      return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="dial" tests="${t.requests}" failures="${t.failed}" errors="${t.errored}" skipped="${t.skipped}" time="${seconds(summary.durationMs)}" timestamp="${escapeXml(summary.startedAt)}">\n`;
    },
    file: junitSuite,
    tail: () => '</testsuites>\n',
  };
}

/** The JUnit report of a report in memory. */
export function renderJunit(report: RunReport): string {
  return renderSections(junitSections(), report);
}

function junitSuite(file: FileReport): string {
  const out: string[] = [];
  const ft = file.totals;
  out.push(
    `  <testsuite name="${escapeXml(file.path)}" tests="${file.requests.length}" failures="${ft.failed}" errors="${ft.errored}" skipped="${ft.skipped}" time="${seconds(file.durationMs)}" file="${escapeXml(file.path)}">`,
  );
  for (const request of file.requests) {
    const attrs = `name="${escapeXml(request.name)}" classname="${escapeXml(file.path)}" time="${seconds(request.durationMs)}" file="${escapeXml(file.path)}" line="${request.line}"`;
    const body: string[] = [];
    if (request.status === 'failed')
      body.push(
        `      <failure message="${escapeXml(failureHeadline(request))}" type="AssertionError">${escapeXml(failureText(request, file.path))}</failure>`,
      );
    else if (request.status === 'errored')
      body.push(
        `      <error message="${escapeXml(failureHeadline(request))}" type="${escapeXml(request.error?.code ?? 'Error')}">${escapeXml(failureText(request, file.path))}</error>`,
      );
    else if (request.status === 'skipped')
      body.push(`      <skipped message="${escapeXml(request.skipReason ?? 'skipped')}"/>`);
    if (request.logs?.length) body.push(`      <system-out>${escapeXml(request.logs.join('\n'))}</system-out>`);
    if (request.attempts > 1)
      body.push(`      <properties><property name="attempts" value="${request.attempts}"/></properties>`);
    out.push(body.length ? `    <testcase ${attrs}>\n${body.join('\n')}\n    </testcase>` : `    <testcase ${attrs}/>`);
  }
  out.push('  </testsuite>');
  return `${out.join('\n')}\n`;
}

function yamlString(text: string): string {
  return JSON.stringify(text);
}

/** TAP version 13 with a plan; failures carry a YAML diagnostic block. */
export function tapSections(): ReportSections {
  let n = 0;
  return {
    head(summary) {
      n = 0;
      return `TAP version 13\n1..${summary.totals.requests}\n`;
    },
    file(file) {
      const lines = tapLines(file, n);
      n += file.requests.length;
      return lines.length ? `${lines.join('\n')}\n` : '';
    },
    tail(summary) {
      const t = summary.totals;
      return `# pass ${t.passed}\n# fail ${t.failed + t.errored}\n# skip ${t.skipped}\n`;
    },
  };
}

/** The TAP report of a report in memory. */
export function renderTap(report: RunReport): string {
  return renderSections(tapSections(), report);
}

function tapLines(file: FileReport, numbered: number): string[] {
  const out: string[] = [];
  let n = numbered;
  for (const request of file.requests) {
    n++;
    const title = `${file.path} › ${request.name}`.replace(/#/g, '\\#');
    if (request.status === 'skipped') {
      out.push(`ok ${n} - ${title} # SKIP ${request.skipReason ?? ''}`.trimEnd());
      continue;
    }
    if (request.status === 'passed') {
      out.push(`ok ${n} - ${title}`);
      continue;
    }
    out.push(`not ok ${n} - ${title}`);
    out.push('  ---');
    out.push(`  message: ${yamlString(failureHeadline(request))}`);
    out.push(`  severity: ${request.status === 'errored' ? 'error' : 'fail'}`);
    out.push(`  at: ${yamlString(`${file.path}:${firstFailureLine(request, file.path)}`)}`);
    const failed = request.assertions.find((a) => !a.passed);
    if (failed?.expected !== undefined) out.push(`  expected: ${yamlString(failed.expected)}`);
    if (failed?.actual !== undefined) out.push(`  actual: ${yamlString(failed.actual)}`);
    out.push(`  attempts: ${request.attempts}`);
    out.push('  ...');
  }
  return out;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const HTML_STYLE = `
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1d2430;background:#fff}
h1{font-size:1.4rem;margin:0 0 .25rem}.meta{color:#667}.totals span{display:inline-block;margin-right:1rem;font-weight:600}
.passed{color:#137333}.failed,.errored{color:#b3261e}.skipped{color:#8a6d00}
section{border:1px solid #dde;border-radius:6px;margin:1rem 0}section>h2{font-size:1rem;margin:0;padding:.5rem .75rem;background:#f5f6f8;border-bottom:1px solid #dde}
table{border-collapse:collapse;width:100%}td{padding:.35rem .75rem;border-top:1px solid #eef;vertical-align:top}td.s{width:5.5rem;font-weight:600}td.n{text-align:right;white-space:nowrap;color:#667}
pre{margin:.25rem 0 0;padding:.5rem;background:#fbf3f2;border-radius:4px;white-space:pre-wrap;word-break:break-word;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
@media (prefers-color-scheme:dark){body{background:#14171c;color:#dfe3ea}section{border-color:#333a45}section>h2{background:#1c2028;border-color:#333a45}td{border-color:#252b35}pre{background:#2a1d1d}}
`;

/**
 * Past this many requests the HTML page lists only the failed and errored ones, and counts the
 * rest per file: a page with a row per request of a million-request run would not open.
 */
export const HTML_ROW_LIMIT = 2000;

function htmlRow(r: RequestReport, file: FileReport): string {
  const details =
    r.status === 'failed' || r.status === 'errored'
      ? `<pre>${escapeHtml(failureText(r, file.path))}</pre>`
      : r.status === 'skipped' && r.skipReason
        ? `<div class="meta">${escapeHtml(r.skipReason)}</div>`
        : '';
  return `<tr><td class="s ${r.status}">${r.status}</td><td><strong>${escapeHtml(r.name)}</strong> <span class="meta">${escapeHtml(r.method)} ${escapeHtml(r.url)} · ${escapeHtml(file.path)}:${r.line}</span>${details}</td><td class="n">${r.httpStatus ?? ''}</td><td class="n">${r.durationMs.toFixed(0)} ms${r.attempts > 1 ? ` · ${r.attempts} attempts` : ''}</td></tr>`;
}

function htmlSection(file: FileReport, summarised: boolean): string {
  const shown = summarised
    ? file.requests.filter((r) => r.status === 'failed' || r.status === 'errored')
    : file.requests;
  const left = file.requests.length - shown.length;
  const rest =
    left > 0
      ? `<tr><td class="s"></td><td class="meta">${file.totals.passed} passed and ${file.totals.skipped} skipped not listed</td><td></td><td></td></tr>`
      : '';
  return `<section><h2>${escapeHtml(file.path)} <span class="meta">${file.totals.passed}/${file.requests.length} passed</span></h2><table>${shown.map((r) => htmlRow(r, file)).join('')}${rest}</table></section>`;
}

/** One self-contained HTML page (inline CSS, no scripts, no external assets). */
export function htmlSections(): ReportSections {
  let first = true;
  let summarised = false;
  return {
    head(summary) {
      first = true;
      summarised = summary.totals.requests > HTML_ROW_LIMIT;
      const t = summary.totals;
      const ok = t.failed + t.errored === 0;
      const note = summarised
        ? `\n<p class="meta">${t.requests} requests: only the failed and errored ones are listed.</p>`
        : '';
      return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>dial run: ${ok ? 'passed' : 'failed'}</title><style>${HTML_STYLE}</style></head>
<body><h1 class="${ok ? 'passed' : 'failed'}">dial run ${ok ? 'passed' : 'failed'}</h1>
<p class="meta">${escapeHtml(summary.startedAt)} · ${(summary.durationMs / 1000).toFixed(2)} s · ${t.files} files${summary.merged ? ` · merged from ${summary.merged} reports` : ''}</p>
<p class="totals"><span class="passed">${t.passed} passed</span><span class="failed">${t.failed} failed</span><span class="errored">${t.errored} errored</span><span class="skipped">${t.skipped} skipped</span></p>${note}
`;
    },
    file(file) {
      const text = `${first ? '' : '\n'}${htmlSection(file, summarised)}`;
      first = false;
      return text;
    },
    tail: () => '\n</body></html>\n',
  };
}

/** The HTML report of a report in memory. */
export function renderHtml(report: RunReport): string {
  return renderSections(htmlSections(), report);
}

function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** GitHub Actions workflow commands: an `::error` annotation per failed request, and a summary notice. */
export function githubSections(): ReportSections {
  return {
    head: () => '',
    file(file) {
      let out = '';
      for (const r of file.requests) {
        if (r.status !== 'failed' && r.status !== 'errored') continue;
        const title = `${r.name}${r.status === 'errored' ? ` (${r.error?.code ?? 'error'})` : ''}`;
        out += `::error file=${escapeProperty(file.path)},line=${firstFailureLine(r, file.path)},title=${escapeProperty(title)}::${escapeData(failureText(r, file.path))}\n`;
      }
      return out;
    },
    tail(summary) {
      const t = summary.totals;
      return `::notice title=dial run::${t.passed} passed, ${t.failed} failed, ${t.errored} errored, ${t.skipped} skipped (${t.requests} requests)\n`;
    },
  };
}

/** The GitHub annotations of a report in memory. */
export function renderGithub(report: RunReport): string {
  return renderSections(githubSections(), report);
}
