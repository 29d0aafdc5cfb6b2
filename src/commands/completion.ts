/**
 * `dial completion bash|zsh|fish`: prints a completion script generated from the live
 * Commander program, so it never drifts from the real commands and flags.
 */
import type { Command } from 'commander';
import { DialError } from '../core/errors.js';

interface CommandWords {
  name: string;
  flags: string[];
  subcommands: string[];
}

function describe(program: Command): { globals: string[]; commands: CommandWords[] } {
  const flagsOf = (command: Command) =>
    command.options.flatMap((option) => [option.short, option.long].filter((flag): flag is string => Boolean(flag)));
  return {
    globals: [...flagsOf(program), '--help'],
    commands: program.commands.map((command) => ({
      name: command.name(),
      flags: [...flagsOf(command), '--help'],
      subcommands: command.commands.map((sub) => sub.name()),
    })),
  };
}

function bashScript({ globals, commands }: ReturnType<typeof describe>): string {
  const cases = commands.map((c) => `    ${c.name}) words="${[...c.subcommands, ...c.flags].join(' ')}" ;;`).join('\n');
  return `# dial bash completion: eval "$(dial completion bash)"
_dial() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words
  if [ "$COMP_CWORD" -eq 1 ]; then
    words="${commands.map((c) => c.name).join(' ')} ${globals.join(' ')}"
  else
    case "\${COMP_WORDS[1]}" in
${cases}
    esac
  fi
  if [[ "$cur" != -* && "$COMP_CWORD" -gt 1 ]]; then COMPREPLY=($(compgen -f -- "$cur")); fi
  COMPREPLY+=($(compgen -W "$words" -- "$cur"))
}
complete -o filenames -F _dial dial
`;
}

function zshScript(described: ReturnType<typeof describe>): string {
  // zsh runs bash completions through bashcompinit; one generator serves both.
  return `# dial zsh completion: eval "$(dial completion zsh)"
autoload -U +X bashcompinit && bashcompinit
${bashScript(described)}`;
}

function fishScript({ globals, commands }: ReturnType<typeof describe>): string {
  const lines = ['# dial fish completion: dial completion fish | source', 'complete -c dial -f'];
  for (const command of commands) {
    lines.push(`complete -c dial -n '__fish_use_subcommand' -a ${command.name}`);
    for (const sub of command.subcommands)
      lines.push(`complete -c dial -n '__fish_seen_subcommand_from ${command.name}' -a ${sub}`);
    for (const flag of command.flags.filter((f) => f.startsWith('--'))) {
      lines.push(`complete -c dial -n '__fish_seen_subcommand_from ${command.name}' -l ${flag.slice(2)}`);
    }
  }
  for (const flag of globals.filter((f) => f.startsWith('--'))) lines.push(`complete -c dial -l ${flag.slice(2)}`);
  return lines.join('\n') + '\n';
}

export function registerCompletion(program: Command): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) => {
      const generators: Record<string, (d: ReturnType<typeof describe>) => string> = {
        bash: bashScript,
        zsh: zshScript,
        fish: fishScript,
      };
      const generate = generators[shell];
      if (!generate) throw new DialError('E_USAGE', `unknown shell '${shell}'`, { hint: 'use bash, zsh or fish' });
      process.stdout.write(generate(describe(program)));
    });
}
