import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

// Placeholder until its issue lands: fails loudly instead of pretending.
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('Run .http files as tests')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new DialError('E_USAGE', '`dial run` is not implemented yet');
    });
}
