// `dial run` without Commander (src/commands/run/quick-line.ts): for every command line it
// reads, Commander must hand the run action the same paths, flags and global flags.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Command } from 'commander';
import { buildProgram } from '../../src/program.js';
import { registerRun } from '../../src/commands/run/index.js';
import { globalOptions } from '../../src/commands/globals.js';
import { quickRunLine } from '../../src/commands/run/quick-line.js';

/** What Commander hands the run action for `dial WORDS…`, or 'refused' when it does not run it. */
async function commanderReading(words: string[]): Promise<unknown> {
  const argv = ['node', 'dial', ...words];
  const program = buildProgram(argv, registerRun);
  program.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  let seen: unknown = 'refused';
  const run = program.commands.find((command) => command.name() === 'run') as Command;
  run.exitOverride();
  run.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  // No action of dial's runs (the --dialect hook is Commander's; the quick line leaves --dialect to it).
  run.action((paths: string[], _flags: unknown, sub: Command) => {
    seen = { paths, flags: { ...sub.opts() }, global: globalOptions(sub) };
  });
  try {
    await program.parseAsync(argv);
  } catch {
    return 'refused';
  }
  return seen;
}

const runFlagWords = [
  '--bail',
  '--update-snapshots',
  '--watch',
  '--no-scripts',
  '--output-failed',
  '--no-follow',
  '-k',
  '--insecure',
  '--no-cookie-jar',
];
const valueFlagWords = [
  '-e',
  '--env',
  '--var',
  '--env-file',
  '--grep',
  '--name',
  '--tag',
  '--concurrency',
  '--retry',
  '--retry-delay',
  '--shard',
  '--reporter',
  '--timeout',
  '--cacert',
  '--cert',
  '--key',
  '--proxy',
  '--cookie-jar',
  '--dialect',
];
const globalWords = ['-v', '--verbose', '-q', '--quiet', '--no-color', '--allow-node'];
const otherWords = [
  'run',
  'send',
  'help',
  '--help',
  '-h',
  '--',
  '-',
  '-vq',
  '-kv',
  '--version',
  '--bail=1',
  '--no-bail',
  '--follow',
  '--scripts',
  '--reporter=json',
  '--concurrency=8',
  '-1',
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'kulala',
  '8',
  '0',
  'json:report.json',
  'pretty',
  'junit:out.xml',
  'a=1',
  '1/3',
  'api.http',
  'api.http:12',
  'api.http#login',
  'dir/',
  '',
];
const word = fc.oneof(
  fc.constantFrom(...runFlagWords),
  fc.constantFrom(...valueFlagWords),
  fc.constantFrom(...valueFlagWords),
  fc.constantFrom(...globalWords),
  fc.constantFrom(...otherWords),
  fc.constantFrom(...otherWords),
  fc.string({ maxLength: 6 }),
);
const line = fc.tuple(fc.array(fc.constantFrom(...globalWords), { maxLength: 3 }), fc.array(word, { maxLength: 8 }));

describe('a `dial run` command line read without Commander', () => {
  it('is read as Commander reads it, or left to Commander', async () => {
    let read = 0;
    await fc.assert(
      fc.asyncProperty(line, async ([globals, rest]) => {
        const words = [...globals, 'run', ...rest];
        const quick = quickRunLine(words);
        if (quick === undefined) return;
        read++;
        expect(await commanderReading(words)).toEqual(quick);
      }),
      { numRuns: 3000 },
    );
    // The generator reaches the quick reading often enough for the comparison to mean something.
    expect(read).toBeGreaterThan(300);
  });

  it('reads the plain lines itself', async () => {
    const lines = [
      ['run'],
      ['run', 'api.http'],
      ['run', 'seq.http', '--reporter', 'json:report.json', '--concurrency', '1'],
      ['-v', 'run', 'a.http', 'b.http', 'dir/', '--reporter', 'pretty', '--reporter', 'junit:out.xml'],
      ['--no-color', '-q', 'run', '-e', 'ci', '--var', 'a=1', '--var', 'b=2', '--tag', 'smoke', '--tag', 'slow'],
      ['run', '--bail', '--no-scripts', '--no-follow', '--output-failed', '--update-snapshots', '--watch', '-k'],
      ['run', '--env-file', '.env', '--grep', 'login', '--name', 'me', '--retry', '2', '--retry-delay', '1s'],
      ['run', '--shard', '1/3', '--timeout', '5s', '--cacert', 'ca.pem', '--cert', 'c.pem', '--key', 'k.pem'],
      ['run', '--proxy', 'http://p:3128', '--cookie-jar', 'jar.txt', '--no-cookie-jar', 'api.http:12'],
      ['run', 'api.http#login', '-v', '--no-color', '-q'],
      ['run', 'run', 'help'],
    ];
    for (const words of lines) {
      const quick = quickRunLine(words);
      expect(quick, words.join(' ')).toBeDefined();
      expect(await commanderReading(words)).toEqual(quick);
    }
    // Left to Commander: --flag=value, a value starting with -, a missing value, --dialect, help,
    // --version, `--`, combined short flags, --allow-node, another command.
    for (const words of [
      ['run', '--reporter=json', 'x'],
      ['run', '--retry', '-1'],
      ['run', 'x', '--reporter'],
      ['run', '--dialect', 'kulala', 'x'],
      ['run', '--help'],
      ['run', '-h'],
      ['run', '--version'],
      ['run', '--', '-x'],
      ['run', '-kv', 'x'],
      ['--allow-node', 'run', 'x'],
      ['run', '--allow-node', 'x'],
      ['run', '--unknown'],
      ['list', 'x'],
      ['-v'],
    ])
      expect(quickRunLine(words), words.join(' ')).toBeUndefined();
  });
});
