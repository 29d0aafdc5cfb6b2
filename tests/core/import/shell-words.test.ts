import { describe, expect, it } from 'vitest';
import { splitBashWords, splitCommands } from '../../../src/core/curl/shell-words.js';

describe('splitBashWords: separators and offsets', () => {
  it('records each word at the offset of its first character, quotes included', () => {
    const split = splitBashWords(`curl  'a b'\t"c"d -k`);
    expect(split.map(({ value, offset }) => [value, offset])).toEqual([
      ['curl', 0],
      ['a b', 6],
      ['cd', 12],
      ['-k', 17],
    ]);
  });

  it('reads ; | & && || and line breaks as operators between words, even without blanks', () => {
    const split = splitBashWords('a;b|c&d&&e||f\ng');
    expect(split.map(({ value, operator }) => (operator ? `<${value}>` : value))).toEqual([
      'a',
      '<;>',
      'b',
      '<|>',
      'c',
      '<&>',
      'd',
      '<&&>',
      'e',
      '<||>',
      'f',
      '<\n>',
      'g',
    ]);
    expect(split.filter((word) => word.operator).map((word) => word.offset)).toEqual([1, 3, 5, 7, 10, 13]);
  });

  it('takes # as a comment only at the start of a word', () => {
    expect(
      splitBashWords('curl http://x/#frag # the rest\n-k')
        .filter((word) => !word.operator)
        .map((word) => word.value),
    ).toEqual(['curl', 'http://x/#frag', '-k']);
  });

  it('a backslash keeps the next character (a blank, a quote, an operator) in the word; at the end it adds nothing', () => {
    expect(splitBashWords(`a\\ b c\\;d e\\'f g\\`).map((word) => word.value)).toEqual(['a b', 'c;d', "e'f", 'g']);
  });

  it('an empty quoted string is a word of its own', () => {
    expect(splitBashWords(`curl '' "" -d`).map((word) => word.value)).toEqual(['curl', '', '', '-d']);
  });

  it('splitCommands groups the words between operators', () => {
    const commands = splitCommands(splitBashWords('curl a; curl b | jq .'));
    expect(commands.map((command) => [command.words, command.after])).toEqual([
      [['curl', 'a'], ';'],
      [['curl', 'b'], '|'],
      [['jq', '.'], undefined],
    ]);
  });
});
