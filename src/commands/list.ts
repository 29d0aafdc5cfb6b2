import type { Command } from 'commander';
import { applyDialectFlag, dialectOption } from './dialect-flag.js';
import { globalOptions, useColor } from './globals.js';

/** `dial list [PATHS…] [--json]`: requests found, with names, methods, URLs, tags and lines. */
export function registerList(program: Command): void {
  program
    .command('list')
    .option(...dialectOption)
    .hook('preAction', applyDialectFlag)
    .description('List the requests in .http files (default: the whole workspace)')
    .argument('[paths...]', '.http files or folders')
    .option('--json', 'print the list as JSON')
    .action(async (paths: string[], flags: { json?: boolean }, command: Command) => {
      const [{ findWorkspaceRoot, listRequests }, { createStyle }, { formatError, isDialError }] = await Promise.all([
        import('../core/workspace/index.js'),
        import('../core/style.js'),
        import('../core/errors.js'),
      ]);
      const cwd = process.cwd();
      const { resolve } = await import('node:path');
      const root = findWorkspaceRoot(paths.length ? resolve(cwd, paths[0]) : cwd);
      const { requests, errors } = await listRequests(
        root,
        cwd,
        paths.map((path) => resolve(cwd, path)),
      );
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(requests, null, 2)}\n`);
      } else if (requests.length === 0 && errors.length === 0) {
        if (!globalOptions(command).quiet)
          process.stderr.write(`no requests found under ${paths.length ? paths.join(', ') : root}\n`);
      } else {
        const style = createStyle(useColor(command, process.stdout));
        const width = (pick: (r: (typeof requests)[number]) => string) =>
          Math.max(0, ...requests.map((r) => pick(r).length));
        const whereWidth = width((r) => `${r.file}:${r.line}`);
        const nameWidth = width((r) => r.name ?? '');
        const methodWidth = width((r) => r.method);
        const lines = requests.map((r) => {
          const where = `${r.file}:${r.line}`.padEnd(whereWidth);
          const name = (r.name ?? '').padEnd(nameWidth);
          const tags = r.tags.length ? `  ${style.dim(r.tags.map((t) => `@${t}`).join(' '))}` : '';
          const skip = r.skip ? `  ${style.warn(`skip${r.skip === true ? '' : `: ${r.skip}`}`)}` : '';
          return `${style.dim(where)}  ${style.bold(name)}  ${style.method(r.method.padEnd(methodWidth))} ${style.url(r.url)}${tags}${skip}`.trimEnd();
        });
        process.stdout.write(`${lines.join('\n')}\n`);
      }
      if (errors.length) {
        // Report every broken file; the last one becomes the command's error (exit 3).
        for (const error of errors.slice(0, -1))
          process.stderr.write(`${formatError(error, globalOptions(command).verbose)}\n`);
        const last = errors[errors.length - 1];
        throw isDialError(last) ? last : new Error(String(last));
      }
    });
}
