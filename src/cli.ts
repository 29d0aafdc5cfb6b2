/**
 * Entry point of the bundle: hands the command line to the Commander program in ./program.ts,
 * and is the one place that turns an error into output and an exit code (exit codes: docs/cli.md).
 * (`dial --version` is answered earlier, by bin/dial.js, before the ES module loader starts.)
 */

// A reader that stops early (`dial … | head`) closes the pipe: that is the reader's choice,
// not an error, so stop quietly instead of dying on EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

async function start(argv: string[]): Promise<number> {
  const { main } = await import('./program.js');
  return main(argv);
}

start(process.argv).then(
  (code) => {
    process.exitCode = code;
  },
  async (error: unknown) => {
    const { ExitCode, formatError, isDialError } = await import('./core/errors.js');
    if (isDialError(error)) {
      // Expected: one line with the code, file:line and hint; -v adds the cause chain.
      process.stderr.write(formatError(error, process.argv.includes('-v') || process.argv.includes('--verbose')) + '\n');
      process.exitCode = error.exitCode;
      return;
    }
    // Only a bug in dial lands here.
    process.stderr.write(`dial: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = ExitCode.failed;
  },
);
