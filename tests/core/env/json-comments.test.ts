import { describe, expect, it } from 'vitest';
import { blankJsonComments, parseJsonText } from '../../../src/core/env/json-file.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

describe('env JSON with comments and trailing commas (JetBrains reads env files so)', () => {
  it('blanks comments and trailing commas outside strings, keeping every offset', () => {
    const text = '{\n  // note\n  "a": "x // y, }", /* b */\n  "c": [1, 2,],\n}\n';
    const blanked = blankJsonComments(text);
    expect(blanked).toHaveLength(text.length);
    expect(blanked.split('\n').length).toBe(text.split('\n').length);
    expect(JSON.parse(blanked)).toEqual({ a: 'x // y, }', c: [1, 2] });
  });

  it('keeps strict parsing by default and points at the real line when lenient parsing still fails', async () => {
    expect(() => parseJsonText('{"a": 1,}', 'env.json')).toThrow(/invalid JSON/);
    expect(parseJsonText('{"a": 1,}', 'env.json', 'E_ENV', { comments: true })).toEqual({ a: 1 });
    const error = await dialErrorOf(
      Promise.resolve().then(() =>
        parseJsonText('{\n  // c\n  "a": 1\n  "b": 2\n}', 'env.json', 'E_ENV', { comments: true }),
      ),
    );
    expect(error.location).toMatchObject({ file: 'env.json', line: 4, col: 3 });
  });
});
