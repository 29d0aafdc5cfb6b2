/** `dial fmt [FILES…]`: rewrite .http files in one canonical layout (`--check` for CI, `--stdin` for editors). */
import type { Command } from 'commander';
import { globalOptions } from './globals.js';

interface FmtFlags {
  check?: boolean;
  stdin?: boolean;
  stdinFilename?: string;
  indentJson?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Registers `dial fmt`. */
export function registerFmt(program: Command): void {
  program
    .command('fmt')
    .description('Format .http files in one canonical layout')
    .argument('[paths...]', '.http files or folders (default: the current folder)')
    .option('--check', 'write nothing; print a diff and exit 1 when a file is not formatted')
    .option('--stdin', 'format the text on stdin and print it to stdout (for editors)')
    .option('--stdin-filename <path>', 'with --stdin: the file name to show in messages')
    .option('--indent-json', 'also re-indent JSON bodies (two spaces; values kept as written)')
    .addHelpText(
      'after',
      '\nBodies, scripts, assertions and comments keep their text; header names keep their case.\nExit codes: 0 formatted (or already formatted), 1 --check found changes, 3 a file does not parse.',
    )
    .action(async (paths: string[], flags: FmtFlags, command: Command) => {
      const options = { indentJson: Boolean(flags.indentJson) };
      if (flags.stdin) {
        const { formatHttpText } = await import('../core/format-http/format.js');
        const text = await readStdin();
        const formatted = formatHttpText(text, flags.stdinFilename ?? '<stdin>', options);
        if (flags.check) {
          const { unifiedDiff } = await import('../core/format-http/diff.js');
          process.stdout.write(unifiedDiff(text, formatted, flags.stdinFilename ?? '<stdin>'));
          if (formatted !== text) process.exitCode = 1;
        } else {
          process.stdout.write(formatted);
        }
        return;
      }
      const { formatFiles } = await import('../core/format-http/files.js');
      const results = await formatFiles({ ...options, paths, cwd: process.cwd(), check: Boolean(flags.check) });
      const quiet = globalOptions(command).quiet;
      const changed = results.filter((r) => r.changed);
      if (flags.check) {
        for (const result of changed) process.stdout.write(result.diff ?? '');
        if (changed.length > 0) {
          process.stderr.write(
            `${changed.length} of ${results.length} file${results.length === 1 ? '' : 's'} not formatted: ${changed.map((r) => r.path).join(', ')}\nhint: run dial fmt to format them\n`,
          );
          process.exitCode = 1;
        }
        return;
      }
      if (quiet) return;
      for (const result of changed) process.stdout.write(`formatted ${result.path}\n`);
      process.stdout.write(`${changed.length} of ${results.length} file${results.length === 1 ? '' : 's'} changed\n`);
    });
}
