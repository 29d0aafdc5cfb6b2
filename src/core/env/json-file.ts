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

/** Parses JSON text; a syntax error becomes a DialError (default E_ENV) with line, column and the offending line. */
export function parseJsonText(text: string, file: string, code: ErrorCode = 'E_ENV'): unknown {
  try {
    // A BOM is legal in files editors write but not in JSON.parse.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
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
        hint: 'fix the JSON syntax (no trailing commas or comments)',
      },
    );
  }
}
