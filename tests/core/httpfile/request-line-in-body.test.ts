// Found by the second held-out sweep (tests/compat/README.md): a `.rest` file with two requests and
// no `###` between them (its `curl …` request is now read: tests/core/httpfile/curl-request.test.ts).
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';

describe('a request line where a body is read', () => {
  it('as the first body line: the body keeps it (as REST Client sends it) and the parser warns at its line', () => {
    const text = 'GET http://x/ HTTP/1.1\nContent-Type: application/json\n\nGET http://x/items/1 HTTP/1.1\n';
    const file = parseHttpFile(text, 'api.rest');
    expect(file.requests).toHaveLength(1);
    expect(file.requests[0].body).toMatchObject({ text: 'GET http://x/items/1 HTTP/1.1' });
    expect(file.warnings).toEqual([
      expect.objectContaining({ line: 4, message: expect.stringContaining('looks like a request line') }),
    ]);
  });

  it('httpyac starts a new request there instead, without a warning', () => {
    const text = '# @dialect httpyac\nGET http://x/\n\nGET http://x/items/1\n';
    const file = parseHttpFile(text, 'api.http');
    expect(file.requests.map((r) => r.url)).toEqual(['http://x/', 'http://x/items/1']);
    expect(file.warnings ?? []).toEqual([]);
  });

  it('a JSON body gets no such warning', () => {
    const file = parseHttpFile('POST http://x/\nContent-Type: application/json\n\n{"GET": 1}\n', 'a.http');
    expect(file.warnings ?? []).toEqual([]);
  });
});
