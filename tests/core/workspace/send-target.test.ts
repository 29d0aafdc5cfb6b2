import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { selectRequest } from '../../../src/core/workspace/send-target.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

const file = parseHttpFile('### a\nGET http://x/1\n\n### b\nGET http://x/2\n\n### a\nGET http://x/3\n', 'api.http');

describe('selectRequest', () => {
  it('picks by #name, by #n and by :line', async () => {
    expect((await selectRequest(file, { path: 'api.http', name: 'b' })).url).toBe('http://x/2');
    expect((await selectRequest(file, { path: 'api.http', name: '2' })).url).toBe('http://x/2');
    expect((await selectRequest(file, { path: 'api.http', line: 5 })).url).toBe('http://x/2');
  });

  it('refuses a name two requests share, pointing at the second (exit 3)', async () => {
    const error = await dialErrorOf(selectRequest(file, { path: 'api.http', name: 'a' }));
    expect(error.code).toBe('E_PARSE');
    expect(error.exitCode).toBe(3);
    expect(error.message).toContain("2 requests are named 'a' (lines 1, 7)");
    expect(error.location).toMatchObject({ file: 'api.http', line: 7 });
  });

  it('refuses a line past the end of the file', async () => {
    const error = await dialErrorOf(selectRequest(file, { path: 'api.http', line: 99 }));
    expect(error.code).toBe('E_NOT_FOUND');
    expect(error.message).toBe('api.http has 8 lines; there is no line 99');
  });
});
