// REST Client sends through got, which throws "The `GET` method cannot be used with a body" for a
// GET or HEAD request that has one (REST Client sets no allowGetBody), so such a request fails there
// and the file's other requests are sent. Its body is every line after the blank one under the
// headers, up to the last line that is neither blank nor a comment: `@name = value` lines too
// (held-out sweep 18: 117503445/WechatSport-go's test.rest). In a file that names REST Client dial
// refuses that request at the body's first line (RequestNode.refused); elsewhere nothing changes.
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';

const refusedLines = (text: string, path: string) =>
  parseHttpFile(text, path).requests.map((r) => [r.method, r.url, r.refused?.line]);

describe('a GET or HEAD request with a body in a REST Client file', () => {
  it('is refused at the body line, that request only', () => {
    const text = [
      'GET http://x/search',
      'Content-Type: application/json',
      '',
      '{"kind": 0}',
      '',
      '###',
      'HEAD http://x/head',
      '',
      'text',
      '',
      '###',
      'http://x/implied-get',
      '',
      'text',
      '',
      '###',
      'POST http://x/post',
      '',
      '{"a": 1}',
      '',
      '###',
      'GET http://x/plain',
      '',
    ].join('\n');
    expect(refusedLines(text, 'api.rest')).toEqual([
      ['GET', 'http://x/search', 4],
      ['HEAD', 'http://x/head', 9],
      ['GET', 'http://x/implied-get', 14],
      ['POST', 'http://x/post', undefined],
      ['GET', 'http://x/plain', undefined],
    ]);
    const [search] = parseHttpFile(text, 'api.rest').requests;
    expect(search.refused).toEqual({
      message: 'REST Client cannot send a GET request with a body (from line 4): its HTTP client refuses one',
      line: 4,
      col: 1,
      hint: expect.stringContaining('another method (POST)'),
      excerpt: '{"kind": 0}',
    });
  });

  it('counts `@name = value` lines under the request as its body, as REST Client does', () => {
    const text =
      '@host = 127.0.0.1\n\n###\nGET http://{{host}}/api HTTP/1.1\n\n@name=x\n\n#c\n@b=1\n\n###\nGET http://{{host}}/r?n={{name}}\n';
    const file = parseHttpFile(text, 'test.rest');
    expect(file.requests.map((r) => r.refused?.line)).toEqual([6, undefined]);
    // Still file variables (REST Client reads them anywhere in the file).
    expect(file.variables.map((v) => `${v.name}=${v.value}`)).toEqual(['host=127.0.0.1', 'name=x', 'b=1']);
    expect(file.warnings ?? []).toEqual([]);
  });

  it('leaves comment-only lines, handlers and cURL commands alone', () => {
    const text = [
      'GET http://x/a',
      '',
      '# a note',
      '',
      '###',
      'GET http://x/b',
      '',
      '> {%',
      '  client.test("ok", () => {});',
      '%}',
      '',
      '###',
      'curl -X GET http://x/c -d a=1',
      '',
    ].join('\n');
    expect(refusedLines(text, 'api.rest')).toEqual([
      ['GET', 'http://x/a', undefined],
      ['GET', 'http://x/b', undefined],
      ['GET', 'http://x/c', undefined],
    ]);
  });

  it('is left as it was in files that do not name REST Client', () => {
    const text = 'GET http://x/search\nContent-Type: application/json\n\n{"kind": 0}\n';
    expect(refusedLines(text, 'api.http')).toEqual([['GET', 'http://x/search', undefined]]);
    expect(refusedLines(`# @dialect jetbrains\n${text}`, 'api.http')).toEqual([['GET', 'http://x/search', undefined]]);
    expect(refusedLines(`# @dialect rest-client\n${text}`, 'api.http')).toEqual([['GET', 'http://x/search', 5]]);
    // The refusal's hint: a `# @dialect jetbrains` line sends it as written, in a .rest file too.
    expect(refusedLines(`# @dialect jetbrains\n${text}`, 'api.rest')).toEqual([['GET', 'http://x/search', undefined]]);
    expect(parseHttpFile(text, 'api.rest').requests[0].refused?.hint).toContain('add `# @dialect jetbrains`');
  });
});

describe('`@name = value` lines right under a request (after the blank line), nothing else', () => {
  it('are file variables, with a warning at the first, where REST Client would send them', () => {
    for (const path of ['a.http', 'a.rest']) {
      const file = parseHttpFile('POST http://x/a\n\n@v = 1\n\n###\nGET http://x/{{v}}\n', path);
      expect(file.requests[0].body).toBeUndefined();
      expect(file.requests[0].refused).toBeUndefined();
      expect(file.variables.map((v) => v.name)).toEqual(['v']);
      expect(file.warnings).toEqual([
        expect.objectContaining({
          line: 3,
          message: '@v under the request at line 1 is read as a file variable, not sent as its body',
        }),
      ]);
    }
  });

  it('are variables without a warning in httpyac files (httpyac reads them so)', () => {
    const file = parseHttpFile('# @dialect httpyac\nPOST http://x/a\n\n@v = 1\n', 'a.http');
    expect(file.variables.map((v) => v.name)).toEqual(['v']);
    expect(file.warnings ?? []).toEqual([]);
  });
});
