/**
 * The `.http` parser (docs/http-format.md): one pass over the lines, a small state machine per
 * request block (pre → headers → body → post), no backtracking regexes. Every element keeps
 * its span; the source text is kept whole, so printing an unedited file is byte-exact.
 *
 * Decisions where the format is silent (documented for the printer and the tests):
 * - A block is the text from a `###` line up to the next one; the first request may have no
 *   `###`, its span then starts at its first comment/metadata/request line after the last
 *   top-level `@var = value` line. Blocks without a request line (only comments or variables)
 *   belong to no request.
 * - The body starts at the first non-blank line after the blank line that ends the headers and
 *   ends at its last non-blank line: trailing blank lines belong to the block, not the body, and
 *   the body has no final newline (as JetBrains trims trailing newlines). Line endings inside the
 *   body are kept as written. A body made only of `#`/`//` lines is treated as comments (no body),
 *   so a GET followed by a comment before the next `###` sends nothing; likewise a "body" of only
 *   `@var = value` lines and comments holds file variables (declared between requests).
 * - Inside a body, `> ` starts a response handler only when followed by `{%` or a `.js` path
 *   (so XML/Markdown bodies survive); after the body, any `> path` is a handler.
 * - A body that is exactly one `< path` / `<@ path` line is a file body; otherwise inline text
 *   (multipart bodies with `< file` parts stay inline; see expandMultipartBody).
 * - `httpVersion` is kept as written (`HTTP/1.1`, `HTTP/2`); the session maps it for the engine.
 * - `@retry N` without a delay means no delay (delayMs 0).
 * - `<> ./file` lines (response references JetBrains appends after runs) end the body and are
 *   otherwise ignored (kept in the text, so printing is unchanged).
 */
import { DialError } from '../errors.js';
import { parseDuration } from '../duration.js';
import { AssertionSyntaxError, parseAssertion } from './assertion.js';
import type {
  AssertionNode, BodyNode, FileVariable, HeaderNode, HttpFile, OutputRedirectNode,
  RequestNode, ScriptNode, Span,
} from './types.js';

type State = 'pre' | 'headers' | 'body' | 'post';

/** The metadata views a block collects, exactly as RequestNode holds them. */
type BlockMetadata = Pick<
  RequestNode,
  'metadata' | 'preScripts' | 'variables' | 'name' | 'tags' | 'timeoutMs' | 'connectTimeoutMs' | 'noRedirect' | 'noCookieJar' | 'skip' | 'retry' | 'secrets' | 'prompts'
>;

interface Block extends BlockMetadata {
  start: number;
  line: number;
  separator: boolean;
  title?: string;
  /** For the first block without `###`: where the request's own text begins. */
  contentStart?: number;
  contentLine?: number;
  state: State;
  hasRequest: boolean;
  method: string;
  methodExplicit: boolean;
  url: string;
  httpVersion?: string;
  requestLineSpan?: Span;
  headers: HeaderNode[];
  bodyFirst: number;
  bodyLast: number;
  bodyHasContent: boolean;
  /** `@var = value` lines seen in the body: variables if the body turns out to hold nothing else. */
  bodyVariables: number[];
  assertions: AssertionNode[];
  handlers: ScriptNode[];
  outputRedirect?: OutputRedirectNode;
}

const METHOD_RE = /^[A-Z][A-Z0-9_-]*$/;
// VS Code REST Client also reads the standard methods in lower case (`post https://…`).
const LOWERCASE_METHOD_RE = /^(?:get|post|put|patch|delete|head|options|trace|connect)$/;
const VERSION_RE = /^HTTP\/\d(?:\.\d)?$/i;
const VARIABLE_RE = /^@([A-Za-z_$][\w.$-]*)\s*=/;
const METADATA_RE = /^(?:#+|\/\/+)[ \t]*@([A-Za-z][\w.-]*)/;
const HEADER_NAME_RE = /^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]|\{\{[^{}]*\}\})+$/;

