/**
 * The work of `dial run` behind its flags: builds the session, engine, executor and reporters,
 * plans, runs (once, or again on changes with --watch) and answers the exit code. Output goes
 * through the writers passed in (no console, no process here).
 */
import { readFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { statSync, WriteStream } from 'node:fs';
import { DialError, ExitCode } from '../../core/errors.js';
import { parseDuration } from '../../core/duration.js';
import type { SendOptions, TlsOptions } from '../../core/http/types.js';
import {
  planRun,
  parseShard,
  runPlan,
  createExecutor,
  watchForChanges,
  type RunEvent,
  type RunSummary,
  type Shard,
} from '../../core/run/index.js';
import { filesReadBy } from '../../core/run/watch.js';
import { parseHttpFile } from '../../core/httpfile/index.js';
import {
  checkReporterSpecs,
  createReporters,
  exchangeLines,
  parseReporterSpec,
  type ReporterSpec,
} from '../../core/report/index.js';
import { removeStaleSpills } from '../../core/http/body-sinks.js';
import { oauthHost } from '../oauth-host.js';
import { refuseUnansweredPrompts } from '../../core/run/httpyac-prompts.js';
import { readTextFile } from '../../core/session/index.js';

export interface RunCommandOptions {
  paths: string[];
  cwd: string;
  environment?: string;
  cliVariables: Record<string, string>;
  envFile?: string;
  grep?: string;
  tags: string[];
  /** `--name`: only requests with this `# @name` or title. */
  name?: string;
  /** `api.http:14` / `api.http#login` arguments: per absolute path, the request to run. */
  positions?: Map<string, import('../../core/workspace/position.js').RequestPosition>;
  concurrency?: number;
  retry?: number;
  retryDelay?: string;
  timeout?: string;
  bail: boolean;
  shard?: string;
  reporters: string[];
  updateSnapshots: boolean;
  watch: boolean;
  scripts: boolean;
  outputFailed: boolean;
  tls: TlsOptions;
  proxy?: string;
  /** The environment HTTP(S)_PROXY / NO_PROXY are read from, once (default: process.env, at each request). */
  env?: Record<string, string | undefined>;
  follow: boolean;
  /** Read and save the cookie jar of the workspace and environment (false: --no-cookie-jar). */
  cookieJar?: boolean;
  /** `--cookie-jar FILE`: the saved jar is this file. */
  cookieJarPath?: string;
  color: boolean;
  verbose: boolean;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  signal: AbortSignal;
  /** Called when the requests of a run start (after planning), with their number: the command's V8 tuning. */
  onRunStart?: (requests: number) => void;
}

/** Variables from --env-file: a JetBrains env JSON ($shared + the selected environment) or a .env file. */
async function envFileVariables(
  path: string,
  environment: string | undefined,
): Promise<{ values: Record<string, string>; definesEnvironment: boolean }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new DialError('E_NOT_FOUND', `--env-file not found: ${path}`);
  }
  const { parseDotenv, parseJsonText } = await import('../../core/env/index.js');
  if (/\.json$/i.test(path)) {
    const data = parseJsonText(text, path) as Record<string, Record<string, unknown>>;
    const out: Record<string, string> = {};
    for (const scope of ['$shared', ...(environment ? [environment] : [])]) {
      for (const [name, value] of Object.entries(data?.[scope] ?? {}))
        out[name] = typeof value === 'string' ? value : JSON.stringify(value);
    }
    return { values: out, definesEnvironment: Boolean(environment && data && typeof data[environment] === 'object') };
  }
  return { values: Object.fromEntries(parseDotenv(text)), definesEnvironment: false };
}

/**
 * Errors of a request that mean the input is wrong, not the API (exit 3, docs/cli.md). The run
 * still reports every request; its exit code says the files need fixing.
 */
const INVALID_INPUT = new Set<string>([
  'E_VAR_UNDEFINED',
  'E_VAR_CYCLE',
  'E_VAR_TOO_LARGE',
  'E_ENV',
  'E_PARSE',
  'E_HEADER_INJECTION',
]);

function isEnvFile(path: string): boolean {
  const name = basename(path);
  return name === '.env' || /^http-client(\.private)?\.env\.json$/.test(name);
}

