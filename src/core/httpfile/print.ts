/**
 * Printing `.http` text. Parsed files keep their source, so printing an unedited file gives
 * the same bytes; edits replace only one request's span (the TUI's save), and new requests
 * are printed in the canonical style of docs/http-format.md (formatRequest).
 */
import { DialError } from '../errors.js';
import type { HttpFile, RequestDraft, RequestNode, ScriptNode, Span } from './types.js';

/** Prints a file: its untouched source (spans tile it, so this equals the concatenation of gaps and request spans). */
export function printHttpFile(file: HttpFile): string {
  let out = '';
  let at = 0;
  for (const request of file.requests) {
    out += file.text.slice(at, request.span.start) + file.text.slice(request.span.start, request.span.end);
    at = request.span.end;
  }
  return out + file.text.slice(at);
}

function printScript(
  marker: '<' | '>',
  script: { kind: 'inline'; code: string } | { kind: 'file'; path: string },
): string {
  if (script.kind === 'file') return `${marker} ${script.path}`;
  const code = script.code;
  if (!code.includes('\n')) return `${marker} {% ${code.trim()} %}`;
  return `${marker} {%${code.startsWith('\n') ? '' : '\n'}${code}${code.endsWith('\n') ? '' : '\n'}%}`;
}

/** Prints a new request block in canonical style, ending with a newline (no trailing blank line). */
export function formatRequest(draft: RequestDraft): string {
  const lines: string[] = [];
  const title = draft.title ?? draft.name;
  lines.push(title ? `### ${title}` : '###');
  for (const variable of draft.variables ?? []) lines.push(`@${variable.name} = ${variable.value}`);
  if (draft.name) lines.push(`# @name ${draft.name}`);
  for (const meta of draft.metadata ?? []) {
    if (meta.key === 'name') continue;
    lines.push(meta.value ? `# @${meta.key} ${meta.value}` : `# @${meta.key}`);
  }
  for (const script of draft.preScripts ?? []) lines.push(printScript('<', script));
  const method = draft.method ?? 'GET';
  const implied = draft.methodExplicit === false && (method === 'GET' || method === 'WEBSOCKET');
  let requestLine = implied ? draft.url : `${draft.keyword ?? method} ${draft.url}`;
  if (draft.httpVersion) requestLine += ` ${draft.httpVersion}`;
  lines.push(requestLine);
  for (const header of draft.headers ?? []) lines.push(`${header.name}: ${header.value}`);
  const body = typeof draft.body === 'string' ? { kind: 'inline' as const, text: draft.body } : draft.body;
  if (body) {
    const text =
      body.kind === 'inline'
        ? body.text.replace(/(?:\r?\n[ \t]*)+$/, '')
        : `${body.substitute ? '<@' : '<'} ${body.path}`;
    if (text) lines.push('', text);
  }
  const tail: string[] = [];
  for (const assertion of draft.assertions ?? []) tail.push(`?? ${assertion.replace(/^\?\?\s*/, '')}`);
  for (const handler of draft.handlers ?? []) tail.push(printScript('>', handler));
  if (draft.outputRedirect) tail.push(`${draft.outputRedirect.overwrite ? '>>!' : '>>'} ${draft.outputRedirect.path}`);
  if (tail.length) lines.push('', ...tail);
  return `${lines.join('\n')}\n`;
}

const CONVENIENCE_KEYS = new Set(['name']);

/** The draft that formatRequest would print for a parsed request (for "edit then reprint"). */
export function draftFromNode(node: RequestNode): RequestDraft {
  const script = (s: ScriptNode) =>
    s.kind === 'inline' ? { kind: 'inline' as const, code: s.code } : { kind: 'file' as const, path: s.path };
  return {
    title: node.title,
    name: node.name !== node.title ? node.name : undefined,
    method: node.method,
    methodExplicit: node.methodExplicit,
    keyword: node.keyword,
    url: node.url,
    httpVersion: node.httpVersion,
    variables: node.variables
      .filter((v) => v.span.start < node.requestLineSpan.start)
      .map((v) => ({ name: v.name, value: v.value })),
    metadata: node.metadata
      .filter((m) => !CONVENIENCE_KEYS.has(m.key))
      .map((m) => ({ key: m.key, value: m.value || undefined })),
    preScripts: node.preScripts.map(script),
    headers: node.headers.map((h) => ({ name: h.name, value: h.value })),
    body: node.body
      ? node.body.kind === 'inline'
        ? { kind: 'inline', text: node.body.text }
        : { kind: 'file', path: node.body.path, substitute: node.body.substitute }
      : undefined,
    assertions: node.assertions.map((a) => a.source),
    handlers: node.handlers.map(script),
    outputRedirect: node.outputRedirect
      ? { path: node.outputRedirect.path, overwrite: node.outputRedirect.overwrite }
      : undefined,
  };
}

