/**
 * The terminal reporters, fed live by runner events: `pretty` (a line per request with ✓/✗,
 * failure details as they happen, a summary) and `dot` (one character per request). Plain
 * text with optional colour only: no cursor movement, so they read the same in CI logs.
 */
import { formatDuration } from '../duration.js';
import { paintStatus, type Style } from '../style.js';
import type { RequestResult, RunEvent } from '../run/types.js';
import { failureLines, summaryLine } from './text.js';

export interface LiveReporterOptions {
  write: (text: string) => void;
  style: Style;
  verbose?: boolean;
  outputFailed?: boolean;
}

/** A reporter that consumes events as they come. */
export interface LiveReporter {
  onEvent(event: RunEvent): void;
}

/** `pretty`: `✓ file › name  200  12ms` per request, failures under it, a summary at the end. */
export function createPrettyReporter(options: LiveReporterOptions): LiveReporter {
  const { write, style } = options;
  const failures: Array<{ file: string; result: RequestResult }> = [];
  return {
    onEvent(event) {
      switch (event.type) {
        case 'request:retry':
          write(
            `  ${style.warn('↻')} ${event.file} › ${event.request.name} ${style.dim(`attempt ${event.attempt} failed (${event.reason}); retrying${event.delayMs ? ` in ${formatDuration(event.delayMs)}` : ''}`)}\n`,
          );
          break;
        case 'request:end': {
          const r = event.result;
          const mark =
            r.status === 'passed' ? style.ok('✓') : r.status === 'skipped' ? style.warn('-') : style.error('✗');
          const status =
            r.httpStatus !== undefined ? `  ${paintStatus(style, r.httpStatus, String(r.httpStatus))}` : '';
          const extra =
            r.status === 'skipped'
              ? style.dim(`  skipped${r.skipReason ? `: ${r.skipReason}` : ''}`)
              : `${status}  ${style.dim(formatDuration(r.durationMs))}${r.attempts > 1 ? style.dim(` (${r.attempts} attempts)`) : ''}`;
          write(`${mark} ${style.dim(`${event.file} ›`)} ${r.name}${extra}\n`);
          if (r.status === 'failed' || r.status === 'errored') {
            failures.push({ file: event.file, result: r });
            const lines = failureLines(r, event.file, style, options);
            if (lines.length) write(`${lines.join('\n')}\n`);
          } else if (options.verbose) {
            const lines: string[] = [];
            for (const a of r.assertions)
              lines.push(
                `    ${style.ok('✓')} ${a.kind === 'test' ? `test "${a.source}"` : `?? ${a.source}`}${a.message ? style.dim(`  ${a.message}`) : ''}`,
              );
            for (const log of r.logs ?? []) lines.push(`    ${style.dim(`log: ${log}`)}`);
            if (lines.length) write(`${lines.join('\n')}\n`);
          }
          break;
        }
        case 'run:end': {
          const lines = [''];
          if (failures.length) {
            lines.push(style.bold('Failed:'));
            for (const { file, result } of failures)
              lines.push(
                `  ${style.error('✗')} ${file}:${result.line} › ${result.name}${result.error ? style.dim(`  ${result.error.code}`) : ''}`,
              );
            lines.push('');
          }
          if (event.bailed) lines.push(style.warn('Stopped after the first failure (--bail).'));
          if (event.interrupted) lines.push(style.warn('Interrupted.'));
          lines.push(summaryLine(event.totals, event.durationMs, style));
          write(`${lines.join('\n')}\n`);
          break;
        }
        default:
          break;
      }
    },
  };
}

/** `dot`: `.` passed, `F` failed, `E` errored, `S` skipped; details and a summary at the end. */
export function createDotReporter(options: LiveReporterOptions): LiveReporter {
  const { write, style } = options;
  const failures: Array<{ file: string; result: RequestResult }> = [];
  let column = 0;
  return {
    onEvent(event) {
      if (event.type === 'request:end') {
        const r = event.result;
        const ch =
          r.status === 'passed'
            ? style.ok('.')
            : r.status === 'failed'
              ? style.error('F')
              : r.status === 'errored'
                ? style.error('E')
                : style.warn('S');
        if (r.status === 'failed' || r.status === 'errored') failures.push({ file: event.file, result: r });
        column++;
        write(column % 80 === 0 ? `${ch}\n` : ch);
      } else if (event.type === 'run:end') {
        const lines = [column % 80 === 0 ? '' : '\n'];
        failures.forEach(({ file, result }, i) => {
          lines.push(`${i + 1}) ${file}:${result.line} › ${result.name}`);
          lines.push(...failureLines(result, file, style, options));
          lines.push('');
        });
        if (event.bailed) lines.push(style.warn('Stopped after the first failure (--bail).'));
        if (event.interrupted) lines.push(style.warn('Interrupted.'));
        lines.push(summaryLine(event.totals, event.durationMs, style));
        write(`${lines.join('\n')}\n`);
      }
    },
  };
}
