/**
 * `dial run`'s action: what runs once Commander (./index.ts) or the quick reading of a plain
 * command line (./quick-line.ts, src/cli-run.ts) has the paths, the run's flags and the global
 * flags. Flags become typed options (./options.ts), the V8 flags of a run are set, and the work
 * is ./run-command.ts's.
 */
import { colorFor, type GlobalOptions } from '../globals.js';

/** Runs `dial run PATHS…` with the flags as Commander hands them over; sets process.exitCode. */
export async function runAction(paths: string[], flags: unknown, global: GlobalOptions): Promise<void> {
  const [
    { quickRunOptions },
    { runCommand, loadRunModules },
    v8,
    { PerformanceObserver },
    { splitPosition },
    { resolve },
  ] = await Promise.all([
    import('./option-values.js'),
    import('./run-command.js'),
    import('node:v8'),
    import('node:perf_hooks'),
    import('../../core/workspace/position.js'),
    import('node:path'),
  ]);
  // Before any V8 flag is set (see loadRunModules).
  await loadRunModules();
  // zod (./options.ts) loads only for flags the quick check leaves to it: it words every error.
  const options = quickRunOptions(flags) ?? (await import('./options.js')).runOptions(flags);
  // `api.http:14` (the request under an editor's cursor) and `api.http#login` select one request of that file.
  const positions = new Map<string, import('../../core/workspace/position.js').RequestPosition>();
  paths = paths.map((argument) => {
    const { path, position } = splitPosition(argument);
    if (position) positions.set(resolve(process.cwd(), path), position);
    return path;
  });
  const growYoungGeneration = keepHeapFlat(v8, PerformanceObserver);
  inlineLess(v8);
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
      positions,
      cwd: process.cwd(),
      env: process.env,
      color: colorFor(global),
      verbose: global.verbose,
      stdout: (text: string) => void process.stdout.write(text),
      stderr: (text: string) => void process.stderr.write(text),
      signal: controller.signal,
      onRunStart: (requests) => {
        growYoungGeneration();
        if (requests >= LONG_RUN_REQUESTS) optimiseSooner(v8);
      },
    });
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/**
 * Half V8's default budget for inlining into one optimised function (920 bytes of bytecode), for
 * `dial run` only, set when its action starts (the code cache was made with the defaults, and a
 * flag given on the command line would make V8 refuse it). A run's hot path is many functions
 * deep, so TurboFan inlined most of it into each caller it optimised and compiled the same code
 * several times. Measured in instructions (bench/HISTORY.md, issue #19, third pass): the
 * compiler's part of 5,000 requests at `--concurrency 8` drops by ~270 M and the run by ~190 M;
 * 500 requests in a row show no difference beyond the noise. A quarter of the default did no
 * better. Loop peeling and escape analysis are off too (fifth pass): each took ~80 M of the
 * compiler's instructions in that run, and together ~170 M, for no loss seen in the run's other
 * instructions at 500, 5,000 and 20,000 requests.
 */
function inlineLess(v8: typeof import('node:v8')): void {
  v8.setFlagsFromString('--max-inlined-bytecode-size-cumulative=460');
  v8.setFlagsFromString('--no-turbo-loop-peeling');
  v8.setFlagsFromString('--no-turbo-escape');
}

/** From this many planned requests a run is long enough for optimiseSooner to pay back. */
const LONG_RUN_REQUESTS = 2000;

/**
 * An eighth of V8's default interrupt budget, set when a long run's requests start: each function
 * on the per-request path is optimised after fewer calls, so less of the run executes in the
 * interpreter and baseline code on the main thread, while the compiler works on its own thread.
 * Measured against the undici loop at 5,000 requests, 8 at once (issue #19, bench/HISTORY.md):
 * main-thread CPU ~660 -> ~530 ms and all threads ~990 -> ~870 ms. A short run loses by it:
 * 500 requests in a row went from ~270 to ~430 ms wall, V8 then optimising ~120 functions instead
 * of ~20 for a run that ends before the code pays back; at 2,000 requests it was already no slower,
 * in a row or 8 at once, hence LONG_RUN_REQUESTS. The build's warm-up run is far shorter, so this
 * flag is never set when its code cache is made, and restoreV8FlagDefaults leaves it alone (a value
 * written there would be Node 20's default, which another V8 need not share).
 */
function optimiseSooner(v8: typeof import('node:v8')): void {
  v8.setFlagsFromString('--interrupt-budget=8448');
}

/**
 * V8's defaults of every flag `dial run` sets (Node 20's V8: `node --v8-options`). The build's
 * warm-up run of dist/run.cjs puts them back before it makes that bundle's code cache
 * (scripts/code-cache-warm-up.cjs): V8 refuses a cache made under flags other than those of the
 * process reading it, and `dial run` reads its cache before it sets any.
 */
export function restoreV8FlagDefaults(v8: typeof import('node:v8')): void {
  for (const flag of [
    '--max-inlined-bytecode-size-cumulative=920',
    '--heap-growing-percent=0',
    '--semi-space-growth-factor=2',
    '--turbo-loop-peeling',
    '--turbo-escape',
  ])
    v8.setFlagsFromString(flag);
}

/** The young generation's size in `dial run` (V8's new space, as getHeapSpaceStatistics reports it). */
const YOUNG_GENERATION_BYTES = 8 * 1048576;

/**
 * A long run allocates a lot and keeps little: the live heap after a full GC is ~6 MiB at 500
 * requests and at 50,000. V8's defaults still grow the heap in steps toward a plateau, the young
 * generation from 2 to 32 MiB and the old one up to 4× what is live, so peak RSS rose 1.4× from
 * 500 to 5,000 requests (it should stay flat however long the run). V8 reads these flags at each
 * GC decision: the old generation grows 30% past what is live, and the young one doubles (as it
 * does by default) once requests run, until it holds 8 MiB, then keeps that size. Answers the
 * function that lets it grow, called when the requests start: from then on its size is looked at
 * after each collection (a `gc` performance entry). While files are planned it keeps its first
 * size: planning a 20,000-file run allocates in long stretches with no turn of the event loop,
 * and the young generation grew to 16 MiB there before its size could be looked at.
 *
 * Measured at --concurrency 8 (bench/HISTORY.md): a young generation held at its first 1 MiB
 * was scavenged every ~15 requests, and each scavenge copied the requests in flight, so the
 * collector executed ~13% of a 5,000-request run's instructions; at 8 MiB it is scavenged a
 * quarter as often and executes ~40% less, for ~7 MiB more peak RSS (79 / 83 MiB at 10,000 /
 * 100,000 requests); left to grow to 32 MiB, peak RSS is ~105 MiB for little more. The old
 * generation's step: a 100% step held 85 MiB once but grew 81 -> 102 MiB (1.26×) in the bench;
 * no flag at all grows from 121 to 159 MiB. So 30%. A V8 that does not take a growth factor
 * under 2 keeps its default young generation; nothing else changes.
 */
function keepHeapFlat(
  v8: typeof import('node:v8'),
  PerformanceObserver: typeof import('node:perf_hooks').PerformanceObserver,
): () => void {
  v8.setFlagsFromString('--heap-growing-percent=30');
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  let growing = false;
  return () => {
    if (growing) return;
    growing = true;
    v8.setFlagsFromString('--semi-space-growth-factor=2');
    const observer = new PerformanceObserver(() => {
      const young = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
      if (young && young.space_size < YOUNG_GENERATION_BYTES) return;
      v8.setFlagsFromString('--semi-space-growth-factor=1');
      observer.disconnect();
    });
    observer.observe({ entryTypes: ['gc'] });
  };
}
