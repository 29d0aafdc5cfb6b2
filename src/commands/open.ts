/**
 * `dial open [DIR] [-e ENV]`: the full-screen workbench. React and Ink load only here,
 * through a dynamic import, so `send` and `run` never pay for them.
 */
import type { Command } from 'commander';
import { DialError } from '../core/errors.js';
import { useColor } from './globals.js';
import { addCookieJarFlags, addVariableFlags } from './flags.js';
import { importWorkbench } from './ui-modules.js';

/** Registers `dial open`. */
export function registerOpen(program: Command): void {
  const command = program
    .command('open')
    .description('Open the full-screen workbench')
    .argument('[dir]', 'workspace folder', '.');
  addVariableFlags(command, {
    env: 'environment to start with (remembered per workspace)',
    var: 'set a variable (repeatable)',
  });
  addCookieJarFlags(command);
  command.action(
    async (dir: string, opts: { env?: string; var: string[]; cookieJar?: string | boolean }, sub: Command) => {
      // Without --var there is nothing to check: the flag schemas (zod) stay unloaded.
      const cliVariables = opts.var.length > 0 ? (await import('./flag-schemas.js')).parseVariables(opts.var) : {};
      const interactive = Boolean(process.stdout.isTTY && process.stdin.isTTY) && !process.env.CI;
      if (!interactive) {
        throw new DialError('E_NOT_TTY', '`dial open` needs an interactive terminal', {
          hint: 'use `dial send FILE.http#name` to send one request, or `dial run` to run files as tests',
        });
      }
      const { resolve } = await import('node:path');
      const { statSync } = await import('node:fs');
      const root = resolve(dir);
      let isDir = false;
      try {
        isDir = statSync(root).isDirectory();
      } catch {
        isDir = false;
      }
      if (!isDir)
        throw new DialError('E_NOT_FOUND', `no such folder: ${dir}`, {
          hint: 'pass the folder that holds your .http files',
        });
      const { openWorkbench } = await importWorkbench();
      const { openInBrowser } = await import('./oauth-host.js');
      process.exitCode = await openWorkbench({
        dir: root,
        environment: opts.env,
        cliVariables,
        color: useColor(sub),
        openBrowser: (url) => openInBrowser(url),
        ...(opts.cookieJar === false && { cookieJar: false }),
        ...(typeof opts.cookieJar === 'string' && { cookieJar: resolve(opts.cookieJar) }),
      });
    },
  );
}
