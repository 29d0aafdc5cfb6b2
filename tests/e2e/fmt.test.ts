/** `dial fmt` end to end: in place, --check for CI, --stdin for editors, and bad input. */
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';

const messy =
  '###   one  \n\n# @name one\nget  http://127.0.0.1:1/a\naccept:text/plain\n\n\n\n{"a":1}\n### two\nGET http://127.0.0.1:1/b\n\n\n';
const formatted =
  '### one\n# @name one\nGET http://127.0.0.1:1/a\naccept: text/plain\n\n{"a":1}\n\n### two\nGET http://127.0.0.1:1/b\n';

function workspace(): string {
  const dir = tempDir('dial-fmt-');
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'api.http'), messy);
  writeFileSync(join(dir, 'sub', 'ok.http'), formatted);
  return dir;
}

describe('dial fmt', () => {
  it('rewrites files in place, and a second run changes nothing', async () => {
    const dir = workspace();
    const first = await runCli(['fmt'], { cwd: dir });
    expect(first.code).toBe(0);
    expect(first.stdout).toBe('formatted api.http\n1 of 2 files changed\n');
    expect(readFileSync(join(dir, 'api.http'), 'utf8')).toBe(formatted);
    const second = await runCli(['fmt', '.'], { cwd: dir });
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('0 of 2 files changed\n');
  });

  it('--check prints a diff and exits 1 without writing; exits 0 once formatted', async () => {
    const dir = workspace();
    const check = await runCli(['fmt', '--check', 'api.http'], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('--- a/api.http\n+++ b/api.http\n');
    expect(check.stdout).toContain('\n-get  http://127.0.0.1:1/a\n');
    expect(check.stdout).toContain('\n+GET http://127.0.0.1:1/a\n');
    expect(check.stdout).toMatch(/^@@ -1,13 \+1,9 @@$/m);
    expect(check.stderr).toContain('1 of 1 file not formatted: api.http');
    expect(readFileSync(join(dir, 'api.http'), 'utf8')).toBe(messy);
    const clean = await runCli(['fmt', '--check', 'sub'], { cwd: dir });
    expect(clean.code).toBe(0);
    expect(clean.stdout).toBe('');
  });

  it('--stdin formats stdin to stdout (for editors)', async () => {
    const result = await runCli(['fmt', '--stdin'], { input: messy });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(formatted);
  });

  it('--indent-json re-indents JSON bodies', async () => {
    const result = await runCli(['fmt', '--stdin', '--indent-json'], {
      input: 'POST http://a\nContent-Type: application/json\n\n{"a":[1,2]}\n',
    });
    expect(result.stdout).toBe('POST http://a\nContent-Type: application/json\n\n{\n  "a": [\n    1,\n    2\n  ]\n}\n');
  });

  it('a file that does not parse: exit 3 with file:line, and nothing is written', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'bad.http'), 'GET http://a\nAccept: x\nthis is not a header\n');
    const result = await runCli(['fmt'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('error[E_PARSE] bad.http:3:1: bad header line');
    expect(readFileSync(join(dir, 'api.http'), 'utf8')).toBe(messy);
    const stdin = await runCli(['fmt', '--stdin', '--stdin-filename', 'mine.http'], {
      input: 'GET http://a\nAccept: x\nbad\n',
    });
    expect(stdin.code).toBe(3);
    expect(stdin.stderr).toContain('mine.http:3');
  });
});
