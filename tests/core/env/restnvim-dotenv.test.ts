import { describe, expect, it } from 'vitest';
import { parseRestNvimDotenv } from '../../../src/core/env/restnvim-dotenv.js';

describe("rest.nvim's .env parser", () => {
  it('cuts unquoted values at a blank or #, takes quotes off only around the whole value', () => {
    const values = parseRestNvimDotenv(
      [
        '# comment',
        'A=one two',
        'B = x#y',
        'export C="quoted # kept"',
        "D='single'",
        'E="open only',
        'F=',
        'not a pair',
        'A=later',
      ].join('\n'),
    );
    expect(Object.fromEntries(values)).toEqual({
      A: 'later',
      B: 'x',
      C: 'quoted # kept',
      D: 'single',
      E: '"open',
      F: '',
    });
  });

  it('lists the values it reads shorter than dotenv does, with their lines', () => {
    const cut: import('../../../src/core/env/restnvim-dotenv.js').CutValue[] = [];
    parseRestNvimDotenv('A=whole\nTITLE=Title from .env\nB=x#y\nC="q r"\nD=d # comment\n', cut);
    expect(cut).toEqual([
      { line: 2, name: 'TITLE', value: 'Title', whole: 'Title from .env' },
      { line: 3, name: 'B', value: 'x', whole: 'x#y' },
    ]);
  });
});
