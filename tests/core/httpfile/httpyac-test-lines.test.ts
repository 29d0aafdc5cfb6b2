import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { applyPredicate } from '../../../src/core/assert/predicates.js';

const body = (file: ReturnType<typeof parseHttpFile>, k: number) => {
  const b = file.requests[k].body;
  return b?.kind === 'inline' ? b.text : undefined;
};

// What httpyac's assert parser (assertHttpRegionParser) makes of a `??` line, and what its body
// parser does with the ones it does not read as tests.
describe('httpyac `??` lines', () => {
  it('sends a `??` line without a predicate as body text, as httpyac does, with a warning', () => {
    const file = parseHttpFile(
      '# @dialect httpyac\n### get\nGET http://a/books/1\nContent-Type: application/json\n\n?? status 200\n\n### next\nGET http://a/x\n',
      'x.http',
    );
    expect(body(file, 0)).toBe('?? status 200');
    expect(file.requests[0].assertions).toEqual([]);
    expect(file.requests[1].body).toBeUndefined();
    expect(file.warnings?.map((w) => [w.line, /no httpyac test/.test(w.message)])).toEqual([[6, true]]);
  });

  it('puts a `??` line after the tests back on the body, with the blank lines but without the tests', () => {
    const text = [
      '# @dialect httpyac',
      'POST http://a/todos',
      'Content-Type: application/json',
      '',
      '{"text": "x"}',
      '',
      '?? status == 201',
      '?? Number.isInteger(response.parsedBody.ID)',
      '',
    ].join('\n');
    const file = parseHttpFile(text, 'x.http');
    expect(body(file, 0)).toBe('{"text": "x"}\n\n?? Number.isInteger(response.parsedBody.ID)');
    expect(file.requests[0].assertions.map((a) => a.source)).toEqual(['status == 201']);
  });

  it('reads the same way in other dialects (no other tool has `??` lines)', () => {
    const file = parseHttpFile('GET http://a/x\n\n?? status 200\n', 'x.http');
    expect(body(file, 0)).toBe('?? status 200');
  });

  it('keeps a test of a query httpyac lacks as a test that fails, with a warning', () => {
    const file = parseHttpFile(
      'POST http://a/t\n\n{"a": 1}\n\n?? status == 200\n?? typeof response.parsedBody.token === "string"\n',
      'x.http',
    );
    expect(body(file, 0)).toBe('{"a": 1}');
    const [, unknown] = file.requests[0].assertions;
    expect(unknown).toMatchObject({ unknownQuery: 'typeof', span: { line: 6 } });
    expect(file.warnings?.[0]).toMatchObject({ line: 6 });
    expect(file.warnings?.[0].message).toMatch(/no 'typeof' assertion query/);
  });

  it('reads httpyac `??status == 200` (no space) as a test in the httpyac dialect', () => {
    const file = parseHttpFile('# @dialect httpyac\nGET http://a/x\n\n??status == 200\n', 'x.http');
    expect(file.requests[0].body).toBeUndefined();
    expect(file.requests[0].assertions[0]).toMatchObject({ query: 'status', predicate: '==', expected: '200' });
  });

  it('takes httpyac predicate names (=== and !== with a warning, equals, isTrue, isFalse)', () => {
    const file = parseHttpFile(
      'GET http://a/x\n\n?? status === 200\n?? header x not equals y\n?? js response.parsedBody.ok isTrue\n?? js response.parsedBody.gone isFalse\n',
      'x.http',
    );
    expect(file.requests[0].assertions.map((a) => [a.predicate, a.not, a.expected])).toEqual([
      ['==', false, '200'],
      ['==', true, 'y'],
      ['isTrue', false, undefined],
      ['isFalse', false, undefined],
    ]);
    expect(file.warnings?.map((w) => w.line)).toEqual([3]);
    expect(file.warnings?.[0].message).toMatch(/fails there whatever the value/);
    expect(applyPredicate('isTrue', 1, undefined, '')).toBe(true);
    expect(applyPredicate('isTrue', '', undefined, '')).toBe(false);
    expect(applyPredicate('isFalse', 0, undefined, '')).toBe(true);
  });

  it('leaves a `{{ }}` block before such a line out of the body text', () => {
    const file = parseHttpFile(
      '# @dialect httpyac\nPOST http://a/x\n\nline one\n{{\n  exports.a = 1;\n}}\n?? status 200\n',
      'x.http',
    );
    expect(body(file, 0)).toBe('line one\n?? status 200');
  });
});

describe('dial assertions httpyac lacks', () => {
  it('stay tests (`?? body not isEmpty`, `length`)', () => {
    const file = parseHttpFile('GET http://a/x\n\n?? body not isEmpty\n?? body $.a length > 1\n', 'x.http');
    expect(file.requests[0].body).toBeUndefined();
    expect(file.requests[0].assertions.map((a) => a.predicate)).toEqual(['isEmpty', 'length']);
  });
});

describe('`??` lines right under the headers (httpyac)', () => {
  it('a test ends the headers; a line that is no test starts the body', () => {
    const file = parseHttpFile(
      '# @dialect httpyac\nGET http://a/x\n?? status == 200\n\n###\nGET http://a/y\nAccept: a\n?? status 200\n',
      'x.http',
    );
    expect(file.requests[0].assertions.map((a) => a.source)).toEqual(['status == 200']);
    expect(file.requests[0].body).toBeUndefined();
    expect(body(file, 1)).toBe('?? status 200');
    expect(file.requests[1].headers.map((h) => h.name)).toEqual(['Accept']);
  });
});
