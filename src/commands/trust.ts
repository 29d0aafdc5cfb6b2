/** `dial trust [DIR]`: lets scripts of a folder use Node (require, process, files). Kept in the user's config folder. */
import type { Command } from 'commander';
import { globalOptions } from './globals.js';

/** Registers `dial trust`. */
export function registerTrust(program: Command): void {
  program
    .command('trust')
    .description(
      'Let scripts in DIR (default: this folder) use Node: require, process, files. Scripts are sandboxed otherwise',
    )
    .argument('[dir]', 'the workspace folder to trust', '.')
    .option('--remove', 'stop trusting DIR')
    .option('--list', 'list the trusted folders')
    .action(async (dir: string, options: { remove?: boolean; list?: boolean }, command: Command) => {
      const { trustFolder, untrustFolder, trustedFolders, trustFilePath } = await import('../core/script/trust.js');
      const { quiet } = globalOptions(command);
      if (options.list) {
        for (const folder of trustedFolders()) process.stdout.write(`${folder}\n`);
        return;
      }
      if (options.remove) {
        const removed = untrustFolder(dir);
        if (!quiet) process.stderr.write(removed ? `no longer trusted: ${dir}\n` : `was not trusted: ${dir}\n`);
        return;
      }
      const folder = trustFolder(dir);
      if (!quiet)
        process.stderr.write(`trusted: ${folder} (scripts there may use Node; recorded in ${trustFilePath()})\n`);
    });
}
