/** "Did you mean": the closest command name to a mistyped one, and the check that uses it. */
import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

/** Edit distance with adjacent transpositions (optimal string alignment). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/** The candidate closest to `word`, if one is close enough to be a likely typo (or `word` starts it). */
export function closestName(word: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = name.startsWith(word) && word.length >= 2 ? 0.5 : editDistance(word, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best) return undefined;
  return best.distance <= Math.max(1, Math.floor(best.name.length * 0.4)) ? best.name : undefined;
}

/** The names (and aliases) a user can type after `command`; `help` is Commander's own. */
function subcommandNames(command: Command): string[] {
  return command.commands.flatMap((sub) => [sub.name(), ...sub.aliases()]).filter((name) => name !== 'help');
}

/** The usage error for an unknown subcommand of `parent` (the root when `path` is empty). */
export function unknownCommandError(parent: Command, path: string[], word: string): DialError {
  const suggestion = closestName(word, subcommandNames(parent));
  const prefix = ['dial', ...path].join(' ');
  const list = `run \`${prefix} --help\` to list the commands`;
  return new DialError('E_USAGE', `unknown command '${[...path, word].join(' ')}'`, {
    hint: suggestion ? `did you mean \`${prefix} ${suggestion}\`? (${list})` : list,
  });
}

/**
 * Throws the usage error, with a suggestion, when the first word of `args` (dial's arguments,
 * without node and the script) is not a command, or the word after a command group (config,
 * env, history, import, export, report) is not one of its subcommands. Commander would take
 * such a word as an argument of the group's default subcommand and say "too many arguments".
 * (No group's default subcommand takes an argument; one that did would need an exception here.)
 */
export function checkCommandNames(program: Command, args: string[]): void {
  const first = args.findIndex((word) => !word.startsWith('-'));
  if (first < 0 || args.slice(0, first).includes('--')) return;
  const helped = args[first] === 'help' && args[first + 1] !== undefined && !args[first + 1].startsWith('-');
  const word = helped ? args[first + 1] : args[first];
  if (word === 'help') return;
  const command = program.commands.find((sub) => sub.name() === word || sub.aliases().includes(word));
  if (!command) throw unknownCommandError(program, [], word);
  const groupNames = subcommandNames(command);
  const next = args[first + (helped ? 2 : 1)];
  if (groupNames.length === 0 || next === undefined || next.startsWith('-') || next === 'help') return;
  if (!groupNames.includes(next)) throw unknownCommandError(command, [word], next);
}
