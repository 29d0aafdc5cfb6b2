/**
 * "The request under the cursor": editor plugins call `dial run api.http:14` or `--name login`.
 * A line picks the request whose block holds it (from its `###` line to the next one; a line
 * above the first request picks the first); a name matches `# @name` or the `###` title.
 */
import { DialError } from '../errors.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';

export interface RequestPosition {
  line?: number;
  name?: string;
}

/** Splits `api.http:14` / `api.http#login` into the path and the position; other arguments come back as they are. */
export function splitPosition(argument: string): { path: string; position?: RequestPosition } {
  const match = /^(.+\.(?:http|rest))(?:#(.+)|:(\d+))$/i.exec(argument);
  if (!match) return { path: argument };
  return { path: match[1], position: match[2] !== undefined ? { name: match[2] } : { line: Number(match[3]) } };
}

/** True when the request is called `name` (its `# @name` or its `###` title). */
export function requestHasName(node: RequestNode, name: string): boolean {
  return node.name === name || node.title === name;
}

/** The requests of a file a position selects; E_NOT_FOUND (with the file's line and requests) when none. */
export function requestsAtPosition(file: HttpFile, position: RequestPosition, shown: string): RequestNode[] {
  const listing = () =>
    file.requests.map((r) => `${r.name ?? `${r.method} ${r.url}`} (line ${r.span.line})`).join(', ') || 'none';
  if (position.name !== undefined) {
    const named = file.requests.filter((node) => requestHasName(node, position.name!));
    if (named.length === 0)
      throw new DialError('E_NOT_FOUND', `no request named '${position.name}' in ${shown}`, {
        hint: `requests: ${listing()}`,
      });
    return named;
  }
  const line = position.line!;
  const lineCount = file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0);
  if (line < 1 || line > lineCount) {
    throw new DialError('E_NOT_FOUND', `${shown} has ${lineCount} lines; there is no line ${line}`, {
      location: { file: shown, line: Math.max(1, Math.min(line, lineCount)) },
      hint: `requests: ${listing()}`,
    });
  }
  if (file.requests.length === 0)
    throw new DialError('E_NOT_FOUND', `no requests in ${shown}`, { location: { file: shown, line } });
  const found = file.requests.filter((node) => node.span.line <= line).at(-1) ?? file.requests[0];
  return [found];
}
