/**
 * What both entry points do (./cli.ts, every command; ./cli-send.ts, `dial send`): hand the
 * command line to the Commander program in ./program.ts, and turn an error into output and an
 * exit code — the one place that does (exit codes: docs/cli.md).
 * (`dial --version` is answered earlier, by bin/dial.js, before the ES module loader starts.)
 */
import type { RegisterCommands } from './program.js';

// A reader that stops early (`dial … | head`) closes the pipe: that is the reader's choice,
// not an error, so stop quietly (exit 0, as curl and xh do). Any other write error (a full
// disk, a vanished terminal) is E_IO: one line on stderr, exit 4, never a stack trace.
const EXIT_IO = 4;
const GUARDED = Symbol.for('dial.guarded');
function guard(stream: NodeJS.WriteStream & { [GUARDED]?: true }): void {
  // Once: dist/send-url.cjs may hand the command line over to dist/send.cjs, which starts again.
  if (stream[GUARDED]) return;
  stream[GUARDED] = true;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    if (stream === process.stdout) {
      try {
        process.stderr.write(
          `error[E_IO]: cannot write to standard output: ${error.code === 'ENOSPC' ? 'no space left on the device' : (error.code ?? error.message)}\n`,
        );
      } catch {
        // stderr is gone too: the exit code is all that is left.
      }
    }
    process.exit(EXIT_IO);
  });
}

/**
 * Guards process[name] when it is first read rather than now: Node builds a stream on first
 * read, and one dial never writes to is never built (`dial send` without a warning never
 * writes to stderr; on a pipe, process.stderr is a net.Socket). A stream can only fail once
 * written to, and nothing writes to it before that first read (Node's own writers read the
 * same property), so every write is guarded as before.
 */
function guardOnFirstRead(name: 'stdout' | 'stderr'): void {
  const own = Object.getOwnPropertyDescriptor(process, name);
  if (!own?.get || !own.configurable) return guard(process[name]);
  Object.defineProperty(process, name, {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      Object.defineProperty(process, name, own);
      const stream = process[name];
      guard(stream);
      return stream;
    },
  });
}
/** A system error (it has a syscall and an errno code) that reached the top: E_IO, without a stack or a build path. */
function systemErrorLine(error: unknown): string | undefined {
  if (!(error instanceof Error) || typeof (error as NodeJS.ErrnoException).syscall !== 'string') return undefined;
  const { code, path } = error as NodeJS.ErrnoException;
  return `error[E_IO]: ${path ? `${path}: ` : ''}${code ?? 'I/O error'} (${(error as NodeJS.ErrnoException).syscall})`;
}

/**
 * Runs the command line with the commands `loadCommands` registers, then sets the exit code (or
 * prints the error). `handOver` may take an error as its own to handle (dist/send-url.cjs hands
 * the command line over to dist/send.cjs): it answers true, and nothing else is done here.
 */
export function startCli(loadCommands: () => Promise<RegisterCommands>, handOver?: (error: unknown) => boolean): void {
  startCommand(() => start(process.argv, loadCommands), handOver);
}

/** startCli's work around `run`, which runs the command and answers its exit code. */
export function startCommand(run: () => Promise<number>, handOver?: (error: unknown) => boolean): void {
  guardOnFirstRead('stdout');
  guardOnFirstRead('stderr');
  run().then(
    (code) => {
      process.exitCode = code;
    },
    async (error: unknown) => {
      if (handOver?.(error)) return;
      const { ExitCode, formatError, isDialError } = await import('./core/errors.js');
      if (isDialError(error)) {
        // Expected: one line with the code, file:line and hint; -v adds the cause chain.
        process.stderr.write(
          formatError(error, process.argv.includes('-v') || process.argv.includes('--verbose')) + '\n',
        );
        process.exitCode = error.exitCode;
        return;
      }
      const systemError = systemErrorLine(error);
      if (systemError) {
        process.stderr.write(`${systemError}\n`);
        process.exitCode = EXIT_IO;
        return;
      }
      // Only a bug in dial lands here.
      process.stderr.write(
        `dial: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exitCode = ExitCode.failed;
    },
  );
}

async function start(argv: string[], loadCommands: () => Promise<RegisterCommands>): Promise<number> {
  const [{ main }, registerCommands] = await Promise.all([import('./program.js'), loadCommands()]);
  return main(argv, registerCommands);
}
