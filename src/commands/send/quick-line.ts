/**
 * A `dial send` command line read without Commander when it is plainly valid: global flags
 * (before or after `send`), then the request's words, and send's flags spelt `--flag` or `-f` (a value as
 * the next word). Building the `send` command
 * (~45 options) and parsing with Commander costs ~5 M instructions a URL send can skip
 * (bench/HISTORY.md). Anything else — `--flag=value`, a value starting with `-`, help, `--`,
 * combined short flags, `--allow-node`, `--dialect` — answers undefined, and Commander reads the line
 * as always. What this answers is what Commander gives the action (the positional words, the
 * send command's opts() and the root's global flags): tests/commands/send-quick-line.property.test.ts
 * compares the two on generated command lines.
 */
import type { GlobalOptions } from '../globals.js';
import { commandIndex, defaultGlobals, setGlobalFlag } from '../quick-global.js';

/** `send`'s boolean flags, by the words that set them: the opts() key and its value. */
const SEND_FLAGS: Record<string, [string, boolean]> = {
  '-j': ['json', true],
  '--json': ['json', true],
  '-f': ['form', true],
  '--form': ['form', true],
  '--multipart': ['multipart', true],
  '--offline': ['offline', true],
  '--curl': ['curl', true],
  '--check-status': ['checkStatus', true],
  '-d': ['download', true],
  '--download': ['download', true],
  '-F': ['follow', true],
  '--follow': ['follow', true],
  '--no-follow': ['follow', false],
  '-k': ['insecure', true],
  '--insecure': ['insecure', true],
  '--http2': ['http2', true],
  '-I': ['ignoreStdin', true],
  '--ignore-stdin': ['ignoreStdin', true],
  '--no-deps': ['deps', false],
  '--no-mask': ['mask', false],
  '--no-scripts': ['scripts', false],
  '--no-cookie-jar': ['cookieJar', false],
};

/**
 * `send`'s flags that take a value (the next word, when it does not start with `-`), by the words
 * that set them: the opts() key. `--var` collects its values; `--dialect` is left to Commander
 * (its preAction hook applies it).
 */
const SEND_VALUE_FLAGS: Record<string, string> = {
  '-p': 'print',
  '--print': 'print',
  '-o': 'output',
  '--output': 'output',
  '--max-redirects': 'maxRedirects',
  '--verify': 'verify',
  '--timeout': 'timeout',
  '--cacert': 'cacert',
  '--cert': 'cert',
  '--key': 'key',
  '--proxy': 'proxy',
  '-a': 'auth',
  '--auth': 'auth',
  '-A': 'authType',
  '--auth-type': 'authType',
  '-e': 'env',
  '--env': 'env',
  '--var': 'var',
  '--cookie-jar': 'cookieJar',
  '--session': 'session',
  '--session-read-only': 'sessionReadOnly',
  '--name': 'name',
};

/** What Commander would hand the send action. */
export interface QuickSendLine {
  args: string[];
  flags: Record<string, unknown>;
  global: GlobalOptions;
}

/** The words after `node dial` (process.argv.slice(2)) as the send action would get them, or undefined. */
export function quickSendLine(words: readonly string[]): QuickSendLine | undefined {
  const global = defaultGlobals();
  const index = commandIndex(words, 'send', global);
  if (index === undefined) return undefined;
  // Commander's defaults: the negatable flags defined alone, and --var's empty list.
  const flags: Record<string, unknown> = { deps: true, mask: true, scripts: true, var: [] };
  const args: string[] = [];
  for (let at = index + 1; at < words.length; at++) {
    const word = words[at];
    if (!word.startsWith('-')) {
      args.push(word);
      continue;
    }
    if (Object.hasOwn(SEND_VALUE_FLAGS, word)) {
      const value = words[++at];
      if (value === undefined || value.startsWith('-')) return undefined;
      const key = SEND_VALUE_FLAGS[word];
      flags[key] = key === 'var' ? [...(flags.var as string[]), value] : value;
      continue;
    }
    const flag = Object.hasOwn(SEND_FLAGS, word) ? SEND_FLAGS[word] : undefined;
    if (flag) {
      flags[flag[0]] = flag[1];
      continue;
    }
    // A global flag after `send` (`dial send -v URL`) is the root's, as Commander reads it.
    if (!setGlobalFlag(global, word)) return undefined;
  }
  return args.length > 0 ? { args, flags, global } : undefined;
}
