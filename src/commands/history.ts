/** `dial history list|show N|clear`: past exchanges recorded by `dial send`. */
import type { Command } from 'commander';
import { useColor } from './globals.js';

async function historyFile(): Promise<{ path: string; kept: number }> {
  const { historyPath, loadSettings } = await import('../core/settings/index.js');
  // The file is trimmed lazily; never show more than the limit keeps.
  return { path: historyPath(), kept: (await loadSettings()).historyLimit };
}

export function registerHistory(program: Command): void {
  const history = program.command('history').description('Show past exchanges');

  history
    .command('list', { isDefault: true })
    .description('List exchanges, newest first (1 = newest)')
    .option('--json', 'print entries as JSON lines')
    .option('-n, --limit <n>', 'show at most N entries', '20')
    .action(async (options: { json?: boolean; limit: string }, command: Command) => {
      const [{ readHistory }, { parseFlags, wholeNumber }, { createStyle, paintStatus }, { formatDuration }] =
        await Promise.all([
          import('../core/history/index.js'),
          import('./flag-schemas.js'),
          import('../core/style.js'),
          import('../core/duration.js'),
        ]);
      const limit = parseFlags(wholeNumber('-n'), options.limit);
      const file = await historyFile();
      const entries = readHistory({ path: file.path, limit: Math.min(limit, file.kept) });
      if (options.json) {
        process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
        return;
      }
      const style = createStyle(useColor(command));
      entries.forEach((entry, index) => {
        const { request, response } = entry.exchange;
        const time = entry.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
        const status = paintStatus(style, response.status, String(response.status));
        process.stdout.write(
          `${String(index + 1).padStart(3)}  ${style.dim(time)}  ${status}  ${style.method(request.method)} ${request.url}  ${style.dim(formatDuration(response ? entry.exchange.timings.total : 0))}\n`,
        );
      });
    });

  history
    .command('show')
    .description('Print one exchange (1 = newest)')
    .argument('<n>', 'which entry, 1 = newest')
    .option('--json', 'print the entry as JSON')
    .action(async (n: string, options: { json?: boolean }, command: Command) => {
      const [{ readHistory }, { DialError }, { createStyle }, format, { parseFlags, wholeNumber }] = await Promise.all([
        import('../core/history/index.js'),
        import('../core/errors.js'),
        import('../core/style.js'),
        import('../core/format/exchange.js'),
        import('./flag-schemas.js'),
      ]);
      const which = parseFlags(
        wholeNumber('history show', 1, undefined, {
          error: (issue) => `history show takes a number from 1 (newest), got '${String(issue.input)}'`,
        }),
        n,
      );
      const file = await historyFile();
      const entries = readHistory({ path: file.path, limit: Math.min(which, file.kept) });
      const entry = entries[which - 1];
      if (!entry)
        throw new DialError('E_NOT_FOUND', `no history entry ${n} (${entries.length} recorded)`, {
          hint: 'list them with `dial history list`',
        });
      if (options.json) {
        process.stdout.write(`${JSON.stringify(entry, null, 2)}\n`);
        return;
      }
      const style = createStyle(useColor(command));
      const { request, response } = entry.exchange;
      const blocks: string[] = [`${style.dim(entry.time)}${entry.requestId ? `  ${entry.requestId}` : ''}\n`];
      blocks.push(`${format.formatRequestHead(request, style)}\n`);
      const requestType = format.headerValue(request.headers, 'content-type');
      if (request.body)
        blocks.push(
          format.formatBodyForTerminal(Buffer.from(request.body, 'utf8'), requestType, style) +
            (request.bodyTruncated ? `${style.dim('… (truncated)')}\n` : ''),
        );
      blocks.push(`${format.formatResponseHead(response, style)}\n`);
      if (response.body !== undefined) {
        const bytes = Buffer.from(response.body, response.bodyEncoding === 'base64' ? 'base64' : 'utf8');
        blocks.push(
          format.formatBodyForTerminal(bytes, format.headerValue(response.headers, 'content-type'), style) +
            (response.bodyTruncated
              ? `${style.dim(`… (truncated; ${format.formatBytes(response.size)} in all)`)}\n`
              : ''),
        );
      }
      blocks.push(
        `${format.formatMeta({ ...response, timings: entry.exchange.timings, redirects: entry.exchange.redirects.length }, style)}\n`,
      );
      process.stdout.write(blocks.join('\n'));
    });

  history
    .command('clear')
    .description('Delete all history')
    .action(async () => {
      const { clearHistory } = await import('../core/history/index.js');
      // Clearing must work even when the settings file is broken.
      const { historyPath } = await import('../core/settings/index.js');
      clearHistory({ path: historyPath() });
    });
}
