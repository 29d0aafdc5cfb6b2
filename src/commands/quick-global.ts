/**
 * The root program's global flags as the quick command-line readers of `send` and `run`
 * (send/quick-line.ts, run/quick-line.ts) read them without Commander.
 */
import type { GlobalOptions } from './globals.js';

/** Global flags (the root program's), by the words that set them. */
const GLOBAL_FLAGS: Record<string, [keyof GlobalOptions, boolean]> = {
  '-v': ['verbose', true],
  '--verbose': ['verbose', true],
  '-q': ['quiet', true],
  '--quiet': ['quiet', true],
  '--no-color': ['color', false],
};

/** Commander's defaults for the global flags. */
export function defaultGlobals(): GlobalOptions {
  return { color: true, quiet: false, verbose: false };
}

/** Sets the global flag `word` names in `global`; false when `word` is none (the quick reader then gives up). */
export function setGlobalFlag(global: GlobalOptions, word: string): boolean {
  const flag = Object.hasOwn(GLOBAL_FLAGS, word) ? GLOBAL_FLAGS[word] : undefined;
  if (!flag) return false;
  global[flag[0]] = flag[1];
  return true;
}

/** The index of `command` in `words` when only global flags stand before it, else undefined. */
export function commandIndex(words: readonly string[], command: string, global: GlobalOptions): number | undefined {
  for (let index = 0; index < words.length; index++) {
    if (words[index] === command) return index;
    if (!setGlobalFlag(global, words[index])) return undefined;
  }
  return undefined;
}
