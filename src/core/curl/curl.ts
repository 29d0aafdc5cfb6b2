/**
 * `dial import curl`: a curl command line (as typed, or as browsers' "Copy as cURL"
 * write it) to a resolved request. Every flag is either mapped or reported in
 * `warnings` by name; nothing is dropped silently.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DialError } from '../errors.js';
import type { HeaderList, HttpRequest, MultipartPart } from '../http/types.js';
import { basicAuthorization } from '../http/basic-auth.js';
import {
  processEnvNames,
  replaceProcessEnvReferences,
  splitCommands,
  splitProcessEnvReferences,
  splitShellWords,
  type ShellCommand,
} from './shell-words.js';

export interface ParsedCurl {
  request: HttpRequest;
  /** -k / --insecure was given. */
  insecure: boolean;
  /** -L / --location was given. */
  followRedirects: boolean;
  /** From -m / --max-time. */
  timeoutMs?: number;
  /** From --retry. */
  retry?: number;
  /** Flags that were not mapped, named, and other things the user should know. */
  warnings: string[];
}

export interface ParseCurlOptions {
  /** Folder `@file` paths are read from (default process.cwd()). */
  cwd?: string;
  /** Where a shell variable in a path read now (`-d @$DIR/a.json`) is looked up (default process.env). */
  env?: Record<string, string | undefined>;
}

type DataKind = 'data' | 'raw' | 'binary' | 'urlencode' | 'json';

