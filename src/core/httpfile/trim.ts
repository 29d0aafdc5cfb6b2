/** `text.slice(from, to).trim()` in one copy instead of two (the parser trims several parts of every line). */

/** True for what String.prototype.trim removes: ECMAScript WhiteSpace and LineTerminator code units. */
export function isTrimmedSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `text.slice(from, to).trim()` (tests/core/httpfile/scanners.property.test.ts compares the two). */
export function trimmedSlice(text: string, from: number, to: number): string {
  while (from < to && isTrimmedSpace(text.charCodeAt(from))) from++;
  while (to > from && isTrimmedSpace(text.charCodeAt(to - 1))) to--;
  return text.slice(from, to);
}
