/** `# @key value` lines: the keys dial acts on, and the keys of other tools it refuses rather than ignore. */
import { parseDuration } from '../duration.js';
import type { Block } from './block.js';

/** Raised by applyMetadata; the parser turns it into E_PARSE at the metadata line. */
export type MetadataFailure = (message: string, hint: string) => never;

/** Keys other tools act on that would change what is sent if ignored: refused with what to do instead. */
const REFUSED_KEYS: Readonly<Record<string, string>> = {
  import: 'httpyac `# @import` is not supported yet: copy the requests or variables into this file',
  loop: 'httpyac `# @loop` is not supported yet: write one request per iteration, or drive dial run from a shell loop',
  jwt: 'httpyac `# @jwt` is not supported yet: decode the token in a `> {% %}` handler and set a variable',
  'grpc-global-import': 'name the .proto files in each gRPC request: `# @grpc-proto FILE`, `# @grpc-import-path DIR`',
  'grpc-import': 'name the .proto files in the gRPC request: `# @grpc-proto FILE`, `# @grpc-import-path DIR`',
};

/**
 * kulala's `# @curl-FLAG` lines that dial may ignore (it decompresses, follows redirects in a run
 * and keeps bodies in memory anyway) or maps (`connect-timeout`, `max-time`). Any other curl flag
 * could change what is sent (`data-urlencode`, `header`, `user`…), so it is refused.
 */
const CURL_FLAGS_IGNORED = new Set([
  'compressed',
  'no-buffer',
  'non-buffer',
  'location',
  'L',
  'silent',
  's',
  'show-error',
  'S',
  'verbose',
  'v',
  'connect-timeout',
  'max-time',
  'm',
  // Mapped: the request does not check the server's certificate (run/execute.ts requestSendOptions).
  'insecure',
  'k',
]);

/**
 * kulala's keys that run a shell command (`sh -c`): `env-` ones set a variable from its output,
 * `-pre` ones run before the request, the others after it with the response body on stdin. They
 * run only where the user allows code from the workspace (ScriptRunner.checkModules, run/execute.ts).
 */
export const COMMAND_KEYS: ReadonlySet<string> = new Set([
  'env-stdin-cmd',
  'env-stdin-cmd-pre',
  'stdin-cmd',
  'stdin-cmd-pre',
]);

/**
 * Checks a command key's value where it is written: the `env-` keys need a variable name and a
 * command; a `-pre` command with `{{…}}` is refused, because kulala runs it before it fills in any
 * variable, so the shell would get the braces as written (never what the author meant).
 */
export function checkCommandMetadata(key: string, value: string, bad: MetadataFailure): void {
  const command = key.startsWith('env-') ? /^\S+\s+(\S[\s\S]*)$/.exec(value)?.[1] : value.trim() || undefined;
  if (command === undefined)
    bad(
      `@${key} needs ${key.startsWith('env-') ? 'a variable name and ' : ''}a command`,
      key.startsWith('env-') ? `write \`# @${key} TOKEN some-command --flag\`` : `write \`# @${key} some-command\``,
    );
  if (key.endsWith('-pre') && command!.includes('{{'))
    bad(
      `@${key} runs before variables are filled in: the shell would get '{{' as written`,
      'compute the value inside the command (environment variables, a file), or set it with --var',
    );
}

/** The variable an `env-` command line sets (its first word); undefined for the other command keys. */
export function commandVariable(meta: { key: string; value: string }): string | undefined {
  return meta.key.startsWith('env-') ? /^\S+/.exec(meta.value.trim())?.[0] : undefined;
}

