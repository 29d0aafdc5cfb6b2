// A block whose first line has no method and no URL in it (`send Request`, a header put above the
// request line): REST Client reads it as the URL of a GET and the lines under it as headers and
// body, and cannot send that request; it sends the file's others. dial refuses that request at its
// line and reads the file's other requests; httpyac files and URLs written with a space are as before.
import { describe, expect, it } from 'vitest';
import { parseHttpFile, refuseUnreadableRequests } from '../../../src/core/httpfile/index.js';
import { dialErrorThrownBy } from '../../helpers/dial-error.js';

const text = [
  'GET http://x/before HTTP/1.1',
  '###',
  'Content-Type: application/json',
  'POST http://x/nursery HTTP/1.1',
  '',
  '{',
  '  "name": "a"',
  '}',
  '###',
  'GET http://x/after HTTP/1.1',
  '',
].join('\n');

describe('a request line that holds no URL', () => {
  it('refuses that request at its line and reads the others', () => {
    const file = parseHttpFile(text, 'a.http');
    expect(file.requests.map((r) => [r.method, r.url, r.refused?.line])).toEqual([
      ['GET', 'http://x/before', undefined],
      ['GET', 'Content-Type: application/json', 3],
      ['GET', 'http://x/after', undefined],
    ]);
    expect(file.requests[1].refused).toMatchObject({
      message: 'unexpected space in the request line\'s URL: "Content-Type: application/json"',
      col: 14,
      excerpt: 'Content-Type: application/json',
      hint: expect.stringMatching(/start the request with its method and URL/),
    });
    // Nothing of the refused request is read: its lines are neither headers nor a body.
    expect(file.requests[1].headers).toEqual([]);
    expect(file.requests[1].body).toBeUndefined();
    expect(file.warnings ?? []).toEqual([]);
  });

  it('refuses each such request of a file, in .rest files too', () => {
    const file = parseHttpFile(
      'send Request\nGET http://x/players/\n###\n\nsend Request\nGET http://x/players/5/\n###',
      'app.rest',
    );
    expect(file.requests.map((r) => [r.refused?.line, r.refused?.col])).toEqual([
      [1, 5],
      [5, 5],
    ]);
  });

  it('still reads `@name = value` lines in the refused request as file variables', () => {
    const file = parseHttpFile('note this\n@host = http://x\n###\nGET {{host}}/a\n', 'a.rest');
    expect(file.requests[0].refused?.line).toBe(1);
    expect(file.variables.map((v) => [v.name, v.value])).toEqual([['host', 'http://x']]);
  });

  it('leaves a URL written with a space, and a bare URL, as before', () => {
    const spaced = parseHttpFile('GET http://x/a b\n', 'a.http');
    expect(spaced.requests[0]).toMatchObject({ url: 'http://x/a%20b' });
    expect(spaced.requests[0].refused).toBeUndefined();
    // No method and a URL with a space: taken whole from a scheme on (sent %20-encoded, sweep 20),
    // else refused for the whole file, as before.
    expect(parseHttpFile('http://x/a b\n', 'a.http').requests[0]).toMatchObject({ url: 'http://x/a%20b' });
    const error = dialErrorThrownBy(() => parseHttpFile('localhost/a b\n', 'a.http'));
    expect(error.location).toMatchObject({ line: 1, col: 12 });
    const version = parseHttpFile('localhost HTTP/1.1\n', 'a.http');
    expect(version.requests[0].refused).toBeUndefined();
  });

  it('refuses the whole file in the httpyac dialect (its reading was not checked)', () => {
    const error = dialErrorThrownBy(() => parseHttpFile(`# @dialect httpyac\n${text}`, 'a.http'));
    expect(error.code).toBe('E_PARSE');
    expect(error.location).toMatchObject({ line: 4, col: 14 });
  });

  it('fails the whole file for the readers that take it whole (dial fmt, the k6 export)', () => {
    const error = dialErrorThrownBy(() => refuseUnreadableRequests(parseHttpFile(text, 'a.http')));
    expect(error.location).toMatchObject({ file: 'a.http', line: 3, col: 14 });
  });
});
