// `dial send` without Commander (src/commands/send/quick-line.ts): for every command line it
// reads, Commander must hand the send action the same words, flags and global flags.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Command } from 'commander';
import { buildProgram } from '../../src/program.js';
import { registerSend } from '../../src/commands/send/index.js';
import { globalOptions } from '../../src/commands/globals.js';
import { quickSendLine } from '../../src/commands/send/quick-line.js';

/** What Commander hands the send action for `dial WORDS…`, or 'refused' when it does not run it. */
async function commanderReading(words: string[]): Promise<unknown> {
  const argv = ['node', 'dial', ...words];
  const program = buildProgram(argv, registerSend);
  program.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  let seen: unknown = 'refused';
  const send = program.commands.find((command) => command.name() === 'send') as Command;
  send.exitOverride();
  send.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
  // No action of dial's runs: the preAction hooks are Commander's (flag-set hooks apply alike).
  send.action((args: string[], _flags: unknown, sub: Command) => {
    seen = { args, flags: { ...sub.opts() }, global: globalOptions(sub) };
  });
  try {
    await program.parseAsync(argv);
  } catch {
    return 'refused';
  }
  return seen;
}

const sendFlagWords = [
  '-j',
  '--json',
  '-f',
  '--form',
  '--multipart',
  '--offline',
  '--curl',
  '--check-status',
  '-d',
  '--download',
  '-F',
  '--follow',
  '--no-follow',
  '-k',
  '--insecure',
  '--http2',
  '-I',
  '--ignore-stdin',
  '--no-deps',
  '--no-mask',
  '--no-scripts',
  '--no-cookie-jar',
];
const valueFlagWords = [
  '-p',
  '--print',
  '-o',
  '--output',
  '--max-redirects',
  '--verify',
  '--timeout',
  '--cacert',
  '--cert',
  '--key',
  '--proxy',
  '-a',
  '--auth',
  '-A',
  '--auth-type',
  '-e',
  '--env',
  '--var',
  '--cookie-jar',
  '--session',
  '--session-read-only',
  '--name',
  '--dialect',
];
const globalWords = ['-v', '--verbose', '-q', '--quiet', '--no-color', '--allow-node'];
const otherWords = [
  'send',
  'help',
  '--help',
  '-h',
  '--',
  '-',
  '-vq',
  '-jf',
  '--timeout',
  '5s',
  '-o',
  'out.bin',
  '--var',
  'a=1',
  '--version',
  '--json=1',
  '--no-json',
  '--dialect',
  'kulala',
  '-1',
  'constructor',
  '__proto__',
  'toString',
  '--cookie-jar',
  'jar.txt',
  '-p',
  'hb',
  '--print=b',
  'GET',
  'http://127.0.0.1:1/x',
  ':3000/users',
  'a=1',
  'X-Token:abc',
  'q==1',
  'n:=2',
  'f@file',
  'api.http',
  '',
];
const word = fc.oneof(
  fc.constantFrom(...sendFlagWords),
  fc.constantFrom(...valueFlagWords),
  fc.constantFrom(...valueFlagWords),
  fc.constantFrom(...globalWords),
  fc.constantFrom(...otherWords),
  fc.string({ maxLength: 6 }),
);
const line = fc.tuple(fc.array(fc.constantFrom(...globalWords), { maxLength: 3 }), fc.array(word, { maxLength: 7 }));

describe('a `dial send` command line read without Commander', () => {
  it('is read as Commander reads it, or left to Commander', async () => {
    await fc.assert(
      fc.asyncProperty(line, async ([globals, rest]) => {
        const words = [...globals, 'send', ...rest];
        const quick = quickSendLine(words);
        if (quick === undefined) return;
        expect(await commanderReading(words)).toEqual(quick);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads the plain lines itself', async () => {
    const lines = [
      ['send', 'http://127.0.0.1:1/json'],
      ['-v', 'send', ':3000/users', 'name=Ann', 'age:=30'],
      ['--no-color', '-q', 'send', '--offline', '-F', 'PUT', 'example.com/x', 'X-Token:abc', 'q==1'],
      ['send', '--no-follow', '--follow', '--no-deps', '--no-cookie-jar', '-I', 'x'],
      ['send', '--json', '--no-mask', '--no-scripts', '--check-status', '-d', '--http2', '-k', '--curl', 'x'],
      ['send', '-o', 'out.bin', '--timeout', '5s', '--var', 'a=1', '--var', 'b=2', '-a', 'u:p', 'x', '-p', 'hb'],
      ['send', '-v', 'x', '--no-color', '-q'],
      ['send', '--cookie-jar', 'jar.txt', '--no-cookie-jar', '--session', 's', '--name', 'n', 'api.http'],
    ];
    for (const words of lines) {
      const quick = quickSendLine(words);
      expect(quick, words.join(' ')).toBeDefined();
      expect(await commanderReading(words)).toEqual(quick);
    }
    // Left to Commander: --flag=value, a value starting with -, a missing value, --dialect, help, `--`, combined short flags, no request.
    for (const words of [
      ['send', '--timeout=5s', 'x'],
      ['send', '--timeout', '-5s', 'x'],
      ['send', 'x', '-o'],
      ['send', '--dialect', 'kulala', 'x'],
      ['send', '--help'],
      ['send', '--', '-x'],
      ['send', '-jf', 'x'],
      ['send'],
      ['--allow-node', 'send', 'x'],
      ['list', 'x'],
    ])
      expect(quickSendLine(words), words.join(' ')).toBeUndefined();
  });
});
