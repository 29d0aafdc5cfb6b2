import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import {
  externalCommand,
  FileChangedError,
  loadHttpFile,
  rewriteHttpFile,
  runExternal,
  saveBodyTo,
} from '../../../src/core/editing/index.js';
import { tempDir } from '../../helpers/cli.js';

describe('editing', () => {
  it('rewrites a .http file atomically and returns it parsed', async () => {
    const dir = tempDir();
    const path = join(dir, 'a.http');
    writeFileSync(path, 'GET http://x/a\n');
    const file = await loadHttpFile(path);
    const updated = await rewriteHttpFile(file, 'POST http://x/b\n');
    expect(updated.requests[0].method).toBe('POST');
    expect(readFileSync(path, 'utf8')).toBe('POST http://x/b\n');
  });

  it('saves a body from memory or from its spill file, byte for byte', async () => {
    const dir = tempDir();
    const bytes = Buffer.from([0, 1, 2, 255, 10]);
    await saveBodyTo({ kind: 'memory', bytes }, join(dir, 'm.bin'));
    expect(readFileSync(join(dir, 'm.bin'))).toEqual(bytes);
    writeFileSync(join(dir, 'spill'), bytes);
    await saveBodyTo({ kind: 'file', path: join(dir, 'spill'), size: bytes.length }, join(dir, 'f.bin'));
    expect(readFileSync(join(dir, 'f.bin'))).toEqual(bytes);
    await expect(saveBodyTo({ kind: 'streamed', size: 1 }, join(dir, 's.bin'))).rejects.toThrow(/not kept/);
  });

  it('runs an external program on a temp file inside suspend and returns the edited text', async () => {
    let suspended = 0;
    const text = await runExternal(`sh -c 'printf edited >> "$0"'`, 'start:', '.txt', (run) => {
      suspended++;
      run();
    });
    expect(text).toBe('start:edited');
    expect(suspended).toBe(1);
    await expect(runExternal('false', 'x', '.txt', (run) => run())).rejects.toThrow(/exited with status 1/);
  });

  it('picks the editor and pager from settings, then the environment', () => {
    expect(externalCommand('editor', { EDITOR: 'nano' }, 'code --wait')).toBe('code --wait');
    expect(externalCommand('editor', { VISUAL: 'vim', EDITOR: 'nano' })).toBe('vim');
    expect(externalCommand('pager', {})).toBe('less -R');
    expect(parseHttpFile('GET http://x\n', '').requests).toHaveLength(1);
  });
});

describe('rewriteHttpFile and changes made outside dial', () => {
  it('refuses to write when the file changed on disk since it was loaded, and writes nothing', async () => {
    const dir = tempDir();
    const path = join(dir, 'api.http');
    writeFileSync(path, '### a\nGET http://x/a\n');
    const file = await loadHttpFile(path);
    // Another program (an editor, git pull) changes the file while the TUI has it open.
    const outside = '### a\nGET http://x/a\n\n### added-outside\nGET http://x/outside\n';
    writeFileSync(path, outside);
    const error = await rewriteHttpFile(file, '### a\nPOST http://x/a\n').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileChangedError);
    const keptAt = (error as FileChangedError).keptAt!;
    expect(error).toMatchObject({
      code: 'E_IO',
      message: `api.http changed on disk since it was loaded; nothing was written; your version is kept in ${keptAt}`,
      hint: 'reload api.http and make the edit again',
    });
    expect(readFileSync(path, 'utf8')).toBe(outside);
    // The refused edit is not lost.
    expect(readFileSync(keptAt, 'utf8')).toBe('### a\nPOST http://x/a\n');
  });

  it('an edit that does not parse is refused (E_PARSE), the file untouched, the edit kept', async () => {
    const dir = tempDir();
    const path = join(dir, 'api.http');
    writeFileSync(path, 'GET http://x/a\n');
    const file = await loadHttpFile(path);
    const broken = 'GET http://x/a\nnot a header\n';
    const error = (await rewriteHttpFile(file, broken).catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('E_PARSE');
    const keptAt = /your version is kept in (\S+)$/.exec(error.message)![1];
    expect(readFileSync(keptAt, 'utf8')).toBe(broken);
    expect(readFileSync(path, 'utf8')).toBe('GET http://x/a\n');
  });

  it('refuses when the file was removed, and does not recreate it', async () => {
    const dir = tempDir();
    const path = join(dir, 'gone.http');
    writeFileSync(path, 'GET http://x/a\n');
    const file = await loadHttpFile(path);
    rmSync(path);
    await expect(rewriteHttpFile(file, 'POST http://x/a\n')).rejects.toThrow(
      'gone.http was removed since it was loaded',
    );
    expect(existsSync(path)).toBe(false);
  });

  it('consecutive edits work: each write is based on the file the previous one returned', async () => {
    const dir = tempDir();
    const path = join(dir, 'api.http');
    writeFileSync(path, 'GET http://x/a\n');
    const first = await rewriteHttpFile(await loadHttpFile(path), 'POST http://x/a\n');
    const second = await rewriteHttpFile(first, 'PUT http://x/a\n');
    expect(second.requests[0].method).toBe('PUT');
    expect(readFileSync(path, 'utf8')).toBe('PUT http://x/a\n');
  });
});
