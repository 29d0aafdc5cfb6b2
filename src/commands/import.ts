import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

// Placeholder until its issue lands: fails loudly instead of pretending.
export function registerImport(program: Command): void {
  program
    .command('import')
    .description('Import curl, Postman or OpenAPI into .http files')
    .allowUnknownOption()
    .allowExcessArguments()
    .action(() => {
      throw new DialError('E_USAGE', '`dial import` is not implemented yet');
    });
}
