/**
 * The zod pieces that check flag values. Each command turns Commander's flags into one typed
 * options object with `parseFlags`: the only place a flag value is checked and its error
 * worded. Imported inside command actions, so building the program does not load zod.
 */
import * as z from 'zod/mini';
import { DialError } from '../core/errors.js';

/** A flag's value check: a message (and a hint) for the DialError it becomes. */
interface Check {
  error: string | ((issue: { input: unknown }) => string);
  params?: { hint?: string };
}

/** A whole number from `min` (to `max`), written in digits: `--retry 2`, `-n 20`. */
export function wholeNumber(flag: string, min = 0, max = Number.MAX_SAFE_INTEGER, check?: Partial<Check>) {
  const error =
    check?.error ??
    ((issue: { input: unknown }) =>
      `${flag} takes a whole number${min > 0 ? ` from ${min}` : ''}, got '${String(issue.input)}'`);
  const inRange = (text: string): boolean => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;
  return z.pipe(
    z.string().check(z.refine(inRange, { error, params: check?.params })),
    z.transform((text: string) => Number(text)),
  );
}

/** `--var NAME=VALUE` pairs as a record; a pair without a name is a usage error. */
export const variablePairs = z.pipe(
  z._default(z.array(z.string()), []),
  z.transform((pairs: string[], context) => {
    const variables: Record<string, string> = {};
    for (const pair of pairs) {
      const at = pair.indexOf('=');
      if (at <= 0) {
        context.issues.push({
          code: 'custom',
          input: pair,
          message: `--var '${pair}' is not NAME=VALUE`,
          params: { hint: 'e.g. --var host=localhost:3000' },
        });
        continue;
      }
      variables[pair.slice(0, at).trim()] = pair.slice(at + 1);
    }
    return variables;
  }),
);

/** `--var` pairs as a record (a usage error when one is not NAME=VALUE). */
export function parseVariables(pairs: string[]): Record<string, string> {
  return parseFlags(variablePairs, pairs);
}

/** The TLS flags as Commander hands them over. */
export const tlsFlagShape = {
  insecure: z.optional(z.boolean()),
  cacert: z.optional(z.string()),
  cert: z.optional(z.string()),
  key: z.optional(z.string()),
  proxy: z.optional(z.string()),
};

/** `--key` alone cannot be used: the check every command with TLS flags makes. */
export function keyNeedsCert(flags: { key?: string; cert?: string }, issues: z.core.$ZodRawIssue[]): void {
  if (flags.key && !flags.cert) {
    issues.push({
      code: 'custom',
      input: flags,
      message: '--key needs --cert',
      params: { hint: 'pass the client certificate with --cert FILE and its key with --key FILE' },
    });
  }
}

/** Checks Commander's flags against a command's schema; the first problem becomes a usage error (exit 2). */
export function parseFlags<Schema extends z.ZodMiniType>(schema: Schema, flags: unknown): z.output<Schema> {
  const result = schema.safeParse(flags);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const hint = (issue as { params?: { hint?: string } }).params?.hint;
  throw new DialError('E_USAGE', issue.message, hint ? { hint } : {});
}
