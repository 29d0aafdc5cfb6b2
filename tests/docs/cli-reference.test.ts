// docs/cli.md is the CLI reference: every flag of the program (walked from the Commander tree
// that src/program.ts builds) must be in its command's section, and the exit codes in the docs,
// the README and `dial --help` must be the code's (src/core/errors.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/program.js';
import { registerCommands } from '../../src/commands/index.js';
import { commandExamples } from '../../src/commands/root-help.js';
import { closestName } from '../../src/commands/suggest.js';
import { ExitCode, errorCatalogue, exitCodeMeanings } from '../../src/core/errors.js';
import { runCli } from '../helpers/cli.js';

const root = join(import.meta.dirname, '../..');
const cliDoc = readFileSync(join(root, 'docs/cli.md'), 'utf8');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The text of `## heading` up to the next `## ` heading (its `###` subsections included). */
function section(markdown: string, heading: string): string | undefined {
  const lines = markdown.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** Every command that has flags or an action of its own: [`dial send`, command]… */
function commandsOf(command: Command, path: string[] = []): [string, Command][] {
  const name = [...path, command.name()];
  const own: [string, Command][] =
    command.commands.length === 0 || command.options.length > 0 || path.length === 0 ? [[name.join(' '), command]] : [];
  return [...own, ...command.commands.filter((sub) => sub.name() !== 'help').flatMap((sub) => commandsOf(sub, name))];
}

/** The flags a user can type for a command: each option's short and long form (and --help for `dial`, which documents it for all). */
function flagsOf(command: Command): string[] {
  const flags = command.options.flatMap((option) =>
    [option.short, option.long].filter((flag): flag is string => Boolean(flag)),
  );
  return command.parent === null ? [...flags, '-h', '--help'] : flags;
}

/** The rows of the first Markdown table under a heading, cells trimmed and backticks dropped. */
function tableRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('|') && !/^\|\s*-/.test(line))
    .slice(1)
    .map((line) =>
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim().replaceAll('`', '')),
    );
}

const program = buildProgram(['node', 'dial'], registerCommands);
const commands = commandsOf(program);

describe('docs/cli.md', () => {
  it('walks the whole command tree (every command registered)', () => {
    expect(commands.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'dial',
        'dial send',
        'dial run',
        'dial report merge',
        'dial config set',
        'dial echo',
        'dial completion',
      ]),
    );
    expect(commands.length).toBeGreaterThanOrEqual(20);
  });

  it.each(commands)('documents %s and every one of its flags', (name, command) => {
    const text = section(cliDoc, name);
    expect(text, `docs/cli.md has no "## ${name}" section`).toBeDefined();
    const missing = flagsOf(command).filter((flag) => !new RegExp(`(^|[^\\w-])${flag}(?![\\w-])`).test(text!));
    expect(missing, `flags of \`${name}\` missing from its section of docs/cli.md`).toEqual([]);
  });

  it('has the exit-code table of src/core/errors.ts (codes, names, meanings)', () => {
    const rows = tableRows(
      section(cliDoc, 'Exit codes')!
        .split('\n\n')
        .find((block) => block.includes('| code |'))!,
    );
    const fromCode = Object.entries(ExitCode).map(([name, code]) => [String(code), name, exitCodeMeanings[code]]);
    expect(rows).toEqual(fromCode);
  });

  it('lists every error code with its exit code', () => {
    const rows = tableRows(
      section(cliDoc, 'Exit codes')!
        .split('\n\n')
        .find((block) => block.includes('| error code |'))!,
    );
    const documented = Object.fromEntries(
      rows.flatMap(([codes, exit]) => codes.split(',').map((code) => [code.trim(), Number(exit)])),
    );
    expect(documented).toEqual({ ...errorCatalogue });
  });
});

describe('one exit-code table', () => {
  it('README.md shows the same codes and meanings', () => {
    const rows = tableRows(section(readme, 'Exit codes')!);
    expect(rows).toEqual(Object.entries(exitCodeMeanings).map(([code, meaning]) => [code, meaning]));
  });

  it('`dial --help` prints them, and one example per command', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const [code, meaning] of Object.entries(exitCodeMeanings))
      expect(help.stdout).toMatch(new RegExp(`^ +${code}  ${meaning.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
    const exampled = new Set(commandExamples.map(([example]) => example.split(' ')[1]));
    expect([...exampled].sort()).toEqual(
      program.commands
        .map((command) => command.name())
        .filter((name) => name !== 'help')
        .sort(),
    );
    for (const [example] of commandExamples) expect(help.stdout).toContain(example);
  });
});

describe('did you mean', () => {
  it('picks the closest name, and nothing for a word far from all', () => {
    expect(closestName('sned', ['send', 'run', 'open'])).toBe('send');
    expect(closestName('histroy', ['history', 'list'])).toBe('history');
    expect(closestName('conf', ['config', 'completion'])).toBe('config');
    expect(closestName('fetch', ['send', 'run', 'open', 'list'])).toBeUndefined();
  });

  it('suggests the closest command or subcommand (exit 2), and Commander the closest flag', async () => {
    const command = await runCli(['sned', ':4010/get']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("error[E_USAGE]: unknown command 'sned'");
    expect(command.stderr).toContain('did you mean `dial send`?');
    const subcommand = await runCli(['config', 'lst']);
    expect(subcommand.code).toBe(2);
    expect(subcommand.stderr).toContain('did you mean `dial config list`?');
    const flag = await runCli(['send', '--chek-status', 'http://127.0.0.1:1/']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('(Did you mean --check-status?)');
  });
});
