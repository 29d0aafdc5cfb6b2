/** `dial export curl FILE.http#name`: the resolved request as a runnable curl command; `dial export k6 FILES…`: a k6 script. */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { DialError } from '../core/errors.js';
import { useColor } from './globals.js';
import { registerExportHar } from './export-har.js';
import { addVariableFlags } from './flags.js';

interface ExportFlags {
  env?: string;
  var: string[];
  insecure?: boolean;
  singleLine?: boolean;
}

/** Registers `dial export`. */
export function registerExport(program: Command): void {
  const command = program
    .command('export')
    .description('Export a request as curl, files as a k6 script, or history as HAR');
  registerExportHar(command);
  const curl = command
    .command('curl')
    .description('print a request of a .http file as a curl command (variables resolved)')
    .argument('<target>', 'FILE.http#name (or FILE.http when it holds one request, or FILE.http:LINE)');
  addVariableFlags(curl, { env: 'environment to resolve variables with', var: 'set a variable (repeatable)' });
  curl
    .option('-k, --insecure', 'add -k (do not verify TLS) to the command')
    .option('--single-line', 'print the command on one line')
    .action(async (argument: string, flags: ExportFlags, sub: Command) => {
      const [
        { parseSendTarget },
        { prepareUnsent, curlCommand, curlOptions, followsRedirects, keptReferenceWarning },
        { loadSettings },
        { createStyle },
      ] = await Promise.all([
        import('../core/workspace/send-target.js'),
        import('../core/export/from-http.js'),
        import('../core/settings/index.js'),
        import('../core/style.js'),
      ]);
      const target = parseSendTarget(argument);
      if (!target) {
        throw new DialError('E_USAGE', `'${argument}' is not a .http file target`, {
          hint: 'write FILE.http#name, e.g. dial export curl api.http#login',
        });
      }
      // Printing a command sends nothing: requests this one references are not run (their {{…}} stays).
      const prepared = await prepareUnsent({
        target,
        cwd: process.cwd(),
        environment: flags.env,
        cliVariables: (await import('./flag-schemas.js')).parseVariables(flags.var),
      });
      const errStyle = createStyle(useColor(sub, process.stderr));
      for (const kept of prepared.kept)
        process.stderr.write(`${errStyle.warn('warning:')} ${keptReferenceWarning(kept)}\n`);
      const settings = await loadSettings();
      const text = curlCommand(prepared.request, {
        // Settings that make curl act as dial (timeout, proxy, verifyTls, maxRedirects) apply here too.
        ...curlOptions(settings, prepared.overrides),
        ...(flags.insecure && { insecure: true }),
        source: prepared,
        cwd: process.cwd(),
        multiline: !flags.singleLine,
        digest: prepared.digest,
        ntlm: prepared.ntlm,
        // As `dial send FILE` does.
        followRedirects: followsRedirects(settings, prepared.overrides),
      });
      process.stdout.write(`${text}\n`);
    });
  command
    .command('k6')
    .description('write a k6 load-test script from .http files (each ?? assertion becomes a k6 check)')
    .argument('<paths...>', '.http files or folders, run in order')
    .option('-e, --env <name>', 'environment whose public values are written into the script')
    .option('-o, --output <file>', 'write the script to this file (default: stdout)')
    .option('--drop-scripts', 'leave pre-request and response scripts out (listed on stderr) instead of refusing them')
    .action(async (paths: string[], flags: { env?: string; output?: string; dropScripts?: boolean }, sub: Command) => {
      const [{ buildK6Export }, { writeFileAtomic }, { createStyle }] = await Promise.all([
        import('../core/export/k6.js'),
        import('../core/atomic-write.js'),
        import('../core/style.js'),
      ]);
      const cwd = process.cwd();
      const result = await buildK6Export({
        paths,
        cwd,
        environment: flags.env,
        output: flags.output,
        dropScripts: flags.dropScripts === true,
      });
      const errStyle = createStyle(useColor(sub, process.stderr));
      for (const warning of result.warnings) process.stderr.write(`${errStyle.warn('warning:')} ${warning}\n`);
      if (flags.output) writeFileAtomic(resolve(cwd, flags.output), result.script);
      else process.stdout.write(result.script);
    });
}
