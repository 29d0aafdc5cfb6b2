import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { HTTPYAC_QUERIES, httpyacAssertParts, httpyacReadsAsDial } from '../../../src/core/httpfile/assertion.js';

// The parser skips httpyac's assert pattern when httpyacReadsAsDial says it has nothing to add:
// whenever it says so, the pattern must agree (no unknown query, no `==`/`!=` followed by `=`).
const words = [
  'status',
  'STATUS',
  'Body',
  'header',
  'js',
  'duration',
  'xpath',
  'typeof',
  'foo',
  '$.id',
  'content-type',
  '==',
  '===',
  '!=',
  '!==',
  '= 1',
  '=',
  '!',
  'equals',
  'not equals',
  'isTrue',
  'matches',
  '>',
  '<=',
  '200',
  '"x"',
  'a=b',
  'é',
];
const gaps = [' ', '  ', '\t', '\u00a0', '\u2003', '', '\u3000'];
const testLine = fc
  .tuple(
    fc.constantFrom('', ' ', '\t'),
    fc.constantFrom(' ', '', '\t', '\u00a0'),
    fc.array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(...gaps)), { maxLength: 6 }),
  )
  .map(([lead, gap, parts]) => `${lead}??${gap}${parts.map(([word, space]) => word + space).join('')}`);

/** What httpyacOnlyTest acts on, from the pattern: an unknown query, or `==`/`!=` then `=`. */
function patternHasSomethingToSay(line: string): boolean {
  const parts = httpyacAssertParts(line);
  if (!parts) return false;
  if (!HTTPYAC_QUERIES.has(parts.type.toLowerCase())) return true;
  return (parts.predicate === '==' || parts.predicate === '!=') && parts.expected.startsWith('=');
}

describe('httpyacReadsAsDial', () => {
  it('is never true where httpyac reads the test differently', () => {
    fc.assert(
      fc.property(testLine, (line) => {
        if (httpyacReadsAsDial(line, line.indexOf('??') + 2)) expect(patternHasSomethingToSay(line)).toBe(false);
      }),
      { numRuns: 5000 },
    );
  });

  it('takes the common lines without the pattern, and leaves the others to it', () => {
    for (const line of [
      '?? status == 200',
      '?? body $.id == 42',
      '?? header content-type contains json',
      '?? js x isTrue',
    ])
      expect(httpyacReadsAsDial(line, line.indexOf('??') + 2)).toBe(true);
    for (const line of ['?? typeof x == 1', '?? status === 200', '?? status != = 1', '??\u00a0foo == 1'])
      expect(httpyacReadsAsDial(line, line.indexOf('??') + 2)).toBe(false);
    expect(patternHasSomethingToSay('?? status === 200')).toBe(true);
    expect(patternHasSomethingToSay('?? typeof x == 1')).toBe(true);
  });
});
