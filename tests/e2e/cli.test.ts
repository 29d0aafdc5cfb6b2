import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAL_BIN, runCli, tempDir } from '../helpers/cli.js';

describe('dial (the program)', () => {
  it('prints the package version', async () => {
    const result = await runCli(['--version']);
    expect(result.code).toBe(0);
    // bin/dial.js answers from package.json; the bundle (for every other command) has it built in.
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8'));
    expect(result.stdout).toBe(`${version}\n`);
    const send = await runCli(['send', '--offline', 'http://x/']);
    expect(send.stdout).toContain(`User-Agent: dial/${version}`);
  });

  it('starts each bundle (dist/cli.cjs, dist/send.cjs, dist/run.cjs, the workbench in dist/ui.cjs) from the code cache the build made, which V8 accepts', async () => {
    // A rejected or missing cache still runs, only slower: only this test notices.
    const probe = `const { join } = require('node:path');
      const { compileBundle } = require(${JSON.stringify(DIAL_BIN)});
      const dist = join(${JSON.stringify(DIAL_BIN)}, '..', '..', 'dist');
      console.log(JSON.stringify(['cli.cjs', 'send.cjs', 'send-url.cjs', 'run.cjs', 'ui.cjs'].map((name) => compileBundle(join(dist, name)).cachedDataRejected)))`;
    const child = spawn(process.execPath, ['-e', probe], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0);
    expect(stdout).toBe('[false,false,false,false,false]\n');
  });

  it('runs a send program (dist/send.cjs or dist/send-url.cjs) or the run program (dist/run.cjs) exactly for the command lines on which the full program registers `send` or `run` alone', async () => {
    // bin/dial.js picks the program by src/commands/index.ts's rule; the two must agree, or a
    // command line would get a program without its command (or `send` with other commands).
    const { Command } = await import('commander');
    const { registerCommands } = await import('../../src/commands/index.js');
    const { programName } = createRequire(import.meta.url)(DIAL_BIN) as { programName: (argv: string[]) => string };
    const lines = [
      ['send', 'http://x/'],
      ['-v', 'send', ':3000'],
      ['--no-color', '-q', 'send', '--offline', 'x'],
      ['--allow-node', 'send', 'api.http'],
      ['send'],
      ['--', 'send'],
      ['run', 'send'],
      ['run'],
      ['-q', 'run', 'api.http', '--reporter', 'json:r.json'],
      ['--no-color', 'run', '--help'],
      ['help', 'run'],
      ['runs'],
      ['--', 'run'],
      ['help', 'send'],
      ['--help', 'send'],
      ['completion'],
      ['sends'],
      ['-v'],
      [],
    ];
    for (const words of lines) {
      const program = new Command('dial');
      registerCommands(program, ['node', 'dial', ...words]);
      const only = program.commands.length === 1 ? program.commands[0].name() : undefined;
      const name = programName(['node', 'dial', ...words]);
      // Either send program: dist/send-url.cjs hands over to dist/send.cjs what it does not carry.
      const sendProgram = words.includes('api.http') ? 'send.cjs' : 'send-url.cjs';
      expect(name, words.join(' ')).toBe(only === 'send' ? sendProgram : only === 'run' ? 'run.cjs' : 'cli.cjs');
    }
    // A word naming a .http target (as parseSendTarget reads one) goes to dist/send.cjs at once.
    for (const target of ['api.http', 'API.REST', 'api.http#login', 'dir/api.rest:12', 'http://x/a.http'])
      expect(programName(['node', 'dial', 'send', target]), target).toBe('send.cjs');
    for (const url of ['http://x/', ':3000/users.http.json', 'example.com/x.https'])
      expect(programName(['node', 'dial', 'send', url]), url).toBe('send-url.cjs');
  });

  it('dist/send-url.cjs hands what it does not carry over to dist/send.cjs, with the same result', async () => {
    // Each program run directly (bin/dial.js would pick dist/send.cjs for a word naming a .http
    // file): a .http target and a flag value zod words the error for are handed over before
    // anything is read or written, so both give the same output and exit code.
    const dir = tempDir();
    writeFileSync(join(dir, 'api.http'), '@host = http://127.0.0.1:1\n\n### one\nGET {{host}}/one\nX-A: 1\n');
    const runProgram = (name: string, args: string[]) => {
      const script = `const { join } = require('node:path');
        const { runBundle } = require(${JSON.stringify(DIAL_BIN)});
        process.argv = [process.execPath, ${JSON.stringify(DIAL_BIN)}, ...${JSON.stringify(args)}];
        runBundle(join(${JSON.stringify(DIAL_BIN)}, '..', '..', 'dist', ${JSON.stringify(name)}));`;
      return runCli([], { cwd: dir, nodeArgs: ['-e', script] });
    };
    const lines = [
      ['send', '--offline', 'api.http'],
      ['send', '--offline', '--name', 'one', 'api.http'],
      ['send', '--max-redirects', 'lots', 'http://127.0.0.1:1/'],
      ['send', '--offline', 'http://127.0.0.1:1/x', 'a=1'],
    ];
    for (const args of lines) {
      const [url, full] = await Promise.all([runProgram('send-url.cjs', args), runProgram('send.cjs', args)]);
      expect(url, args.join(' ')).toEqual(full);
      expect(url.stdout + url.stderr, args.join(' ')).not.toBe('');
    }
    expect((await runProgram('send-url.cjs', lines[0])).stdout).toContain('X-A: 1');
    expect((await runProgram('send-url.cjs', lines[2])).code).toBe(2);
  });

  it('exits 2 on an unknown command or flag, with a hint and no stack trace', async () => {
    const command = await runCli(['fetch', 'x']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain("error[E_USAGE]: unknown command 'fetch'");
    expect(command.stderr).toContain('hint: run `dial --help`');
    const flag = await runCli(['send', '--frobnicate', 'http://127.0.0.1:1/']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("error[E_USAGE]: unknown option '--frobnicate'");
    expect(flag.stderr).toContain('hint: run `dial --help`');
    for (const output of [command.stderr, flag.stderr]) expect(output).not.toMatch(/\n\s+at /);
  });

  it('without a terminal, `dial` alone prints usage on stderr and exits 2', async () => {
    const result = await runCli([]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: dial');
  });
});

describe('a reader that closes the pipe early', () => {
  it('ends dial quietly with exit 0 (like `dial list | head`)', async () => {
    // Plenty of output written with process.stdout.write, so a write lands after the close.
    const dir = tempDir();
    writeFileSync(
      join(dir, 'many.http'),
      Array.from({ length: 20_000 }, (_, i) => `### r${i}\nGET http://127.0.0.1:1/item/${i}\n`).join('\n'),
    );
    const child = spawn(process.execPath, [DIAL_BIN, 'list', 'many.http'], {
      cwd: dir,
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    // Read the first chunk, then close our end as `head` would.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(code).toBe(0);
  });
});
