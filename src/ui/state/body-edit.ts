/** Editing a request's body as text surgery on its block (every other byte stays as written). */
import type { HttpFile, RequestNode } from '../../core/httpfile/types.js';
import { blockText } from './app-state.js';

/** The file name suffix an editor gets for a body, so it highlights it: from the Content-Type header. */
export function bodySuffix(headers: Array<{ name: string; value: string }>): string {
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  if (/json/i.test(type)) return '.json';
  if (/xml/i.test(type)) return '.xml';
  return '.txt';
}

/** The block with its inline body replaced (or a body added after the headers). */
export function replaceBody(file: HttpFile, node: RequestNode, body: string): string {
  if (node.curl)
    throw new Error("a cURL request's headers and body are in its curl command: edit the whole request with 'e'");
  const block = blockText(file, node);
  const base = node.span.start;
  const text = body.replace(/\n+$/, '');
  if (node.body?.kind === 'inline') {
    return block.slice(0, node.body.span.start - base) + text + block.slice(node.body.span.end - base);
  }
  const lastHeader = node.headers[node.headers.length - 1];
  const after = (lastHeader ? lastHeader.span.end : node.requestLineSpan.end) - base;
  const lineEnd = block.indexOf('\n', Math.max(0, after - 1));
  const at = block[after - 1] === '\n' ? after : lineEnd === -1 ? block.length : lineEnd + 1;
  const prefix = at >= block.length && !block.endsWith('\n') ? '\n' : '';
  return `${block.slice(0, at)}${prefix}\n${text}\n${block.slice(at)}`;
}

/** Whether a request's body is JSON (its Content-Type says so). */
export function isJsonBody(headers: Array<{ name: string; value: string }>): boolean {
  return bodySuffix(headers) === '.json';
}

/** Why a JSON body does not parse, or undefined when it does. `{{variables}}` count as values, so a template checks too. */
export function jsonSyntaxProblem(body: string): string | undefined {
  if (!body.trim()) return undefined;
  try {
    JSON.parse(body.replace(/"?\{\{[^{}]*\}\}"?/g, '0'));
    return undefined;
  } catch (error) {
    return `the body is not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
}
