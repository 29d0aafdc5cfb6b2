import { describe, expect, it } from 'vitest';
import { formatHttpText, indentJson, unifiedDiff } from '../../../src/core/format-http/index.js';
import { isDialError } from '../../../src/core/errors.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';

const messy = [
  '',
  '',
  '@host=localhost:3000   ',
  '# top comment   ',
  '####   Login   ',
  '',
  '# @name login',
  '',
  'post   {{host}}/login   HTTP/1.1',
  'content-type:application/json',
  'X-A :  b',
  '',
  '',
  '{"user":"a",  "pw":[1,2.50,{}]}',
  '',
  '',
  '',
  '?? status == 200',
  '> {%',
  '  client.global.set("t", response.body.token);   ',
  '',
  '%}',
  '### list',
  'GET {{host}}/items',
  'Accept: */*',
  '< ./x.json',
  '###',
  'GET https://x',
  '  ?a=1',
  '  &b=2',
].join('\n');

const canonical = [
  '@host = localhost:3000',
  '# top comment',
  '',
  '### Login',
  '# @name login',
  'POST {{host}}/login HTTP/1.1',
  'content-type: application/json',
  'X-A: b',
  '',
  '{"user":"a",  "pw":[1,2.50,{}]}',
  '',
  '?? status == 200',
  '> {%',
  '  client.global.set("t", response.body.token);   ',
  '',
  '%}',
  '',
  '### list',
  'GET {{host}}/items',
  'Accept: */*',
  '',
  '< ./x.json',
  '',
  '###',
  'GET https://x',
  '  ?a=1',
  '  &b=2',
  '',
].join('\n');

describe('formatHttpText', () => {
  it('writes the canonical layout: separators, blank lines, request lines, headers, variables; bodies and scripts untouched', () => {
    expect(formatHttpText(messy, 'api.http')).toBe(canonical);
    expect(formatHttpText(canonical, 'api.http')).toBe(canonical);
  });

  it("keeps httpyac's query lines among the headers where they are, and the request line as written", () => {
    // The property test's counterexample: the request line was rewritten with the URL that
    // already held `?a=1` from the line under `# @name q`, which stayed too (sent `?a=1?a=1`).
    const text = '# @dialect httpyac\nGET http://a\n# @name q\nGET http://a\n# @name q\n    ?a=1\n';
    const formatted = formatHttpText(text, 'api.http');
    expect(parseHttpFile(formatted, 'api.http').requests.map((node) => node.url)).toEqual(['http://a', 'http://a?a=1']);
    expect(formatHttpText(formatted, 'api.http')).toBe(formatted);
  });

  it('keeps CRLF files CRLF', () => {
    expect(formatHttpText(messy.replace(/\n/g, '\r\n'), 'api.http')).toBe(canonical.replace(/\n/g, '\r\n'));
  });

  it('re-indents JSON bodies only when asked, keeping numbers and strings as written', () => {
    const indented = formatHttpText(messy, 'api.http', { indentJson: true });
    expect(indented).toContain('{\n  "user": "a",\n  "pw": [\n    1,\n    2.50,\n    {}\n  ]\n}\n\n?? status == 200');
    expect(formatHttpText(indented, 'api.http', { indentJson: true })).toBe(indented);
  });

  it('leaves a JSON body with {{variables}} outside strings as written', () => {
    const text = 'POST http://a\nContent-Type: application/json\n\n{"n": {{count}}}\n';
    expect(formatHttpText(text, 'a.http', { indentJson: true })).toBe(text);
  });

  it('fails on text that does not parse, with the file and line', () => {
    try {
      formatHttpText('GET http://a\nnot a header\n', 'bad.http');
      expect.unreachable();
    } catch (error) {
      expect(isDialError(error) && error.code).toBe('E_PARSE');
      expect(isDialError(error) && error.location).toMatchObject({ file: 'bad.http', line: 2 });
    }
  });
});

describe('indentJson', () => {
  it('keeps big integers and escapes exactly as written', () => {
    expect(indentJson('{"id":12345678901234567890,"s":"a\\u00e9\\"b"}')).toBe(
      '{\n  "id": 12345678901234567890,\n  "s": "a\\u00e9\\"b"\n}',
    );
  });

  it('answers undefined for text that is not a JSON object or array', () => {
    expect(indentJson('name=value')).toBeUndefined();
    expect(indentJson('{"a": }')).toBeUndefined();
    expect(indentJson('42')).toBeUndefined();
  });
});

describe('REST Client lines read once every {{…}} is in place', () => {
  it('keeps a {{json}} header line and a query line under HTTP/1.1 as written', () => {
    const text =
      '@json = Content-Type: application/json\n\nPOST http://x/login HTTP/1.1\n{{json}}\n\n{"a": 1}\n\n###\nGET http://x/t HTTP/1.1\n?userId=1\n';
    expect(formatHttpText(text, 'api.rest')).toBe(text);
  });
});

describe('unifiedDiff', () => {
  it('shows changed lines with context and hunk headers', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const after = 'a\nB\nc\nd\ne\nf\ng\nh\ni\nJ\n';
    expect(unifiedDiff(before, after, 'x.http')).toBe(
      [
        '--- a/x.http',
        '+++ b/x.http',
        '@@ -1,5 +1,5 @@',
        ' a',
        '-b',
        '+B',
        ' c',
        ' d',
        ' e',
        '@@ -7,4 +7,4 @@',
        ' g',
        ' h',
        ' i',
        '-j',
        '+J',
        '',
      ].join('\n'),
    );
  });

  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\n', 'a\n', 'x.http')).toBe('');
  });
});