// curl's short options that take a value (curl --help all).
const SHORT_WITH_VALUE = new Set('AbcCdDeEFHKmoPQrtTuUwxXyYz'.split(''));
// Long options that take a value; any other unknown long option is taken as a switch.
const LONG_WITH_VALUE = new Set([
  'abstract-unix-socket',
  'alt-svc',
  'aws-sigv4',
  'cacert',
  'capath',
  'cert',
  'cert-type',
  'ciphers',
  'config',
  'connect-timeout',
  'connect-to',
  'continue-at',
  'cookie',
  'cookie-jar',
  'create-file-mode',
  'crlfile',
  'curves',
  'data',
  'data-ascii',
  'data-binary',
  'data-raw',
  'data-urlencode',
  'delegation',
  'dns-interface',
  'dns-ipv4-addr',
  'dns-ipv6-addr',
  'dns-servers',
  'doh-url',
  'dump-header',
  'egd-file',
  'engine',
  'etag-compare',
  'etag-save',
  'expect100-timeout',
  'form',
  'form-string',
  'ftp-account',
  'ftp-alternative-to-user',
  'ftp-method',
  'ftp-port',
  'ftp-ssl-ccc-mode',
  'happy-eyeballs-timeout-ms',
  'haproxy-clientip',
  'header',
  'hostpubmd5',
  'hostpubsha256',
  'hsts',
  'interface',
  'ipfs-gateway',
  'json',
  'keepalive-time',
  'key',
  'key-type',
  'krb',
  'libcurl',
  'limit-rate',
  'local-port',
  'login-options',
  'mail-auth',
  'mail-from',
  'mail-rcpt',
  'max-filesize',
  'max-redirs',
  'max-time',
  'netrc-file',
  'noproxy',
  'oauth2-bearer',
  'output',
  'output-dir',
  'parallel-max',
  'pass',
  'pinnedpubkey',
  'preproxy',
  'proto',
  'proto-default',
  'proto-redir',
  'proxy',
  'proxy-cacert',
  'proxy-capath',
  'proxy-cert',
  'proxy-cert-type',
  'proxy-ciphers',
  'proxy-crlfile',
  'proxy-header',
  'proxy-key',
  'proxy-key-type',
  'proxy-pass',
  'proxy-pinnedpubkey',
  'proxy-service-name',
  'proxy-tls13-ciphers',
  'proxy-tlsauthtype',
  'proxy-tlspassword',
  'proxy-tlsuser',
  'proxy-user',
  'proxy1.0',
  'pubkey',
  'quote',
  'random-file',
  'range',
  'rate',
  'referer',
  'request',
  'request-target',
  'resolve',
  'retry',
  'retry-delay',
  'retry-max-time',
  'sasl-authzid',
  'service-name',
  'socks4',
  'socks4a',
  'socks5',
  'socks5-gssapi-service',
  'socks5-hostname',
  'speed-limit',
  'speed-time',
  'stderr',
  'telnet-option',
  'tftp-blksize',
  'time-cond',
  'tls-max',
  'tls13-ciphers',
  'tlsauthtype',
  'tlspassword',
  'tlsuser',
  'trace',
  'trace-ascii',
  'trace-config',
  'unix-socket',
  'upload-file',
  'url',
  'url-query',
  'user',
  'user-agent',
  'variable',
  'write-out',
]);
const SHORT_TO_LONG: Record<string, string> = {
  X: 'request',
  H: 'header',
  d: 'data',
  F: 'form',
  u: 'user',
  b: 'cookie',
  A: 'user-agent',
  e: 'referer',
  L: 'location',
  k: 'insecure',
  G: 'get',
  I: 'head',
  m: 'max-time',
  T: 'upload-file',
  s: 'silent',
  S: 'show-error',
  g: 'globoff',
  '#': 'progress-bar',
  v: 'verbose',
  i: 'include',
  o: 'output',
  O: 'remote-name',
  w: 'write-out',
  f: 'fail',
  x: 'proxy',
  D: 'dump-header',
  c: 'cookie-jar',
  E: 'cert',
  K: 'config',
  '0': 'http1.0',
  ':': 'next',
  C: 'continue-at',
  r: 'range',
  z: 'time-cond',
  U: 'proxy-user',
  y: 'speed-time',
  Y: 'speed-limit',
  P: 'ftp-port',
  Q: 'quote',
  t: 'telnet-option',
  N: 'no-buffer',
  n: 'netrc',
  '4': 'ipv4',
  '6': 'ipv6',
  Z: 'parallel',
  j: 'junk-session-cookies',
  J: 'remote-header-name',
  R: 'remote-time',
  l: 'list-only',
  B: 'use-ascii',
  M: 'manual',
  V: 'version',
  h: 'help',
  q: 'disable',
  '1': 'tlsv1',
  '2': 'sslv2',
  '3': 'sslv3',
  p: 'proxytunnel',
};
// Flags that change only what curl prints or how it reports progress: nothing to map.
const NO_REQUEST_EFFECT = new Set([
  'silent',
  'show-error',
  'no-progress-meter',
  'progress-bar',
  'globoff',
  'compressed',
  'location',
  'disable',
]);
// Output options: accepted, reported as ignored (the request is unchanged).
const OUTPUT_ONLY = new Set([
  'verbose',
  'include',
  'output',
  'remote-name',
  'write-out',
  'fail',
  'fail-with-body',
  'dump-header',
  'trace',
  'trace-ascii',
  'trace-time',
  'no-buffer',
  'remote-header-name',
  'remote-time',
  'output-dir',
  'create-dirs',
  'stderr',
  'styled-output',
  'no-styled-output',
]);

