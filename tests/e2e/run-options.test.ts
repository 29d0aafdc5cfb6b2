/** `dial run` options: --env-file, --output-failed, redirects, `>>` output files, --grep/--tag. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { DIAL_BIN, runCli, stripAnsi, tempDir } from '../helpers/cli.js';
import { startFailServer, type FailServer } from '../helpers/fail-server.js';

let server: FailServer;
beforeAll(async () => {
  server = await startFailServer();
});
afterAll(async () => {
  await server?.close();
});

function workspace(files: Record<string, string>): string {
  const dir = tempDir('dial-run-opt-');
  mkdirSync(join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function run(args: string[], cwd: string) {
  const result = await runCli(['run', ...args], { cwd });
  return { ...result, stdout: stripAnsi(result.stdout), stderr: stripAnsi(result.stderr) };
}

/** Runs an executable file with arguments in `cwd` and collects its exit code and stderr. */
function execDirect(file: string, args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((done) => {
    execFile(file, args, { cwd, env: { ...process.env, DIAL_CONFIG_DIR: tempDir() } }, (error, _stdout, stderr) => {
      done({ code: error ? Number(error.code) : 0, stderr });
    });
  });
}

describe('dial run options', () => {
  it("a missing --env-file is dial's E_NOT_FOUND (exit 3) when Node leaves the flag to dial", async () => {
    // Node 20 itself scans its whole command line for `--env-file` (up to a `--`) and exits 9 on
    // a missing file before any script runs; `node -- bin/dial.js` is how to keep it out.
    const dir = workspace({ 'a.http': 'GET http://127.0.0.1:1/\n' });
    const result = await execDirect(
      process.execPath,
      ['--', DIAL_BIN, 'run', 'a.http', '--env-file', 'missing.env'],
      dir,
    );
    expect(result.stderr).toContain('error[E_NOT_FOUND]: --env-file not found');
    expect(result.code).toBe(3);
  });

  it("through the installed binary's shebang (`env node`, no `--`), Node 20 answers a missing --env-file itself (docs/cli.md, Known limits)", async () => {
    const dir = workspace({ 'a.http': 'GET http://127.0.0.1:1/\n' });
    const result = await execDirect(DIAL_BIN, ['run', 'a.http', '--env-file', 'missing.env'], dir);
    if (Number(process.versions.node.split('.')[0]) >= 22) {
      expect(result.stderr).toContain('error[E_NOT_FOUND]: --env-file not found');
      expect(result.code).toBe(3);
    } else {
      expect(result.stderr).toContain('missing.env: not found');
      expect(result.code).toBe(9);
    }
  });

  it('--env-file reads a JetBrains env JSON ($shared + -e) or a .env file; --var wins', async () => {
    const dir = workspace({
      'a.http':
        'GET {{host}}/headers?who={{who}}\n\n?? body $.headers.host exists\n?? js response.body.headers !== undefined == true\n',
      'ci.env.json': JSON.stringify({ $shared: { who: 'shared' }, ci: { host: server.url } }),
      'ci.env': `host=${server.url}\nwho=dotenv\n`,
    });
    const json = await run(['a.http', '--env-file', 'ci.env.json', '-e', 'ci', '--output-failed'], dir);
    expect(json.code).toBe(0);
    const dotenv = await run(['a.http', '--env-file', 'ci.env', '--var', 'who=cli'], dir);
    expect(dotenv.code).toBe(0);
    // (A missing --env-file is not tested: Node 20 itself also reads `--env-file` anywhere in argv and exits 9 first.)
  });

  it('--output-failed prints the failed exchange to stderr when no terminal reporter runs', async () => {
    const dir = workspace({ 'a.http': `GET ${server.url}/wrong\n\n?? body $.ok == true\n` });
    const result = await run(['a.http', '--output-failed', '--reporter', `json:${join(dir, 'r.json')}`], dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--- a.http:1 › GET');
    expect(result.stderr).toContain(`> GET ${server.url}/wrong`);
    expect(result.stderr).toContain('< 200 OK');
    expect(result.stderr).toContain('"ok":false');
  });

  it('follows redirects by default; --no-follow and # @no-redirect do not', async () => {
    const dir = workspace({
      'a.http': `### follow\nGET ${server.url}/redirect\n\n?? status == 200\n\n### stay\n# @no-redirect\nGET ${server.url}/redirect\n\n?? status == 302\n`,
    });
    expect((await run(['a.http'], dir)).code).toBe(0);
    const noFollow = await run(['a.http', '--no-follow'], dir);
    expect(noFollow.code).toBe(1);
    expect(noFollow.stdout).toContain('✗ a.http › follow  302');
  });

  it('`>> file` saves the body next to the .http file without overwriting; `>>!` overwrites', async () => {
    const dir = workspace({
      'a.http': `### keep\nGET ${server.url}/text\n\n>> ./out/body.txt\n\n### over\nGET ${server.url}/text\n\n>>! ./out/over.txt\n`,
    });
    expect((await run(['a.http'], dir)).code).toBe(0);
    expect((await run(['a.http'], dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'out/body.txt'), 'utf8')).toBe('hello world');
    expect(existsSync(join(dir, 'out/body-1.txt'))).toBe(true);
    expect(existsSync(join(dir, 'out/over-1.txt'))).toBe(false);
  });

  it('--grep and --tag select requests; unmatched files are left out', async () => {
    const dir = workspace({
      'a.http': `### login\n# @tag smoke\nGET ${server.url}/ok\n\n### list widgets\nGET ${server.url}/ok\n`,
      'b.http': `### other\n# @tag slow\nGET ${server.url}/ok\n`,
    });
    const grep = await run(['--grep', 'widget'], dir);
    expect(grep.code).toBe(0);
    expect(grep.stdout).toContain('list widgets');
    expect(grep.stdout).not.toContain('login');
    expect(grep.stdout).toContain('(1 request, 1 file)');
    const tags = await run(['--tag', 'smoke', '--tag', 'slow'], dir);
    expect(tags.stdout).toContain('(2 requests, 2 files)');
  });

  it('a request that ran is not run again for a later # @ref or {{name.response…}}', async () => {
    const dir = workspace({
      'a.http': `### first\n# @name count\nGET ${server.url}/counter\n\n### uses it\n# @ref count\nGET ${server.url}/ok?c={{count.response.body.$.count}}\n\n?? status == 200\n`,
    });
    const before = server.hits('/counter');
    const result = await run(['a.http'], dir);
    expect(result.code).toBe(0);
    expect(server.hits('/counter') - before).toBe(1);
  });
});