/** What one run needs, set up once and kept across `--watch` re-runs. */
interface RunSetup {
  root: string;
  givenPaths: string[];
  engine: typeof import('../../core/http/index.js');
  discoverHttpFiles: (root: string, paths: string[]) => Promise<string[]>;
  /** Runs the plan (only these files when given) and answers the exit code. */
  runOnce: (only?: Set<string>) => Promise<number>;
}

/** The maxBodySize setting in bytes (settings are read only when a settings file exists). */
async function maxBodySizeSetting(): Promise<number> {
  const { loadSettings } = await import('../../core/settings/index.js');
  const { parseSize } = await import('../../core/size.js');
  return parseSize((await loadSettings()).maxBodySize, 'the maxBodySize setting');
}

/** Runs `dial run` to completion (or until interrupted with --watch); answers the exit code. */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const setup = await prepareRun(options);
  try {
    const code = await setup.runOnce();
    if (!options.watch) return code;
    return await watchAndRerun(setup, options);
  } finally {
    setup.engine.closeConnections();
  }
}

/** Checks the flags, finds the workspace and its variables, and builds the run-once function. */
/** Where the workspace root is looked for from: the first path's folder (the cwd without paths). */
function searchStart(cwd: string, paths: string[]): string {
  const first = paths[0] ? resolve(cwd, paths[0]) : cwd;
  try {
    return statSync(first).isDirectory() ? first : dirname(first);
  } catch {
    return cwd;
  }
}

/**
 * The modules every run uses, with the Node built-ins they load (node:http, node:net…). The action
 * loads them before it sets `dial run`'s V8 flags (./index.ts): Node compiles a built-in from its
 * embedded code cache only while V8's flags are those the cache was made with, and from source
 * after any change (~25 M instructions for node:http and what comes with it, measured on a
 * one-request run). Node's file streams, which the reporters writing files use, load on first use:
 * reading `WriteStream` loads them now.
 */
export async function loadRunModules() {
  const modules = await Promise.all([
    import('../../core/session/index.js'),
    import('../../core/http/index.js'),
    import('../../core/workspace/discover.js'),
    import('../../core/env/index.js'),
  ]);
  void WriteStream;
  return modules;
}

