import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expandMultipartBody, multipartBoundary } from '../../../src/core/httpfile/index.js';
import { MultipartFileError, multipartFileLines } from '../../../src/core/httpfile/multipart.js';
import { tempDir } from '../../helpers/cli.js';

describe('multipart bodies', () => {
  it('lists the `< file` lines of part contents, with their offsets and lines (what check looks for)', () => {
    const text =
      '--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n< ./a.bin\r\n--B\nContent-Type: text/plain\n< ./not-content.txt\n\n<@ ./t.txt\n--B\n\n<b>literal</b>\n< ./last.txt --B--';
    const found = multipartFileLines(text, 'B');
    expect(found.map((f) => [f.path, f.line])).toEqual([
      ['./a.bin', 3],
      ['./t.txt', 8],
      ['./last.txt', 12],
    ]);
    for (const f of found) expect(text.slice(f.offset).startsWith('<')).toBe(true);
  });

  it('a part file that cannot be read fails with the line of its `<` in the body', async () => {
    const dir = tempDir('dial-multipart-');
    const text = '--B\nContent-Disposition: form-data; name="a"\n\n< ./gone.bin\n--B--';
    const error = await expandMultipartBody(text, { boundary: 'B', baseDir: dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MultipartFileError);
    expect((error as MultipartFileError).line).toBe(3);
    expect((error as MultipartFileError).reason.code).toBe('ENOENT');
  });

  it('reads the boundary from Content-Type', () => {
    expect(multipartBoundary('multipart/form-data; boundary=WebAppBoundary')).toBe('WebAppBoundary');
    expect(multipartBoundary('multipart/mixed; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/json')).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
  });

  it('expands < file parts, substitutes <@ parts, frames with CRLF', async () => {
    const dir = tempDir('dial-multipart-');
    writeFileSync(join(dir, 'a.bin'), Buffer.from([0, 1, 2, 255]));
    writeFileSync(join(dir, 't.txt'), 'hi {{who}}');
    const text =
      '--B\nContent-Disposition: form-data; name="a"\n\n< ./a.bin\n--B\nContent-Disposition: form-data; name="t"\n\n<@ ./t.txt\n--B\nContent-Disposition: form-data; name="plain"\n\n<b>literal</b>\n--B--';
    const bytes = Buffer.from(
      await expandMultipartBody(text, {
        boundary: 'B',
        baseDir: dir,
        substitute: async (t) => t.replace('{{who}}', 'ada'),
      }),
    );
    expect(bytes.toString('latin1').startsWith('--B\r\nContent-Disposition: form-data; name="a"\r\n\r\n')).toBe(true);
    expect(bytes.includes(Buffer.from([13, 10, 13, 10, 0, 1, 2, 255, 13, 10, 45, 45, 66]))).toBe(true);
    expect(bytes.toString('latin1')).toContain('\r\n\r\nhi ada\r\n--B\r\n');
    expect(bytes.toString('latin1')).toContain('\r\n\r\n<b>literal</b>\r\n--B--\r\n');
  });

  it('a missing part file rejects with the path', async () => {
    await expect(
      expandMultipartBody('--B\nX: y\n\n< ./nope.txt\n--B--', { boundary: 'B', baseDir: tempDir() }),
    ).rejects.toThrow(/nope\.txt/);
  });

  it('a part ending `< ./file --boundary--` (as JetBrains documents it) sends the file, then the closing delimiter', async () => {
    const dir = tempDir('dial-multipart-');
    writeFileSync(join(dir, 'input.txt'), 'file text');
    const text = '--b\nContent-Disposition: form-data; name="third";\n\n< ./input.txt --b--';
    const bytes = Buffer.from(await expandMultipartBody(text, { boundary: 'b', baseDir: dir }));
    expect(bytes.toString('latin1')).toBe(
      '--b\r\nContent-Disposition: form-data; name="third";\r\n\r\nfile text\r\n--b--\r\n',
    );
    // Only the closing delimiter after a blank is split off: a name merely ending so is a path.
    await expect(
      expandMultipartBody('--b\nX: y\n\n< ./input.txt--b--', { boundary: 'b', baseDir: dir }),
    ).rejects.toThrow(/input\.txt--b--/);
  });
});
