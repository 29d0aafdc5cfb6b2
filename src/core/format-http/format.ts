/**
 * `dial fmt`: one canonical layout for `.http` files. The parser says what each line is; the
 * layout is then rebuilt line by line:
 * - `###` separators as `### Title`, one blank line before each (none at the top of the file);
 * - no blank lines between a separator and its request line; runs of blank lines become one;
 * - request lines as `METHOD URL [HTTP/x]`, headers as `Name: value` (the name's case kept),
 *   file variables as `@name = value`; a `< file` body gets its blank line before it;
 * - bodies, scripts, assertions and handlers are copied byte for byte (JSON bodies are
 *   re-indented only with `indentJson`), comments keep their text (trailing spaces go);
 * - the file's usual line break (LF or CRLF, by majority) everywhere outside bodies and
 *   scripts, and exactly one at the end.
 * The result is parsed again and must send exactly what the input sends; else nothing changes.
 */
import { DialError, isDialError } from '../errors.js';
import { parseHttpFile, refuseUnreadableRequests } from '../httpfile/index.js';
import { isEmacsRestclient } from '../httpfile/emacs-restclient.js';
import type { HttpFile, RequestNode, Span } from '../httpfile/types.js';
import { indentJson } from './json-indent.js';
import { fileSignature, sameSignature } from './signature.js';

export interface FormatOptions {
  /** Re-indent inline JSON bodies with two spaces (values are kept as written). */
  indentJson?: boolean;
}

/** What each source line is, for the layout. */
type LineKind =
  | { kind: 'verbatim' }
  | { kind: 'rewrite'; text: string }
  | { kind: 'blank' }
  | { kind: 'drop' }
  | { kind: 'separator'; text: string }
  | { kind: 'free' };

interface SourceLines {
  contents: string[];
  breaks: string[];
}

function splitLines(text: string): SourceLines {
  const contents: string[] = [];
  const breaks: string[] = [];
  const re = /\r?\n/g;
  let at = 0;
  for (let match = re.exec(text); match; match = re.exec(text)) {
    contents.push(text.slice(at, match.index));
    breaks.push(match[0]);
    at = match.index + match[0].length;
  }
  if (at < text.length) {
    contents.push(text.slice(at));
    breaks.push('');
  }
  return { contents, breaks };
}

/** CRLF when most line breaks are CRLF, else LF. */
function usualBreak(breaks: string[]): string {
  let crlf = 0;
  for (const b of breaks) if (b === '\r\n') crlf++;
  return crlf * 2 > breaks.filter(Boolean).length ? '\r\n' : '\n';
}

function markSpan(kinds: Array<LineKind | undefined>, span: Span, lastLine: number, kind: LineKind): void {
  for (let line = span.line; line <= lastLine; line++) kinds[line - 1] = kind;
}

/** 1-based line of a span's last character. */
function lastLineOf(text: string, span: Span): number {
  let line = span.line;
  for (let at = text.indexOf('\n', span.start); at >= 0 && at < span.end; at = text.indexOf('\n', at + 1)) line++;
  return line;
}

function requestLineText(node: RequestNode): string {
  // A protocol keyword keeps its spelling (httpyac's `WS`); a bare ws:// URL stays bare.
  const words = node.methodExplicit ? [node.keyword ?? node.method, node.url] : [node.url];
  if (node.httpVersion) words.push(node.httpVersion);
  return words.join(' ');
}

/** Classifies the lines one request owns (its re-indented JSON body, when asked, replaces the body's lines). */
function classifyRequest(
  file: HttpFile,
  node: RequestNode,
  contents: string[],
  kinds: Array<LineKind | undefined>,
  options: FormatOptions,
  eol: string,
): void {
  const verbatim: LineKind = { kind: 'verbatim' };
  const spanLast = (span: Span) => lastLineOf(file.text, span);
  // `run` lines stay as written; a block of only them has no request line to rewrite.
  for (const run of node.runs ?? []) kinds[run.span.line - 1] = verbatim;
  if (node.runOnly) return;
  const requestLast = spanLast(node.requestLineSpan);
  if (node.curl) {
    // A cURL request's headers and body are inside its command: the command stays as written.
    markSpan(kinds, node.requestLineSpan, requestLast, verbatim);
    for (const script of node.handlers) markSpan(kinds, script.span, spanLast(script.span), verbatim);
    for (const assertion of node.assertions) kinds[assertion.span.line - 1] = verbatim;
    return;
  }
  // The URL holds httpyac's query lines from among the headers: rewritten from it, the request
  // line would carry them a second time, so it stays as written, as they do.
  if (requestLast === node.requestLineSpan.line && !node.urlLines)
    kinds[node.requestLineSpan.line - 1] = { kind: 'rewrite', text: requestLineText(node) };
  else markSpan(kinds, node.requestLineSpan, requestLast, verbatim);
  for (const line of node.urlLines ?? []) kinds[line - 1] = verbatim;
  for (const header of node.headers)
    // A `{{name}}` line holding a whole header (REST Client) stays as written.
    kinds[header.span.line - 1] = /^[ \t]*\{\{[^{}]*\}\}[ \t]*$/.test(contents[header.span.line - 1])
      ? verbatim
      : { kind: 'rewrite', text: header.value ? `${header.name}: ${header.value}` : `${header.name}:` };
  for (const script of [...node.preScripts, ...node.handlers])
    markSpan(kinds, script.span, spanLast(script.span), verbatim);
  for (const assertion of node.assertions) kinds[assertion.span.line - 1] = verbatim;
  if (node.outputRedirect) kinds[node.outputRedirect.span.line - 1] = verbatim;
  if (node.body) {
    const bodyLast = spanLast(node.body.span);
    // A GraphQL body's text is the JSON payload dial builds from the query as written: never written back.
    const indented =
      options.indentJson && node.body.kind === 'inline' && !node.graphql ? indentJson(node.body.text, eol) : undefined;
    if (indented !== undefined) {
      markSpan(kinds, node.body.span, bodyLast, { kind: 'drop' });
      kinds[node.body.span.line - 1] = { kind: 'rewrite', text: indented };
    } else {
      markSpan(kinds, node.body.span, bodyLast, verbatim);
    }
  }
  // A separator's request starts right under it: blank lines there go.
  if (/^###/.test(file.text.slice(node.span.start, node.span.start + 3))) {
    for (let line = node.span.line + 1; line < node.requestLineSpan.line; line++)
      if (kinds[line - 1] === undefined && /^[ \t]*$/.test(contents[line - 1])) kinds[line - 1] = { kind: 'drop' };
  }
}

