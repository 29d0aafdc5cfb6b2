/**
 * REST Client's cURL requests: a request block whose request line is a `curl …` command. REST
 * Client substitutes `{{variables}}` in the text first, then reads only these curl options:
 * -X/--request, -H/--header, -d/--data/--data-ascii/--data-binary/--data-raw (several joined by
 * `&`, `@file` sent as the file), -u/--user (Basic only), -b/--cookie (a `name=value` string),
 * -I/--head and the URL (also after -L/--location, --url or --compressed). Every other option it
 * drops without a word, although curl would act on it; dial refuses those instead, except the
 * ones that only change what curl prints (-s, -S, -v, -i) and the ones dial does anyway
 * (-L: redirects are followed; --compressed: answers are decompressed).
 *
 * dial keeps `{{…}}` in place while it splits the words (they are substituted at send time, as in
 * any request), which gives REST Client's result whenever a value does not itself hold spaces or
 * quotes. The words are then read by `dial import curl`'s parser.
 */
import { parseCurlCommand } from '../curl/curl.js';
import { splitCommands, splitShellWords } from '../curl/shell-words.js';

export interface CurlRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body?: { kind: 'inline'; text: string } | { kind: 'file'; path: string };
}

export type CurlRequestResult = { request: CurlRequest } | { problem: string; hint: string };

// REST Client's options, by long name; the short letters below map to them.
const VALUE_OPTIONS = new Set([
  'request',
  'header',
  'data',
  'data-ascii',
  'data-binary',
  'data-raw',
  'user',
  'cookie',
  'url',
]);
const DATA_OPTIONS = new Set(['data', 'data-ascii', 'data-binary', 'data-raw']);
/** Switches that do not change what is sent (or that dial does anyway). */
const HARMLESS_SWITCHES = new Set(['head', 'location', 'compressed', 'silent', 'show-error', 'verbose', 'include']);
const SHORT: Record<string, string> = {
  X: 'request',
  H: 'header',
  d: 'data',
  u: 'user',
  b: 'cookie',
  I: 'head',
  L: 'location',
  s: 'silent',
  S: 'show-error',
  v: 'verbose',
  i: 'include',
};
const HINT_OTHER =
  'REST Client ignores this option (curl does not): remove it, or write the request as `METHOD url` with headers and body';

const HINT_READ =
  'write the value itself in the command (REST Client and curl read it differently), or write the request as `METHOD url` with headers and body';

/** The `{{…}}` spans, replaced by markers without spaces or quotes so the shell split keeps them whole. */
function maskPlaceholders(text: string): { masked: string; restore: (value: string) => string } {
  const held: string[] = [];
  const masked = text.replace(/\{\{[^{}\n]*\}\}/g, (placeholder) => `\u0001${held.push(placeholder) - 1}\u0001`);
  return { masked, restore: (value) => value.replace(/\u0001(\d+)\u0001/g, (_, n: string) => held[Number(n)]) };
}

interface Option {
  long: string;
  shown: string;
  value?: string;
}

/**
 * The options of the words after `curl` (a bundle such as -sSL gives one per letter) and the other
 * words (the URL) into `positional`; a problem text for an option REST Client does not read.
 */
function readOptions(words: string[], positional: string[]): Option[] | string {
  const options: Option[] = [];
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word.startsWith('--') && word.length > 2) {
      const eq = word.indexOf('=');
      const long = eq > 0 ? word.slice(2, eq) : word.slice(2);
      if (!VALUE_OPTIONS.has(long) && !HARMLESS_SWITCHES.has(long)) return `curl option \`${word}\``;
      if (!VALUE_OPTIONS.has(long)) options.push({ long, shown: word });
      else if (eq > 0) options.push({ long, shown: `--${long}`, value: word.slice(eq + 1) });
      else if (i + 1 < words.length) options.push({ long, shown: word, value: words[++i] });
      else return `\`${word}\` without a value`;
    } else if (word.startsWith('-') && word.length > 1) {
      for (let j = 1; j < word.length; j++) {
        const long = SHORT[word[j]];
        if (!long) return `curl option \`-${word[j]}\``;
        if (!VALUE_OPTIONS.has(long)) {
          options.push({ long, shown: `-${word[j]}` });
          continue;
        }
        const value = j + 1 < word.length ? word.slice(j + 1) : words[++i];
        if (value === undefined) return `\`-${word[j]}\` without a value`;
        options.push({ long, shown: `-${word[j]}`, value });
        break;
      }
    } else positional.push(word);
  }
  return options;
}