function lineEndingOf(text: string): string {
  const nl = text.indexOf('\n');
  return nl > 0 && text.charCodeAt(nl - 1) === 13 ? '\r\n' : '\n';
}

/** Gives LF-only new text the file's line breaks (CRLF files stay CRLF); text with CR is taken as written. */
function toFileEndings(file: HttpFile, text: string): string {
  if (text.includes('\r') || lineEndingOf(file.text) === '\n') return text;
  return text.replace(/\n/g, '\r\n');
}

/** Trailing line breaks and blank lines (not the spaces ending the last line). */
const TRAILING_BREAKS = /(?:\r?\n[ \t]*)*$/;

/** Replaces one span of the file's text; every other byte stays as it was. */
export function replaceSpan(file: HttpFile, span: Pick<Span, 'start' | 'end'>, newText: string): string {
  return file.text.slice(0, span.start) + toFileEndings(file, newText) + file.text.slice(span.end);
}

function requestAt(file: HttpFile, index: number): RequestNode {
  const node = file.requests[index];
  if (!node) throw new DialError('E_NOT_FOUND', `no request #${index + 1} in ${file.path || 'the file'}`);
  return node;
}

/**
 * Replaces request `index`'s block with newBlockText (e.g. from formatRequest). The blank lines
 * that separated the old block from the next are kept, so the layout around it is unchanged.
 */
export function replaceRequestText(file: HttpFile, index: number, newBlockText: string): string {
  const span = requestAt(file, index).span;
  const old = file.text.slice(span.start, span.end);
  const gap = TRAILING_BREAKS.exec(old)![0];
  const trimmed = newBlockText.replace(TRAILING_BREAKS, '');
  const tail = gap || (span.end < file.text.length ? lineEndingOf(file.text) : '');
  // Text that carries CRs (edited from the block's own text) goes in exactly as given.
  const body = newBlockText.includes('\r') ? trimmed : toFileEndings(file, trimmed);
  return file.text.slice(0, span.start) + body + tail + file.text.slice(span.end);
}

/** Inserts a new block before request `beforeIndex` (default: at the end of the file), separated by a blank line. */
export function insertRequestText(file: HttpFile, blockText: string, beforeIndex?: number): string {
  const block = blockText.replace(/\s+$/, '');
  if (beforeIndex !== undefined && beforeIndex < file.requests.length) {
    const start = requestAt(file, beforeIndex).span.start;
    return replaceSpan(file, { start, end: start }, `${block}\n\n`);
  }
  const text = file.text;
  if (!/\S/.test(text)) return text + toFileEndings(file, `${block}\n`);
  const eol = lineEndingOf(text);
  const sep = text.endsWith(`${eol}${eol}`) ? '' : text.endsWith(eol) ? eol : eol + eol;
  return text + sep + toFileEndings(file, `${block}\n`);
}

/**
 * Removes request `index`'s block (with its trailing blank lines). A file that does not end in a
 * line break keeps not ending in one: removing its last block also drops the line breaks before
 * it (so deleting a duplicate of the last request gives back the same bytes).
 */
export function removeRequestText(file: HttpFile, index: number): string {
  const span = requestAt(file, index).span;
  const atEnd = span.end === file.text.length && !/\n$/.test(file.text);
  if (!atEnd) return replaceSpan(file, span, '');
  return file.text.slice(0, span.start).replace(/(?:\r?\n)+$/, '');
}
