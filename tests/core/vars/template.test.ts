import { describe, expect, it } from 'vitest';
import { findPlaceholders, hasPlaceholders, substitute } from '../../../src/core/vars/index.js';

describe('templates', () => {
  it('finds placeholders with trimmed expressions and offsets', () => {
    expect(findPlaceholders('a {{ host }}/b/{{id}} {{$datetime "YYYY MM"}}')).toEqual([
      { start: 2, end: 12, expression: 'host' },
      { start: 15, end: 21, expression: 'id' },
      { start: 22, end: 45, expression: '$datetime "YYYY MM"' },
    ]);
  });

  it('leaves an unclosed {{ as text and handles {{{x}}}', () => {
    expect(findPlaceholders('{{open')).toEqual([]);
    expect(hasPlaceholders('{{open')).toBe(false);
    expect(findPlaceholders('{{{x}}}')[0].expression).toBe('x');
  });

  it('substitutes in order', async () => {
    const seen: string[] = [];
    const out = await substitute('{{a}}-{{b}}-{{a}}', async (e) => {
      seen.push(e);
      return e.toUpperCase();
    });
    expect(out).toBe('A-B-A');
    expect(seen).toEqual(['a', 'b', 'a']);
  });
});
