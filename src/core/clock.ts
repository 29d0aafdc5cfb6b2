/**
 * A monotonic clock in milliseconds for exchange timings. Not `performance.now()`: the first
 * use of the `performance` global loads node:perf_hooks, ~1 ms of every `dial send`'s start.
 */
export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