function isKeyChar(c: number): boolean {
  // [\w.-]
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

/**
 * Where the key of a metadata line starts (`#+` or `//+`, blanks, `@`, a letter), or -1: the
 * pattern `^(?:#+|\/\/+)[ \t]*@([A-Za-z][\w.-]*)` read by hand, since its match array and
 * copies were a tenth of what a parse allocated (tests/core/httpfile/metadata-key.property.test.ts).
 */
export function metadataKeyStart(t: string): number {
  let k: number;
  if (t.charCodeAt(0) === 35 /* # */) k = 1;
  else if (t.charCodeAt(0) === 47 && t.charCodeAt(1) === 47 /* // */) k = 2;
  else return -1;
  const mark = t.charCodeAt(0);
  while (t.charCodeAt(k) === mark) k++;
  while (t.charCodeAt(k) === 32 || t.charCodeAt(k) === 9) k++;
  if (t.charCodeAt(k) !== 64 /* @ */) return -1;
  const c = t.charCodeAt(k + 1);
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? k + 1 : -1;
}

/** Where the key that starts at `start` ends (metadataKeyStart). */
export function metadataKeyEnd(t: string, start: number): number {
  let k = start + 1;
  while (isKeyChar(t.charCodeAt(k))) k++;
  return k;
}

/** kulala's `# @curl-insecure` (curl --insecure, also `-k` and the `global-` forms): no certificate check for the request. */
export function skipsCertificateCheck(metadata: ReadonlyArray<{ key: string }>): boolean {
  for (const meta of metadata) if (/^curl-(?:global-)?(?:insecure|k)$/.test(meta.key)) return true;
  return false;
}

/** The refusal text for a metadata key dial will not ignore, or undefined when the key is fine. */
export function refusedMetadata(key: string): string | undefined {
  if (Object.hasOwn(REFUSED_KEYS, key)) return REFUSED_KEYS[key];
  const curl = key.startsWith('curl-') ? /^curl-(?:global-)?(.+)$/.exec(key) : null;
  if (curl && !CURL_FLAGS_IGNORED.has(curl[1]))
    return `kulala's curl flag \`--${curl[1]}\` is not supported: dial does not run curl; set the header, body or option in the request itself`;
  return undefined;
}

function durationOf(value: string, label: string, bad: MetadataFailure): number {
  try {
    return parseDuration(value, label);
  } catch {
    return bad(`${label} '${value}'`, 'write durations like 500ms, 5s or 2m; a bare number means seconds');
  }
}

function applyRetry(block: Block, value: string, bad: MetadataFailure): void {
  const [count, delay, extra] = value.split(/\s+/);
  if (!count || !/^\d+$/.test(count) || extra !== undefined)
    bad(`@retry '${value}'`, 'write `# @retry 3` or `# @retry 3 500ms`');
  const delayMs = delay === undefined ? 0 : durationOf(delay, '@retry delay', bad);
  block.retry = { count: Number(count), delayMs };
}

function applyPrompt(block: Block, value: string, bad: MetadataFailure): void {
  const match = /^(\S+)(?:\s+(.*))?$/.exec(value);
  if (!match) return bad('@prompt needs a variable name', 'write `# @prompt otp Your one-time code`');
  block.prompts.push(match[2] ? { name: match[1], description: match[2] } : { name: match[1] });
}

/** `# @sse-count 3` (a whole number of events) and `# @sse-timeout 5s` (a duration). */
function checkStreamLimit(key: string, value: string, bad: MetadataFailure): void {
  if (key === 'sse-timeout') durationOf(value, '@sse-timeout', bad);
  else if (!/^\d+$/.test(value)) bad(`@sse-count '${value}'`, 'write `# @sse-count 3`: stop after that many events');
}

/** Applies one metadata line to the block's views (name, tags, timeouts, skip, retry, secrets, prompts). */
export function applyMetadata(block: Block, key: string, value: string, bad: MetadataFailure): void {
  switch (key) {
    case 'name':
      if (!value) bad('@name needs a name', 'write `# @name login`');
      block.name = value;
      break;
    case 'tag':
    case 'tags':
      // One tag (the common case) needs no split.
      if (!/[\s,]/.test(value)) {
        if (value) block.tags.push(value);
      } else for (const tag of value.split(/[\s,]+/)) if (tag) block.tags.push(tag);
      break;
    case 'timeout':
      block.timeoutMs = durationOf(value, '@timeout', bad);
      break;
    case 'connection-timeout':
      block.connectTimeoutMs = durationOf(value, '@connection-timeout', bad);
      break;
    // httpyac turns `-x` in a key into `X` (parseComments), so its own spelling is the camel-case one.
    case 'no-redirect':
    case 'noRedirect':
      block.noRedirect = true;
      break;
    case 'no-cookie-jar':
    case 'noCookieJar':
      block.noCookieJar = true;
      break;
    case 'skip':
      block.skip = value ? { reason: value } : {};
      break;
    case 'disabled':
      // httpyac/kulala: a disabled request is never sent; dial treats it as skipped.
      if (value !== 'false') block.skip = { reason: value && value !== 'true' ? `disabled: ${value}` : 'disabled' };
      break;
    case 'retry':
      applyRetry(block, value, bad);
      break;
    case 'secret': {
      const names = value.split(/[\s,]+/).filter(Boolean);
      if (names.length === 0) bad('@secret needs a variable name', 'write `# @secret token`');
      block.secrets.push(...names);
      break;
    }
    case 'prompt':
      applyPrompt(block, value, bad);
      break;
    case 'curl-connect-timeout':
    case 'curl-global-connect-timeout':
      // curl takes seconds.
      block.connectTimeoutMs = durationOf(value, '@curl-connect-timeout', bad);
      break;
    case 'curl-max-time':
    case 'curl-m':
      block.timeoutMs = durationOf(value, '@curl-max-time', bad);
      break;
    case 'graphql':
      // kulala: the body is a GraphQL query (then its JSON variables), sent as {query, variables}.
      block.graphql ??= {};
      break;
    case 'sse-count':
    case 'sse-timeout':
      // Read where the request is prepared (core/session/event-source.ts); checked here for its line.
      checkStreamLimit(key, value, bad);
      break;
    case 'env-stdin-cmd':
    case 'env-stdin-cmd-pre':
    case 'stdin-cmd':
    case 'stdin-cmd-pre':
      checkCommandMetadata(key, value, bad);
      break;
    case 'delay':
      // kulala: wait that many milliseconds before the request (run/execute.ts).
      if (!/^\d+$/.test(value.trim())) bad(`@delay '${value}'`, 'write the delay in milliseconds: `# @delay 500`');
      break;
    case 'env-header-key':
      if (!/^\S+\s+\S+$/.test(value.trim()))
        bad(`@env-header-key '${value}'`, 'write `# @env-header-key NAME Header-Name`');
      break;
    case 'lang':
      block.scriptLanguage = value.replace(/^=\s*/, '').toLowerCase();
      break;
    default:
      break;
  }
}