async function prepareRun(options: RunCommandOptions): Promise<RunSetup> {
  // Usage first: nothing is read or sent when a flag is wrong.
  const shard: Shard | undefined = options.shard ? parseShard(options.shard) : undefined;
  const specs: ReporterSpec[] = (options.reporters.length ? options.reporters : ['pretty']).map(parseReporterSpec);
  checkReporterSpecs(specs);
  const retryDelayMs = options.retryDelay ? parseDuration(options.retryDelay, '--retry-delay') : 0;
  const timeoutMs = options.timeout ? parseDuration(options.timeout, '--timeout') : undefined;

  const [{ createSession }, engine, { findWorkspaceRoot, discoverHttpFiles }, { EnvStore }] = await loadRunModules();
  const root = findWorkspaceRoot(searchStart(options.cwd, options.paths));
  const fromEnvFile = options.envFile
    ? await envFileVariables(resolve(options.cwd, options.envFile), options.environment)
    : undefined;
  const cliVariables = { ...fromEnvFile?.values, ...options.cliVariables };
  // `-e ci` may name an environment only the --env-file defines: then the workspace's env files give $shared only.
  let environment = options.environment;
  if (environment && fromEnvFile?.definesEnvironment && !(await new EnvStore(root).names(root)).includes(environment))
    environment = undefined;
  const sendOptions: SendOptions = {
    tls: options.tls,
    followRedirects: options.follow,
    ...(options.proxy ? { proxy: options.proxy } : {}),
    // Read once for the whole run, not from process.env at every request.
    ...(options.env ? { env: engine.proxyVariables(options.env) } : {}),
    // An https -> http redirect is followed (credentials dropped) but never silently.
    onWarning: (message) => options.stderr(`warning: ${message}\n`),
  };
  const maxBodyBytes = await maxBodySizeSetting();
  // Spill files of a run that was killed (-9) are removed now, not left in $TMPDIR for good.
  removeStaleSpills();
  const givenPaths = options.paths.length ? options.paths.map((p) => resolve(options.cwd, p)) : [options.cwd];

  const runOnce = (only?: Set<string>): Promise<number> =>
    withSavedJar(options, root, environment, engine, (runEngine) => runWith(runEngine, only));

  const runWith = async (engine: RunSetup['engine'], only?: Set<string>): Promise<number> => {
    const session = createSession({
      workspaceRoot: root,
      environment,
      cliVariables,
      sendOptions,
      send: engine.sendRequest,
      oauth: oauthHost(options.stderr),
      // The executor is made just below; the session calls back only once a run is under way.
      runReference: (file, node) => executor.runReference(file, node),
    });
    const envStore = new EnvStore(root);
    const referenced = new Set<string>();
    const executor = createExecutor({
      referencedNames: referenced,
      session,
      engine,
      sendOptions,
      timeoutMs,
      followRedirects: options.follow,
      scripts: options.scripts,
      maxBodyBytes,
      updateSnapshots: options.updateSnapshots,
      environmentValues: async (dir, vscodeUser) =>
        new Map([
          ...(await envStore.resolve(dir, environment, { vscodeUser })).values,
          ...Object.entries(cliVariables),
        ]),
    });
    const {
      plan,
      discovered,
      referenced: planReferences,
    } = await planRun({
      paths: givenPaths,
      cwd: options.cwd,
      shard,
      grep: options.grep,
      tags: options.tags,
      name: options.name,
      positions: options.positions,
      loadFile: (path) => session.loadFile(path),
      checkFile: async (file) => {
        refuseUnansweredPrompts(file, cliVariables);
        if (options.scripts) await executor.scripts.checkModules(file);
      },
      // The plan keeps no file text: each file is read again at its turn (flat memory).
      readAgain: readTextFile,
      forgetFile: (path) => session.forgetFile(path),
      discover: async (paths) => {
        const files = await discoverHttpFiles(root, paths);
        return only ? files.filter((f) => only.has(f)) : files;
      },
    });
    // Every file of the workspace may be referenced by name; those of the plan are parsed already.
    for (const name of planReferences) referenced.add(name);
    // A broken env file or an unknown `-e` stops the run before anything is sent (exit 3),
    // as a parse error does, instead of failing every request.
    for (const dir of new Set(plan.map((planned) => dirname(planned.info.path))))
      await envStore.resolve(dir, environment);
    if (discovered === 0 && !only) {
      throw new DialError('E_NOT_FOUND', `no .http or .rest files in ${options.paths.join(', ') || options.cwd}`, {
        hint: 'give .http files or folders that hold them',
      });
    }
    if (plan.length === 0 && !shard)
      options.stderr(
        options.grep !== undefined || options.tags.length > 0
          ? 'dial run: no requests matched --grep/--tag\n'
          : 'dial run: the files hold no request to send (only variables, shared blocks or comments)\n',
      );
    return reportRun(options, specs, (onEvent) =>
      runPlan(
        plan,
        executor,
        {
          progressEvents: false,
          onFileStart: executor.startFile,
          concurrency: options.concurrency ?? availableParallelism(),
          retry: options.retry,
          retryDelayMs,
          bail: options.bail,
          signal: options.signal,
          shard,
        },
        onEvent,
      ),
    );
  };
  return { root, givenPaths, engine, discoverHttpFiles, runOnce };
}

/**
 * Runs with the saved cookie jar of the workspace and environment (unless --no-cookie-jar):
 * each file starts from it, and what the files set is saved when the run ends, even a failed one.
 */
async function withSavedJar(
  options: RunCommandOptions,
  root: string,
  environment: string | undefined,
  engine: RunSetup['engine'],
  run: (engine: RunSetup['engine']) => Promise<number>,
): Promise<number> {
  if (options.cookieJar === false) return run(engine);
  const { openWorkspaceJar } = await import('../../core/cookies/jar-file.js');
  const savedJar = openWorkspaceJar({
    root,
    environment,
    ...(options.cookieJarPath !== undefined && { path: resolve(options.cwd, options.cookieJarPath) }),
    onProblem: (message) => options.stderr(`warning: ${message}\n`),
  });
  try {
    return await run({ ...engine, createCookieJar: () => savedJar.fork() });
  } finally {
    try {
      savedJar.save();
    } catch (error) {
      options.stderr(`warning: ${(error as Error).message}; the cookies of this run are not kept\n`);
    }
  }
}

