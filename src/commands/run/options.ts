/** `dial run`'s flags as one typed options object: the zod schema is where they are checked. */
import * as z from 'zod/mini';
import { keyNeedsCert, parseFlags, tlsFlagShape, variablePairs, wholeNumber } from '../flag-schemas.js';
import { toRunOptions, type RunOptions } from './option-values.js';

/** `dial run`'s flags, checked: the one place their values are validated (exit 2 when wrong). */
const runFlags = z
  .object({
    env: z.optional(z.string()),
    var: variablePairs,
    envFile: z.optional(z.string()),
    grep: z.optional(z.string()),
    name: z.optional(z.string()),
    tag: z._default(z.array(z.string()), []),
    concurrency: z.optional(wholeNumber('--concurrency', 1)),
    retry: z.optional(wholeNumber('--retry', 0)),
    retryDelay: z.optional(z.string()),
    timeout: z.optional(z.string()),
    bail: z.optional(z.boolean()),
    shard: z.optional(z.string()),
    reporter: z._default(z.array(z.string()), []),
    updateSnapshots: z.optional(z.boolean()),
    watch: z.optional(z.boolean()),
    scripts: z._default(z.boolean(), true),
    outputFailed: z.optional(z.boolean()),
    follow: z._default(z.boolean(), true),
    cookieJar: z.optional(z.union([z.boolean(), z.string()])),
    ...tlsFlagShape,
  })
  .check(z.superRefine((flags, context) => keyNeedsCert(flags, context.issues)));

/** The typed options `dial run` works from (every flag checked by the schema, which words each error). */
export function runOptions(flags: unknown): RunOptions {
  return toRunOptions(parseFlags(runFlags, flags));
}
