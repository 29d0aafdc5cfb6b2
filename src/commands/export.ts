/** `dial export curl FILE.http#name`: the resolved request as a runnable curl command. */
import type { Command } from 'commander';
import { DialError } from '../core/errors.js';
import { useColor } from './globals.js';
import { addVariableFlags } from './flags.js';

interface ExportFlags {
  env?: string;
  var: string[];
  insecure?: boolean;
  singleLine?: boolean;
}

/** Registers `dial export`. */
export function registerExport(program: Command): void {
  const command = program.command('export').description('Export a request');
  const curl = command
    .command('curl')
    .description('print a request of a .http file as a curl command (variables resolved)')
    .argument('<target>', 'FILE.http#name (or FILE.http when it holds one request, or FILE.http:LINE)');
  addVariableFlags(curl, { env: 'environment to resolve variables with', var: 'set a variable (repeatable)' });
  curl
    .option('-k, --insecure', 'add -k (do not verify TLS) to the command')
    .option('--single-line', 'print the command on one line')
    .action(async (argument: string, flags: ExportFlags, sub: Command) => {
      const [{ parseSendTarget }, { prepareUnsent, curlCommand, curlOptions, followsRedirects, keptReferenceWarning }, { loadSettings }, { createStyle }] = await Promise.all([
        import('../core/workspace/send-target.js'), import('../core/export/from-http.js'), import('../core/settings/index.js'), import('../core/style.js'),
      ]);
      const target = parseSendTarget(argument);
      if (!target) {
        throw new DialError('E_USAGE', `'${argument}' is not a .http file target`, { hint: 'write FILE.http#name, e.g. dial export curl api.http#login' });
      }
      // Printing a command sends nothing: requests this one references are not run (their {{…}} stays).
      const prepared = await prepareUnsent({ target, cwd: process.cwd(), environment: flags.env, cliVariables: (await import('./flag-schemas.js')).parseVariables(flags.var) });
      const errStyle = createStyle(useColor(sub, process.stderr));
      for (const kept of prepared.kept) process.stderr.write(`${errStyle.warn('warning:')} ${keptReferenceWarning(kept)}\n`);
      const settings = await loadSettings();
      const text = curlCommand(prepared.request, {
        // Settings that make curl act as dial (timeout, proxy, verifyTls, maxRedirects) apply here too.
        ...curlOptions(settings, prepared.overrides),
        ...(flags.insecure && { insecure: true }),
        source: prepared,
        cwd: process.cwd(),
        multiline: !flags.singleLine,
        digest: prepared.digest,
        // As `dial send FILE` does.
        followRedirects: followsRedirects(settings, prepared.overrides),
      });
      process.stdout.write(`${text}\n`);
    });
}
