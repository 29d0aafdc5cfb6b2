/**
 * `dial run [PATHS…]`: .http files as tests (DESIGN §2, §4). Flags are parsed and validated
 * here; the core is imported inside the action so other commands never load it.
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
import { applyDialectFlag, dialectOption } from './dialect-flag.js';
import { DialError } from '../core/errors.js';
import { globalOptions, useColor } from './globals.js';

interface RunFlags {
  env?: string;
  var: string[];
  envFile?: string;
  grep?: string;
  tag: string[];
  concurrency?: string;
  retry?: string;
  retryDelay?: string;
  timeout?: string;
  bail?: boolean;
  shard?: string;
  reporter: string[];
  updateSnapshots?: boolean;
  watch?: boolean;
  scripts: boolean;
  outputFailed?: boolean;
  insecure?: boolean;
  cacert?: string;
  cert?: string;
  key?: string;
  proxy?: string;
  follow: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

function count(text: string | undefined, flag: string, min: number): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < min) throw new DialError('E_USAGE', `${flag} needs a whole number ≥ ${min}, got '${text}'`);
  return Number(text);
}

function parseVars(pairs: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new DialError('E_USAGE', `--var needs NAME=VALUE, got '${pair}'`);
    out[pair.slice(0, eq).trim()] = pair.slice(eq + 1);
  }
  return out;
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .option(...dialectOption)
    .hook('preAction', applyDialectFlag)
    .description('Run .http files as tests (assertions, scripts, retries, shards, CI reporters)')
    .argument('[paths...]', '.http files or folders (default: the current folder)')
    .option('-e, --env <name>', 'environment from http-client.env.json')
    .option('--var <name=value>', 'set a variable (repeatable; wins over everything)', collect, [])
    .option('--env-file <path>', 'extra variables: a JetBrains env JSON ($shared + the -e environment) or a .env file')
    .option('--grep <pattern>', 'only requests whose name matches (/re/flags, a regular expression, or a substring)')
    .option('--tag <tag>', 'only requests with this `# @tag` (repeatable, or comma-separated)', collect, [])
    .option('--concurrency <n>', 'files run in parallel (default: number of CPUs)')
    .option('--retry <n>', 'retry failed requests up to n times (`# @retry` wins)')
    .option('--retry-delay <duration>', 'wait between retries (500ms, 2s)', '0')
    .option('--timeout <duration>', 'per-request timeout (`# @timeout` wins; default 30s)')
    .option('--bail', 'stop after the first failure (the rest are reported skipped)')
    .option('--shard <i/n>', 'run shard i of n (files are split deterministically)')
    .option('--reporter <name[:path]>', 'pretty|dot|json|junit|tap|html|github, to stdout or PATH (repeatable; default pretty)', collect, [])
    .option('--update-snapshots', 'rewrite `?? body snapshot` files with the current responses')
    .option('--watch', 're-run affected files when .http or env files change')
    .option('--no-scripts', 'do not run `{% %}` scripts')
    .option('--output-failed', 'print the exchange of each failed request')
    .option('-k, --insecure', 'do not verify TLS certificates')
    .option('--cacert <file>', 'trust this CA certificate (PEM)')
    .option('--cert <file>', 'client certificate (PEM)')
    .option('--key <file>', 'client certificate key (PEM)')
    .option('--proxy <url>', 'proxy for every request (else HTTP(S)_PROXY / NO_PROXY)')
    .option('--no-follow', 'do not follow redirects (followed by default)')
    .addHelpText('after', '\nExit codes: 0 all passed, 1 a request failed or errored, 2 usage, 3 a file failed to parse, 130 interrupted.')
    .action(async (paths: string[], flags: RunFlags, command: Command) => {
      const options = validate(flags);
      const [{ runCommand }, { setFlagsFromString }] = await Promise.all([import('../core/run/command.js'), import('node:v8')]);
      keepHeapFlat(setFlagsFromString);
      const controller = new AbortController();
      // First Ctrl+C cancels in-flight requests and reports; a second one exits at once.
      const onSigint = () => {
        if (controller.signal.aborted) process.exit(130);
        controller.abort();
      };
      process.on('SIGINT', onSigint);
      try {
        process.exitCode = await runCommand({
          ...options,
          paths,
          cwd: process.cwd(),
          color: useColor(command),
          verbose: globalOptions(command).verbose,
          stdout: (text) => void process.stdout.write(text),
          stderr: (text) => void process.stderr.write(text),
          signal: controller.signal,
        });
      } finally {
        process.off('SIGINT', onSigint);
      }
    });
}

/**
 * A long run allocates a lot and keeps little: the live heap after a full GC is ~6 MiB at 500
 * requests and at 50,000. V8's defaults still grow the heap in steps toward a plateau, the young
 * generation from 2 to 32 MiB and the old one up to 4× what is live, so peak RSS rose 1.4× from
 * 500 to 5,000 requests (DESIGN §9 wants it flat). V8 reads these two flags at each GC decision:
 * the young generation keeps its first size and the old one grows 30% past what is live.
 * Measured with 50-request files at --concurrency 8: peak RSS 62 / 69 / 71 MiB at 500 / 5,000 /
 * 20,000 requests instead of 67 / 99 / 113 MiB, for up to ~6% more time. A V8 that does not
 * take a growth factor under 2 keeps its default young generation; nothing else changes.
 */
function keepHeapFlat(setFlagsFromString: (flags: string) => void): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=30');
}

/** Checks every flag before anything runs: bad values are usage errors (exit 2). */
function validate(flags: RunFlags) {
  return {
    environment: flags.env,
    cliVariables: parseVars(flags.var),
    envFile: flags.envFile,
    grep: flags.grep,
    tags: flags.tag,
    concurrency: count(flags.concurrency, '--concurrency', 1),
    retry: count(flags.retry, '--retry', 0),
    retryDelay: flags.retryDelay,
    timeout: flags.timeout,
    bail: Boolean(flags.bail),
    shard: flags.shard,
    reporters: flags.reporter,
    updateSnapshots: Boolean(flags.updateSnapshots),
    watch: Boolean(flags.watch),
    scripts: flags.scripts,
    outputFailed: Boolean(flags.outputFailed),
    tls: { verify: !flags.insecure, caFile: flags.cacert, certFile: flags.cert, keyFile: flags.key },
    proxy: flags.proxy,
    follow: flags.follow,
  };
}
