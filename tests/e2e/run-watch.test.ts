/** `dial run --watch` re-runs the changed file; Ctrl+C ends `dial run` with 130 (watching or not). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIAL_BIN, stripAnsi, tempDir } from '../helpers/cli.js';
import { startFailServer, type FailServer } from '../helpers/fail-server.js';

let server: FailServer;
beforeAll(async () => {
  server = await startFailServer();
});
afterAll(async () => {
  await server?.close();
});

describe('dial run --watch', () => {
  it('re-runs a changed .http file and stops cleanly on SIGINT', async () => {
    const dir = tempDir('dial-watch-');
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, 'a.http'), '### first\nGET {{host}}/ok\n\n?? status == 200\n');
    writeFileSync(join(dir, 'b.http'), '### other\nGET {{host}}/ok\n');
    writeFileSync(join(dir, 'c.http'), '### scripted\nGET {{host}}/ok\n\n> ./h.js\n');
    writeFileSync(join(dir, 'h.js'), 'client.test("handler", function () { client.assert(true, "never"); });\n');
    const child = spawn(process.execPath, [DIAL_BIN, 'run', '--watch', '--var', `host=${server.url}`], {
      cwd: dir,
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-'), NO_COLOR: '1', CI: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const waiters: Array<{ text: string; count: number; resolve: () => void }> = [];
    const check = () => {
      for (const waiter of [...waiters]) {
        if (stdout.split(waiter.text).length - 1 >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    };
    const waitFor = (text: string, count = 1) =>
      new Promise<void>((resolve) => {
        waiters.push({ text, count, resolve });
        check();
      });
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += stripAnsi(chunk.toString());
      check();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));

    await waitFor('Watching for changes');
    expect(stdout).toContain('✓ a.http › first');
    expect(stdout).toContain('✓ b.http › other');
    writeFileSync(join(dir, 'a.http'), '### renamed\nGET {{host}}/ok\n\n?? status == 201\n');
    await waitFor('✗ a.http › renamed');
    const rerun = stdout.slice(stdout.indexOf('change detected'));
    expect(rerun).toContain('re-running a.http');
    expect(rerun).not.toContain('b.http › other');
    // An env file change re-runs everything.
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { x: '1' } }));
    await waitFor('re-running all files');
    await waitFor('✓ b.http › other', 2);
    // A file a .http file reads (its handler script) re-runs that file only; other files do nothing.
    await waitFor('✓ c.http › scripted', 2);
    writeFileSync(join(dir, 'notes.txt'), 'not read by any request\n');
    writeFileSync(join(dir, 'h.js'), 'client.test("handler", function () { client.assert(false, "changed"); });\n');
    await waitFor('✗ c.http › scripted');
    const handlerRun = stdout.slice(stdout.lastIndexOf('change detected'));
    expect(handlerRun).toContain('re-running c.http');
    expect(handlerRun).not.toContain('a.http');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toBe('');
  });
});

describe('dial run interrupted', () => {
  it('Ctrl+C cancels the in-flight request, reports the rest as skipped and exits 130', async () => {
    const dir = tempDir('dial-int-');
    mkdirSync(join(dir, '.git'));
    writeFileSync(join(dir, 'a.http'), `### slow\nGET ${server.url}/slow?ms=20000\n\n### next\nGET ${server.url}/ok\n`);
    const child = spawn(process.execPath, [DIAL_BIN, 'run', 'a.http'], {
      cwd: dir,
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-'), NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    await server.waitForHit('/slow');
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stdout).toContain('✗ a.http › slow');
    expect(stdout).toContain('- a.http › next  skipped: interrupted');
    expect(stdout).toContain('Interrupted.');
  });
});
