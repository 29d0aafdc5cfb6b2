// kulala's `# @env-stdin-cmd NAME command`: a real `sh -c` with the response on stdin, its stdout
// (final line break removed) as the value; a failure is an error at the metadata line. Such a
// command runs only in a workspace the user lets run code: checkModules refuses it elsewhere.
import { describe, expect, it } from 'vitest';
import { runShellCommand } from '../../../src/core/script/shell-command.js';
import { commandVariable } from '../../../src/core/httpfile/metadata.js';
import { ScriptRunner } from '../../../src/core/script/sandbox.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { DialError } from '../../../src/core/errors.js';
import type { MetadataNode } from '../../../src/core/httpfile/types.js';

const posix = process.platform !== 'win32';

function meta(key: string, value: string, line = 4): MetadataNode {
  return { key, value, span: { start: 0, end: 0, line, col: 1 } };
}

const options = { cwd: process.cwd(), file: '/w/api.http', timeoutMs: 10_000 };

describe.runIf(posix)('kulala shell commands', () => {
  it('feeds the response on stdin and answers stdout without its final line break', async () => {
    const command = meta('env-stdin-cmd', `CTX sed -n 's/.*"ctx": *"\\([^"]*\\)".*/\\1/p'`);
    expect(commandVariable(command)).toBe('CTX');
    await expect(runShellCommand(command, { ...options, stdin: '{"ctx": "Some context"}' })).resolves.toBe(
      'Some context',
    );
    // One line break goes, the others stay (kulala removes one character).
    await expect(runShellCommand(meta('env-stdin-cmd-pre', 'T printf "a\\n\\n"'), options)).resolves.toBe('a\n');
    await expect(runShellCommand(meta('stdin-cmd-pre', 'printf "x\\r\\n"'), options)).resolves.toBe('x');
  });

  it('runs in the folder it is given', async () => {
    await expect(runShellCommand(meta('env-stdin-cmd-pre', 'D pwd'), { ...options, cwd: '/' })).resolves.toBe('/');
  });

  it('a failing command, or one that writes to stderr, is E_SCRIPT at the metadata line', async () => {
    const failed = (await runShellCommand(meta('env-stdin-cmd', 'T exit 3', 7), options).catch((e) => e)) as DialError;
    expect(failed).toBeInstanceOf(DialError);
    expect(failed.code).toBe('E_SCRIPT');
    expect(failed.message).toContain('exit code 3');
    expect(failed.location).toMatchObject({ file: '/w/api.http', line: 7 });
    const noisy = (await runShellCommand(meta('env-stdin-cmd', 'T echo oops >&2; echo v'), options).catch(
      (e) => e,
    )) as DialError;
    expect(noisy.message).toContain('wrote to stderr: oops');
  });

  it('is stopped at its time limit', async () => {
    const slow = (await runShellCommand(meta('stdin-cmd-pre', 'sleep 5'), { ...options, timeoutMs: 200 }).catch(
      (e) => e,
    )) as DialError;
    expect(slow.message).toContain('was stopped');
  });

  it('has no time limit when the limit is 0 (--timeout 0)', async () => {
    await expect(
      runShellCommand(meta('env-stdin-cmd', 'T sleep 0.2; echo late'), { ...options, timeoutMs: 0 }),
    ).resolves.toBe('late');
  });
});

describe('the trust gate', () => {
  const text = '### a\nGET http://x/a\n\n### b\n# @env-stdin-cmd JWT jq -r .token\nPOST http://x/b\n';

  it('refuses a command in a workspace not allowed to run code, at its line, before anything is sent', async () => {
    const file = parseHttpFile(text, '/w/api.http');
    const runner = new ScriptRunner(5000, { allowNode: false });
    const error = (await runner.checkModules(file).catch((e: unknown) => e)) as DialError;
    expect(error).toBeInstanceOf(DialError);
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toContain('`# @env-stdin-cmd` runs a shell command');
    expect(error.location).toMatchObject({ file: '/w/api.http', line: 5 });
    expect(error.hint).toContain('dial trust');
    // Where nothing checked the file first (the workbench), running the command is refused the same way.
    const command = file.requests[1].metadata[0];
    const direct = (await runner.runCommand(command, file, { timeoutMs: 1000 }).catch((e: unknown) => e)) as DialError;
    expect(direct.message).toBe(error.message);
  });

  it('lets it through where the user allows code', async () => {
    const file = parseHttpFile(text, '/w/api.http');
    const runner = new ScriptRunner(5000, { allowNode: (path) => path === '/w/api.http' });
    await expect(runner.checkModules(file)).resolves.toBeUndefined();
  });

  it.runIf(posix)("runs it there, in the .http file's folder", async () => {
    const file = parseHttpFile('# @env-stdin-cmd-pre D pwd\nGET http://x/\n', '/tmp/api.http');
    const runner = new ScriptRunner(5000, { allowNode: true });
    await expect(runner.runCommand(file.requests[0].metadata[0], file, { timeoutMs: 5000 })).resolves.toBe('/tmp');
  });
});