function isBlank(line: string): boolean {
  for (let k = 0; k < line.length; k++) {
    const c = line.charCodeAt(k);
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

function isComment(t: string): boolean {
  return t.charCodeAt(0) === 35 /* # */ || (t.charCodeAt(0) === 47 && t.charCodeAt(1) === 47);
}

/** `< path` or `<@ path` (whitespace required, so `<a>text</a>` stays text). */
function isFileBodyLine(t: string): boolean {
  if (t.charCodeAt(0) !== 60) return false;
  const k = t.charCodeAt(1) === 64 ? 2 : 1;
  return (t.charCodeAt(k) === 32 || t.charCodeAt(k) === 9) && t.slice(k).trim().length > 0;
}

function isAssertionLine(t: string): boolean {
  return t.charCodeAt(0) === 63 && t.charCodeAt(1) === 63 && (t.length === 2 || t[2] === ' ' || t[2] === '\t');
}

/** Parses `.http` / `.rest` text. Throws DialError E_PARSE with file:line:col and a hint. */
export function parseHttpFile(text: string, path: string): HttpFile {
  // Line table: content [start, end) without the line break; `next` is where the next line begins.
  const starts: number[] = [];
  const ends: number[] = [];
  const nexts: number[] = [];
  const len = text.length;
  for (let pos = 0; pos < len; ) {
    let nl = text.indexOf('\n', pos);
    const next = nl < 0 ? len : nl + 1;
    if (nl < 0) nl = len;
    const end = nl > pos && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    starts.push(pos);
    ends.push(end);
    nexts.push(next);
    pos = next;
  }
  const lineCount = starts.length;
  const variables: FileVariable[] = [];
  const requests: RequestNode[] = [];
  const fileLabel = path || '<text>';
  let variablesOutOfOrder = false;

  const fail = (message: string, lineIndex: number, col: number, hint?: string): never => {
    throw new DialError('E_PARSE', message, {
      hint,
      location: { file: fileLabel, line: lineIndex + 1, col, excerpt: text.slice(starts[lineIndex], ends[lineIndex]) },
    });
  };
  const lineSpan = (i: number): Span => ({ start: starts[i], end: ends[i], line: i + 1, col: 1 });

  const newBlock = (start: number, line: number, separator: boolean, title?: string): Block => ({
    start, line, separator, title, state: 'pre', metadata: [], preScripts: [], variables: [], tags: [],
    noRedirect: false, noCookieJar: false, secrets: [], prompts: [], hasRequest: false, method: 'GET',
    methodExplicit: false, url: '', headers: [], bodyFirst: -1, bodyLast: -1, bodyHasContent: false,
    bodyVariables: [], assertions: [], handlers: [],
  });

  const finish = (block: Block, end: number): void => {
    if (!block.hasRequest) return;
    if (!block.bodyHasContent) {
      // Only variables and comments after the headers: they are variables, not a body.
      for (const i of block.bodyVariables) {
        const t = text.slice(starts[i], ends[i]).trimStart();
        addVariable(block, i, t, VARIABLE_RE.exec(t)!);
        variablesOutOfOrder = true;
      }
    }
    let body: BodyNode | undefined;
    if (block.bodyFirst >= 0 && block.bodyHasContent) {
      const first = text.slice(starts[block.bodyFirst], ends[block.bodyFirst]).trim();
      const span: Span = { start: starts[block.bodyFirst], end: ends[block.bodyLast], line: block.bodyFirst + 1, col: 1 };
      if (block.bodyFirst === block.bodyLast && isFileBodyLine(first)) {
        const substitute = first.charCodeAt(1) === 64; /* @ */
        body = { kind: 'file', path: first.slice(substitute ? 2 : 1).trim(), substitute, span };
      } else {
        body = { kind: 'inline', text: text.slice(span.start, span.end), span };
      }
    }
    const start = block.separator ? block.start : (block.contentStart ?? block.requestLineSpan!.start);
    const line = block.separator ? block.line : (block.contentLine ?? block.requestLineSpan!.line);
    requests.push({
      index: requests.length,
      name: block.name ?? block.title,
      title: block.title,
      span: { start, end, line, col: 1 },
      requestLineSpan: block.requestLineSpan!,
      method: block.method,
      methodExplicit: block.methodExplicit,
      url: block.url,
      httpVersion: block.httpVersion,
      headers: block.headers,
      body,
      metadata: block.metadata,
      tags: block.tags,
      timeoutMs: block.timeoutMs,
      ...(block.connectTimeoutMs !== undefined ? { connectTimeoutMs: block.connectTimeoutMs } : {}),
      noRedirect: block.noRedirect,
      noCookieJar: block.noCookieJar,
      skip: block.skip,
      retry: block.retry,
      secrets: block.secrets,
      prompts: block.prompts,
      preScripts: block.preScripts,
      handlers: block.handlers,
      assertions: block.assertions,
      outputRedirect: block.outputRedirect,
      variables: block.variables,
    });
  };

  const applyMetadata = (block: Block, key: string, value: string, i: number): void => {
    const bad = (what: string, hint: string): never => fail(`bad metadata value: ${what}`, i, 1, hint);
    switch (key) {
      case 'name':
        if (!value) bad('@name needs a name', 'write `# @name login`');
        block.name = value;
        break;
      case 'tag':
      case 'tags':
        for (const tag of value.split(/[\s,]+/)) if (tag) block.tags.push(tag);
        break;
      case 'timeout':
        try {
          block.timeoutMs = parseDuration(value, '@timeout');
        } catch {
          bad(`@timeout '${value}'`, 'write durations like 500ms, 5s or 2m; a bare number means seconds');
        }
        break;
      case 'connection-timeout':
        try {
          block.connectTimeoutMs = parseDuration(value, '@connection-timeout');
        } catch {
          bad(`@connection-timeout '${value}'`, 'write durations like 500ms, 5s or 2m; a bare number means seconds');
        }
        break;
      case 'no-redirect':
        block.noRedirect = true;
        break;
      case 'no-cookie-jar':
        block.noCookieJar = true;
        break;
      case 'skip':
        block.skip = value ? { reason: value } : {};
        break;
      case 'retry': {
        const [count, delay, extra] = value.split(/\s+/);
        if (!count || !/^\d+$/.test(count) || extra !== undefined) bad(`@retry '${value}'`, 'write `# @retry 3` or `# @retry 3 500ms`');
        let delayMs = 0;
        if (delay !== undefined) {
          try {
            delayMs = parseDuration(delay, '@retry delay');
          } catch {
            bad(`@retry delay '${delay}'`, 'write durations like 500ms, 5s or 2m');
          }
        }
        block.retry = { count: Number(count), delayMs };
        break;
      }
      case 'secret': {
        const names = value.split(/[\s,]+/).filter(Boolean);
        if (names.length === 0) bad('@secret needs a variable name', 'write `# @secret token`');
        block.secrets.push(...names);
        break;
      }
      case 'prompt': {
        const match = /^(\S+)(?:\s+(.*))?$/.exec(value);
        if (!match) bad('@prompt needs a variable name', 'write `# @prompt otp Your one-time code`');
        block.prompts.push(match![2] ? { name: match![1], description: match![2] } : { name: match![1] });
        break;
      }
      default:
        break;
    }
  };

  /** An inline `{% … %}` script starting on line i at `open` (index of `{%` in the text); returns the last line index. */
  const scanScript = (i: number, open: number, into: ScriptNode[]): number => {
    const close = text.indexOf('%}', open + 2);
    if (close < 0) fail('unterminated script: `{%` without `%}`', i, open - starts[i] + 1, 'close the script with `%}` on its own line');
    let last = i;
    while (last < lineCount - 1 && nexts[last] <= close) last++;
    into.push({ kind: 'inline', code: text.slice(open + 2, close), span: { start: starts[i], end: ends[last], line: i + 1, col: 1 } });
    return last;
  };

  /** Handles a line that may appear after the body (assertion, handler, redirect); returns the last line consumed or -1. */
  const postLine = (block: Block, i: number, line: string, t: string, strictHandler: boolean): number => {
    const first = t.charCodeAt(0);
    // `<> ./2024-01-01T120000.200.json`: a response reference JetBrains appends after a run; kept as text only.
    if (first === 60 && t.charCodeAt(1) === 62) return i;
    if (first === 63 && isAssertionLine(t)) {
      const at = line.indexOf('??') + 2;
      try {
        const assertion = parseAssertion(line.slice(at)) as AssertionNode;
        assertion.span = lineSpan(i);
        block.assertions.push(assertion);
      } catch (error) {
        if (error instanceof AssertionSyntaxError) fail(error.message, i, at + error.offset + 1, error.hint);
        throw error;
      }
      return i;
    }
    if (first !== 62 /* > */) return -1;
    if (t.charCodeAt(1) === 62) {
      const overwrite = t.charCodeAt(2) === 33; /* ! */
      const target = t.slice(overwrite ? 3 : 2).trim();
      if (!target) fail('output redirect needs a path', i, 1, 'write `>> ./out.json` (or `>>! ./out.json` to overwrite)');
      block.outputRedirect = { path: target, overwrite, span: lineSpan(i) };
      return i;
    }
    const after = t.slice(1).trimStart();
    if (after.startsWith('{%')) return scanScript(i, starts[i] + line.indexOf('{%'), block.handlers);
    if (!after || (strictHandler && !/\.[cm]?js$/i.test(after))) return -1;
    block.handlers.push({ kind: 'file', path: after, span: lineSpan(i) });
    return i;
  };

  const addVariable = (block: Block, i: number, line: string, match: RegExpExecArray): void => {
    const variable: FileVariable = { name: match[1], value: line.slice(match[0].length).trim(), span: lineSpan(i) };
    variables.push(variable);
    if (block.separator || block.hasRequest) block.variables.push(variable);
  };

  let block = newBlock(0, 1, false);
  for (let i = 0; i < lineCount; i++) {
    const line = text.slice(starts[i], ends[i]);
    const c0 = line.charCodeAt(0);
    if (c0 === 35 && line.charCodeAt(1) === 35 && line.charCodeAt(2) === 35) {
      finish(block, starts[i]);
      let k = 3;
      while (line.charCodeAt(k) === 35) k++;
      const title = line.slice(k).trim();
      block = newBlock(starts[i], i + 1, true, title || undefined);
      continue;
    }
    if (block.state === 'body') {
      const t = c0 === 32 || c0 === 9 ? line.trimStart() : line;
      if (t.length === 0) continue;
      const c = t.charCodeAt(0);
      if ((c === 63 && isAssertionLine(t)) || c === 62 || (c === 60 && t.charCodeAt(1) === 62)) {
        const last = postLine(block, i, line, t, true);
        if (last >= 0) {
          block.state = 'post';
          i = last;
          continue;
        }
      }
      if (block.bodyFirst < 0) block.bodyFirst = i;
      block.bodyLast = i;
      if (!block.bodyHasContent && !isComment(t)) {
        if (t.charCodeAt(0) === 64 && VARIABLE_RE.test(t)) block.bodyVariables.push(i);
        else block.bodyHasContent = true;
      }
      continue;
    }
    if (isBlank(line)) {
      if (block.state === 'headers') block.state = 'body';
      continue;
    }
    const t = c0 === 32 || c0 === 9 ? line.trimStart() : line;
    if (block.state === 'pre') {
      const variable = t.charCodeAt(0) === 64 ? VARIABLE_RE.exec(t) : null;
      if (variable) {
        addVariable(block, i, t, variable);
        if (!block.separator) block.contentStart = block.contentLine = undefined;
        continue;
      }
      if (!block.separator && block.contentStart === undefined) {
        block.contentStart = starts[i];
        block.contentLine = i + 1;
      }
      if (isComment(t)) {
        const meta = METADATA_RE.exec(t);
        if (meta) {
          let value = t.slice(meta[0].length).trim();
          // JetBrains also accepts `# @name = login`.
          if (value.charCodeAt(0) === 61 /* = */) value = value.slice(1).trim();
          block.metadata.push({ key: meta[1], value, span: lineSpan(i) });
          applyMetadata(block, meta[1], value, i);
        }
        continue;
      }
      if (t.charCodeAt(0) === 60 /* < */) {
        const after = t.slice(1).trimStart();
        if (after.startsWith('{%')) i = scanScript(i, starts[i] + line.indexOf('{%'), block.preScripts);
        else if (after) block.preScripts.push({ kind: 'file', path: after, span: lineSpan(i) });
        else fail('pre-request script line needs `{% … %}` or a path', i, 1, 'write `< {% request.variables.set("a", "1") %}` or `< ./pre.js`');
        continue;
      }
      // The request line: [METHOD] URL [HTTP/x], then indented `?`/`&`/`/` continuation lines.
      let rest = line.trim();
      const space = rest.search(/\s/);
      const word = space > 0 ? rest.slice(0, space) : '';
      if (METHOD_RE.test(word) || LOWERCASE_METHOD_RE.test(word)) {
        block.method = word.toUpperCase();
        block.methodExplicit = true;
        rest = rest.slice(space).trimStart();
      }
      const takeVersion = (part: string): string => {
        const lastSpace = Math.max(part.lastIndexOf(' '), part.lastIndexOf('\t'));
        if (lastSpace > 0 && VERSION_RE.test(part.slice(lastSpace + 1))) {
          block.httpVersion = part.slice(lastSpace + 1);
          return part.slice(0, lastSpace).trimEnd();
        }
        return part;
      };
      let url = takeVersion(rest);
      let last = i;
      while (last + 1 < lineCount && block.httpVersion === undefined) {
        const next = text.slice(starts[last + 1], ends[last + 1]);
        const n0 = next.charCodeAt(0);
        if (n0 !== 32 && n0 !== 9) break;
        const trimmed = next.trim();
        // `?a=1` / `&b=2` (docs/http-format.md) and JetBrains' `/path` segments.
        if (trimmed[0] !== '?' && trimmed[0] !== '&' && trimmed[0] !== '/') break;
        url += takeVersion(trimmed);
        last++;
      }
      if (!url) fail('request line without a URL', i, 1, 'write `GET https://example.com/path`');
      // Whitespace left in the URL (outside `{{ … }}`) means the first word was not a method.
      const stray = url.replace(/\{\{[^{}]*\}\}/g, (braces) => 'x'.repeat(braces.length)).search(/\s/);
      if (stray >= 0) {
        fail(`unexpected space in the request line's URL: ${JSON.stringify(url)}`, i, line.indexOf(url) + stray + 1, 'start with a method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS) and encode spaces in the URL as %20');
      }
      block.url = url;
      block.hasRequest = true;
      block.requestLineSpan = { start: starts[i], end: ends[last], line: i + 1, col: 1 };
      block.state = 'headers';
      i = last;
      continue;
    }
    if (block.state === 'headers') {
      const c = t.charCodeAt(0);
      if ((c === 63 && isAssertionLine(t)) || c === 62 || (c === 60 && t.charCodeAt(1) === 62)) {
        const last = postLine(block, i, line, t, false);
        if (last >= 0) {
          block.state = 'post';
          i = last;
          continue;
        }
      }
      if (isFileBodyLine(t)) {
        block.state = 'body';
        block.bodyFirst = block.bodyLast = i;
        block.bodyHasContent = true;
        continue;
      }
      if (isComment(t)) continue;
      const colon = t.indexOf(':');
      const name = colon > 0 ? t.slice(0, colon).trim() : '';
      if (!name || !HEADER_NAME_RE.test(name)) {
        fail('bad header line', i, 1, 'headers are `Name: value` lines; leave a blank line before the body');
      }
      block.headers.push({ name, value: t.slice(colon + 1).trim(), span: lineSpan(i) });
      continue;
    }
    // post: after the body
    if (isComment(t)) continue;
    const variable = t.charCodeAt(0) === 64 ? VARIABLE_RE.exec(t) : null;
    if (variable) {
      addVariable(block, i, t, variable);
      continue;
    }
    const last = postLine(block, i, line, t, false);
    if (last < 0) fail('unexpected line after the assertions or response handler', i, 1, 'start the next request with `###`');
    i = last;
  }
  finish(block, len);
  if (variablesOutOfOrder) variables.sort((a, b) => a.span.start - b.span.start);
  return { path, text, variables, requests };
}
