import { describe, expect, it } from 'vitest';
import { parseBru } from '../../../src/core/import/bru-lang.js';
import { isDialError } from '../../../src/core/errors.js';

describe('parseBru', () => {
  it('reads dictionary blocks (disabled pairs, values with colons, multi-line values) and text blocks', () => {
    const blocks = parseBru(
      [
        'meta {',
        '  name: Create',
        '  seq: 2',
        '}',
        '',
        'post {',
        '  url: https://x.test/a?b=c',
        '}',
        '',
        'headers {',
        '  ~X-Off: 1',
        '  Accept: application/json',
        '}',
        '',
        'body:json {',
        '  {',
        '    "a": 1',
        '  }',
        '}',
        '',
        'body:multipart-form {',
        "  note: '''",
        '    line one',
        '    line two',
        "  '''",
        '}',
        'vars:secret [',
        '  token,',
        '  key',
        ']',
        '',
      ].join('\n'),
      'x.bru',
    );
    expect(blocks.map((b) => [b.name, b.line])).toEqual([
      ['meta', 1],
      ['post', 6],
      ['headers', 10],
      ['body:json', 15],
      ['body:multipart-form', 21],
      ['vars:secret', 27],
    ]);
    expect(blocks[1].pairs).toEqual([{ key: 'url', value: 'https://x.test/a?b=c', enabled: true, line: 7 }]);
    expect(blocks[2].pairs.map((p) => [p.key, p.enabled])).toEqual([
      ['X-Off', false],
      ['Accept', true],
    ]);
    expect(blocks[3].text).toBe('{\n  "a": 1\n}');
    expect(blocks[4].pairs[0].value).toBe('line one\nline two');
    expect(blocks[5].values).toEqual(['token', 'key']);
  });

  it('accepts CRLF files', () => {
    expect(parseBru('get {\r\n  url: http://a\r\n}\r\n', 'x.bru')[0].pairs[0].value).toBe('http://a');
  });

  it.each([
    ['text before any block', 'hello\n', 1],
    ['a block never closed', 'meta {\n  name: x\n', 1],
    ['a line without a colon', 'get {\n  url: http://a\n  oops\n}\n', 3],
  ])('fails with file:line on %s', (_what, text, line) => {
    try {
      parseBru(text, 'bad.bru');
      expect.unreachable();
    } catch (error) {
      expect(isDialError(error) && error.code).toBe('E_IMPORT');
      expect(isDialError(error) && error.location).toMatchObject({ file: 'bad.bru', line });
    }
  });
});
