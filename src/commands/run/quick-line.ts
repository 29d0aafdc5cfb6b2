/**
 * A `dial run` command line read without Commander when it is plainly valid: global flags (before
 * or after `run`), then paths and run's flags spelt `--flag` or `-f` (a value as the next word).
 * Building the `run` command (~30 options) and parsing with Commander is work a run can skip
 * (bench/HISTORY.md). Anything else — `--flag=value`, a value starting with `-`, help, `--`,
 * combined short flags, `--allow-node`, `--dialect`, `--version` — answers undefined, and
 * Commander reads the line as always. What this answers is what Commander gives the action (the
 * paths, the run command's opts() and the root's global flags):
 * tests/commands/run-quick-line.property.test.ts compares the two on generated command lines.
 */
import type { GlobalOptions } from '../globals.js';
import { commandIndex, defaultGlobals, setGlobalFlag } from '../quick-global.js';

/** `run`'s boolean flags, by the words that set them: the opts() key and its value. */
const RUN_FLAGS: Record<string, [string, boolean]> = {
  '--bail': ['bail', true],
  '--update-snapshots': ['updateSnapshots', true],
  '--watch': ['watch', true],
  '--no-scripts': ['scripts', false],
  '--output-failed': ['outputFailed', true],
  '--no-follow': ['follow', false],
  '-k': ['insecure', true],
  '--insecure': ['insecure', true],
  '--no-cookie-jar': ['cookieJar', false],
};

/** `run`'s flags that take a value (the next word, when it does not start with `-`): the opts() key. */
const RUN_VALUE_FLAGS: Record<string, string> = {
  '-e': 'env',
  '--env': 'env',
  '--var': 'var',
  '--env-file': 'envFile',
  '--grep': 'grep',
  '--name': 'name',
  '--tag': 'tag',
  '--concurrency': 'concurrency',
  '--retry': 'retry',
  '--retry-delay': 'retryDelay',
  '--shard': 'shard',
  '--reporter': 'reporter',
  '--timeout': 'timeout',
  '--cacert': 'cacert',
  '--cert': 'cert',
  '--key': 'key',
  '--proxy': 'proxy',
  '--cookie-jar': 'cookieJar',
};

/** The repeatable flags: each value is added to a list (Commander's `collect`, default []). */
const COLLECTED = new Set(['var', 'tag', 'reporter']);

/** What Commander would hand the run action. */
export interface QuickRunLine {
  paths: string[];
  flags: Record<string, unknown>;
  global: GlobalOptions;
}

/** The words after `node dial` (process.argv.slice(2)) as the run action would get them, or undefined. */
export function quickRunLine(words: readonly string[]): QuickRunLine | undefined {
  const global = defaultGlobals();
  const index = commandIndex(words, 'run', global);
  if (index === undefined) return undefined;
  // Commander's defaults: the negatable flags defined alone, --retry-delay's, and the empty lists.
  const flags: Record<string, unknown> = {
    var: [],
    tag: [],
    retryDelay: '0',
    reporter: [],
    scripts: true,
    follow: true,
  };
  const paths: string[] = [];
  for (let at = index + 1; at < words.length; at++) {
    const word = words[at];
    if (!word.startsWith('-')) {
      paths.push(word);
      continue;
    }
    if (Object.hasOwn(RUN_VALUE_FLAGS, word)) {
      const value = words[++at];
      if (value === undefined || value.startsWith('-')) return undefined;
      const key = RUN_VALUE_FLAGS[word];
      flags[key] = COLLECTED.has(key) ? [...(flags[key] as string[]), value] : value;
      continue;
    }
    const flag = Object.hasOwn(RUN_FLAGS, word) ? RUN_FLAGS[word] : undefined;
    if (flag) {
      flags[flag[0]] = flag[1];
      continue;
    }
    // A global flag after `run` (`dial run -v api.http`) is the root's, as Commander reads it.
    if (!setGlobalFlag(global, word)) return undefined;
  }
  return { paths, flags, global };
}
