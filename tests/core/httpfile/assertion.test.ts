import { describe, expect, it } from 'vitest';
import { formatAssertion, parseAssertion, parseHttpFile } from '../../../src/core/httpfile/index.js';
import { DialError } from '../../../src/core/errors.js';

const p = (text: string) => {
  const { source: _source, ...rest } = parseAssertion(text);
  return rest;
};

describe('parseAssertion', () => {
  it.each([
    ['status == 200', { query: 'status', predicate: '==', expected: '200', not: false }],
    ['duration < 500', { query: 'duration', predicate: '<', expected: '500' }],
    [
      'header Content-Type contains json',
      { query: 'header', argument: 'Content-Type', predicate: 'contains', expected: 'json' },
    ],
    ['header x-a includes a b c', { query: 'header', argument: 'x-a', predicate: 'contains', expected: 'a b c' }],
    ['body contains "ok"', { query: 'body', predicate: 'contains', expected: '"ok"' }],
    ['body $.items[0].id == {{id}}', { query: 'body', argument: '$.items[0].id', predicate: '==', expected: '{{id}}' }],
    ['body $[?(@.name == "a b")] exists', { query: 'body', argument: '$[?(@.name == "a b")]', predicate: 'exists' }],
    ['body $.a not isNull', { query: 'body', argument: '$.a', not: true, predicate: 'isNull' }],
    ['body $.items length >= 2', { predicate: 'length', lengthOperator: '>=', expected: '2' }],
    ['body schema ./widget.schema.json', { predicate: 'schema', expected: './widget.schema.json' }],
    ['body snapshot', { predicate: 'snapshot' }],
    ['body snapshot ignore $.createdAt $.id', { predicate: 'snapshot', ignore: ['$.createdAt', '$.id'] }],
    ['body $.name matches /^w\\d+ x$/i', { predicate: 'matches', expected: '/^w\\d+ x$/i' }],
    ['body $.name startsWith w', { predicate: 'startsWith' }],
    ['body $.name STARTSWITH w', { predicate: 'startsWith' }],
    ['body $.name endsWith 1', { predicate: 'endsWith' }],
    ['js response.body.a + 1 == 2', { query: 'js', argument: 'response.body.a + 1', predicate: '==', expected: '2' }],
    ['js (a == b) == true', { query: 'js', argument: '(a == b)', predicate: '==', expected: 'true' }],
    [
      'js response.headers.valueOf("x y") not exists',
      { argument: 'response.headers.valueOf("x y")', not: true, predicate: 'exists' },
    ],
    ["xpath //a[@b='c d'] == 1", { query: 'xpath', argument: "//a[@b='c d']", predicate: '==' }],
    ['body isEmpty', { query: 'body', predicate: 'isEmpty' }],
  ])('%s', (text, expected) => {
    expect(p(text)).toMatchObject(expected);
  });

  it.each([
    ['statuz == 200', /unknown assertion query 'statuz'/],
    ['status nearly 200', /unknown assertion predicate 'nearly'/],
    ['status ==', /needs an expected value/],
    ['body $.a exists yes', /takes no value/],
    ['header == x', /unknown assertion predicate 'x'/],
    ['status schema ./x.json', /body only/],
    ['body schema', /JSON Schema/],
    ['body $.a length big', /comparison/],
    ['js response.ok', /missing predicate/],
    ['body snapshot except $.a', /unexpected 'except'/],
  ])('rejects %s', (text, message) => {
    expect(() => parseAssertion(text)).toThrow(message);
  });

  it('points parse errors at the column in the file', () => {
    try {
      parseHttpFile('GET http://a\n\n?? status nearly == 200\n', 'x.http');
      expect.unreachable();
    } catch (error) {
      expect((error as DialError).location).toMatchObject({ line: 3, col: 11, excerpt: '?? status nearly == 200' });
      expect((error as DialError).hint).toMatch(/contains/);
    }
  });

  it('formatAssertion prints what parseAssertion reads', () => {
    for (const text of [
      'status == 200',
      'body $.a not isNull',
      'body $.items length > 1',
      'body snapshot ignore $.a $.b',
      'header x contains y z',
    ]) {
      expect(formatAssertion(parseAssertion(text))).toBe(text);
    }
  });
});
