import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { metadataKeyEnd, metadataKeyStart } from '../../../src/core/httpfile/metadata.js';
import { placeholderEnd } from '../../../src/core/httpfile/parse.js';
import { isTrimmedSpace, trimmedSlice } from '../../../src/core/httpfile/trim.js';

// The parser reads these two by hand (no match arrays); the patterns they replace are the reference.
const METADATA_RE = /^(?:#+|\/\/+)[ \t]*@([A-Za-z][\w.-]*)/;
const PLACEHOLDER_RE = /\{\{([^{}\n]*)\}\}/g;

const metadataLike = fc
  .tuple(
    fc.constantFrom('#', '##', '//', '///', '/', '', ' #', '#/'),
    fc.constantFrom('', ' ', '\t', ' \t'),
    fc.constantFrom('@', '', '@@', '='),
    fc.array(fc.constantFrom('a', 'Z', '9', '_', '.', '-', 'é', ' ', '=', '@', '\n', '$', '{', '[', '`'), {
      maxLength: 8,
    }),
  )
  .map(([mark, gap, at, key]) => `${mark}${gap}${at}${key.join('')}`);
const placeholderLike = fc
  .array(fc.constantFrom('{', '}', '{{', '}}', 'a', ' ', '\n', '\r', '$', '(', 'é'), { maxLength: 16 })
  .map((parts) => parts.join(''));

/** Every placeholder of a text as [start, end, inner], read the way the parser reads them. */
function byHand(text: string): Array<[number, number, string]> {
  const found: Array<[number, number, string]> = [];
  for (let at = text.indexOf('{{'); at >= 0;) {
    const end = placeholderEnd(text, at);
    if (end < 0) {
      at = text.indexOf('{{', at + 1);
      continue;
    }
    found.push([at, end, text.slice(at + 2, end - 2)]);
    at = text.indexOf('{{', end);
  }
  return found;
}

describe('hand-written scanners read what their patterns match', () => {
  it('metadata keys', () => {
    fc.assert(
      fc.property(metadataLike, (t) => {
        const match = METADATA_RE.exec(t);
        const start = metadataKeyStart(t);
        if (!match) {
          expect(start).toBe(-1);
          return;
        }
        const end = metadataKeyEnd(t, start);
        expect([t.slice(start, end), end]).toEqual([match[1], match[0].length]);
      }),
      { numRuns: 5000 },
    );
  });

  it('{{ … }} placeholders', () => {
    fc.assert(
      fc.property(placeholderLike, (text) => {
        const expected = [...text.matchAll(PLACEHOLDER_RE)].map((m): [number, number, string] => [
          m.index,
          m.index + m[0].length,
          m[1],
        ]);
        expect(byHand(text)).toEqual(expected);
      }),
      { numRuns: 5000 },
    );
  });

  it('trimmed slices: every code unit, and random slices', () => {
    for (let c = 0; c < 0x10000; c++) expect([c, isTrimmedSpace(c)]).toEqual([c, String.fromCharCode(c).trim() === '']);
    const spacey = fc
      .array(fc.constantFrom(' ', '\t', '\n', '\r', '\u00a0', '\u2028', '\ufeff', '\u3000', 'a', 'é', ':', '\u200b'), {
        maxLength: 10,
      })
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(spacey, fc.nat(12), fc.nat(12), (text, a, b) => {
        expect(trimmedSlice(text, Math.min(a, b, text.length), Math.min(Math.max(a, b), text.length))).toBe(
          text.slice(Math.min(a, b, text.length), Math.min(Math.max(a, b), text.length)).trim(),
        );
      }),
      { numRuns: 5000 },
    );
  });
});
