/** `dial check [FILES…]`: find undefined variables, bad metadata, broken references and JSON, without sending. */
import type { Command } from 'commander';
import { DialError } from '../core/errors.js';
import { globalOptions } from './globals.js';

interface CheckFlags {
  env?: string;
  var: string[];
  reporter: string;
}

const collect = (value: string, previous: string[]) => [...previous, value];

function parseVars(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new DialError('E_USAGE', `--var needs NAME=VALUE, got '${pair}'`);
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  return out;
}

/** Registers `dial check`. */
export function registerCheck(program: Command): void {
  program
    .command('check')
    .description(
      'Check .http files without sending: variables per environment, metadata, names, references, JSON bodies, env files',
    )
    .argument('[paths...]', '.http files or folders (default: the current folder)')
    .option('-e, --env <name>', 'check this environment only (default: every environment)')
    .option('--var <name=value>', 'a variable you will pass to run/send (repeatable)', collect, [])
    .option('--reporter <name>', 'text (file:line:col: message) or github (workflow annotations)', 'text')
    .addHelpText('after', '\nExit codes: 0 no errors (warnings allowed), 1 errors found, 2 usage.')
    .action(async (paths: string[], flags: CheckFlags, command: Command) => {
      if (flags.reporter !== 'text' && flags.reporter !== 'github') {
        throw new DialError('E_USAGE', `unknown reporter '${flags.reporter}'`, {
          hint: 'use --reporter text or --reporter github',
        });
      }
      const { checkFiles, formatFindings, githubAnnotations } = await import('../core/check/index.js');
      const result = await checkFiles({
        paths,
        cwd: process.cwd(),
        environment: flags.env,
        cliVariables: parseVars(flags.var),
      });
      process.stdout.write(
        flags.reporter === 'github' ? githubAnnotations(result.findings) : formatFindings(result.findings),
      );
      const errors = result.findings.filter((f) => f.severity === 'error').length;
      const warnings = result.findings.length - errors;
      if (!globalOptions(command).quiet) {
        // Environments read from outside the workspace are named: another machine (CI) lacks them.
        for (const path of result.userSettings)
          process.stderr.write(
            `note: REST Client environments from your VS Code user settings ${path} (DIAL_VSCODE_USER_SETTINGS=0 leaves them out)\n`,
          );
        const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
        process.stderr.write(
          `${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(result.files, 'file')}\n`,
        );
      }
      if (errors > 0) process.exitCode = 1;
    });
}
