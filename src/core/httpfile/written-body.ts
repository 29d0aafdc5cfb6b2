/** A request's inline body as written in its file, for editors (the TUI's body editor and request pane). */
import type { HttpFile, RequestNode } from './types.js';

/**
 * The body text as the file holds it. For most requests that is the parsed body's text; a
 * GraphQL request's parsed body is the JSON payload built from its query, so editing that would
 * write the payload over the query: it is read back from the source instead.
 */
export function writtenBodyText(file: HttpFile | undefined, node: RequestNode): string {
  const body = node.body;
  if (!body || body.kind !== 'inline') return '';
  if (!node.graphql || !file) return body.text;
  return file.text.slice(body.span.start, body.span.end);
}
