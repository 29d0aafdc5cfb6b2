import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

describe('dial completion', () => {
  it('prints a bash script that bash accepts and that completes commands and flags', async () => {
    const result = await runCli(['completion', 'bash']);
    expect(result.code).toBe(0);
    // Load the script into a real bash and ask it to complete `dial se` and `dial send --ti`.
    const probe = (line: string) =>
      execFileSync(
        'bash',
        [
          '-c',
          `${result.stdout}\nCOMP_WORDS=(${line}); COMP_CWORD=$((\${#COMP_WORDS[@]}-1)); _dial; printf '%s\\n' "\${COMPREPLY[@]}"`,
        ],
        { encoding: 'utf8' },
      );
    expect(probe('dial se').split('\n')).toContain('send');
    expect(probe('dial run --ba').split('\n')).toContain('--bail');
  });

  it('prints fish and zsh scripts naming every command', async () => {
    const fish = await runCli(['completion', 'fish']);
    expect(fish.code).toBe(0);
    for (const name of ['send', 'run', 'open', 'import', 'echo']) expect(fish.stdout).toContain(`-a ${name}`);
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.stdout).toContain('bashcompinit');
  });

  it('refuses an unknown shell with exit 2', async () => {
    const result = await runCli(['completion', 'powershell']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("error[E_USAGE]: unknown shell 'powershell'");
  });
});
