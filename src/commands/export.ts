/** `dial export curl FILE.http#name`: the resolved request as a runnable curl command. */
import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

interface ExportFlags {
  env?: string;
  var: string[];
  insecure?: boolean;
  singleLine?: boolean;
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parseVars(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new DialError('E_USAGE', `--var '${pair}' is not NAME=VALUE`, { hint: 'e.g. --var host=localhost:3000' });
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** Registers `dial export`. */
export function registerExport(program: Command): void {
  const command = program.command('export').description('Export a request');
  command
    .command('curl')
    .description('print a request of a .http file as a curl command (variables resolved)')
    .argument('<target>', 'FILE.http#name (or FILE.http when it holds one request, or FILE.http:LINE)')
    .option('-e, --env <name>', 'environment to resolve variables with')
    .option('--var <name=value>', 'set a variable (repeatable)', collect, [])
    .option('-k, --insecure', 'add -k (do not verify TLS) to the command')
    .option('--single-line', 'print the command on one line')
    .action(async (argument: string, flags: ExportFlags) => {
      const { parseSendTarget, prepareFileRequest } = await import('../core/workspace/send-target.js');
      const target = parseSendTarget(argument);
      if (!target) {
        throw new DialError('E_USAGE', `'${argument}' is not a .http file target`, { hint: 'write FILE.http#name, e.g. dial export curl api.http#login' });
      }
      const prepared = await prepareFileRequest({
        target,
        cwd: process.cwd(),
        environment: flags.env,
        cliVariables: parseVars(flags.var),
        sendOptions: {},
      });
      const { exportCurl } = await import('../core/export/from-http.js');
      const command = exportCurl(prepared.request, prepared.file, prepared.node, process.cwd(), {
        insecure: flags.insecure,
        multiline: !flags.singleLine,
        digest: prepared.digest,
      });
      process.stdout.write(`${command}\n`);
    });
}
