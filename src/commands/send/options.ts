/**
 * `dial send`'s flags as one typed options object. The zod schema below is the one place a
 * send flag is checked and its error worded; the rest of the command reads `SendCommandOptions`.
 * A plain `dial send URL` does not load it: ./option-values.ts answers flags that are plainly
 * valid and leaves the rest, and every error, to this schema.
 */
import * as z from 'zod/mini';
import { parseDuration } from '../../core/duration.js';
import { parsePrintSpec } from '../../core/format/exchange.js';
import { normaliseProxy } from '../../core/send/url.js';
import { toSendCommandOptions, type SendCommandOptions } from './option-values.js';
import { keyNeedsCert, parseFlags, tlsFlagShape, variablePairs, wholeNumber } from '../flag-schemas.js';

const flag = z.optional(z.boolean());
const text = z.optional(z.string());

const sendFlags = z
  .object({
    json: flag,
    form: flag,
    multipart: flag,
    offline: flag,
    curl: flag,
    print: z.optional(
      z.pipe(
        z.string(),
        z.transform((value: string) => parsePrintSpec(value)),
      ),
    ),
    checkStatus: flag,
    download: flag,
    output: text,
    follow: flag,
    maxRedirects: z.optional(wholeNumber('--max-redirects')),
    timeout: z.optional(
      z.pipe(
        z.string(),
        z.transform((value: string) => parseDuration(value, '--timeout')),
      ),
    ),
    verify: text,
    ...tlsFlagShape,
    proxy: z.optional(
      z.pipe(
        z.string(),
        z.transform((value: string) => normaliseProxy(value)),
      ),
    ),
    http2: flag,
    auth: text,
    authType: z.optional(
      z
        .pipe(
          z.string(),
          z.transform((value: string) => value.toLowerCase()),
        )
        .check(
          z.refine((value: string) => ['basic', 'digest', 'bearer'].includes(value), {
            error: (issue) => `unknown --auth-type '${String(issue.input)}'`,
            params: { hint: 'use basic, digest or bearer' },
          }),
        ),
    ),
    ignoreStdin: flag,
    deps: z._default(z.boolean(), true),
    mask: z._default(z.boolean(), true),
    scripts: z._default(z.boolean(), true),
    env: text,
    var: variablePairs,
    cookieJar: z.optional(z.union([z.boolean(), z.string()])),
    session: text,
    sessionReadOnly: text,
  })
  .check(
    z.superRefine((flags, context) => {
      const modes = [flags.json && 'json', flags.form && 'form', flags.multipart && 'multipart'].filter(Boolean);
      if (modes.length > 1)
        context.issues.push({
          code: 'custom',
          input: flags,
          message: `--${modes[0]} and --${modes[1]} cannot be combined`,
        });
      keyNeedsCert(flags, context.issues);
      if (flags.session !== undefined && flags.sessionReadOnly !== undefined)
        context.issues.push({
          code: 'custom',
          input: flags,
          message: '--session and --session-read-only cannot be combined',
          params: { hint: 'give one of them' },
        });
      if (flags.authType && !flags.auth) {
        context.issues.push({
          code: 'custom',
          input: flags,
          message: '--auth-type needs --auth',
          params: { hint: 'e.g. -a user:password --auth-type digest' },
        });
      }
      if (flags.auth !== undefined && flags.authType !== 'bearer' && !flags.auth.includes(':')) {
        context.issues.push({
          code: 'custom',
          input: flags,
          message: `--auth '${flags.auth}' is not USER:PASSWORD`,
          params: { hint: 'write -a user:password (an empty password is -a user:)' },
        });
      }
    }),
  );

/** Commander's flags of `dial send` as checked, typed options (a usage error, exit 2, when wrong). */
export function sendOptions(flags: unknown): SendCommandOptions {
  return toSendCommandOptions(parseFlags(sendFlags, flags));
}

export type { SendAuth, SendCommandOptions } from './option-values.js';
