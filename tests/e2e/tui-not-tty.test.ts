import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

describe('dial open without a terminal', () => {
  it('fails with E_NOT_TTY (exit 2) and points at send/run', async () => {
    const result = await runCli(['open', tempDir()]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('error[E_NOT_TTY]');
    expect(result.stderr).toMatch(/dial send/);
    expect(result.stderr).toMatch(/dial run/);
    // Nothing of the full-screen UI was written.
    expect(result.stderr).not.toContain('\x1b[?1049h');
  });
});
