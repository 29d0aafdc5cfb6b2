/**
 * `dial run` core: discover → parse (all files first: a parse error stops the run before
 * anything is sent) → plan (`--grep`, `--tag`, `--shard`) → run (events to listeners).
 */
import type { HttpFile } from '../httpfile/types.js';
import { DialError, isDialError } from '../errors.js';
import {
  discoverFiles,
  KEPT_TREE_REQUESTS,
  planFiles,
  reportPath,
  selectShard,
  type PlannedFile,
  type TreeBudget,
  type RequestFilter,
  type Shard,
} from './plan.js';
import { referencedNames } from './execute.js';
import { runPlan, type RequestExecutor, type RunnerOptions, type RunSummary } from './runner.js';
import type { RunEventListener } from './types.js';

export * from './types.js';
export {
  runPlan,
  runEvents,
  type RequestExecutor,
  type RunnerOptions,
  type RunSummary,
  type AttemptContext,
  type AttemptOutcome,
  type FileState,
} from './runner.js';
export { createExecutor, referencedNames, type RunSession, type RunEngine, type ExecutorOptions } from './execute.js';
export {
  parseShard,
  selectShard,
  discoverFiles,
  planFiles,
  createRequestFilter,
  grepMatcher,
  requestInfo,
  reportPath,
  type Shard,
  type PlannedFile,
  type RequestFilter,
} from './plan.js';
export { watchForChanges, type WatchHandle } from './watch.js';

export interface PlanRunOptions extends RequestFilter {
  /** Files and folders given on the command line (default: the working folder). */
  paths: string[];
  cwd: string;
  shard?: Shard;
  /** Parses one file (session.loadFile). */
  loadFile: (path: string) => Promise<HttpFile>;
  /** Called once a file's plan is made, so a caching loader can let go of the tree. */
  forgetFile?: (path: string) => void;
  /** Lists request files under paths (default: discoverFiles). */
  discover?: (paths: string[]) => Promise<string[]>;
  /** Checks a parsed file before anything runs (scripts' modules); its errors are gathered as parse errors are. */
  checkFile?: (file: HttpFile) => Promise<void>;
}

/** Finds, parses and selects what to run. All parse errors are gathered; the first is thrown (E_PARSE, exit 3) with a count. */
export async function planRun(
  options: PlanRunOptions,
): Promise<{ plan: PlannedFile[]; discovered: number; referenced: Set<string> }> {
  let paths = options.discover
    ? await options.discover(options.paths)
    : await discoverFiles(options.paths, options.cwd);
  const discovered = paths.length;
  if (options.shard) paths = selectShard(paths, options.shard, (path) => reportPath(path, options.cwd));
  // A run's first KEPT_TREE_REQUESTS requests keep their trees (one parse each); past that, each
  // tree is planned and let go before the next file is parsed: holding them all at once would
  // size V8's old generation for all of them, and the run would keep that peak.
  const plan: PlannedFile[] = [];
  const referenced = new Set<string>();
  const errors: unknown[] = [];
  const keep: TreeBudget = { requests: KEPT_TREE_REQUESTS };
  for (const path of paths) {
    let file: HttpFile;
    try {
      file = await options.loadFile(path);
      await options.checkFile?.(file);
    } catch (error) {
      errors.push(error);
      continue;
    }
    plan.push(...planFiles([{ file, relativePath: reportPath(path, options.cwd) }], options, keep));
    for (const name of referencedNames([file])) referenced.add(name);
    options.forgetFile?.(file.path);
  }
  if (errors.length) {
    const first = errors[0];
    if (isDialError(first) && errors.length === 1) throw first;
    if (isDialError(first)) {
      throw new DialError(
        first.code,
        `${first.message} (and ${errors.length - 1} more file${errors.length === 2 ? '' : 's'} with errors)`,
        { location: first.location, hint: first.hint },
      );
    }
    throw first;
  }
  return { plan, discovered, referenced };
}

/** Plans then runs; resolves with the summary. */
export async function runFiles(
  options: PlanRunOptions & RunnerOptions & { execute: RequestExecutor; listener: RunEventListener },
): Promise<RunSummary> {
  const { plan } = await planRun(options);
  return runPlan(plan, options.execute, options, options.listener);
}
