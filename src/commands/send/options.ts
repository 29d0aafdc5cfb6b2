/**
 * `dial send`'s flags as one typed options object. The zod schema below is the one place a
 * send flag is checked and its error worded; the rest of the command reads `SendCommandOptions`.
 */
import * as z from 'zod/mini';
import { parseDuration } from '../../core/duration.js';
import { parsePrintSpec, type PrintSpec } from '../../core/format/exchange.js';
import type { BodyMode } from '../../core/send/build.js';
import { normaliseProxy } from '../../core/send/url.js';
import { keyNeedsCert, parseFlags, tlsFlagShape, variablePairs, wholeNumber } from '../flag-schemas.js';

/** Credentials from `-a/--auth`, with how to send them (`-A/--auth-type`). */
export type SendAuth =
  | { type: 'bearer'; token: string }
  | { type: 'basic' | 'digest'; username: string; password: string; secretParts: string[] };

/** `dial send`'s options, checked. Unset values fall back to the settings, then to defaults. */
export interface SendCommandOptions {
  bodyMode: BodyMode;
  /** `--json` given: send data fields as JSON even when none needs it. */
  forceJson: boolean;
  offline: boolean;
  curl: boolean;
  print?: PrintSpec;
  checkStatus: boolean;
  /** `-o FILE` (as given), `auto` for `--download`, or undefined. */
  download?: { to: 'auto' } | { to: 'file'; path: string };
  follow?: boolean;
  maxRedirects?: number;
  timeoutMs?: number;
  /** `--verify yes|no` / `--insecure` (undefined: the verifyTls setting), and which flag said so. */
  verify?: { verify: boolean; source: string };
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  proxy?: string;
  http2: boolean;
  auth?: SendAuth;
  ignoreStdin: boolean;
  /** `--no-deps`: a reference to a request that has not run is an error instead of running it. */
  refuseDependencies: boolean;
  /** `--no-mask`: print secrets and credential headers as they are (history still masks them). */
  mask: boolean;
  /** `--no-scripts`: a `.http` request's scripts are not run. */
  scripts: boolean;
  environment?: string;
  variables: Record<string, string>;
  /** `--env` or `--var` was given (they apply to .http targets only). */
  variablesGiven: boolean;
  /** `--no-cookie-jar`: a .http request neither reads nor saves the workspace's cookie jar. */
  cookieJar: boolean;
  /** `--cookie-jar FILE`: the saved jar of a .http request is this file. */
  cookieJarPath?: string;
  /** `--session NAME` / `--session-read-only NAME`: headers, credentials and cookies kept between sends to a host. */
  session?: { name: string; readOnly: boolean };
}

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

/** `--verify yes|no|CA_FILE` and `--insecure`: whether to verify, and a CA bundle given as --verify PATH. */
function verifyFlags(
  verify: string | undefined,
  insecure: boolean | undefined,
): { verify?: SendCommandOptions['verify']; caFile?: string } {
  const lower = verify?.toLowerCase() ?? '';
  const yes = ['yes', 'true', '1', 'on'].includes(lower);
  const no = ['no', 'false', '0', 'off'].includes(lower);
  // HTTPie: --verify PATH is a CA bundle.
  const caFile = verify !== undefined && !yes && !no ? verify : undefined;
  if (insecure) return { verify: { verify: false, source: '--insecure' }, caFile };
  if (yes) return { verify: { verify: true, source: 'the verifyTls setting' } };
  if (no) return { verify: { verify: false, source: '--verify no' } };
  return { caFile };
}

function authOf(auth: string | undefined, type: string | undefined): SendAuth | undefined {
  if (auth === undefined) return undefined;
  if (type === 'bearer') return { type: 'bearer', token: auth };
  const colon = auth.indexOf(':');
  // The password must not show up in history.
  const secretParts = auth.split(':').filter((part) => part.length >= 3);
  return {
    type: type === 'digest' ? 'digest' : 'basic',
    username: auth.slice(0, colon),
    password: auth.slice(colon + 1),
    secretParts,
  };
}

/** Commander's flags of `dial send` as checked, typed options (a usage error, exit 2, when wrong). */
export function sendOptions(flags: unknown): SendCommandOptions {
  const checked = parseFlags(sendFlags, flags);
  const verify = verifyFlags(checked.verify, checked.insecure);
  const outputPath = checked.output;
  return {
    bodyMode: checked.multipart ? 'multipart' : checked.form ? 'form' : 'json',
    forceJson: Boolean(checked.json),
    offline: Boolean(checked.offline),
    curl: Boolean(checked.curl),
    print: checked.print,
    checkStatus: Boolean(checked.checkStatus),
    download:
      outputPath !== undefined ? { to: 'file', path: outputPath } : checked.download ? { to: 'auto' } : undefined,
    follow: checked.follow,
    maxRedirects: checked.maxRedirects,
    timeoutMs: checked.timeout,
    verify: verify.verify,
    caFile: checked.cacert ?? verify.caFile,
    certFile: checked.cert,
    keyFile: checked.key,
    proxy: checked.proxy,
    http2: Boolean(checked.http2),
    auth: authOf(checked.auth, checked.authType),
    ignoreStdin: Boolean(checked.ignoreStdin),
    refuseDependencies: !checked.deps,
    mask: checked.mask,
    scripts: checked.scripts,
    environment: checked.env,
    variables: checked.var,
    variablesGiven: checked.env !== undefined || Object.keys(checked.var).length > 0,
    cookieJar: checked.cookieJar !== false,
    ...(typeof checked.cookieJar === 'string' ? { cookieJarPath: checked.cookieJar } : {}),
    ...(checked.session !== undefined || checked.sessionReadOnly !== undefined
      ? {
          session: {
            name: (checked.session ?? checked.sessionReadOnly)!,
            readOnly: checked.session === undefined,
          },
        }
      : {}),
  };
}
