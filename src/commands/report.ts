/**
 * `dial report merge REPORTS… [--reporter NAME[:PATH]]…`: combines the JSON reports of sharded
 * runs (`dial run --shard i/n --reporter json:PATH`) into one report of any kind. A report that
 * fails validation is invalid input (exit 3, naming the file). Exit 1 when the merged report
 * holds failures, so a merge job fails like the runs it combines.
 */
import type { Command } from 'commander';
import { resolve } from 'node:path';
import { DialError, ExitCode } from '../core/errors.js';
import { useColor } from './globals.js';
import { collect } from './flags.js';

export function registerReport(program: Command): void {
  const report = program.command('report').description('Work with run reports');
  report
    .command('merge')
    .description('Combine JSON reports of sharded runs into one report')
    .argument('<reports...>', 'JSON reports written by `dial run --reporter json:PATH`')
    .option(
      '--reporter <name[:path]>',
      'pretty|dot|json|junit|tap|html|github, to stdout or PATH (repeatable; default json)',
      collect,
      [],
    )
    .action(async (paths: string[], flags: { reporter: string[] }, command: Command) => {
      const { checkReporterSpecs, parseReporterSpec, readReport, mergeReports, renderReport } =
        await import('../core/report/index.js');
      const specs = (flags.reporter.length ? flags.reporter : ['json']).map(parseReporterSpec);
      checkReporterSpecs(specs);
      const twice = paths.find((path, index) => paths.findIndex((other) => resolve(other) === resolve(path)) !== index);
      if (twice)
        throw new DialError('E_USAGE', `${twice} is given twice; its results would be counted twice`, {
          hint: 'give each shard report once',
        });
      const reports = [];
      for (const path of paths) reports.push(await readReport(resolve(path)));
      const merged = mergeReports(reports);
      for (const spec of specs) {
        await renderReport(merged, spec, {
          stdout: (text) => void process.stdout.write(text),
          color: useColor(command),
          resolvePath: (p) => resolve(p),
        });
      }
      process.exitCode = merged.totals.failed + merged.totals.errored > 0 ? ExitCode.failed : ExitCode.ok;
    });
  report.action(() => {
    throw new DialError('E_USAGE', 'missing subcommand', {
      hint: 'dial report merge REPORTS… --reporter junit:out.xml',
    });
  });
}
