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
import { splitCommands, splitShellWords } from '../curl/shell-words.js';

export interface CurlRequest {
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body?: { kind: 'inline'; text: string } | { kind: 'file'; path: string };
}

/**
 * `versionWord`: an `HTTP/1.1` (or `HTTP/2`…) word written after the URL, as on a request line.
 * REST Client takes the first word after `curl` as the URL and drops the rest, so it sends the
 * request; curl would try the word as a second URL and fail there. dial sends the request as REST
 * Client does and warns at the word.
 */
export type CurlRequestResult = { request: CurlRequest; versionWord?: string } | { problem: string; hint: string };

/** `HTTP/1.1`, `HTTP/2`: a request line's version, never a URL anyone means. */
const VERSION_WORD = /^HTTP\/\d(?:\.\d)?$/i;

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
  /** The name REST Client's argument parser (yargs-parser) files it under: the letter or the long name. */
  key: string;
  shown: string;
  value?: string;
  /** Given in a bundle of short options (`-sIL`). */
  bundled?: boolean;
  /** `-L URL`: REST Client's parser took the URL as this switch's value. */
  ate?: boolean;
}

/** REST Client's yargs-parser reads a word after any option that takes no value as that option's value. */
const SWITCH_EATS_URL = new Set(['silent', 'show-error', 'verbose', 'include']);
/** …and takes the URL back from these three (curlRequestParser: `L || location || compressed || url`). */
const URL_RESCUED = new Set(['location', 'compressed']);
const RESCUE_ORDER = ['L', 'location', 'compressed'];
/** `-XPOST`: REST Client puts a space after `-X` for these methods only. */
const BUNDLED_METHOD =
  /^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT|TRACE|LOCK|UNLOCK|PROPFIND|PROPPATCH|COPY|MOVE|MKCOL|MKCALENDAR|ACL|SEARCH)/;
/** yargs-parser's number test: such a value is read as a number (`1.50` → 1.5). */
const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;

/**
 * The options of the words after `curl` (a bundle such as -sSL gives one per letter) and the other
 * words (the URL) into `positional`; a problem text for an option REST Client does not read, or
 * reads otherwise than curl (its argument parser is yargs-parser, not curl's).
 */
