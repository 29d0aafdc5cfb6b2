/**
 * The Commander program: global flags, and the commands the entry point hands in (all of them,
 * src/commands/index.ts, or `send` alone, src/cli-send.ts). Commands import their core modules
 * lazily so each command loads only what it uses; errors go up to src/start.ts.
 */
import { Command, CommanderError } from 'commander';
import { DialError, ExitCode } from './core/errors.js';
import { rootHelpText } from './commands/root-help.js';
import { checkCommandNames } from './commands/suggest.js';
import { VERSION } from './version.js';

/** Registers the commands on the program (for these arguments: see src/commands/index.ts). */
export type RegisterCommands = (program: Command, argv: string[]) => void;

export function buildProgram(argv: string[], registerCommands: RegisterCommands): Command {
  const program = new Command('dial')
    .description('A fast terminal HTTP client for .http files: send, open, run.')
    .version(VERSION, '--version', 'print the version')
    .option('--no-color', 'disable colours (also NO_COLOR)')
    .option('-q, --quiet', 'print less')
    .option('-v, --verbose', 'print more, including error causes')
    .option('--allow-node', 'let .http scripts use Node (require, process, files) for this run; also DIAL_ALLOW_NODE=1')
    .hook(
      'preAction',
      (root) => void (root.opts<{ allowNode?: boolean }>().allowNode && (process.env.DIAL_ALLOW_NODE = '1')),
    )
    .showHelpAfterError('hint: run `dial --help` (or `dial COMMAND --help`) for usage')
    .helpCommand(true)
    .exitOverride()
    .configureOutput({
      writeErr: (text) => process.stderr.write(text),
      // Commander's own complaints (unknown flag, missing value…) in dial's error format.
      outputError: (text, write) => write(text.replace(/^error: /, 'error[E_USAGE]: ')),
    });
  registerCommands(program, argv);
  program.addHelpText('after', () => rootHelpText());
  // `dial` alone: the workbench on a terminal, usage elsewhere.
  program.action(async () => {
    if (program.args.length > 0) {
      throw new DialError('E_USAGE', `unknown command '${program.args[0]}'`, {
        hint: 'run `dial --help` to list the commands',
      });
    }
    const interactive = process.stdout.isTTY && process.stdin.isTTY && !process.env.CI;
    if (!interactive) {
      program.outputHelp({ error: true });
      process.exitCode = ExitCode.usage;
      return;
    }
    await program.parseAsync(['open', '.'], { from: 'user' });
  });
  program.allowExcessArguments(true);
  return program;
}

/**
 * Runs the CLI and returns the exit code instead of exiting, so output can drain. A DialError
 * (or a bug) is thrown on to src/start.ts, which prints it and sets the exit code.
 */
export async function main(argv: string[], registerCommands: RegisterCommands): Promise<number> {
  const program = buildProgram(argv, registerCommands);
  checkCommandNames(program, argv.slice(2));
  try {
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (error) {
    // Commander has printed its own message (see outputError): help and version end here with
    // 0, every other complaint is a usage error.
    if (error instanceof CommanderError) return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    throw error;
  }
}
