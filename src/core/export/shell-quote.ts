/**
 * Bash quoting for commands dial prints (export curl, send --curl, TUI copy as curl).
 * Single quotes are the default because nothing is special inside them; `$'…'` is used
 * only when a value holds control characters that would not survive a copy and paste.
 */

// Characters that never need quoting in a Bash word.
const SAFE_WORD = /^[A-Za-z0-9_@%+=:,./-]+$/;
// Control characters other than newline and tab (those are fine inside single quotes).
const NEEDS_ANSI_C = /[\x00-\x08\x0b-\x1f\x7f]/;

/** Quotes a value as one Bash word; `force` quotes even words that are safe bare. */
export function shellQuote(value: string, force = false): string {
  if (NEEDS_ANSI_C.test(value)) return ansiCQuote(value);
  if (!force && SAFE_WORD.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Quotes a value as Bash `$'…'` (ANSI-C quoting) with control characters escaped. */
export function ansiCQuote(value: string): string {
  let out = "$'";
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '\\') out += '\\\\';
    else if (char === "'") out += "\\'";
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += char;
  }
  return out + "'";
}
