import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

// Placeholder until its issue lands: fails loudly instead of pretending.
export function registerHistory(program: Command): void {
  program
    .command('history')
    .description('Show past exchanges')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new DialError('E_USAGE', '`dial history` is not implemented yet');
    });
}
