/** `--dialect NAME` for the commands that read `.http` files (run, send, list): read files with that tool's meaning. */
import type { Command } from 'commander';
import { DIALECTS, requireDialect, setDialectOverride } from '../core/httpfile/dialect.js';
import { onParseWarning } from '../core/httpfile/warnings.js';

/** The flag's Commander arguments: `.option(...dialectOption)`. */
export const dialectOption = [
  '--dialect <name>',
  `read .http files as this tool does: ${DIALECTS.join(', ')} (a \`# @dialect\` line in a file wins; default: detected)`,
] as const;

/** preAction hook: applies `--dialect` and prints parse warnings (ambiguous constructs) to stderr. */
export function applyDialectFlag(_program: Command, command: Command): void {
  applyDialect(command.opts<{ dialect?: string }>().dialect);
}

/** What applyDialectFlag does, for a command line read without Commander (src/cli-run.ts): no `--dialect` is `undefined`. */
export function applyDialect(name: string | undefined): void {
  setDialectOverride(name === undefined ? undefined : requireDialect(name));
  onParseWarning((warning) => {
    process.stderr.write(
      `warning: ${warning.file}:${warning.line}: ${warning.message}\n${warning.hint ? `  hint: ${warning.hint}\n` : ''}`,
    );
  });
}
