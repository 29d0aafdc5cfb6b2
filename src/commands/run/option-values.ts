/**
 * `dial run`'s typed options, made from flag values once checked, and the quick check that spares
 * a plain `dial run` from loading zod. The zod schema in ./options.ts stays the one place a flag
 * is checked and its error worded: quickRunOptions answers only flags it can see are valid and
 * leaves everything else, every error included, to that schema
 * (tests/commands/options.test.ts checks both give the same options).
 */

/** The flag values once checked (what the zod schema of ./options.ts outputs). */
export interface CheckedRunFlags {
  env?: string;
  var: Record<string, string>;
  envFile?: string;
  grep?: string;
  name?: string;
  tag: string[];
  concurrency?: number;
  retry?: number;
  retryDelay?: string;
  timeout?: string;
  bail?: boolean;
  shard?: string;
  reporter: string[];
  updateSnapshots?: boolean;
  watch?: boolean;
  scripts: boolean;
  outputFailed?: boolean;
  follow: boolean;
  cookieJar?: boolean | string;
  insecure?: boolean;
  cacert?: string;
  cert?: string;
  key?: string;
  proxy?: string;
}

/** The typed options `dial run` works from, from the checked flags. */
export function toRunOptions(checked: CheckedRunFlags) {
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

/** `dial run`'s options, checked. */
export type RunOptions = ReturnType<typeof toRunOptions>;

const TEXT = ['env', 'envFile', 'grep', 'name', 'retryDelay', 'timeout', 'shard', 'cacert', 'cert', 'key', 'proxy'];
const BOOLEAN = ['bail', 'updateSnapshots', 'watch', 'outputFailed', 'insecure'];
const LISTS = ['var', 'tag', 'reporter'];

/** A whole number in digits, from `min`, as ../flag-schemas.ts's wholeNumber takes it; else undefined. */
function wholeNumberFrom(value: unknown, min: number): number | undefined {
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim())) return undefined;
  const number = Number(value);
  return number >= min && number <= Number.MAX_SAFE_INTEGER ? number : undefined;
}

/**
 * The options when every flag is plainly valid (the types Commander gives, whole numbers in
 * range, each --var NAME=VALUE with a name, --key only with --cert), else undefined: the schema
 * then checks them and words the error.
 */
export function quickRunOptions(flags: unknown): RunOptions | undefined {
  if (typeof flags !== 'object' || flags === null) return undefined;
  const given = flags as Record<string, unknown>;
  if (TEXT.some((name) => given[name] !== undefined && typeof given[name] !== 'string')) return undefined;
  if (BOOLEAN.some((name) => given[name] !== undefined && typeof given[name] !== 'boolean')) return undefined;
  for (const name of ['scripts', 'follow'])
    if (given[name] !== undefined && typeof given[name] !== 'boolean') return undefined;
  for (const name of LISTS) {
    const list = given[name];
    if (list !== undefined && !(Array.isArray(list) && list.every((item) => typeof item === 'string')))
      return undefined;
  }
  const cookieJar = given.cookieJar;
  if (cookieJar !== undefined && typeof cookieJar !== 'boolean' && typeof cookieJar !== 'string') return undefined;
  const concurrency = given.concurrency === undefined ? undefined : wholeNumberFrom(given.concurrency, 1);
  const retry = given.retry === undefined ? undefined : wholeNumberFrom(given.retry, 0);
  if (
    (given.concurrency !== undefined && concurrency === undefined) ||
    (given.retry !== undefined && retry === undefined)
  )
    return undefined;
  const variables: Record<string, string> = {};
  for (const pair of (given.var as string[] | undefined) ?? []) {
    const at = pair.indexOf('=');
    if (at <= 0) return undefined;
    variables[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  if (given.key && !given.cert) return undefined;
  const text = (name: string) => given[name] as string | undefined;
  const flag = (name: string) => given[name] as boolean | undefined;
  return toRunOptions({
    env: text('env'),
    var: variables,
    envFile: text('envFile'),
    grep: text('grep'),
    name: text('name'),
    tag: (given.tag as string[] | undefined) ?? [],
    concurrency,
    retry,
    retryDelay: text('retryDelay'),
    timeout: text('timeout'),
    bail: flag('bail'),
    shard: text('shard'),
    reporter: (given.reporter as string[] | undefined) ?? [],
    updateSnapshots: flag('updateSnapshots'),
    watch: flag('watch'),
    scripts: flag('scripts') ?? true,
    outputFailed: flag('outputFailed'),
    follow: flag('follow') ?? true,
    cookieJar: cookieJar as boolean | string | undefined,
    insecure: flag('insecure'),
    cacert: text('cacert'),
    cert: text('cert'),
    key: text('key'),
    proxy: text('proxy'),
  });
}
