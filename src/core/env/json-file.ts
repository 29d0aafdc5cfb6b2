/** Reading JSON files people write by hand, with errors that point at file:line:col. */
import { DialError, type ErrorCode } from '../errors.js';
import { stripJsonComments } from '../jsonc.js';

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
 * JSON with comments (`//`, `/* … *\/`) and trailing commas, as JetBrains reads its env files:
 * those characters become spaces (line breaks stay), so offsets, lines and columns are unchanged.
 */
export function blankJsonComments(text: string): string {
  return text.includes('/') || text.includes(',') ? stripJsonComments(text) : text;
}

/** Parses JSON text; a syntax error becomes a DialError (default E_ENV) with line, column and the offending line. */
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
      // Comments and trailing commas cost a second pass only in the files that have them.
      if (!options.comments) throw error;
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
        hint: options.comments ? 'fix the JSON syntax' : 'fix the JSON syntax (no trailing commas or comments)',
      },
    );
  }
}
