import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { requestsAtPosition, splitPosition } from '../../../src/core/workspace/position.js';
import { isDialError } from '../../../src/core/errors.js';

const file = parseHttpFile(
  '@host = x\n\n### one\nGET http://a/1\n\n### two\n# @name second\nGET http://a/2\n\nGET http://a/3\n',
  'api.http',
);

describe('position', () => {
  it('splits FILE:LINE and FILE#NAME, and leaves other arguments alone', () => {
    expect(splitPosition('api.http:14')).toEqual({ path: 'api.http', position: { line: 14 } });
    expect(splitPosition('dir/api.rest#login')).toEqual({ path: 'dir/api.rest', position: { name: 'login' } });
    expect(splitPosition('api.http')).toEqual({ path: 'api.http' });
    expect(splitPosition('folder')).toEqual({ path: 'folder' });
  });

  it('a line picks the request whose block holds it; lines above the first request pick the first', () => {
    const at = (line: number) => requestsAtPosition(file, { line }, 'api.http').map((r) => r.url);
    expect(at(1)).toEqual(['http://a/1']);
    expect(at(4)).toEqual(['http://a/1']);
    expect(at(5)).toEqual(['http://a/1']);
    expect(at(6)).toEqual(['http://a/2']);
    expect(at(9)).toEqual(['http://a/2']);
    // `GET http://a/3` with no `###` above it starts a request of its own (the file names no tool).
    expect(at(10)).toEqual(['http://a/3']);
  });

  it('a name matches @name or the ### title', () => {
    expect(requestsAtPosition(file, { name: 'second' }, 'api.http').map((r) => r.url)).toEqual(['http://a/2']);
    expect(requestsAtPosition(file, { name: 'one' }, 'api.http').map((r) => r.url)).toEqual(['http://a/1']);
  });

  it('E_NOT_FOUND for a line past the end or an unknown name', () => {
    for (const position of [{ line: 11 }, { line: 0 }, { name: 'nope' }]) {
      try {
        requestsAtPosition(file, position, 'api.http');
        expect.unreachable();
      } catch (error) {
        expect(isDialError(error) && error.code).toBe('E_NOT_FOUND');
      }
    }
  });
});
