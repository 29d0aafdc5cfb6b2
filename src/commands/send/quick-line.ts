/**
 * A `dial send` command line read without Commander when it is plainly valid: global flags
 * before `send`, then the request's words and boolean flags only. Building the `send` command
 * (~45 options) and parsing with Commander costs ~5 M instructions a URL send can skip
 * (docs/performance.md). Anything else — a flag taking a value, help, `--`, a combined short
 * flag, a word Commander might read otherwise — answers undefined, and Commander reads the line
 * as always. What this answers is what Commander gives the action (the positional words, the
 * send command's opts() and the root's global flags): tests/commands/send-quick-line.property.test.ts
 * compares the two on generated command lines.
 */
import type { GlobalOptions } from '../globals.js';

/** Global flags (the root program's), by the words that set them. */
const GLOBAL_FLAGS: Record<string, [keyof GlobalOptions, boolean]> = {
  '-v': ['verbose', true],
  '--verbose': ['verbose', true],
  '-q': ['quiet', true],
  '--quiet': ['quiet', true],
  '--no-color': ['color', false],
};

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

/** What Commander would hand the send action. */
export interface QuickSendLine {
  args: string[];
  flags: Record<string, unknown>;
  global: GlobalOptions;
}

/** The words after `node dial` (process.argv.slice(2)) as the send action would get them, or undefined. */
export function quickSendLine(words: readonly string[]): QuickSendLine | undefined {
  const global: GlobalOptions = { color: true, quiet: false, verbose: false };
  let index = 0;
  for (; index < words.length && words[index] !== 'send'; index++) {
    const flag = Object.hasOwn(GLOBAL_FLAGS, words[index]) ? GLOBAL_FLAGS[words[index]] : undefined;
    if (!flag) return undefined;
    global[flag[0]] = flag[1];
  }
  if (index === words.length) return undefined;
  // Commander's defaults: the negatable flags defined alone, and --var's empty list.
  const flags: Record<string, unknown> = { deps: true, mask: true, scripts: true, var: [] };
  const args: string[] = [];
  for (const word of words.slice(index + 1)) {
    if (!word.startsWith('-')) {
      args.push(word);
      continue;
    }
    const flag = Object.hasOwn(SEND_FLAGS, word) ? SEND_FLAGS[word] : undefined;
    if (!flag) return undefined;
    flags[flag[0]] = flag[1];
  }
  return args.length > 0 ? { args, flags, global } : undefined;
}
