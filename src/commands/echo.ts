/** `dial echo [--port N] [--host H]`: the local httpbin-compatible server. */
import type { Command } from 'commander';
import { globalOptions } from './globals.js';

/** Registers `dial echo`. */
export function registerEcho(program: Command): void {
  program
    .command('echo')
    .description('Start a local httpbin-compatible server (Ctrl+C to stop)')
    .option('-p, --port <port>', 'port to listen on (0 = any free port)', '4010')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .action(async (options: { port: string; host: string }, command: Command) => {
      const { parseFlags, wholeNumber } = await import('./flag-schemas.js');
      const port = parseFlags(
        wholeNumber('--port', 0, 65_535, {
          error: (issue) => `invalid port '${String(issue.input)}'`,
          params: { hint: 'a port is a number from 0 to 65535 (0 picks a free one)' },
        }),
        options.port,
      );
      const { quiet, verbose } = globalOptions(command);
      const { startEchoServer } = await import('../core/echo/server.js');
      const server = await startEchoServer({
        port,
        host: options.host,
        onRequest: quiet
          ? undefined
          : (entry) =>
              process.stderr.write(
                `${entry.method} ${entry.path} -> ${entry.status}${verbose ? ` (${Math.round(entry.ms)}ms)` : ''}\n`,
              ),
      });
      // Listen for signals before announcing the URL: whoever reads it may stop us at once.
      const stopped = new Promise<NodeJS.Signals>((resolve) => {
        process.once('SIGINT', () => resolve('SIGINT'));
        process.once('SIGTERM', () => resolve('SIGTERM'));
      });
      process.stdout.write(`dial echo listening on ${server.url}\n`);
      const signal = await stopped;
      await server.close();
      // Ctrl+C is an interruption (130); SIGTERM is the normal way to stop a server (0).
      if (signal === 'SIGINT') process.exitCode = 130;
    });
}
