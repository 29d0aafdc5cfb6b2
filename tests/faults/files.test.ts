/**
 * Writing files never destroys what is there: reports follow symlinks, go into a FIFO in place,
 * fail as E_IO on a folder; stdout on a full device is E_IO without a stack; a closed pipe is a
 * quiet exit 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, execFileSync } from 'node:child_process';
import {
  chmodSync,
  createReadStream,
  lstatSync,
  mkdirSync,
  openSync,
  closeSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { openOutputFile, writeFileAtomic } from '../../src/core/atomic-write.js';
import { DialError } from '../../src/core/errors.js';
import { DIAL_BIN, runCli, tempDir } from '../helpers/cli.js';
import { startHttpServer, startRecordingServer, type TestServer } from '../helpers/servers.js';
import { outsideGuard } from './helpers.js';

let server: TestServer & { requests: unknown[] };
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
});

function workspace(): string {
  const dir = tempDir('dial-fault-');
  writeFileSync(join(dir, 'api.http'), `### ok\nGET ${server.url}/ok\n\n?? status == 200\n`);
  return dir;
}

describe('fault: file writes', () => {
  it('writeFileAtomic: a regular file is replaced and keeps its mode; a symlink is followed and stays a link', () => {
    const dir = tempDir('dial-fault-');
    const file = join(dir, 'kept.txt');
    writeFileSync(file, 'old');
    chmodSync(file, 0o640);
    writeFileAtomic(file, 'new');
    expect(readFileSync(file, 'utf8')).toBe('new');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'target.txt'), 'old');
    symlinkSync(join('real', 'target.txt'), join(dir, 'link.txt'));
    writeFileAtomic(join(dir, 'link.txt'), 'through the link');
    expect(lstatSync(join(dir, 'link.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real', 'target.txt'), 'utf8')).toBe('through the link');
    symlinkSync('missing.txt', join(dir, 'dangling.txt'));
    writeFileAtomic(join(dir, 'dangling.txt'), 'created');
    expect(lstatSync(join(dir, 'dangling.txt')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'missing.txt'), 'utf8')).toBe('created');
  });

  it('writeFileAtomic and openOutputFile: a folder is E_IO with its path', async () => {
    const dir = tempDir('dial-fault-');
    const error = (() => {
      try {
        writeFileAtomic(dir, 'x');
      } catch (e) {
        return e;
      }
    })() as DialError;
    expect(error).toBeInstanceOf(DialError);
    expect(error.code).toBe('E_IO');
    expect(error.exitCode).toBe(4);
    expect(error.message).toBe(`cannot write the file ${dir}: it is a folder`);
    expect(() => openOutputFile(dir)).toThrow(/it is a folder/);
    const out = openOutputFile(join(dir, 'body.bin'));
    out.stream.write('partial');
    out.abort();
    expect(() => statSync(join(dir, 'body.bin'))).toThrow();
    writeFileSync(join(dir, 'old.bin'), 'old');
    const replace = openOutputFile(join(dir, 'old.bin'));
    replace.stream.write('new');
    expect(readFileSync(join(dir, 'old.bin'), 'utf8')).toBe('old');
    await replace.finish();
    expect(readFileSync(join(dir, 'old.bin'), 'utf8')).toBe('new');
  });

  it('a report into a FIFO is written in place: the FIFO stays a FIFO and its reader gets the report', async () => {
    const guard = outsideGuard();
    const dir = workspace();
    const fifo = join(dir, 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const chunks: Buffer[] = [];
    const reader = createReadStream(fifo);
    reader.on('data', (chunk) => chunks.push(chunk as Buffer));
    const read = new Promise<void>((resolve) => reader.on('close', () => resolve()));
    const result = await runCli(['run', 'api.http', '--reporter', 'dot', '--reporter', `junit:${fifo}`], { cwd: dir });
    await read;
    expect(result.code, result.stderr).toBe(0);
    expect(Buffer.concat(chunks).toString('utf8')).toMatch(/<testsuites[^>]*tests="1"/);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    guard.assertUntouched();
  });

  it('a report path that is a symlink writes its target and keeps the link', async () => {
    const dir = workspace();
    mkdirSync(join(dir, 'reports'));
    writeFileSync(join(dir, 'reports', 'junit.xml'), 'old');
    symlinkSync(join('reports', 'junit.xml'), join(dir, 'junit.xml'));
    const result = await runCli(['run', 'api.http', '--reporter', 'dot', '--reporter', 'junit:junit.xml'], {
      cwd: dir,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(lstatSync(join(dir, 'junit.xml')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, 'junit.xml'))).toBe(join('reports', 'junit.xml'));
    expect(readFileSync(join(dir, 'reports', 'junit.xml'), 'utf8')).toMatch(/<testsuites/);
  });

  it('a report path that is a folder is E_IO (exit 4) naming the path', async () => {
    const dir = workspace();
    mkdirSync(join(dir, 'out'));
    const result = await runCli(['run', 'api.http', '--reporter', 'dot', '--reporter', 'junit:out'], { cwd: dir });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/error\[E_IO\]: cannot write the report .*out: it is a folder/);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(statSync(join(dir, 'out')).isDirectory()).toBe(true);
  });

  it('/dev/full as stdout: E_IO, exit 4, one line, no stack trace and no build path', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const child = spawn(process.execPath, [DIAL_BIN, 'send', `${server.url}/full`], {
        stdio: ['ignore', full, 'pipe'],
        env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-') },
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(code).toBe(4);
      expect(stderr).toMatch(/error\[E_IO\]: cannot write to standard output: no space left on the device/);
      expect(stderr).not.toMatch(/\n\s+at |dist|cli\.cjs|Node\.js v/);
    } finally {
      closeSync(full);
    }
  });

  it('a reader that closes the pipe early: quiet exit 0', async () => {
    const big = await startHttpServer((_request, response) => response.end(Buffer.alloc(8 * 1024 * 1024, 0x61)));
    const child = spawn(process.execPath, [DIAL_BIN, 'send', '-p', 'b', `${big.url}/big`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-') },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    await big.close();
    expect(code).toBe(0);
    expect(stderr).toBe('');
  });
});
