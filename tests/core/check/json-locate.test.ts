import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonErrorOffset } from '../../../src/core/json-locate.js';

describe('jsonErrorOffset', () => {
  it.each([
    ['[1, 2, ]', 7],
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ['{"a": tru}', 6],
    ['[1] x', 4],
    ['"a\\q"', 3],
    ['', 0],
  ])('%j fails at %i', (text, offset) => {
    expect(jsonErrorOffset(text)).toBe(offset);
  });

  it('agrees with JSON.parse on what is valid', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        expect(jsonErrorOffset(text) === undefined).toBe(valid);
      }),
      { numRuns: 500 },
    );
  });
});
