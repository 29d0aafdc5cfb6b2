import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

// Placeholder until its issue lands: fails loudly instead of pretending.
export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('Print shell completion')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new DialError('E_USAGE', '`dial completion` is not implemented yet');
    });
}
