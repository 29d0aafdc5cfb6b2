import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

// Placeholder until its issue lands: fails loudly instead of pretending.
export function registerOpen(program: Command): void {
  program
    .command('open')
    .description('Open the full-screen workbench')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new DialError('E_USAGE', '`dial open` is not implemented yet');
    });
}