function curlEscape(text: string): string {
  // As curl's --data-urlencode: unreserved characters stay, a space is +, the rest UTF-8 %XX.
  return Array.from(Buffer.from(text, 'utf8'))
    .map((byte) =>
      byte === 0x20
        ? '+'
        : /[A-Za-z0-9\-._~]/.test(String.fromCharCode(byte))
          ? String.fromCharCode(byte)
          : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

type ReadData = (path: string, flag: string) => string;

function readData(path: string, cwd: string, env: Record<string, string | undefined>, flag: string): string {
  // The file is read now, so a shell variable in its path takes its value now, as in the shell.
  const shownPath = replaceProcessEnvReferences(path, (name) => `$${name}`);
  const expanded = replaceProcessEnvReferences(path, (name) => {
    const value = env[name];
    if (value === undefined) {
      throw new DialError('E_IMPORT', `${flag} @${shownPath}: the path uses $${name}, which is not set`, {
        hint: `set ${name} in the environment, or write the path out`,
      });
    }
    return value;
  });
  try {
    return readFileSync(resolve(cwd, expanded), 'utf8');
  } catch (error) {
    throw new DialError(
      'E_IMPORT',
      `${flag} @${shownPath}: cannot read the file (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      {
        hint: 'run the import from the folder the curl command was written for, or inline the data',
        cause: error,
      },
    );
  }
}

// curl's -F word: "quoted" (with \" and \\) or up to the next `;` (or `,` for file names).
function readFormWord(text: string, stopAtComma: boolean): { word: string; rest: string } {
  if (text.startsWith('"')) {
    let word = '';
    let i = 1;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) i++;
      word += text[i];
      i++;
    }
    return { word, rest: text.slice(i + 1) };
  }
  const stop = stopAtComma ? /[;,]/ : /;/;
  const match = stop.exec(text);
  return match ? { word: text.slice(0, match.index), rest: text.slice(match.index) } : { word: text, rest: '' };
}

function parseFormSpec(spec: string, read: ReadData, warnings: string[]): MultipartPart {
  const eq = spec.indexOf('=');
  if (eq < 0)
    throw new DialError('E_IMPORT', `-F '${spec}': expected name=value`, {
      hint: "write -F 'field=value' or -F 'field=@file'",
    });
  const name = spec.slice(0, eq);
  let rest = spec.slice(eq + 1);
  const part: MultipartPart = { name };
  if (rest.startsWith('@') || rest.startsWith('<')) {
    const fromFile = rest.startsWith('@');
    const { word, rest: after } = readFormWord(rest.slice(1), true);
    rest = after;
    if (fromFile) part.filePath = word;
    else part.value = read(word, '-F');
  } else {
    const { word, rest: after } = readFormWord(rest, false);
    part.value = word;
    rest = after;
  }
  while (rest.startsWith(';') || rest.startsWith(',')) {
    if (rest.startsWith(',')) {
      warnings.push(`-F '${spec}': several files in one field are not supported; only the first was imported`);
      break;
    }
    rest = rest.slice(1).trimStart();
    const paramMatch = /^(\w+)=/.exec(rest);
    if (!paramMatch) break;
    rest = rest.slice(paramMatch[0].length);
    const key = paramMatch[1].toLowerCase();
    const { word, rest: after } =
      key === 'type' ? { word: /^[^;]*/.exec(rest)![0], rest: rest.replace(/^[^;]*/, '') } : readFormWord(rest, false);
    rest = after;
    if (key === 'type') part.contentType = word;
    else if (key === 'filename') part.filename = word;
    else warnings.push(`-F '${spec}': the ;${key}= parameter is not supported and was ignored`);
  }
  return part;
}

/** Splits `Name: value`; `Name;` is an empty value and `Name:` removes curl's own header. */
function parseHeader(raw: string): { name: string; value: string; remove: boolean } {
  const colon = raw.indexOf(':');
  if (colon < 0) {
    const semi = raw.indexOf(';');
    if (semi >= 0 && raw.slice(semi + 1).trim() === '')
      return { name: raw.slice(0, semi).trim(), value: '', remove: false };
    throw new DialError('E_IMPORT', `-H '${raw}': expected 'Name: value'`, {
      hint: "write -H 'Accept: application/json'",
    });
  }
  const name = raw.slice(0, colon).trim();
  const value = raw.slice(colon + 1).trim();
  return { name, value, remove: value === '' };
}

function hasHeader(headers: HeaderList, name: string): boolean {
  const lower = name.toLowerCase();
  return headers.some(([key]) => key.toLowerCase() === lower);
}

const CURL = /(^|[\\/])curl(\.exe)?$/i;

/**
 * Parses every curl command in pasted text (browsers' "Copy all as cURL" joins them with `;`),
 * or one command already split into words by a shell. Other commands are named in warnings.
 */
export function parseCurlCommands(input: string | string[], options: ParseCurlOptions = {}): ParsedCurl[] {
  if (Array.isArray(input)) return [parseCurlWords(input, options)];
  const commands = splitCommands(splitShellWords(input.trim().replace(/^\$\s+/, '')));
  if (commands.length === 0)
    throw new DialError('E_IMPORT', 'the curl command is empty', {
      hint: "pass the command in quotes: dial import curl 'curl https://…'",
    });
  const results: ParsedCurl[] = [];
  const skipped: string[] = [];
  commands.forEach((command, index) => {
    if (CURL.test(command.words[0])) results.push(parseCurlWords(command.words, options, command));
    else
      skipped.push(
        `${index > 0 && commands[index - 1].after === '|' ? 'the output piped into ' : ''}'${command.words.join(' ').slice(0, 60)}'`,
      );
  });
  if (results.length === 0) {
    throw new DialError('E_IMPORT', `not a curl command (it starts with '${commands[0].words[0]}')`, {
      hint: "the command must start with curl, e.g. dial import curl 'curl -X POST https://…'",
    });
  }
  for (const what of skipped) results[0].warnings.push(`${what} is not a curl command; ignored`);
  return results;
}

/** Parses one curl command (text as pasted, or words already split by a shell) into a request. */
export function parseCurlCommand(input: string | string[], options: ParseCurlOptions = {}): ParsedCurl {
  const all = parseCurlCommands(input, options);
  if (all.length > 1) all[0].warnings.push(`the text holds ${all.length} curl commands; only the first was used`);
  return all[0];
}

/** What the flags of one curl command said, gathered before the request is built. */
interface CurlFlags {
  headers: HeaderList;
  removedHeaders: Set<string>;
  data: Array<{ kind: DataKind; value: string }>;
  parts: MultipartPart[];
  cookies: string[];
  urls: string[];
  urlQueries: string[];
  method?: string;
  head: boolean;
  get: boolean;
  insecure: boolean;
  followRedirects: boolean;
  timeoutMs?: number;
  retry?: number;
  httpVersion?: '2';
  uploadFile?: string;
  user?: string;
  bearer?: string;
  digest: boolean;
  /** `--next` was met: the rest of the words belong to another request. */
  stopped: boolean;
}

/** What reading the flags needs besides the flags: file reads, the warning list, URL escaping. */
interface CurlContext {
  read: ReadData;
  warnings: string[];
  /** curl's URL-encoding of a value, leaving `{{$processEnv}}` references as they are (with a warning). */
  escape: (text: string, shown: string) => string;
}

function emptyCurlFlags(): CurlFlags {
  return {
    headers: [],
    removedHeaders: new Set(),
    data: [],
    parts: [],
    cookies: [],
    urls: [],
    urlQueries: [],
    head: false,
    get: false,
    insecure: false,
    followRedirects: false,
    digest: false,
    stopped: false,
  };
}

function assertCurlWords(words: string[]): void {
  if (words.length === 0)
    throw new DialError('E_IMPORT', 'the curl command is empty', {
      hint: "pass the command in quotes: dial import curl 'curl https://…'",
    });
  if (!CURL.test(words[0])) {
    throw new DialError('E_IMPORT', `not a curl command (it starts with '${words[0]}')`, {
      hint: "the command must start with curl, e.g. dial import curl 'curl -X POST https://…'",
    });
  }
}

/** Warnings about what the shell split left for dial: variables read when sending, expansions kept literal. */
function shellWarnings(shell: ShellCommand | undefined): string[] {
  const warnings: string[] = [];
  for (const name of shell?.variables ?? []) {
    warnings.push(
      `$${name}: a shell variable; written as {{$processEnv ${name}}}, which dial reads from its environment when it sends`,
    );
  }
  for (const text of shell?.kept ?? [])
    warnings.push(`${text}: a shell expansion dial cannot do; kept as literal text`);
  return warnings;
}

/** curl URL-encodes a variable's value (the shell expands it first); dial sends the value as it is. */
function escapeKeepingVariables(text: string, shown: string, warnings: string[]): string {
  const pieces = splitProcessEnvReferences(text);
  if (pieces.length > 1) {
    warnings.push(
      `${shown}: ${processEnvNames(text)
        .map((name) => `$${name}`)
        .join(', ')} will be sent as is, not URL-encoded as curl would`,
    );
  }
  return pieces.map((piece, index) => (index % 2 === 1 ? piece : curlEscape(piece))).join('');
}

/** `--url-query` (curl 7.87+): name=value is URL-encoded, +name=value is added as is. */
function urlQueryPart(query: string, shown: string, context: CurlContext): string {
  if (query.startsWith('+')) return query.slice(1);
  const eq = query.indexOf('=');
  return eq >= 0 ? `${query.slice(0, eq)}=${context.escape(query.slice(eq + 1), shown)}` : context.escape(query, shown);
}

function applyHeaderFlag(flags: CurlFlags, value: string, shown: string, warnings: string[]): void {
  if (value.startsWith('@')) {
    warnings.push(`${shown} ${value}: headers from a file are not supported and were not imported`);
    return;
  }
  const header = parseHeader(value);
  if (header.remove) flags.removedHeaders.add(header.name.toLowerCase());
  else flags.headers.push([header.name, header.value]);
}

/** Applies the flags that shape the request body: -d and its kinds, --json, -F, --form-string. */
function applyBodyFlag(flags: CurlFlags, long: string, value: string, shown: string, context: CurlContext): boolean {
  switch (long) {
    case 'data':
    case 'data-ascii':
      flags.data.push({ kind: 'data', value });
      return true;
    case 'data-raw':
      flags.data.push({ kind: 'raw', value });
      return true;
    case 'data-binary':
      flags.data.push({ kind: 'binary', value });
      return true;
    case 'data-urlencode':
      flags.data.push({ kind: 'urlencode', value });
      return true;
    case 'json':
      flags.data.push({ kind: 'json', value });
      return true;
    case 'form':
      flags.parts.push(parseFormSpec(value, context.read, context.warnings));
      return true;
    case 'form-string': {
      const eq = value.indexOf('=');
      if (eq < 0) throw new DialError('E_IMPORT', `${shown} '${value}': expected name=value`);
      flags.parts.push({ name: value.slice(0, eq), value: value.slice(eq + 1) });
      return true;
    }
    default:
      return false;
  }
}

/** Applies the numeric flags (-m, --retry); a value that is not a number is warned about and ignored. */
function applyNumberFlag(
  flags: CurlFlags,
  long: 'max-time' | 'retry',
  value: string | undefined,
  shown: string,
  warnings: string[],
): void {
  const number = Number(value);
  if (long === 'max-time') {
    if (Number.isFinite(number) && number > 0) flags.timeoutMs = Math.round(number * 1000);
    else warnings.push(`${shown} ${value}: not a number of seconds; ignored`);
  } else if (Number.isInteger(number) && number >= 0) flags.retry = number;
  else warnings.push(`${shown} ${value}: not a count; ignored`);
}

/** Applies one curl flag (by its long name) to `flags`; a flag dial cannot map is named in a warning. */
function applyCurlFlag(
  flags: CurlFlags,
  long: string,
  value: string | undefined,
  shown: string,
  context: CurlContext,
): void {
  const { warnings } = context;
  if (value !== undefined && applyBodyFlag(flags, long, value, shown, context)) return;
  switch (long) {
    case 'request':
      flags.method = value!;
      return;
    case 'header':
      applyHeaderFlag(flags, value!, shown, warnings);
      return;
    case 'user':
      flags.user = value;
      return;
    case 'oauth2-bearer':
      flags.bearer = value;
      return;
    case 'digest':
      flags.digest = true;
      return;
    case 'basic':
      flags.digest = false;
      return;
    case 'url-query':
      flags.urlQueries.push(urlQueryPart(value!, shown, context));
      return;
    case 'cookie': {
      if (!value!.includes('='))
        warnings.push(`${shown} ${value}: reading cookies from a file is not supported; not imported`);
      else flags.cookies.push(value!);
      return;
    }
    case 'user-agent':
      flags.headers.push(['User-Agent', value!]);
      return;
    case 'referer': {
      const referer = value!.replace(/;auto$/, '');
      if (referer) flags.headers.push(['Referer', referer]);
      if (value!.endsWith(';auto')) warnings.push(`${shown} ';auto' (referer on redirects) is not supported`);
      return;
    }
    case 'location':
      flags.followRedirects = true;
      return;
    case 'insecure':
      flags.insecure = true;
      return;
    case 'get':
      flags.get = true;
      return;
    case 'head':
      flags.head = true;
      return;
    case 'url':
      flags.urls.push(value!);
      return;
    case 'max-time':
    case 'retry':
      applyNumberFlag(flags, long, value, shown, warnings);
      return;
    case 'http2':
    case 'http2-prior-knowledge':
      flags.httpVersion = '2';
      return;
    case 'http1.1':
      flags.httpVersion = undefined;
      return;
    case 'upload-file':
      flags.uploadFile = value;
      return;
    case 'next':
      warnings.push(`${shown}: only the first request of the command was imported`);
      flags.stopped = true;
      return;
  }
  if (NO_REQUEST_EFFECT.has(long)) return;
  const display = value === undefined ? shown : `${shown} ${value}`;
  if (OUTPUT_ONLY.has(long)) warnings.push(`${display}: an output option of curl; ignored (the request is unchanged)`);
  else warnings.push(`${display}: not supported by dial import; ignored`);
}

/** `--no-location`, `--no-insecure`, `--no-compressed`: true when `long` was one of those and is handled. */
function applyNegatedFlag(flags: CurlFlags, long: string): boolean {
  if (!long.startsWith('no-') || LONG_WITH_VALUE.has(long) || NO_REQUEST_EFFECT.has(long) || OUTPUT_ONLY.has(long))
    return false;
  const positive = long.slice(3);
  if (positive === 'location') flags.followRedirects = false;
  else if (positive === 'insecure') flags.insecure = false;
  else if (positive !== 'compressed') return false;
  return true;
}

/** Reads a `--long` or `--long=value` word (and its value word); answers the index of the last word used. */
function readLongFlag(words: string[], i: number, flags: CurlFlags, context: CurlContext): number {
  const word = words[i];
  let long = word.slice(2);
  let value: string | undefined;
  const eq = long.indexOf('=');
  if (eq > 0 && LONG_WITH_VALUE.has(long.slice(0, eq))) {
    value = long.slice(eq + 1);
    long = long.slice(0, eq);
  } else if (LONG_WITH_VALUE.has(long)) {
    if (i + 1 >= words.length)
      throw new DialError('E_IMPORT', `${word} needs a value`, { hint: `write ${word} <value>` });
    value = words[++i];
  }
  if (!applyNegatedFlag(flags, long)) applyCurlFlag(flags, long, value, word, context);
  return i;
}

/** Reads bundled short flags (-sSL); a flag with a value takes the rest of the word or the next one. */
function readShortFlags(words: string[], i: number, flags: CurlFlags, context: CurlContext): number {
  const word = words[i];
  for (let j = 1; j < word.length; j++) {
    const letter = word[j];
    const long = SHORT_TO_LONG[letter] ?? `-${letter}`;
    if (SHORT_WITH_VALUE.has(letter)) {
      let value = word.slice(j + 1);
      if (value === '') {
        if (i + 1 >= words.length)
          throw new DialError('E_IMPORT', `-${letter} needs a value`, { hint: `write -${letter} <value>` });
        value = words[++i];
      }
      applyCurlFlag(flags, long, value, `-${letter}`, context);
      break;
    }
    applyCurlFlag(flags, long, undefined, `-${letter}`, context);
  }
  return i;
}

/** Reads the words after `curl` into flags and URLs, up to the end or a `--next`. */
function readCurlFlags(words: string[], context: CurlContext): CurlFlags {
  const flags = emptyCurlFlags();
  for (let i = 0; i < words.length && !flags.stopped; i++) {
    const word = words[i];
    if (word.startsWith('--') && word.length > 2) i = readLongFlag(words, i, flags, context);
    else if (word.startsWith('-') && word.length > 1) i = readShortFlags(words, i, flags, context);
    else flags.urls.push(word);
  }
  return flags;
}

/** The first URL, with a scheme added where curl would assume http. */
function requestUrl(flags: CurlFlags, warnings: string[]): string {
  const { urls } = flags;
  if (urls.length === 0)
    throw new DialError('E_IMPORT', 'the curl command has no URL', {
      hint: "add the URL, e.g. curl 'https://api.example.com/items'",
    });
  if (urls.length > 1) warnings.push(`several URLs given; only the first (${urls[0]}) was imported`);
  const url = urls[0];
  // A URL that starts with a variable ($BASE/items) gets its scheme from the variable.
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith('{{') ? `http://${url}` : url;
}

function warnRemovedHeaders(flags: CurlFlags, warnings: string[]): void {
  for (const name of flags.removedHeaders) {
    if (name !== 'content-type' && name !== 'accept' && name !== 'user-agent' && name !== 'expect') {
      warnings.push(`-H '${name}:' (removing a header curl adds) has no effect in dial`);
    }
  }
}

/** The Authorization header -u (with --digest or not) stands for, in the .http conventions. */
function userAuthorization(user: string, digest: boolean, warnings: string[]): string {
  // A variable may hold user:password, so no `:` is added after one.
  const variable = processEnvNames(user).length > 0;
  if (!user.includes(':') && !variable)
    warnings.push(`-u ${user}: no password given (curl would ask for one); an empty password was used`);
  const credentials = user.includes(':') || variable ? user : `${user}:`;
  // Encoded when sent, after the variables are read (the .http `Basic user:password` convention).
  if (variable && !digest) return `Basic ${credentials}`;
  if (digest) {
    // The .http convention: dial answers the server's Digest challenge with these.
    const colon = credentials.indexOf(':');
    return colon < 0
      ? `Digest ${credentials}`
      : `Digest ${credentials.slice(0, colon)} ${credentials.slice(colon + 1)}`;
  }
  const colon = credentials.indexOf(':');
  return basicAuthorization(credentials.slice(0, colon), credentials.slice(colon + 1));
}

/** Adds the headers that -u, --oauth2-bearer and -b stand for. */
function addCredentialHeaders(flags: CurlFlags, warnings: string[]): void {
  if (flags.user !== undefined)
    flags.headers.push(['Authorization', userAuthorization(flags.user, flags.digest, warnings)]);
  else if (flags.digest) warnings.push('--digest without -u: nothing to authenticate with; ignored');
  if (flags.bearer !== undefined) flags.headers.push(['Authorization', `Bearer ${flags.bearer}`]);
  if (flags.cookies.length > 0) flags.headers.push(['Cookie', flags.cookies.join('; ')]);
}

function urlEncodedPiece(value: string, context: CurlContext): string {
  const at = value.indexOf('@');
  const eq = value.indexOf('=');
  if (eq >= 0 && (at < 0 || eq < at)) {
    const name = value.slice(0, eq);
    const escaped = context.escape(value.slice(eq + 1), '--data-urlencode');
    return name ? `${name}=${escaped}` : escaped;
  }
  if (at >= 0) {
    const name = value.slice(0, at);
    const content = context.read(value.slice(at + 1), '--data-urlencode');
    return name ? `${name}=${curlEscape(content)}` : curlEscape(content);
  }
  return context.escape(value, '--data-urlencode');
}

/** The text one -d / --data-* / --json value contributes, with `@file` read as curl reads it. */
function dataPieceText(piece: { kind: DataKind; value: string }, context: CurlContext): string {
  switch (piece.kind) {
    case 'raw':
      return piece.value;
    case 'data':
    case 'binary':
    case 'json': {
      if (!piece.value.startsWith('@')) return piece.value;
      const flag = piece.kind === 'data' ? '-d' : `--${piece.kind === 'binary' ? 'data-binary' : 'json'}`;
      if (piece.value === '@-')
        throw new DialError('E_IMPORT', `${flag} @-: data read from stdin cannot be imported`, {
          hint: 'save the data to a file and use @file',
        });
      const text = context.read(piece.value.slice(1), flag);
      // -d @file drops CR and LF, as curl does; --data-binary and --json keep them.
      return piece.kind === 'data' ? text.replace(/[\r\n]/g, '') : text;
    }
    case 'urlencode':
      return urlEncodedPiece(piece.value, context);
  }
}

/** All data pieces joined as curl joins them: `&` between pieces, nothing between consecutive --json. */
function joinedData(data: CurlFlags['data'], context: CurlContext): string {
  let joined = '';
  data.forEach((piece, index) => {
    if (index > 0 && !(piece.kind === 'json' && data[index - 1].kind === 'json')) joined += '&';
    joined += dataPieceText(piece, context);
  });
  return joined;
}

interface CurlBody {
  body: HttpRequest['body'];
  /** The method curl uses when no -X is given. */
  impliedMethod: string;
  url: string;
}

/** The body -d / --json give (or, with -G, the query they add to the URL), with curl's default headers. */
function dataBody(flags: CurlFlags, url: string, context: CurlContext): CurlBody {
  const { data, headers, removedHeaders } = flags;
  // One whole file sent as is: keep it a file reference rather than inlining it.
  const single =
    data.length === 1 &&
    (data[0].kind === 'binary' || data[0].kind === 'data' || data[0].kind === 'json') &&
    data[0].value.startsWith('@') &&
    data[0].value !== '@-' &&
    !flags.get;
  const joined = single ? '' : joinedData(data, context);
  if (flags.get)
    return { body: { kind: 'none' }, impliedMethod: 'GET', url: url + (url.includes('?') ? '&' : '?') + joined };
  const json = data.some((piece) => piece.kind === 'json');
  if (!hasHeader(headers, 'content-type') && !removedHeaders.has('content-type')) {
    headers.push(['Content-Type', json ? 'application/json' : 'application/x-www-form-urlencoded']);
  }
  if (json && !hasHeader(headers, 'accept') && !removedHeaders.has('accept'))
    headers.push(['Accept', 'application/json']);
  const body: HttpRequest['body'] = single
    ? { kind: 'file', path: data[0].value.slice(1) }
    : { kind: 'text', text: joined };
  return { body, impliedMethod: 'POST', url };
}

/** The body and implied method of the request: -F, else -d and friends, else -T, else none. */
function curlBody(flags: CurlFlags, url: string, context: CurlContext): CurlBody {
  if (flags.parts.length > 0) {
    if (flags.data.length > 0)
      context.warnings.push('-F and -d given together (curl refuses this); the -d data was not imported');
    return { body: { kind: 'multipart', parts: flags.parts }, impliedMethod: 'POST', url };
  }
  if (flags.data.length > 0) return dataBody(flags, url, context);
  const { uploadFile } = flags;
  if (uploadFile !== undefined) {
    if (uploadFile === '-' || uploadFile === '.')
      throw new DialError('E_IMPORT', `-T ${uploadFile}: uploading stdin cannot be imported`, {
        hint: 'save the data to a file and use -T file',
      });
    return {
      body: { kind: 'file', path: uploadFile },
      impliedMethod: 'PUT',
      url: url.endsWith('/') ? url + uploadFile.split(/[\\/]/).pop() : url,
    };
  }
  return { body: { kind: 'none' }, impliedMethod: 'GET', url };
}

/** `shell`: what splitting the pasted text found (shell variables and other expansions), for warnings. */
function parseCurlWords(input: string[], options: ParseCurlOptions, shell?: ShellCommand): ParsedCurl {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  assertCurlWords(input);
  const warnings = shellWarnings(shell);
  const context: CurlContext = {
    read: (path, flag) => readData(path, cwd, env, flag),
    warnings,
    escape: (text, shown) => escapeKeepingVariables(text, shown, warnings),
  };
  const flags = readCurlFlags(input.slice(1), context);
  let url = requestUrl(flags, warnings);
  warnRemovedHeaders(flags, warnings);
  addCredentialHeaders(flags, warnings);
  if (flags.urlQueries.length > 0) url += (url.includes('?') ? '&' : '?') + flags.urlQueries.join('&');
  const built = curlBody(flags, url, context);
  let impliedMethod = built.impliedMethod;
  if (flags.head) impliedMethod = 'HEAD';
  if (flags.get && !flags.head) impliedMethod = 'GET';

  const request: HttpRequest = {
    method: flags.method ?? impliedMethod,
    url: built.url,
    headers: flags.headers,
    body: built.body,
  };
  if (flags.httpVersion) request.httpVersion = flags.httpVersion;
  return {
    request,
    insecure: flags.insecure,
    followRedirects: flags.followRedirects,
    timeoutMs: flags.timeoutMs,
    retry: flags.retry,
    warnings,
  };
}
