/** Reading JSON files people write by hand, with errors that point at file:line:col. */
import { DialError, type ErrorCode } from '../errors.js';

/** The 1-based line and column of a UTF-16 offset in text. */
export function lineColAt(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: end - lineStart + 1 };
}

/**
 * `//` and `/* *\/` comments outside strings turned into spaces (line breaks kept), so what is
 * left is plain JSON whose offsets, lines and columns are those of the text as written.
 */
export function blankJsonComments(text: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"' && text[i] !== '\n'; i++) if (text[i] === '\\') i++;
    } else if (c === '/' && (text[i + 1] === '/' || text[i + 1] === '*')) {
      const line = text[i + 1] === '/';
      let end = line ? text.indexOf('\n', i) : text.indexOf('*/', i + 2);
      end = end < 0 ? text.length : line ? end : end + 2;
      out += text.slice(from, i) + text.slice(i, end).replace(/[^\r\n]/g, ' ');
      from = end;
      i = end - 1;
    }
  }
  return out + text.slice(from);
}

/**
 * Parses JSON text; a syntax error becomes a DialError (default E_ENV) with line, column and the
 * offending line. `comments`: `//` and `/* *\/` comments are allowed (JetBrains reads its env
 * files with them).
 */
export function parseJsonText(
  text: string,
  file: string,
  code: ErrorCode = 'E_ENV',
  options: { comments?: boolean } = {},
): unknown {
  try {
    // A BOM is legal in files editors write but not in JSON.parse.
    const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    try {
      return JSON.parse(json);
    } catch (error) {
      if (!options.comments || !json.includes('/')) throw error;
      return JSON.parse(blankJsonComments(json));
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : text.length;
    const { line, col } = lineColAt(text, offset);
    const excerpt = text.split(/\r?\n/)[line - 1];
    throw new DialError(
      code,
      `invalid JSON: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '')}`,
      {
        location: { file, line, col, excerpt },
        hint: options.comments
          ? 'fix the JSON syntax (no trailing commas)'
          : 'fix the JSON syntax (no trailing commas or comments)',
      },
    );
  }
}