/** What REST Client reads differently from curl, or not at all, among the options it knows. */
function optionProblem(option: Option, dataCount: number): string | undefined {
  const value = option.value ?? '';
  if (option.long === 'header' && value.startsWith('@')) return `\`${option.shown} ${value}\`: headers from a file`;
  if (option.long === 'header' && /^[^:]*:\s*$/.test(value))
    return `\`${option.shown} '${value}'\` (curl leaves the header out, REST Client sends it empty)`;
  if (option.long === 'cookie' && !value.includes('=')) return `\`${option.shown} ${value}\`: a cookie file`;
  if (DATA_OPTIONS.has(option.long) && value.startsWith('@')) {
    if (option.long === 'data-raw') return `\`${option.shown} ${value}\` (curl sends the text, REST Client the file)`;
    if (value === '@-') return `\`${option.shown} @-\`: data from standard input`;
    if (dataCount > 1) return `\`${option.shown} ${value}\` together with other data`;
  }
  return undefined;
}

/**
 * The request a REST Client cURL command stands for (`text`: the command, `\` line continuations
 * already joined), or what makes dial refuse it.
 */
export function curlRequestOf(text: string): CurlRequestResult {
  const { masked, restore } = maskPlaceholders(text);
  let commands;
  try {
    commands = splitCommands(splitShellWords(masked));
  } catch (error) {
    return { problem: `the curl command cannot be read: ${(error as Error).message}`, hint: 'check its quotes' };
  }
  if (commands.length !== 1)
    return { problem: 'more than one command on the curl line', hint: 'keep one curl command per request' };
  const [command] = commands;
  if (command.variables.length > 0 || command.kept.length > 0) {
    const what = command.variables.map((name) => `$${name}`).concat(command.kept)[0];
    return {
      problem: `\`${what}\` in the curl command: REST Client sends it as written, a shell would expand it`,
      hint: 'use a {{variable}} instead, or put the text in single quotes',
    };
  }
  const positional: string[] = [];
  const options = readOptions(command.words, positional);
  if (typeof options === 'string')
    return { problem: restore(`${options} is not supported in a cURL request`), hint: HINT_OTHER };
  const dataCount = options.filter((option) => DATA_OPTIONS.has(option.long)).length;
  for (const option of options) {
    const problem = optionProblem(option, dataCount);
    if (problem) return { problem: restore(`${problem} is not supported in a cURL request`), hint: HINT_READ };
  }
  try {
    return { request: buildRequest(positional, options, restore) };
  } catch (error) {
    // The import parser's own complaints (no URL, a header without a colon): its message, its hint.
    const hint = (error as { hint?: string }).hint ?? 'check the curl command';
    return { problem: restore(`cURL request: ${(error as Error).message}`), hint };
  }
}

/** The request from the options; -u is done here as REST Client does it (base64 of the value as written). */
function buildRequest(positional: string[], options: Option[], restore: (value: string) => string): CurlRequest {
  const words = ['curl', ...positional];
  for (const option of options) {
    if (option.long === 'user') continue;
    words.push(`--${option.long}`);
    if (option.value !== undefined) words.push(option.value);
  }
  const parsed = parseCurlCommand(words).request;
  const headers: Array<[string, string]> = parsed.headers.map(([name, value]) => [restore(name), restore(value)]);
  const user = options.filter((option) => option.long === 'user').at(-1)?.value;
  if (user !== undefined) {
    const restored = restore(user);
    // With a variable in it, dial's `Basic user:password` convention encodes it after substitution.
    headers.push([
      'Authorization',
      restored === user ? `Basic ${Buffer.from(user, 'utf8').toString('base64')}` : `Basic ${restored}`,
    ]);
  }
  // The URL as written: without a scheme dial adds http:// when sending, as for any request line.
  const url = positional[0] ?? options.find((option) => option.long === 'url')?.value ?? parsed.url;
  const request: CurlRequest = { method: restore(parsed.method), url: restore(url), headers };
  if (parsed.body.kind === 'text') request.body = { kind: 'inline', text: restore(parsed.body.text) };
  else if (parsed.body.kind === 'file') request.body = { kind: 'file', path: restore(parsed.body.path) };
  return request;
}
