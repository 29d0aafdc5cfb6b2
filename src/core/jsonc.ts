/**
 * JSON with comments (JSONC), as VS Code reads its `settings.json`: `//` and `/* *\/` comments
 * and a comma before a closing `}` or `]` are allowed. A leading byte-order mark is dropped.
 */

/**
 * The text with its comments and trailing commas blanked out (each replaced by spaces, line
 * breaks kept), so JSON.parse reads it and a position in its error is one in the original text.
 * Text inside strings is left alone.
 */
export function stripJsonComments(text: string): string {
  const out = text.split('');
  if (text.charCodeAt(0) === 0xfeff) out[0] = ' ';
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  // The index of the last comma outside strings and comments not yet followed by a value.
  let comma = -1;
  for (let i = 0; i < out.length; i++) {
    const c = out[i];
    if (c === '"') {
      let end = i + 1;
      // A string ends at its closing quote, or (left open, which JSON.parse then reports) at the line's end.
      while (end < out.length && out[end] !== '"' && out[end] !== '\n') end += out[end] === '\\' ? 2 : 1;
      i = end;
      comma = -1;
    } else if (c === '/' && out[i + 1] === '/') {
      let end = i;
      while (end < out.length && out[end] !== '\n') end++;
      blank(i, end);
      i = end - 1;
    } else if (c === '/' && out[i + 1] === '*') {
      const close = out.indexOf('*', i + 2);
      let end = close;
      while (end >= 0 && out[end + 1] !== '/') end = out.indexOf('*', end + 1);
      const stop = end < 0 ? out.length : end + 2;
      blank(i, stop);
      i = stop - 1;
    } else if (c === ',') comma = i;
    else if (c === '}' || c === ']') {
      if (comma >= 0) out[comma] = ' ';
      comma = -1;
    } else if (!/\s/.test(c)) comma = -1;
  }
  return out.join('');
}

/** The 1-based line of a JSON.parse error's position in `text`, or undefined when the message names none. */
export function jsonErrorLine(text: string, error: unknown): number | undefined {
  const message = error instanceof Error ? error.message : '';
  const line = /\(line (\d+) column \d+\)/.exec(message);
  if (line) return Number(line[1]);
  const position = /position (\d+)/.exec(message);
  if (!position) return undefined;
  return text.slice(0, Number(position[1])).split('\n').length;
}