/** Runs the plan with the reporters listening, and maps the outcome to an exit code. */
async function reportRun(
  options: RunCommandOptions,
  specs: ReporterSpec[],
  run: (onEvent: (event: RunEvent) => void) => Promise<RunSummary>,
): Promise<number> {
  const live = specs.some((s) => (s.name === 'pretty' || s.name === 'dot') && !s.path);
  const reporters = createReporters(specs, {
    stdout: options.stdout,
    color: options.color,
    verbose: options.verbose,
    outputFailed: options.outputFailed && live,
    resolvePath: (p) => resolve(options.cwd, p),
  });
  let invalidInput = false;
  const summary = await run((event) => {
    if (event.type === 'run:start') options.onRunStart?.(event.requests);
    if (event.type === 'request:end' && event.result.error && INVALID_INPUT.has(event.result.error.code))
      invalidInput = true;
    reporters.onEvent(event);
  });
  await reporters.finish();
  if (options.outputFailed && !live) {
    // No terminal reporter to carry them: the failed exchanges go to stderr.
    for (const file of reporters.report().files) {
      for (const request of file.requests) {
        if (request.exchange)
          options.stderr(
            `--- ${file.path}:${request.line} › ${request.name}\n${exchangeLines(request.exchange, '').join('\n')}\n`,
          );
      }
    }
  }
  if (summary.interrupted) return ExitCode.interrupted;
  if (invalidInput) return ExitCode.invalidInput;
  return summary.totals.failed + summary.totals.errored > 0 ? ExitCode.failed : ExitCode.ok;
}

/** `--watch`: re-runs the files a change affects until the signal aborts; answers 130 then. */
function watchAndRerun(setup: RunSetup, options: RunCommandOptions): Promise<number> {
  const { root, givenPaths, discoverHttpFiles, runOnce } = setup;
  return new Promise<number>((resolvePromise) => {
    let running = Promise.resolve();
    let pending: Set<string> | 'all' | undefined;
    let changedInputs = new Set<string>();
    // The .http files (of the paths given) that read one of the changed files.
    const dependents = async (changed: Set<string>): Promise<string[]> => {
      const found: string[] = [];
      for (const path of await discoverHttpFiles(root, givenPaths)) {
        try {
          if (filesReadBy(parseHttpFile(await readFile(path, 'utf8'), path)).some((read) => changed.has(read)))
            found.push(path);
        } catch {
          // A file that does not parse now is re-run, and reported, when it changes itself.
        }
      }
      return found;
    };
    const schedule = (paths: string[]) => {
      const all = paths.some(isEnvFile);
      const http = paths.filter((p) => /\.(http|rest)$/i.test(p));
      const inputs = paths.filter((p) => !isEnvFile(p) && !http.includes(p));
      if (!all && http.length === 0 && inputs.length === 0) return;
      for (const input of inputs) changedInputs.add(input);
      if (all || http.length) pending = all || pending === 'all' ? 'all' : new Set([...(pending ?? []), ...http]);
      running = running.then(async () => {
        const inputsNow = changedInputs;
        changedInputs = new Set();
        if (inputsNow.size && pending !== 'all') {
          const affected = await dependents(inputsNow);
          if (affected.length) pending = new Set([...(pending ?? []), ...affected]);
        }
        const target = pending;
        pending = undefined;
        if (!target || options.signal.aborted) return;
        options.stdout(
          `\n— change detected: re-running ${target === 'all' ? 'all files' : [...target].map((p) => basename(p)).join(', ')}\n`,
        );
        try {
          await runOnce(target === 'all' ? undefined : target);
        } catch (error) {
          options.stderr(`${error instanceof Error ? error.message : String(error)}\n`);
        }
      });
    };
    const watcher = watchForChanges(root, schedule);
    options.stdout('\nWatching for changes (Ctrl+C to stop)…\n');
    options.signal.addEventListener(
      'abort',
      () => {
        watcher.close();
        void running.then(() => resolvePromise(ExitCode.interrupted));
      },
      { once: true },
    );
  });
}