/** Lines that start a body without a blank line before them (`< ./file` right under the headers). */
function bodyStarts(file: HttpFile): Set<number> {
  // A cURL request's body is inside its command: nothing starts there.
  return new Set(file.requests.flatMap((node) => (node.body && !node.curl ? [node.body.span.line] : [])));
}

/** Formats `.http` text; throws the parser's E_PARSE (file:line) for text that does not parse. */
export function formatHttpText(text: string, path: string, options: FormatOptions = {}): string {
  if (isEmacsRestclient(text))
    throw new DialError(
      'E_INPUT',
      `${path || 'the text'} is an Emacs restclient.el file; dial fmt leaves it as it is`,
      {
        location: { file: path || '<text>', line: 1 },
        hint: 'dial runs it as restclient.el reads it, but writes only its own format',
      },
    );
  const file = refuseUnreadableRequests(parseHttpFile(text, path));
  const { contents, breaks } = splitLines(text);
  const eol = usualBreak(breaks);
  const kinds: Array<LineKind | undefined> = new Array(contents.length);
  for (const variable of file.variables)
    kinds[variable.span.line - 1] = {
      kind: 'rewrite',
      text: `@${variable.name} ${variable.lazy ? ':=' : '='}${variable.value ? ` ${variable.value}` : ''}`,
    };
  for (const node of file.requests) classifyRequest(file, node, contents, kinds, options, eol);
  const starts = bodyStarts(file);
  const out = layout(contents, breaks, kinds, starts, eol);
  const formatted = parseOrUndefined(out, path);
  const sameMeaning = (parsed: HttpFile | undefined): boolean =>
    parsed !== undefined && (options.indentJson || sameSignature(fileSignature(file), fileSignature(parsed)));
  if (formatted?.dialect === file.dialect && sameMeaning(formatted)) return out;
  // A file read in a tool's dialect because of how its lines stand (httpyac: a request line right
  // after another request) can lose that reading when blank lines move: then it would be read,
  // and sent, differently next time. Naming the dialect in the file keeps it.
  const sameInDialect = sameMeaning(parseOrUndefined(out, path, file.dialect));
  throw new DialError('E_INPUT', `formatting ${path || 'the text'} would change what it sends; it was left as it is`, {
    hint:
      sameInDialect && file.dialect
        ? `the file is read as ${file.dialect}'s because of how its lines stand; write \`# @dialect ${file.dialect}\` at the top to keep that reading, then format it`
        : 'please report this file to the dial project',
  });
}

function parseOrUndefined(text: string, path: string, dialect?: HttpFile['dialect']): HttpFile | undefined {
  try {
    return parseHttpFile(text, path, dialect ? { dialect } : {});
  } catch (error) {
    if (isDialError(error)) return undefined;
    throw error;
  }
}

/** Writes the lines out under the blank-line rules. */
function layout(
  contents: string[],
  breaks: string[],
  kinds: Array<LineKind | undefined>,
  bodyStartLines: Set<number>,
  eol: string,
): string {
  const out: string[] = [];
  let pendingBlank = false;
  const push = (text: string, lineBreak: string) => {
    if (pendingBlank && out.length > 0) out.push(eol);
    pendingBlank = false;
    out.push(text, lineBreak);
  };
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i];
    let kind = kinds[i];
    if (kind === undefined) {
      if (/^[ \t]*$/.test(content)) kind = { kind: 'blank' };
      else if (content.startsWith('###'))
        kind = { kind: 'separator', text: `### ${content.replace(/^#+/, '').trim()}`.trimEnd() };
      else kind = { kind: 'free' };
    }
    switch (kind.kind) {
      case 'drop':
        break;
      case 'blank':
        pendingBlank = true;
        break;
      case 'separator':
        pendingBlank = true;
        push(kind.text, eol);
        break;
      case 'rewrite':
        if (bodyStartLines.has(i + 1)) pendingBlank = true;
        push(kind.text, eol);
        break;
      case 'verbatim':
        if (bodyStartLines.has(i + 1)) pendingBlank = true;
        push(content, breaks[i] || eol);
        break;
      case 'free':
        push(content.trimEnd(), eol);
        break;
    }
  }
  return out.join('');
}