function readOptions(words: string[], positional: string[]): Option[] | string {
  const options: Option[] = [];
  const isWord = (word: string | undefined) => word !== undefined && !(word.startsWith('-') && word.length > 1);
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word.startsWith('--') && word.length > 2) {
      const eq = word.indexOf('=');
      const long = eq > 0 ? word.slice(2, eq) : word.slice(2);
      if (!VALUE_OPTIONS.has(long) && !HARMLESS_SWITCHES.has(long)) return `curl option \`${word}\``;
      if (!VALUE_OPTIONS.has(long)) {
        if (SWITCH_EATS_URL.has(long) && isWord(words[i + 1]))
          return `\`${word} ${words[i + 1]}\` (REST Client reads the word after \`${word}\` as its value, so it finds no URL there)`;
        options.push({
          long,
          key: long,
          shown: word,
          ...(URL_RESCUED.has(long) && isWord(words[i + 1]) ? { ate: true } : {}),
        });
      } else if (eq > 0) options.push({ long, key: long, shown: `--${long}`, value: word.slice(eq + 1) });
      else if (i + 1 < words.length) {
        if (!isWord(words[i + 1]) && !NUMBER.test(words[i + 1]))
          return `\`${word} ${words[i + 1]}\` (REST Client reads \`${words[i + 1]}\` as an option, not as the value)`;
        options.push({ long, key: long, shown: word, value: words[++i] });
      } else return `\`${word}\` without a value`;
    } else if (word.startsWith('-') && word.length > 1) {
      const bundled = word.length > 2;
      for (let j = 1; j < word.length; j++) {
        const letter = word[j];
        const long = SHORT[letter];
        if (!long) return `curl option \`-${letter}\``;
        if (!VALUE_OPTIONS.has(long)) {
          // REST Client turns a lone `-I` into `-X HEAD`; in a bundle (`-sIL`) it sends GET, curl HEAD.
          if (long === 'head' && bundled)
            return `\`${word}\` (REST Client reads \`-I\` in a bundle as nothing and sends GET; curl sends HEAD)`;
          const last = j === word.length - 1;
          if (last && SWITCH_EATS_URL.has(long) && isWord(words[i + 1]))
            return `\`${word} ${words[i + 1]}\` (REST Client reads the word after \`-${letter}\` as its value, so it finds no URL there)`;
          const ate = last && URL_RESCUED.has(long) && isWord(words[i + 1]);
          options.push({
            long,
            key: letter,
            shown: `-${letter}`,
            ...(bundled ? { bundled } : {}),
            ...(ate ? { ate } : {}),
          });
          continue;
        }
        let value: string | undefined;
        if (j + 1 < word.length) {
          // yargs-parser takes the rest of a bundle as the value only after `=` or a non-letter, or
          // when it is a number; REST Client itself splits `-XPOST`.
          const rest = word.slice(j + 1);
          if (rest.startsWith('=')) value = rest.slice(1);
          else if (/^\W/.test(rest) || NUMBER.test(rest) || (letter === 'X' && BUNDLED_METHOD.test(rest))) value = rest;
          else return `\`${word}\` (REST Client reads the letters after \`-${letter}\` as more options)`;
        } else {
          value = words[i + 1];
          if (value !== undefined && !isWord(value) && !NUMBER.test(value))
            return `\`-${letter} ${value}\` (REST Client reads \`${value}\` as an option, not as the value)`;
          i++;
        }
        if (value === undefined) return `\`-${letter}\` without a value`;
        options.push({ long, key: letter, shown: `-${letter}`, value });
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
  if (option.long === 'header' && !value.includes(':'))
    return `\`${option.shown} '${value}'\`, a header without a colon (curl leaves it out, REST Client sends it empty)`;
  if (option.long === 'cookie' && !value.includes('=')) return `\`${option.shown} ${value}\`: a cookie file`;
  if (DATA_OPTIONS.has(option.long) && value.startsWith('@')) {
    if (option.long === 'data-raw') return `\`${option.shown} ${value}\` (curl sends the text, REST Client the file)`;
    if (value === '@-') return `\`${option.shown} @-\`: data from standard input`;
    if (dataCount > 1) return `\`${option.shown} ${value}\` together with other data`;
  }
  return undefined;
}

/**
 * Options REST Client reads under one name only (`-d` or else `--data`…, `-H` or else `--header`):
 * given under two, or given twice where it keeps one, it drops some of them while curl sends all.
 */
function mixProblem(options: Option[]): string | undefined {
  const keysOf = (longs: string[]) => [
    ...new Set(options.filter((option) => longs.includes(option.long)).map((option) => option.shown)),
  ];
  const groups: Array<[string[], boolean]> = [
    [['data', 'data-ascii', 'data-binary', 'data-raw'], true],
    [['header'], true],
    [['request', 'head'], false],
    [['user'], false],
    [['cookie'], false],
    [['url'], false],
  ];
  for (const [longs, repeatable] of groups) {
    const shown = keysOf(longs);
    if (shown.length > 1)
      return `\`${shown[0]}\` together with \`${shown[1]}\` (REST Client reads only one of them, curl both)`;
    const count = options.filter((option) => longs.includes(option.long)).length;
    if (!repeatable && count > 1) return `\`${shown[0]}\` given twice (REST Client cannot read it twice)`;
  }
  const headerNames = new Map<string, string>();
  for (const option of options)
    if (option.long === 'header') {
      const name = (option.value ?? '').split(':')[0].trim();
      if (!headerNames.has(name.toLowerCase())) headerNames.set(name.toLowerCase(), name);
    }
  // `-u` and `-b` set `Authorization` / `Cookie` under that spelling: over a header spelled alike, beside one spelled otherwise.
  for (const [long, name] of [
    ['user', 'Authorization'],
    ['cookie', 'Cookie'],
  ]) {
    const written = headerNames.get(name.toLowerCase());
    const option = options.find((o) => o.long === long);
    if (option && written !== undefined && written !== name)
      return `\`${option.shown}\` together with a \`${written}\` header (REST Client sends both, curl one)`;
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
  // `-L --compressed URL`: the URL is --compressed's value, but REST Client asks -L first (true).
  const eater = options.find((option) => option.ate);
  if (eater) {
    const first = RESCUE_ORDER.map((key) => options.find((option) => option.key === key)).find(Boolean);
    if (first !== eater)
      return {
        problem: restore(
          `\`${eater.shown}\` right before the URL with \`${first!.shown}\` before it is not supported in a cURL request (REST Client takes the URL as the value of \`${eater.shown}\` and then reads \`${first!.shown}\` as the URL)`,
        ),
        hint: 'write the URL right after `curl`',
      };
  }
  const mixed = mixProblem(options);
  if (mixed) return { problem: restore(`${mixed} is not supported in a cURL request`), hint: HINT_READ };
  if (/^curl(\.exe)?$/i.test(positional[0] ?? ''))
    return {
      problem: restore(
        `\`${positional[0]}\` written twice at the start of the curl command: REST Client takes the second as the URL and cannot send it`,
      ),
      hint: 'write `curl` once, then the URL',
    };
  const versionWord = positional.length === 2 && VERSION_WORD.test(positional[1]) ? positional.pop() : undefined;
  if (positional.length > 1)
    return {
      problem: restore(
        `\`${positional[1]}\`: a second URL in the curl command is not supported in a cURL request (REST Client sends the first only, curl both)`,
      ),
      hint: 'keep one URL per cURL request',
    };
  try {
    const request = buildRequest(positional, options, restore);
    return versionWord === undefined ? { request } : { request, versionWord };
  } catch (error) {
    // The import parser's own complaints (no URL, a header without a colon): its message, its hint.
    const hint = (error as { hint?: string }).hint ?? 'check the curl command';
    return { problem: restore(`cURL request: ${(error as Error).message}`), hint };
  }
}

/** REST Client turns every run of white space in the command into one space before reading it, inside quotes too. */
function collapse(text: string): string {
  return text.replace(/\s{2,}/g, ' ');
}

/**
 * The request from the options, as REST Client's curlRequestParser builds it: headers in order,
 * a name given twice joined into one header (`,`, for Cookie `;`) under its first spelling; `-b`
 * and `-u` set Cookie and Authorization; the data of several `-d` joined with `&` (a value
 * yargs-parser reads as a number sent as that number); an empty body is none (`-d ''` is a GET);
 * a body without a Content-Type gets the form type; no `-X`: POST with a body, else GET.
 */
function buildRequest(positional: string[], options: Option[], restore: (value: string) => string): CurlRequest {
  const headers: Array<[string, string]> = [];
  const index = new Map<string, number>();
  const setHeader = (name: string, value: string, join?: string) => {
    const key = name.toLowerCase();
    const at = index.get(key);
    if (at === undefined) {
      index.set(key, headers.length);
      headers.push([name, value]);
    } else if (join === undefined) headers[at] = [headers[at][0], value];
    else headers[at] = [headers[at][0], `${headers[at][1]}${join}${value}`];
  };
  for (const option of options) {
    if (option.long !== 'header') continue;
    const value = collapse(option.value ?? '');
    const colon = value.indexOf(':');
    const name = restore(value.slice(0, colon).trim());
    setHeader(name, restore(value.slice(colon + 1).trim()), name.toLowerCase() === 'cookie' ? ';' : ',');
  }
  const cookie = options.find((option) => option.long === 'cookie')?.value;
  if (cookie !== undefined) setHeader('Cookie', restore(cookie));
  const user = options.find((option) => option.long === 'user')?.value;
  if (user !== undefined) {
    const restored = restore(user);
    // With a variable in it, dial's `Basic user:password` convention encodes it after substitution.
    setHeader(
      'Authorization',
      restored === user ? `Basic ${Buffer.from(user, 'utf8').toString('base64')}` : `Basic ${restored}`,
    );
  }
  const data = options
    .filter((option) => DATA_OPTIONS.has(option.long))
    .map((option) => {
      const value = collapse(option.value ?? '');
      return NUMBER.test(value) && !/^-?0\d/.test(value) ? String(Number(value)) : value;
    });
  const text = data.join('&');
  let body: CurlRequest['body'];
  if (text.startsWith('@')) body = { kind: 'file', path: restore(text.slice(1)) };
  else if (text !== '') body = { kind: 'inline', text: restore(text) };
  if (body && !index.has('content-type')) setHeader('Content-Type', 'application/x-www-form-urlencoded');
  const explicit = options.find((option) => option.long === 'request');
  const method = explicit?.value ?? (options.some((option) => option.long === 'head') ? 'HEAD' : body ? 'POST' : 'GET');
  // The URL as written: without a scheme dial adds http:// when sending, as for any request line.
  const url = positional[0] ?? options.find((option) => option.long === 'url')?.value;
  if (url === undefined) throw Object.assign(new Error('no URL in the curl command'), { hint: 'add the URL' });
  const request: CurlRequest = { method: restore(method), url: restore(url), headers };
  if (body) request.body = body;
  return request;
}
