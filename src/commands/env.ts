import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

// Placeholder until its issue lands: fails loudly instead of pretending.
export function registerEnv(program: Command): void {
  program
    .command('env')
    .description('Show environments')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new DialError('E_USAGE', '`dial env` is not implemented yet');
    });
}
