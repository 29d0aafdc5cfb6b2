/** `dial run`'s flags as one typed options object: the zod schema is where they are checked. */
import * as z from 'zod/mini';
import { keyNeedsCert, parseFlags, tlsFlagShape, variablePairs, wholeNumber } from '../flag-schemas.js';

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

/** The typed options `dial run` works from. */
export function runOptions(flags: unknown) {
  const checked = parseFlags(runFlags, flags);
  return {
    environment: checked.env,
    cliVariables: checked.var,
    envFile: checked.envFile,
    grep: checked.grep,
    name: checked.name,
    tags: checked.tag,
    concurrency: checked.concurrency,
    retry: checked.retry,
    retryDelay: checked.retryDelay,
    timeout: checked.timeout,
    bail: Boolean(checked.bail),
    shard: checked.shard,
    reporters: checked.reporter,
    updateSnapshots: Boolean(checked.updateSnapshots),
    watch: Boolean(checked.watch),
    scripts: checked.scripts,
    outputFailed: Boolean(checked.outputFailed),
    tls: { verify: !checked.insecure, caFile: checked.cacert, certFile: checked.cert, keyFile: checked.key },
    proxy: checked.proxy,
    follow: checked.follow,
    // --no-cookie-jar: each file's cookies last for the run only; --cookie-jar FILE: the saved jar is FILE.
    cookieJar: checked.cookieJar !== false,
    ...(typeof checked.cookieJar === 'string' ? { cookieJarPath: checked.cookieJar } : {}),
  };
}
