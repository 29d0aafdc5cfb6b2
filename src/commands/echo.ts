import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

// Placeholder until its issue lands: fails loudly instead of pretending.
export function registerEcho(program: Command): void {
  program
    .command('echo')
    .description('Start a local httpbin-like server')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new DialError('E_USAGE', '`dial echo` is not implemented yet');
    });
}
