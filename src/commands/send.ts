import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

// Placeholder until its issue lands: fails loudly instead of pretending.
export function registerSend(program: Command): void {
  program
    .command('send')
    .description('Send one request')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new DialError('E_USAGE', '`dial send` is not implemented yet');
    });
}
