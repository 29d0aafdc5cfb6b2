/**
 * The k6 script's runtime applies `??` predicates with its own copy of dial's predicate code (k6
 * cannot import dial). This property test keeps the copy equal to src/core/assert/predicates.ts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { K6_RUNTIME } from '../../../src/core/export/k6-runtime.js';
import { applyPredicate, parseExpected } from '../../../src/core/assert/predicates.js';

type Runtime = {
  applyPredicate: (
    predicate: string,
    actual: unknown,
    expected: unknown,
    expectedText: string,
    lengthOperator?: string,
  ) => boolean;
  parseExpected: (text: string) => unknown;
};
const runtime = new Function('__ENV', 'http', 'check', `${K6_RUNTIME}\nreturn { applyPredicate, parseExpected };`)(
  {},
  {},
  () => true,
) as Runtime;

const PREDICATES = [
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'contains',
  'startsWith',
  'endsWith',
  'matches',
  'exists',
  'isNumber',
  'isString',
  'isBoolean',
  'isArray',
  'isObject',
  'isNull',
  'isEmpty',
  'length',
] as const;
const OPERATORS = ['==', '!=', '<', '<=', '>', '>='] as const;
const scalar = fc.oneof(
  fc.integer({ min: -5, max: 5 }),
  fc.constantFrom('', 'a', 'ab', '1', '2', ' 3 ', 'true', 'null'),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(
  scalar,
  fc.constant(undefined),
  fc.array(scalar, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'b', '1'), scalar, { maxKeys: 2 }),
);
const expectedText = fc.oneof(
  fc.constantFrom('1', '2', 'a', 'ab', '"a"', 'true', 'null', '[1]', '{"a":1}', '^a', '/A/i', ' 3 ', ''),
  fc.string({ maxLength: 4 }).filter((text) => {
    try {
      new RegExp(text.trim());
      return true;
    } catch {
      return false;
    }
  }),
);

describe('k6 runtime predicates', () => {
  it('parse expected values as dial does', () => {
    fc.assert(
      fc.property(fc.oneof(expectedText, fc.json()), (text) => {
        expect(runtime.parseExpected(text)).toEqual(parseExpected(text));
      }),
    );
  });

  it('decide every predicate as dial does', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PREDICATES),
        value,
        expectedText,
        fc.constantFrom(...OPERATORS),
        (predicate, actual, text, operator) => {
          const expected = predicate === 'matches' ? text : parseExpected(text);
          expect(runtime.applyPredicate(predicate, actual, expected, text, operator)).toBe(
            applyPredicate(predicate, actual, expected, text, operator),
          );
        },
      ),
      { numRuns: 3000 },
    );
  });
});
