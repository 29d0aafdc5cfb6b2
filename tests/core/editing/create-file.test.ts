import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createHttpFile } from '../../../src/core/editing/create-file.js';
import { tempDir } from '../../helpers/cli.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

describe('createHttpFile', () => {
  it('writes the file and returns it parsed', async () => {
    const path = join(tempDir(), 'requests.http');
    const file = await createHttpFile(path, '###\nGET http://x/get\n');
    expect(file.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET http://x/get']);
    expect(readFileSync(path, 'utf8')).toBe('###\nGET http://x/get\n');
  });

  it('never writes over an existing file', async () => {
    const path = join(tempDir(), 'requests.http');
    writeFileSync(path, 'GET http://x/mine\n');
    const error = await dialErrorOf(createHttpFile(path, 'GET http://x/other\n'));
    expect(error.code).toBe('E_EXISTS');
    expect(error.message).toBe('requests.http already exists');
    expect(readFileSync(path, 'utf8')).toBe('GET http://x/mine\n');
  });
});
