// indentJson re-indents the JSON line a run spills for each file into the JSON report's layout;
// it must give exactly what parsing the line and serialising it with JSON.stringify(…, null, 2) gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { indentJson } from '../../../src/core/report/render.js';

const pretty = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);

// Strings full of what a scanner could trip on: quotes, runs of backslashes, brackets, commas, colons.
const tricky = fc
  .array(fc.constantFrom('"', '\\', '\\\\', '\\"', '{', '}', '[', ']', ',', ':', ' ', '\n', 'é', '\u2028', 'a', '0'), {
    maxLength: 12,
  })
  .map((parts) => parts.join(''));
const text = fc.oneof(tricky, fc.string(), fc.string({ unit: 'binary' }));

describe('indentJson', () => {
  it('equals JSON.stringify(JSON.parse(line), null, 2), indented, for any JSON value', () => {
    const value = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('node'), { maxLength: 4 }),
        fc.dictionary(text, tie('node'), { maxKeys: 4 }),
      ),
    })).node;
    fc.assert(
      fc.property(value, fc.constantFrom('', '    '), (v, indent) => {
        expect(indentJson(JSON.stringify(v), indent)).toBe(pretty(v, indent));
      }),
      { numRuns: 2000 },
    );
  });

  it('lays out a file entry of the JSON report as before', () => {
    const file = {
      path: 'a "b".http',
      durationMs: 12.5,
      totals: { files: 1, requests: 1, passed: 1, failed: 0, errored: 0, skipped: 0 },
      requests: [
        {
          index: 0,
          name: 'r\\0',
          line: 2,
          method: 'GET',
          url: 'http://127.0.0.1/json?a=[1]',
          status: 'passed',
          attempts: 1,
          durationMs: 1.25,
          assertions: [{ kind: 'assert', source: 'body $.id == 42', passed: true, line: 4 }],
          httpStatus: 200,
          logs: [],
        },
      ],
    };
    expect(indentJson(JSON.stringify(file), '    ')).toBe(pretty(file, '    '));
    expect(indentJson(JSON.stringify({ requests: [] }), '')).toBe('{\n  "requests": []\n}');
  });
});
