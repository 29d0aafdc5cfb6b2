/** Shared text for the terminal reporters (pretty, dot): failure details and the summary line. */
import { formatDuration } from '../duration.js';
import type { Style } from '../style.js';
import type { FailedExchange, RequestResult, Totals } from '../run/types.js';

/** `file:line` of an assertion or request. */
export function where(file: string, line: number | undefined): string {
  return line ? `${file}:${line}` : file;
}

/** The printable exchange of a failed request (headers already masked, bodies truncated). */
export function exchangeLines(exchange: FailedExchange, indent: string): string[] {
  const lines = [`${indent}> ${exchange.request.method} ${exchange.request.url}`];
  for (const [name, value] of exchange.request.headers) lines.push(`${indent}> ${name}: ${value}`);
  if (exchange.request.body) for (const line of exchange.request.body.split('\n')) lines.push(`${indent}> ${line}`);
  if (exchange.response) {
    lines.push(`${indent}< ${exchange.response.status} ${exchange.response.statusText}`);
    for (const [name, value] of exchange.response.headers) lines.push(`${indent}< ${name}: ${value}`);
    if (exchange.response.body) for (const line of exchange.response.body.split('\n')) lines.push(`${indent}< ${line}`);
  }
  return lines;
}

/** What went wrong with a request: each failing assertion (as written, file:line, expected, actual, diff) or the error. */
export function failureLines(
  result: RequestResult,
  file: string,
  style: Style,
  options: { outputFailed?: boolean; verbose?: boolean } = {},
): string[] {
  const lines: string[] = [];
  const indent = '    ';
  if (result.error) {
    const at = result.error.file ? ` (${where(result.error.file, result.error.line)})` : '';
    lines.push(`${indent}${style.error(`error[${result.error.code}]`)}${at}: ${result.error.message}`);
    if (result.error.hint) lines.push(`${indent}${style.dim(`hint: ${result.error.hint}`)}`);
  }
  for (const assertion of result.assertions) {
    if (assertion.passed) continue;
    const label = assertion.kind === 'test' ? `test "${assertion.source}"` : `?? ${assertion.source}`;
    lines.push(`${indent}${style.error('✗')} ${label}  ${style.dim(where(file, assertion.line))}`);
    if (assertion.expected !== undefined) lines.push(`${indent}  expected: ${assertion.expected}`);
    if (assertion.actual !== undefined) lines.push(`${indent}  actual:   ${assertion.actual}`);
    if (assertion.message && assertion.expected === undefined) lines.push(`${indent}  ${assertion.message}`);
    else if (assertion.message && assertion.diff) lines.push(`${indent}  ${assertion.message}`);
    if (assertion.diff) for (const line of assertion.diff) lines.push(`${indent}    ${line}`);
  }
  if (result.logs?.length && (options.verbose || result.status !== 'passed')) {
    for (const log of result.logs) lines.push(`${indent}${style.dim(`log: ${log}`)}`);
  }
  if (options.outputFailed && result.exchange)
    lines.push(...exchangeLines(result.exchange, indent).map((line) => style.dim(line)));
  return lines;
}

/** `3 passed, 1 failed, 0 errored, 1 skipped (5 requests, 2 files) in 1.20s` */
export function summaryLine(totals: Totals, durationMs: number, style: Style): string {
  const parts = [
    totals.passed ? style.ok(`${totals.passed} passed`) : `${totals.passed} passed`,
    totals.failed ? style.error(`${totals.failed} failed`) : `${totals.failed} failed`,
    totals.errored ? style.error(`${totals.errored} errored`) : `${totals.errored} errored`,
    totals.skipped ? style.warn(`${totals.skipped} skipped`) : `${totals.skipped} skipped`,
  ];
  return `${parts.join(', ')} (${totals.requests} request${totals.requests === 1 ? '' : 's'}, ${totals.files} file${totals.files === 1 ? '' : 's'}) in ${formatDuration(durationMs)}`;
}
