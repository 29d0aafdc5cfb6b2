/**
 * Entry point of the bundle: hands the command line to the Commander program in ./program.ts.
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
  (error: unknown) => {
    // Only a bug in dial lands here: expected errors are DialErrors handled in program.ts.
    process.stderr.write(`dial: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
