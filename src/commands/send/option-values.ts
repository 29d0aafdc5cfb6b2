/**
 * `dial send`'s typed options, made from flag values once checked, and the quick check that
 * spares a plain `dial send URL` from loading zod (~2.3 ms of start-up). The zod schema in
 * ./options.ts stays the one place a flag is checked and its error worded: quickSendOptions
 * answers only flags it can see are valid and leaves everything else, every error included,
 * to that schema (tests/commands/options.test.ts checks both give the same options).
 */
import { parseDuration } from '../../core/duration.js';
import { parsePrintSpec, type PrintSpec } from '../../core/format/exchange.js';
import type { BodyMode } from '../../core/send/build.js';
import { normaliseProxy } from '../../core/send/url.js';

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

/** The flag values once checked (what the zod schema of ./options.ts outputs). */
export interface CheckedSendFlags {
  json?: boolean;
  form?: boolean;
  multipart?: boolean;
  offline?: boolean;
  curl?: boolean;
  print?: PrintSpec;
  checkStatus?: boolean;
  download?: boolean;
  output?: string;
  follow?: boolean;
  maxRedirects?: number;
  timeout?: number;
  verify?: string;
  insecure?: boolean;
  cacert?: string;
  cert?: string;
  key?: string;
  proxy?: string;
  http2?: boolean;
  auth?: string;
  authType?: string;
  ignoreStdin?: boolean;
  deps: boolean;
  mask: boolean;
  scripts: boolean;
  env?: string;
  var: Record<string, string>;
  cookieJar?: boolean | string;
  session?: string;
  sessionReadOnly?: string;
}

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

/** The typed options from checked flag values. */
export function toSendCommandOptions(checked: CheckedSendFlags): SendCommandOptions {
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

const BOOLEAN_FLAGS = [
  'json',
  'form',
  'multipart',
  'offline',
  'curl',
  'checkStatus',
  'download',
  'follow',
  'insecure',
  'http2',
  'ignoreStdin',
] as const;
const TEXT_FLAGS = ['print', 'output', 'maxRedirects', 'timeout', 'verify', 'cacert', 'cert', 'key', 'proxy'] as const;
const MORE_TEXT_FLAGS = ['auth', 'authType', 'env', 'session', 'sessionReadOnly'] as const;
const DEFAULT_TRUE_FLAGS = ['deps', 'mask', 'scripts'] as const;

/** `--var` pairs when each is NAME=VALUE; undefined when one is not (the schema words that error). */
function quickVariables(pairs: unknown): Record<string, string> | undefined {
  if (pairs === undefined) return {};
  if (!Array.isArray(pairs)) return undefined;
  const variables: Record<string, string> = {};
  for (const pair of pairs) {
    if (typeof pair !== 'string') return undefined;
    const at = pair.indexOf('=');
    if (at <= 0) return undefined;
    variables[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return variables;
}

/** The checks of the schema that do not throw, in its terms; false: leave these flags to the schema. */
function plainlyValid(flags: Record<string, unknown>): boolean {
  for (const name of BOOLEAN_FLAGS) if (flags[name] !== undefined && typeof flags[name] !== 'boolean') return false;
  for (const name of DEFAULT_TRUE_FLAGS)
    if (flags[name] !== undefined && typeof flags[name] !== 'boolean') return false;
  for (const name of [...TEXT_FLAGS, ...MORE_TEXT_FLAGS])
    if (flags[name] !== undefined && typeof flags[name] !== 'string') return false;
  const maxRedirects = flags.maxRedirects as string | undefined;
  if (
    maxRedirects !== undefined &&
    !(/^\d+$/.test(maxRedirects.trim()) && Number(maxRedirects) <= Number.MAX_SAFE_INTEGER)
  )
    return false;
  const authType = (flags.authType as string | undefined)?.toLowerCase();
  if (authType !== undefined && !['basic', 'digest', 'bearer'].includes(authType)) return false;
  if ([flags.json, flags.form, flags.multipart].filter(Boolean).length > 1) return false;
  if (flags.cookieJar !== undefined && typeof flags.cookieJar !== 'boolean' && typeof flags.cookieJar !== 'string')
    return false;
  if (flags.session !== undefined && flags.sessionReadOnly !== undefined) return false;
  if (flags.key && !flags.cert) return false;
  if (authType && !flags.auth) return false;
  const auth = flags.auth as string | undefined;
  return !(auth !== undefined && authType !== 'bearer' && !auth.includes(':'));
}

/**
 * Commander's flags of `dial send` as typed options when they are plainly valid, else undefined
 * (then ./options.ts checks them with its schema, which words the error).
 */
export function quickSendOptions(flags: unknown): SendCommandOptions | undefined {
  if (typeof flags !== 'object' || flags === null) return undefined;
  const given = flags as Record<string, unknown>;
  const variables = quickVariables(given.var);
  if (!variables || !plainlyValid(given)) return undefined;
  const text = (name: string) => given[name] as string | undefined;
  const flag = (name: string) => given[name] as boolean | undefined;
  try {
    // In the schema's order, as it would apply them (these throw the usage errors themselves).
    const print = text('print') === undefined ? undefined : parsePrintSpec(text('print')!);
    const timeout = text('timeout') === undefined ? undefined : parseDuration(text('timeout')!, '--timeout');
    const proxy = text('proxy') === undefined ? undefined : normaliseProxy(text('proxy')!);
    return toSendCommandOptions({
      json: flag('json'),
      form: flag('form'),
      multipart: flag('multipart'),
      offline: flag('offline'),
      curl: flag('curl'),
      print,
      checkStatus: flag('checkStatus'),
      download: flag('download'),
      output: text('output'),
      follow: flag('follow'),
      maxRedirects: text('maxRedirects') === undefined ? undefined : Number(text('maxRedirects')),
      timeout,
      verify: text('verify'),
      insecure: flag('insecure'),
      cacert: text('cacert'),
      cert: text('cert'),
      key: text('key'),
      proxy,
      http2: flag('http2'),
      auth: text('auth'),
      authType: text('authType')?.toLowerCase(),
      ignoreStdin: flag('ignoreStdin'),
      deps: flag('deps') ?? true,
      mask: flag('mask') ?? true,
      scripts: flag('scripts') ?? true,
      env: text('env'),
      var: variables,
      cookieJar: given.cookieJar as boolean | string | undefined,
      session: text('session'),
      sessionReadOnly: text('sessionReadOnly'),
    });
  } catch {
    return undefined;
  }
}
