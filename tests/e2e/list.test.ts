import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/workspace');

function workspace(): string {
  const root = tempDir('dial-list-');
  cpSync(FIXTURE, root, { recursive: true });
  return root;
}

describe('dial list', () => {
  it('lists every request of the workspace with file:line, name, method, URL and tags', async () => {
    const root = workspace();
    const result = await runCli(['list'], { cwd: root });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(13);
    expect(lines[0]).toMatch(/^jetbrains\.http:9\s+login\s+POST\s+\{\{base\}\}\/login\s+@smoke @auth$/);
    expect(result.stdout).toMatch(
      /jetbrains\.http:\d+\s+scripted\s+GET\s+\{\{base\}\}\/echo\?nonce=\{\{nonce\}\}&otp=\{\{otp\}\}\s+skip: flaky upstream/,
    );
    expect(result.stdout).toMatch(/nested\/nested\.http:3\s+nested\s+GET\s+\{\{base\}\}\/nested/);
    expect(result.stdout).toMatch(/rest-client\.rest:\d+\s+DELETE \{\{baseUrl\}\}\/items\/\{\{page\}\}/);
    // The fixture names no tool, and rest.nvim reads its `<@ ./file` holding {{…}} differently:
    // that one warning, at file:line, and nothing else.
    expect(result.stderr.split('\n').filter((line) => line.startsWith('warning:'))).toEqual([
      expect.stringMatching(/^warning: .*jetbrains\.http:66: `<@ \.\/bodies\/template\.json` holds \{\{…\}\}/),
    ]);
  });

  it('--json prints data; paths limit the files', async () => {
    const root = workspace();
    const result = await runCli(['list', 'rest-client.rest', '--json'], { cwd: root });
    expect(result.code).toBe(0);
    const data = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(data.map((r) => r.name)).toEqual(['login', 'profile', 'page', undefined]);
    expect(data[0]).toEqual({
      file: 'rest-client.rest',
      line: 6,
      name: 'login',
      method: 'POST',
      url: '{{baseUrl}}/login',
      tags: [],
    });
  });

  it('a broken file is reported with file:line:col and exit 3, the others are still listed', async () => {
    const root = workspace();
    writeFileSync(join(root, 'broken.http'), '### b\nGET http://x\nnot a header\n');
    const result = await runCli(['list'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('login');
    expect(result.stderr).toContain(`error[E_PARSE] ${join(root, 'broken.http')}:3:1: bad header line`);
    expect(result.stderr).toContain('  | not a header');
  });

  it('says so when there are no requests', async () => {
    const result = await runCli(['list'], { cwd: tempDir('dial-list-empty-') });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/no requests found/);
  });
});
