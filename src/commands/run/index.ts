/**
 * `dial run [PATHS…]`: .http files as tests. Flags become typed options
 * here (one zod schema); the work is in ./run-command.ts, imported inside the action so other
 * commands never load it.
 *
 * Decisions (documented in --help):
 * - default reporter: `pretty` everywhere; it prints plain lines (no cursor movement), with
 *   colour only on a terminal, so it reads the same in CI logs;
 * - redirects are followed by default (as the JetBrains client does); `--no-follow` or
 *   `# @no-redirect` turn that off;
 * - exit codes: 0 all passed; 1 any request failed or errored (an unresolved variable at run
 *   time errors that request); 2 usage; 3 a file fails to parse (nothing runs); 130 interrupted.
 */
import type { Command } from 'commander';
import { applyDialectFlag, dialectOption } from '../dialect-flag.js';
import { globalOptions } from '../globals.js';
import { addCookieJarFlags, addTimeoutFlag, addTransportFlags, addVariableFlags, collect } from '../flags.js';

export function registerRun(program: Command): void {
  const command = program
    .command('run')
    .description('Run .http files as tests (assertions, scripts, retries, shards, CI reporters)')
    .argument(
      '[paths...]',
      '.http files or folders (default: the current folder); FILE.http:LINE or FILE.http#NAME runs one request',
    );
  addVariableFlags(command, {
    env: 'environment from http-client.env.json',
    var: 'set a variable (repeatable; wins over everything)',
  });
  command
    .option('--env-file <path>', 'extra variables: a JetBrains env JSON ($shared + the -e environment) or a .env file')
    .option('--grep <pattern>', 'only requests whose name matches (/re/flags, a regular expression, or a substring)')
    .option('--name <name>', 'only requests with this `# @name` or `###` title')
    .option('--tag <tag>', 'only requests with this `# @tag` (repeatable, or comma-separated)', collect, [])
    .option('--concurrency <n>', 'files run in parallel (default: number of CPUs)')
    .option('--retry <n>', 'retry failed requests up to n times (`# @retry` wins)')
    .option('--retry-delay <duration>', 'wait between retries (500ms, 2s)', '0')
    .option('--bail', 'stop after the first failure (the rest are reported skipped)')
    .option('--shard <i/n>', 'run shard i of n (files are split deterministically)')
    .option(
      '--reporter <name[:path]>',
      'pretty|dot|json|junit|tap|html|github, to stdout or PATH (repeatable; default pretty)',
      collect,
      [],
    )
    .option('--update-snapshots', 'rewrite `?? body snapshot` files with the current responses')
    .option('--watch', 're-run affected files when .http or env files change')
    .option('--no-scripts', 'do not run `{% %}` scripts')
    .option('--output-failed', 'print the exchange of each failed request')
    .option('--no-follow', 'do not follow redirects (followed by default)');
  addTimeoutFlag(command, 'per-request timeout (`# @timeout` wins; default 30s)');
  addTransportFlags(command, {
    insecure: 'do not verify TLS certificates',
    proxy: 'proxy for every request (else HTTP(S)_PROXY / NO_PROXY)',
  });
  addCookieJarFlags(command);
  command
    .addHelpText(
      'after',
      '\nExit codes: 0 all passed, 1 a request failed or errored, 2 usage, 3 a file failed to parse, 130 interrupted.',
    )
    .option(...dialectOption)
    .hook('preAction', applyDialectFlag)
    .action(async (paths: string[], flags: unknown, sub: Command) => {
      await (await import('./action.js')).runAction(paths, flags, globalOptions(sub));
    });
}

/** For the build's warm-up run (scripts/code-cache-warm-up.cjs): see ./action.ts. */
export { restoreV8FlagDefaults } from './action.js';
