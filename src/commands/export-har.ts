/** `dial export har`: recorded exchanges (dial history) as a HAR 1.2 file. */
import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

/** Adds `har` to `dial export`. */
export function registerExportHar(command: Command): void {
  command
    .command('har')
    .description('write history entries as a HAR 1.2 file (secrets stay masked)')
    .option('-n, --limit <n>', 'the newest N entries (default: all that history keeps)')
    .option('-o, --output <file>', 'write to FILE instead of stdout')
    .action(async (flags: { limit?: string; output?: string }) => {
      if (flags.limit !== undefined && !/^\d+$/.test(flags.limit))
        throw new DialError('E_USAGE', `-n takes a whole number, got '${flags.limit}'`);
      const [{ readHistory }, { historyPath, loadSettings }, { historyToHar }, { VERSION }] = await Promise.all([
        import('../core/history/index.js'),
        import('../core/settings/index.js'),
        import('../core/export/har.js'),
        import('../version.js'),
      ]);
      const kept = (await loadSettings()).historyLimit;
      const entries = readHistory({
        path: historyPath(),
        limit: Math.min(flags.limit === undefined ? kept : Number(flags.limit), kept),
      });
      const har = historyToHar(entries, VERSION);
      if (flags.output === undefined || flags.output === '-') {
        process.stdout.write(har);
      } else {
        const [{ writeFileAtomic }, { resolve }] = await Promise.all([
          import('../core/atomic-write.js'),
          import('node:path'),
        ]);
        writeFileAtomic(resolve(flags.output), har);
        process.stderr.write(`wrote ${flags.output} (${entries.length} entr${entries.length === 1 ? 'y' : 'ies'})\n`);
      }
    });
}
