/**
 * Entry point. `dial --version` answers before Commander loads (start-up budget 1.3× of
 * `node -e 0`); everything else goes to the Commander program in ./program.ts.
 */
// Read directly (not from ./version.ts) so the fast path loads no shared chunk.
declare const __DIAL_VERSION__: string | undefined;

// A reader that stops early (`dial … | head`) closes the pipe: that is the reader's choice,
// not an error, so stop quietly instead of dying on EPIPE with a stack trace.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
}

async function start(argv: string[]): Promise<number> {
  if (argv.length === 3 && argv[2] === '--version') {
    process.stdout.write(`${typeof __DIAL_VERSION__ === 'string' ? __DIAL_VERSION__ : '0.0.0-dev'}\n`);
    return 0;
  }
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
