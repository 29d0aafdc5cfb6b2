/**
 * The `.http` parser (docs/http-format.md): one pass over the lines, one method per production
 * (separator, variable, metadata, pre-request script, request line, header, body line, after-body
 * line), a small state machine per request block (pre → headers → body → post), no backtracking
 * regexes. Every element keeps its span; the source text is kept whole, so printing an unedited
 * file is byte-exact.
 *
 * Decisions where the format is silent (documented for the printer and the tests):
 * - A block is the text from a `###` line up to the next one; the first request may have no
 *   `###`, its span then starts at its first comment/metadata/request line after the last
 *   top-level `@var = value` line. Blocks without a request line (only comments or variables)
 *   belong to no request. In the httpyac dialect a `METHOD url` line (with the comment lines just
 *   above it) also starts a new block; elsewhere such a line inside a body is body text, with a warning.
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
 * - What another tool would do and dial cannot yet (protocols, module-loading scripts, Lua,
 *   `run`/`import` lines, file encodings…) is an E_PARSE error at its line: refused before anything is sent.
 */
import { DialError } from '../errors.js';
import {
  AssertionSyntaxError,
  HTTPYAC_QUERIES,
  httpyacAssertParts,
  httpyacReadsAsDial,
  parseAssertion,
} from './assertion.js';
import { newBlock, type Block } from './block.js';
import { curlRequestOf } from './curl-request.js';
import { lineTable, type LineTable } from './lines.js';
import { trimmedSlice } from './trim.js';
import { chooseDialect, RESTNVIM_LEGACY_RE, type Dialect } from './dialect.js';
import { bodyFileHasPlaceholder } from './body-file-dialect.js';
import {
  HTTPYAC_SCRIPT_END_RE,
  httpyacScriptStart,
  refusedScriptEvent,
  type HttpyacFileScripts,
  type HttpyacScriptStart,
} from './httpyac.js';
import {
  applyMetadata,
  checkCommandMetadata,
  COMMAND_KEYS,
  metadataKeyEnd,
  metadataKeyStart,
  refusedMetadata,
} from './metadata.js';
import { grpcTargetProblem, PROTO_IMPORT_RE, PROTO_OPTION_RE, protoOptionProblem, type ProtoImport } from './grpc.js';
import { isKnownMethod, KNOWN_METHODS, PROTOCOL_KEYWORDS, PROTOCOL_METHODS } from './methods.js';
import {
  fileBodyEncoding,
  inlineScriptRefusal,
  isDataFilePath,
  isSupportedEncoding,
  RESTNVIM_LUA_REFUSAL,
  runsAsRestNvimLua,
  scriptFileRefusal,
} from './scripts.js';
import { reportParseWarnings } from './warnings.js';
import { importPath, isImportLine, isRunLine, parseRunLine } from './run-lines.js';
import { applySharedBlock } from './kulala-shared.js';
import { fromEmacsRestclient, isEmacsRestclient } from './emacs-restclient.js';
import type {
  AssertionNode,
  BodyNode,
  FileVariable,
  HeaderNode,
  HttpFile,
  ImportNode,
  ParseWarning,
  RequestNode,
  ScriptNode,
  Span,
} from './types.js';

/** rest.nvim's form body: each `&`-separated `key = value` pair with the blanks around key and value removed. */
export function restNvimForm(text: string): string {
  return text
    .split('&')
    .filter((pair) => pair !== '' && !pair.startsWith('=')) // no key: rest.nvim drops the pair
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? `${pair.trim()}=` : `${pair.slice(0, eq).trim()}=${pair.slice(eq + 1).trim()}`;
    })
    .join('&');
}

/** A `# @lang …` / `// @lang=…` comment line (rest.nvim's script language). */
/** rest.nvim 0.x's request start (`^GET\\|^POST\\|…` in Vim's search) and the comments it keeps with it (`^ *#`). */
const LEGACY_REQUEST_RE = /^(?:GET|POST|PUT|PATCH|DELETE)/;
const LEGACY_COMMENT_RE = /^ *#/;
const LANG_COMMENT_RE = /^(?:#+|\/\/+)[ \t]*@lang\b/;
const METHOD_RE = /^[A-Z][A-Z0-9_-]*$/;
const VERSION_RE = /^HTTP\/\d(?:\.\d)?$/i;
const PRIOR_KNOWLEDGE_RE = /[ \t]+(HTTP\/2[ \t]+\(Prior Knowledge\))[ \t]*$/i;
/** `@name = value`; httpyac's `@name := value` (lazy: filled in where used, not where defined) too. */
const VARIABLE_RE = /^@([A-Za-z_$][\w.$-]*)\s*(:?)=/;
const HEADER_NAME_RE = /^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]|\{\{[^{}]*\}\})+$/;
const TEMPLATED_HEADER_RE = /^(?:\{\{[^{}]*\}\}|[!#$%&'*+.^_`|~0-9A-Za-z-])+[ \t]*:/;
const HEADER_LINE_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+[ \t]*:/;
/** A line that is unmistakably a request line: known method, then an absolute, rooted or templated target. */
const STRICT_REQUEST_LINE_RE = /^([A-Z][A-Z-]*)[ \t]+(?:https?:\/\/|\/|\{\{)\S*(?:[ \t]+HTTP\/\d(?:\.\d)?)?[ \t]*$/;
const GRAPHQL_OPERATION_RE = /^(?:fragment|query|mutation|subscription)\b[^:]*\{?\s*$/;
/** httpyac keeps responses in the file after the request: `HTTP/1.1 200 - OK`. */
const BODY_REFERENCE_RE = /^\s*[\w-]+\.(?:request|response)\.body\.(?:asXml\.)?\//;
const RANDOM_RE = /^\s*\$random\.(.*?)\s*$/s;
const KNOWN_RANDOM_RE = /^(?:uuid|email|(?:integer|float|alphabetic|alphanumeric|hexadecimal)\([^()]*\))$/;
const PLAIN_PLACEHOLDER_RE = /^\s*(?:\$.*|[\w$.\-[\]'"*/%@]*)\s*$/s;
/** Calls, arrows, template strings or operators: `{{ }}` text that is code, not a misspelt name. */
const LOOKS_LIKE_JS_RE = /[()`]|=>|\s[-+*/%]\s|[!<>=]=|&&|\|\||\?\?/;
const HTTPYAC_FRAGMENT_RE = /^\s*fragment\s+([^\s({]+)\s+on\s+/;
const HTTPYAC_QUERY_RE = /^\s*(?:query|mutation)(?:\s+([^\s({]+))?/;
/** httpyac `gql [name] < ./query.gql`: the query read from a file. */
const HTTPYAC_GQL_FILE_RE = /^\s*gql(?:\s+([^\s({]+))?\s+<\s+(.+?)\s*$/;
const HTTPYAC_QUERY_LINE_RE = /^\s*[?&](?:[^(=?&)]+=.*|\{\{.*\}\})\s*$/;
const HTTPYAC_PATH_LINE_RE = /^\s*\/[^*]*$/;
/**
 * Metadata keys that change what is sent, run or named; a `#@key` line (no blank after the mark)
 * with one of them warns where the tools read it differently (Parser.metadataOnlySomeToolsRead).
 */
const ACTING_METADATA: ReadonlySet<string> = new Set([
  'name',
  'ref',
  'forceRef',
  'import',
  'disabled',
  'no-redirect',
  'noRedirect',
  'no-cookie-jar',
  'noCookieJar',
  'timeout',
  'loop',
  'sleep',
  'delay',
  'jwt',
  'prompt',
  'secret',
  'note',
  'proxy',
  'noProxy',
  'no-proxy',
  'injectVariables',
  'env-json-key',
  'env-header-key',
  'retry',
]);

/** Metadata the httpyac dialect acts on that other dialects refuse. */
const HTTPYAC_METADATA = new Set(['import', 'loop', 'jwt']);
const SAVED_RESPONSE_RE = /^HTTP\/\d(?:\.\d)?[ \t]+\d{3}\b/;

export interface ParseOptions {
  /** Read the file with this tool's meaning (a `# @dialect` line in the file still wins). */
  dialect?: Dialect;
}

/**
 * The end of the `{{ … }}` that starts at `at` (a `{{`), or -1: what `/\{\{([^{}\n]*)\}\}/`
 * matches there, read by hand (the text up to the first brace or line break, then `}}`).
 * tests/core/httpfile/placeholders.property.test.ts compares the two.
 */
export function placeholderEnd(text: string, at: number): number {
  let k = at + 2;
  while (k < text.length) {
    const c = text.charCodeAt(k);
    if (c === 123 || c === 125 || c === 10) break;
    k++;
  }
  return text.charCodeAt(k) === 125 && text.charCodeAt(k + 1) === 125 ? k + 2 : -1;
}

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

/**
 * How a `??` line reads: `'body'` when httpyac's assert parser does not read it as a test (no
 * predicate of its own after a space: `?? status 200`), which its body parser then takes as body
 * text; else a test: dial's own reading of it when it has one (`?? body not isEmpty`, `?? body $.a
 * length > 1`), for assertionLine to keep instead of parsing the line again, or `'test'`.
 */
function readTestLine(t: string): ParsedAssertion | 'test' | 'body' {
  // dial's own reading first: it takes most test lines, and costs less than httpyac's pattern.
  try {
    return parseAssertion(t.slice(2));
  } catch (error) {
    if (!(error instanceof AssertionSyntaxError)) throw error;
  }
  return httpyacAssertParts(t) ? 'test' : 'body';
}

type ParsedAssertion = ReturnType<typeof parseAssertion>;

/**
 * httpyac's `@xpath_ns prefix=uri` (xpathNamespaceHttpRegionParser): the namespaces of the
 * region's `?? xpath` tests. Its value pattern is greedy, so a closing quote stays in the URI.
 */
const XPATH_NS_RE = /^\s*@xpath_ns\s+(?<key>[^\s=:]*)\s*=\s*"?(?<value>.*)"?\s*$/u;

/** httpyac's multi-line comment opens on a line of its own (commentHttpRegionParser). */
function isHttpyacBlockCommentStart(t: string): boolean {
  return t.charCodeAt(0) === 47 && t.charCodeAt(1) === 42 && t.slice(2).trim() === '';
}

/** Lines that may end a body or headers: `??` assertions, `>` handlers and redirects, `<>` references. */
function mayEndBody(t: string): boolean {
  const c = t.charCodeAt(0);
  return (c === 63 && isAssertionLine(t)) || c === 62 || (c === 60 && t.charCodeAt(1) === 62);
}

/**
 * The shell quote (`'` or `"`) still open at the end of `line`, given the one open at its start
 * (`{{…}}` spans outside quotes are skipped: their insides are no shell text).
 */
function quoteOpenAfter(line: string, open: string | undefined): string | undefined {
  let quote = open;
  for (let k = 0; k < line.length; k++) {
    const c = line[k];
    if (!quote && c === '{' && line[k + 1] === '{') {
      const end = line.indexOf('}}', k + 2);
      if (end >= 0) {
        k = end + 1;
        continue;
      }
    }
    if (quote === "'") {
      if (c === "'") quote = undefined;
    } else if (quote === '"') {
      if (c === '\\') k++;
      else if (c === '"') quote = undefined;
    } else if (c === '\\') k++;
    else if (c === "'" || c === '"') quote = c;
  }
  return quote;
}

/** A curl command's line that ends inside a quote: kept whole with its line break; REST Client drops a `\\` right before the break. */
function quotedLine(line: string): string {
  return line.endsWith('\\') ? line.slice(0, -1) : `${line}\n`;
}

function isStrictRequestLine(t: string): boolean {
  // `GET /x?q={{$randomInt 1 9}}`: the spaces of a placeholder are no end of the target.
  const match = STRICT_REQUEST_LINE_RE.exec(t.includes('{{') ? blankTemplateInsides(t) : t);
  return match !== null && KNOWN_METHODS.has(match[1]);
}

/** `{{ a b }}` as `{{xxxxx}}`: the braces kept, what is between them without whitespace. */
function blankTemplateInsides(t: string): string {
  return t.replace(/\{\{[^{}]*\}\}/g, (braces) => `{{${'x'.repeat(braces.length - 4)}}}`);
}

/**
 * A target with a blank in it whose first word holds no `/`, `.` or `{{`: text no tool can read as a
 * URL (`send Request`, `Content-Type: application/json`), not a URL written with a space.
 */
function isNoTarget(url: string): boolean {
  const stray = maskTemplates(url).search(/\s/);
  return stray > 0 && !/[/.{]/.test(url.slice(0, stray));
}

/** Replaces `{{ … }}` spans by same-length filler so whitespace searches skip them. */
function maskTemplates(url: string): string {
  return url.replace(/\{\{[^{}]*\}\}/g, (braces) => 'x'.repeat(braces.length));
}

/**
 * `name.toLowerCase() === lower` without making the lower-case copy for an ASCII name (every
 * request asks for its Content-Type and X-Request-Type): before the first non-ASCII character
 * each character lower-cases on its own, so a difference there is final; after it, the copy decides.
 */
function lowerCaseEquals(name: string, lower: string): boolean {
  for (let k = 0; k < name.length; k++) {
    let c = name.charCodeAt(k);
    if (c >= 128) return name.toLowerCase() === lower;
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(k)) return false;
  }
  return name.length === lower.length;
}

/**
 * The array at its length: a pushed-to array keeps room for 16 more elements (V8 grows it so), and
 * the tree keeps four of them per request, ~20% of its size and of what the collector copies.
 */
function exact<T>(items: T[]): T[] {
  return items.length === 0 ? items : items.slice();
}

function headerValue(block: Block, name: string): string | undefined {
  for (const header of block.headers) if (lowerCaseEquals(header.name, name)) return header.value;
  return undefined;
}

const BODY_COMMENT_LINE_RE = /^[ \t]*(?:#|\/\/)[^\n]*(?:\n|$)/gm;

/**
 * Whole-line `#` / `//` comments inside a body are comments, not body text: the JetBrains format
 * says so (comments may stand in the body, from the start of a line, indented or not), REST
 * Client drops them before sending, Visual Studio ignores them, kulala too. Only httpyac sends the
 * body as written. Comments at the end of a line (`"a": 1, // note`) stay: every tool sends them.
 */
function withoutCommentLines(text: string): string {
  if (!/^[ \t]*(?:#|\/\/)/m.test(text)) return text;
  return text.replace(BODY_COMMENT_LINE_RE, '').replace(/\r?\n$/, '');
}

const BLOCK_COMMENT_LINES_RE = /^[ \t]*\/\*[ \t]*\r?\n[\s\S]*?^[ \t]*\*\/[ \t]*(?:\r?\n|$)/gm;

/**
 * httpyac reads comments before the body (parseMetaData and parseComment run first on every
 * line): whole-line `#` / `//` comments and `/*` … `*\/` blocks (each on lines of their own)
 * are not sent, wherever they stand in the body.
 */
function withoutHttpyacComments(text: string): string {
  const lines = /^[ \t]*\/\*[ \t]*$/m.test(text) ? text.replace(BLOCK_COMMENT_LINES_RE, '') : text;
  return withoutCommentLines(lines);
}

/**
 * The body text to send, where the tools rewrite what is written: REST Client's
 * `X-Request-Type: GraphQL` (query, blank line, variables → a GraphQL JSON payload; the marker
 * header is not sent) and form bodies split over lines that start with `&` (joined).
 */
function inlineBodyText(block: Block, text: string): string {
  if (headerValue(block, 'x-request-type')?.toLowerCase() === 'graphql') {
    block.headers = block.headers.filter((header) => header.name.toLowerCase() !== 'x-request-type');
    const lines = text.split(/\r?\n/);
    const blank = lines.findIndex((line) => line.trim() === '');
    const query = (blank < 0 ? lines : lines.slice(0, blank)).join('\n');
    const variables =
      blank < 0
        ? ''
        : lines
            .slice(blank + 1)
            .join('\n')
            .trim();
    const operationName = /^\s*query\s+([^@{(\s]+)/i.exec(query)?.[1];
    // Variables stay a template: spliced in as written so their {{…}} are resolved at send time.
    const head = JSON.stringify({ query, operationName });
    return `${head.slice(0, -1)},"variables":${variables || '{}'}}`;
  }
  if (/^application\/x-www-form-urlencoded\b/i.test(headerValue(block, 'content-type') ?? ''))
    return text.replace(/\r?\n(?=&)/g, '');
  return text;
}

/**
 * JetBrains `GRAPHQL` and kulala `# @graphql` bodies: the variables are the block after the last
 * blank line when it starts with `{` (a query may hold blank lines of its own); -1 when none.
 */
function trailingVariablesBlank(lines: string[]): number {
  let end = lines.length;
  while (end > 0 && lines[end - 1].trim() === '') end--;
  for (let k = end - 1; k > 0; k--) {
    if (lines[k].trim() !== '') continue;
    return lines[k + 1]?.trim().startsWith('{') && lines.slice(0, k).some((line) => line.trim() !== '') ? k : -1;
  }
  return -1;
}

/** The E_PARSE error of a request the file's tool cannot read (RequestNode.refused), at its line. */
export function refusalError(file: HttpFile, refused: NonNullable<RequestNode['refused']>): DialError {
  const { message, line, col, hint, excerpt } = refused;
  return new DialError('E_PARSE', message, { hint, location: { file: file.path || '<text>', line, col, excerpt } });
}

/**
 * For readers that take a file whole (dial fmt, the k6 export): the first request the file's tool
 * cannot read (RequestNode.refused) fails the file at its line, as a parse error does.
 */
export function refuseUnreadableRequests(file: HttpFile): HttpFile {
  const refused = file.requests.find((request) => request.refused)?.refused;
  if (refused) throw refusalError(file, refused);
  return file;
}

/** Parses `.http` / `.rest` text. Throws DialError E_PARSE with file:line:col and a hint. */
export function parseHttpFile(text: string, path: string, options: ParseOptions = {}): HttpFile {
  // An Emacs restclient.el file (its mode line says so) is read in its own terms, rewritten line
  // for line into dial's format; its form bodies are sent as written, as JetBrains sends them.
  if (isEmacsRestclient(text)) {
    text = fromEmacsRestclient(text, path);
    options = { ...options, dialect: 'jetbrains' };
  }
  const lines = lineTable(text);
  const choice = chooseDialect(text, path, options.dialect, lines.hints);
  const file = new HttpFileParser(
    text,
    path,
    lines,
    choice.dialect,
    choice.source === 'workspace' || choice.source === 'constructs',
    choice.source === 'default',
  ).parse();
  file.dialectSource = choice.source;
  if (choice.formEncoding) file.formEncoding = choice.formEncoding;
  if (choice.settingsProblem) {
    const { path: settingsPath, line, message } = choice.settingsProblem;
    const warning = {
      message: `${settingsPath} does not parse: ${message}`,
      hint: 'fix the JSON (comments and trailing commas are allowed), or name the dialect with `# @dialect NAME` / --dialect',
      file: settingsPath,
      line,
    };
    file.warnings = [...(file.warnings ?? []), warning];
    reportParseWarnings([warning]);
  }
  return file;
}

class HttpFileParser {
  // The line table (lines.ts): content [start, end) without the line break; `next` is where the next line begins.
  private readonly lineCount: number;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private readonly nexts: Int32Array;
  private readonly variables: FileVariable[] = [];
  private readonly requests: RequestNode[] = [];
  private readonly warnings: ParseWarning[] = [];
  private readonly imports: ImportNode[] = [];
  private readonly fileLabel: string;
  private variablesOutOfOrder = false;
  private guessNoted = false;
  /** httpyac GraphQL fragments by name, appended to the queries that spread them. */
  private readonly fragments = new Map<string, string>();
  /** httpyac: scripts that run once or for every request, and the files `# @import` names. */
  private readonly httpyacFile: HttpyacFileScripts = { once: [], everyPre: [], everyRequest: [], everyPost: [] };
  private readonly httpyacImports: Array<{ path: string; line: number }> = [];
  private readonly httpyacNamedRegions: string[] = [];
  /** httpyac `proto <` imports of the block being read, and of blocks without a request (for every gRPC request). */
  private blockProtos: ProtoImport[] = [];
  private readonly fileProtos: ProtoImport[] = [];
  private block: Block = newBlock(0, 1, false);
  /** A rest.nvim file with a 0.x `{% … %}` script using `context`: read as rest.nvim 0.x split requests. */
  private readonly restNvimLegacy: boolean;
  private legacySplitNoted = false;
  /** The metadata line being applied, for badMetadata (one function for the file, not a closure a line). */
  private metadataAt = 0;
  private readonly badMetadata = (message: string, hint: string): never =>
    this.fail(`bad metadata value: ${message}`, this.metadataAt, 1, hint);

  constructor(
    private readonly text: string,
    private readonly path: string,
    lines: LineTable,
    private readonly dialect: Dialect,
    /** The dialect was guessed (workspace, constructs), not declared: say so where it changes the meaning. */
    private readonly dialectGuessed = false,
    /** Nothing named or hinted the dialect (the common reading by default): warn where tools differ. */
    private readonly dialectUnnamed = false,
  ) {
    this.fileLabel = path || '<text>';
    this.restNvimLegacy = dialect === 'rest.nvim' && RESTNVIM_LEGACY_RE.test(text);
    this.lineCount = lines.count;
    this.starts = lines.starts;
    this.ends = lines.ends;
    this.nexts = lines.nexts;
  }

  parse(): HttpFile {
    const lineCount = this.lineCount;
    for (let i = 0; i < lineCount; i++) i = this.line(i);
    this.finish(this.text.length);
    for (const request of this.requests)
      if (this.fileProtos.length > 0 && request.method === 'GRPC')
        request.grpcProtos = [...this.fileProtos, ...(request.grpcProtos ?? [])];
    if (this.variablesOutOfOrder) this.variables.sort((a, b) => a.span.start - b.span.start);
    this.applyHttpyacFileScripts();
    const file: HttpFile = {
      path: this.path,
      text: this.text,
      variables: this.variables,
      requests: this.dialect === 'httpyac' ? this.requests : applySharedBlock(this.requests, this.fileLabel),
      dialect: this.dialect,
    };
    if (this.imports.length > 0) file.imports = this.imports;
    if (this.httpyacFile.once.length > 0) file.httpyacFileScripts = this.httpyacFile.once;
    if (this.httpyacImports.length > 0) file.httpyacImports = this.httpyacImports;
    if (this.httpyacNamedRegions.length > 0) file.httpyacNamedRegions = this.httpyacNamedRegions;
    if (this.warnings.length > 0) {
      file.warnings = this.warnings;
      reportParseWarnings(this.warnings);
    }
    return file;
  }

  // ---- helpers ----

  private lineText(i: number): string {
    return this.text.slice(this.starts[i], this.ends[i]);
  }

  private lineSpan(i: number): Span {
    return { start: this.starts[i], end: this.ends[i], line: i + 1, col: 1 };
  }

  private fail(message: string, i: number, col: number, hint?: string): never {
    throw new DialError('E_PARSE', message, {
      hint,
      location: { file: this.fileLabel, line: i + 1, col, excerpt: this.lineText(i) },
    });
  }

  private warn(message: string, i: number, hint: string): void {
    this.warnings.push({ message, hint, file: this.fileLabel, line: i + 1 });
  }

  /** Once per file: the httpyac reading was guessed and changes what this file means here. */
  private noteGuessedDialect(i: number, what: string): void {
    if (!this.dialectGuessed || this.guessNoted) return;
    this.guessNoted = true;
    this.warn(
      `read as httpyac (detected from the workspace or from httpyac-only lines): ${what}`,
      i,
      'write `# @dialect httpyac` at the top to confirm, or `# @dialect jetbrains` to read the file as JetBrains and REST Client do',
    );
  }

  // ---- dispatch: one line (or a multi-line production starting at it); returns the last line consumed ----

  private line(i: number): number {
    const line = this.lineText(i);
    if (line.startsWith('###')) return this.separator(i, line);
    // Not charCodeAt(0) of an empty line: optimised code assumes an index in bounds and is thrown
    // away (then compiled again) the first time it is not, as at the end of the first file.
    const c0 = line.length > 0 ? line.charCodeAt(0) : -1;
    const t = c0 === 32 || c0 === 9 ? line.trimStart() : line;
    if (this.startsHttpyacRequest(i, t)) {
      if (!this.restNvimLegacy) this.noteGuessedDialect(i, 'a request line after a body starts a new request');
      this.finish(this.starts[i]);
      this.block = newBlock(this.starts[i], i + 1, false);
    }
    switch (this.block.state) {
      case 'body':
        return this.bodyLine(i, line, t);
      case 'pre':
        return isBlank(line) ? i : this.preLine(i, line, t);
      case 'headers':
        if (isBlank(line)) {
          this.block.state = 'body';
          this.block.bodyBlank = i;
          return i;
        }
        return this.headerLine(i, line, t);
      case 'post': {
        if (isBlank(line)) return i;
        const last = this.afterBodyLine(i, line, t);
        if (this.block.state === 'post') (this.block.afterBody ??= []).push([i, last]);
        return last;
      }
      case 'response':
        return this.savedResponseLine(i, line, t);
      case 'unread': {
        // REST Client reads `@name = value` lines anywhere in the file as file variables.
        const variable = t.charCodeAt(0) === 64 ? VARIABLE_RE.exec(t) : null;
        if (variable) this.addVariable(i, t, variable);
        return i;
      }
    }
  }

  /**
   * httpyac: a saved response (`HTTP/1.1 200 OK` after a request) is ignored up to the next `###`,
   * but its script and assertion parsers run first on every line (registered before the response
   * parser), so `{{ }}` blocks and `??` lines in it still count.
   */
  private savedResponseLine(i: number, line: string, t: string): number {
    const script = this.httpyacScriptAt(i, t);
    const last = script >= 0 ? script : isAssertionLine(t) ? this.assertionLine(i, line) : i;
    this.block.state = 'response';
    return last;
  }

  /**
   * httpyac: a request line (or the comments right above one) after a request starts a new request;
   * in a file that names no tool too (startsUnmarkedRequest).
   */
  private startsHttpyacRequest(i: number, t: string): boolean {
    if (this.restNvimLegacy) return this.startsRestNvimLegacyRequest(i);
    if (this.dialectUnnamed) return this.startsUnmarkedRequest(i, t);
    if (this.dialect !== 'httpyac' || !this.block.hasRequest || this.block.state === 'pre') return false;
    if (isStrictRequestLine(t)) return true;
    if (!isComment(t)) return false;
    let k = i + 1;
    while (k < this.lineCount && isComment(this.lineText(k).trimStart())) k++;
    return k < this.lineCount && isStrictRequestLine(this.lineText(k).trim());
  }

  /**
   * A file that names no tool: a request line after a request's headers, with no `###` above it
   * (or the comment lines right above it), starts a new request, as httpyac reads it, and dial
   * warns at it. JetBrains, REST Client, kulala and rest.nvim v3 would send it as body text of the
   * request above; but such a file runs as written only in httpyac (REST Client then fails a GET
   * that has a body), and its requests are meant one by one. A file that names a tool is read as
   * that tool reads it (bodyLine warns there).
   */
  private startsUnmarkedRequest(i: number, t: string): boolean {
    const state = this.block.state;
    if (state !== 'body' && state !== 'post') return false;
    let k = i;
    if (isComment(t)) {
      while (k < this.lineCount && isComment(this.lineText(k).trimStart())) k++;
      if (k >= this.lineCount) return false;
    }
    const requestLine = k === i ? t : this.lineText(k).trimStart();
    if (!isStrictRequestLine(requestLine)) return false;
    this.warn(
      `line ${k + 1} (${requestLine.split(/\s/)[0]} …) starts a new request though no \`###\` is above it: JetBrains and REST Client would send it as part of the body of the request at line ${this.block.requestLineSpan!.line}`,
      k,
      'put `###` above it so that every tool reads it as a request, or add `# @dialect jetbrains` to send it as body text',
    );
    return true;
  }

  /**
   * rest.nvim 0.x (request/init.lua end_request): a request ends above the next line that starts
   * with GET, POST, PUT, PATCH or DELETE, and above the `#` comment lines right over it; no `###`
   * needed. v3 reads such a line as body text, so the split is said once, at its line.
   */
  private startsRestNvimLegacyRequest(i: number): boolean {
    if (!this.block.hasRequest || this.block.state === 'pre') return false;
    let k = i;
    while (k < this.lineCount && LEGACY_COMMENT_RE.test(this.lineText(k))) k++;
    if (k >= this.lineCount || !LEGACY_REQUEST_RE.test(this.lineText(k))) return false;
    if (!this.legacySplitNoted) {
      this.legacySplitNoted = true;
      this.warn(
        `read as rest.nvim 0.x (a \`{% … %}\` script using \`context\` marks the file): line ${k + 1} starts a new request, as 0.x did (rest.nvim v3 and the other tools need \`###\` and would send it as body text)`,
        k,
        'put `###` above each request to make the split explicit for every tool',
      );
    }
    return true;
  }

  /** `### title`: ends the current block and opens a named one. */
  private separator(i: number, line: string): number {
    this.finish(this.starts[i]);
    let k = 3;
    while (line.charCodeAt(k) === 35) k++;
    const title = trimmedSlice(line, k, line.length);
    this.block = newBlock(this.starts[i], i + 1, true, title || undefined);
    return i;
  }

  // ---- before the request line ----

  private preLine(i: number, line: string, t: string): number {
    const block = this.block;
    // httpyac's `@xpath_ns prefix=uri` (its parser runs before the variable parser).
    const namespace = this.dialect === 'httpyac' && t.startsWith('@xpath_ns') ? XPATH_NS_RE.exec(t) : null;
    if (namespace?.groups?.key && namespace.groups.value) {
      if (namespace.groups.value.includes('{{'))
        this.fail(
          'variables in an `@xpath_ns` namespace are not supported yet',
          i,
          1,
          'write the namespace URI itself: `@xpath_ns ns=http://example.com/ns`',
        );
      (block.xpathNamespaces ??= {})[namespace.groups.key] = namespace.groups.value;
      return i;
    }
    const variable = t.charCodeAt(0) === 64 ? VARIABLE_RE.exec(t) : null;
    if (variable) {
      this.addVariable(i, t, variable);
      if (!block.separator) block.contentStart = block.contentLine = undefined;
      return i;
    }
    if (!block.separator && block.contentStart === undefined) {
      block.contentStart = this.starts[i];
      block.contentLine = i + 1;
    }
    if (isComment(t)) {
      this.metadataLine(i, t);
      return i;
    }
    if (t.startsWith('/*')) return this.blockComment(i);
    if (t.startsWith('{{') && !t.includes('}}')) {
      const start = this.dialect === 'httpyac' ? httpyacScriptStart(t) : undefined;
      if (start) return this.scriptBlock(i, start);
      if (this.dialect !== 'httpyac' && !maskTemplates(t).trim().includes(' ')) this.refuseScriptBlock(i);
    }
    if (t.charCodeAt(0) === 60 /* < */) return this.preScriptLine(i, line, t);
    if (this.dialect === 'httpyac' && HTTPYAC_FRAGMENT_RE.test(t)) return this.graphqlFragment(i, t);
    if (isImportLine(t)) return this.importLine(i, t);
    if (isRunLine(t)) return this.runLine(i, t);
    if (PROTO_IMPORT_RE.test(t)) return this.protoImport(i, t);
    return this.requestLine(i, line);
  }

  /** JetBrains/kulala `import ./file.http`: that file's requests can be run by name. */
  private importLine(i: number, t: string): number {
    this.imports.push({ path: importPath(t), span: this.lineSpan(i) });
    return i;
  }

  /** JetBrains/kulala `run #name` / `run ./file.http`: run before this block's request, or on its own. */
  private runLine(i: number, t: string): number {
    const parsed = parseRunLine(t);
    if (typeof parsed === 'string')
      this.fail(`bad run line: ${parsed}`, i, 1, 'write `run #Login` or `run ./other.http`');
    (this.block.runs ??= []).push({ ...parsed, span: this.lineSpan(i) });
    return i;
  }

  /** httpyac: `proto < ./file.proto` and its proto-loader option lines, for the gRPC requests of its block (or file). */
  private protoImport(i: number, t: string): number {
    const proto: ProtoImport = { path: PROTO_IMPORT_RE.exec(t)![1], importPaths: [] };
    let last = i;
    for (let k = i + 1; k < this.lineCount; k++) {
      const option = this.lineText(k).trim();
      if (isComment(option)) continue;
      const match = PROTO_OPTION_RE.exec(option);
      if (!match) break;
      const problem = protoOptionProblem(proto, match[1], match[2]);
      if (problem)
        this.fail(problem, k, 1, 'dial reads includeDirs (and ignores keepCase, longs, enums, defaults, oneofs)');
      last = k;
    }
    this.blockProtos.push(proto);
    return last;
  }

  /** httpyac: `fragment Name on Type { … }` up to the next blank line, kept for the queries that spread it. */
  private graphqlFragment(i: number, t: string): number {
    let last = i;
    while (last + 1 < this.lineCount && !isBlank(this.lineText(last + 1))) last++;
    this.fragments.set(
      HTTPYAC_FRAGMENT_RE.exec(t)![1],
      this.text.slice(this.starts[i], this.ends[last]).replace(/\r\n/g, '\n'),
    );
    return last;
  }

  /** httpyac's `/* … *\/` comment (also before a request in other files): skipped up to its closing line. */
  private blockComment(i: number): number {
    const close = this.text.indexOf('*/', this.starts[i] + this.lineText(i).indexOf('/*') + 2);
    if (close < 0) this.fail('unterminated comment: `/*` without `*/`', i, 1, 'close the comment with `*/`');
    let last = i;
    while (last < this.lineCount - 1 && this.nexts[last] <= close) last++;
    return last;
  }

  /**
   * httpyac's `{{ … }}` script block (httpyac dialect; see httpyac.ts for when each kind runs):
   * JavaScript whose `exports.name = value` become variables, run in dial's sandbox.
   */
  private scriptBlock(i: number, start: HttpyacScriptStart): number {
    let last = i + 1;
    while (last < this.lineCount && !HTTPYAC_SCRIPT_END_RE.test(this.lineText(last))) last++;
    if (last >= this.lineCount)
      this.fail('unterminated `{{` block: no `}}` line', i, 1, 'close the block with `}}` on its own line');
    const refusedEvent = refusedScriptEvent(start.event);
    if (refusedEvent)
      this.fail(refusedEvent, i, 1, 'compute values in a plain `{{ … }}` block above the request and use {{name}}');
    // From the end of the `{{` line, so the code's first line is the line after it.
    const code = this.text.slice(this.ends[i], this.starts[last]);
    const refusal = inlineScriptRefusal(code, undefined, 'in an httpyac `{{ }}` block, which is JavaScript');
    if (refusal) {
      throw new DialError('E_SCRIPT', `unsupported script: ${refusal}`, {
        hint: 'compute the value without modules, or set it with --var',
        location: { file: this.fileLabel, line: i + 1, col: 1, excerpt: this.lineText(i) },
      });
    }
    const block = this.block;
    const afterResponse =
      start.event === 'response' || start.event === 'after' || (start.event === undefined && block.state !== 'pre');
    const script = { code, line: i + 1 };
    if (start.event === 'request') {
      // httpyac's onRequest hook: on the final request, whatever the block's place in the region.
      if (start.everyRequest) this.httpyacFile.everyRequest.push(script);
      else (block.requestScriptBlocks ??= []).push(script);
      if (block.state !== 'pre') block.state = 'post';
      return last;
    }
    if (start.everyRequest) (afterResponse ? this.httpyacFile.everyPost : this.httpyacFile.everyPre).push(script);
    else if (afterResponse) (block.postScriptBlocks ??= []).push(script);
    else (block.scriptBlocks ??= []).push(script);
    // A block after the request line ends its headers or body.
    if (block.state !== 'pre') block.state = 'post';
    return last;
  }

  /** httpyac: a `{{` line after the request line opens a script block; returns its last line, or -1. */
  private httpyacScriptAt(i: number, t: string): number {
    if (this.dialect !== 'httpyac' || t.charCodeAt(0) !== 123 || t.charCodeAt(1) !== 123) return -1;
    const start = httpyacScriptStart(t);
    return start ? this.scriptBlock(i, start) : -1;
  }

  /** httpyac: `{{+ }}` blocks run for every request; global regions' response blocks after every response. */
  private applyHttpyacFileScripts(): void {
    const { everyPre, everyPost, everyRequest } = this.httpyacFile;
    if (everyPre.length === 0 && everyPost.length === 0 && everyRequest.length === 0) return;
    for (const request of this.requests) {
      if (everyRequest.length)
        request.httpyacRequestScripts = [...everyRequest, ...(request.httpyacRequestScripts ?? [])];
      if (everyPre.length) request.httpyacScripts = [...everyPre, ...(request.httpyacScripts ?? [])];
      if (everyPost.length) request.httpyacPostScripts = [...(request.httpyacPostScripts ?? []), ...everyPost];
    }
  }

  /** httpyac's multi-line `{{ … }}` JavaScript block outside the httpyac dialect, or after a request: refused. */
  private refuseScriptBlock(i: number): never {
    return this.fail(
      'httpyac `{{ … }}` script blocks are not supported yet',
      i,
      1,
      'set the values with `@name = value` lines or a JetBrains `< {% request.variables.set(…) %}` pre-request script',
    );
  }

  /**
   * Metadata lines some tools read as comments. httpyac's metadata pattern (`(#+|\/{2,})\s+@key`)
   * wants a blank after the comment mark, so `#@key` / `//@key` is a plain comment there. kulala's
   * Lua parser (up to 5) and kulala-core take only a line starting `# @` (one `#`, one blank) as
   * metadata and read other `#` lines as comments (`//` lines are not theirs at all), so
   * `#@key`, `## @key` and `// @key` do nothing in kulala. REST Client's pattern
   * (`(#|\/{2})\s*@key`) takes all of them, as dial's common reading does. Returns true when the
   * line is a comment in this file's dialect (httpyac, kulala), with a warning at the line for a key
   * that acts; in a file that names no dialect, `#@key` stays metadata and the warning says who
   * reads it otherwise.
   */
  private metadataOnlySomeToolsRead(i: number, t: string, keyStart: number, key: string): boolean {
    const before = t.charCodeAt(keyStart - 2);
    const noBlank = before === 35 /* # */ || before === 47; /* / */
    const comment = (this.dialect === 'httpyac' && noBlank) || (this.dialect === 'kulala' && !t.startsWith('# @'));
    if (!comment && !(noBlank && this.dialectUnnamed)) return false;
    // A key no tool acts on (`#@recipeId = …`, a commented-out variable) is a comment everywhere: no warning.
    if (!ACTING_METADATA.has(key)) return comment;
    const written = t.slice(0, keyStart + key.length);
    const spaced =
      this.dialect === 'kulala'
        ? `# @${key}`
        : `${t.slice(0, keyStart - 1)} ${t.slice(keyStart - 1, keyStart + key.length)}`;
    if (comment) {
      this.warn(
        `'${written}' is a comment in ${this.dialect} (${this.dialect === 'kulala' ? 'its metadata lines start `# @`' : 'its metadata needs a blank after the comment mark'}): @${key} ignored`,
        i,
        `write \`${spaced}\` for @${key} to act`,
      );
      return true;
    }
    this.warn(
      `'${written}' read as metadata @${key}, as REST Client reads it; httpyac and kulala read a line with no blank after the comment mark as a comment`,
      i,
      `write \`${spaced}\` to mean the same in every tool, or \`# @dialect httpyac\` (or kulala) at the top for their reading`,
    );
    return false;
  }

  /** `# @key value` / `// @key value` (plain comments are skipped). */
  private metadataLine(i: number, t: string): void {
    const keyStart = metadataKeyStart(t);
    if (keyStart < 0) return;
    const keyEnd = metadataKeyEnd(t, keyStart);
    const key = t.slice(keyStart, keyEnd);
    if (this.metadataOnlySomeToolsRead(i, t, keyStart, key)) return;
    let value = trimmedSlice(t, keyEnd, t.length);
    // JetBrains also accepts `# @name = login`.
    if (value.charCodeAt(0) === 61 /* = */) value = value.slice(1).trim();
    const httpyacOwn = this.dialect === 'httpyac' && HTTPYAC_METADATA.has(key);
    if (this.dialect === 'httpyac' && key === 'disabled' && value && !/^(?:true|false)$/.test(value)) {
      // httpyac evaluates the value as JavaScript before the send (disabledMetaDataHandler).
      this.block.httpyacDisabled = { condition: value, line: i + 1 };
      this.block.metadata.push({ key, value, span: this.lineSpan(i) });
      this.metadataAt = i;
      return;
    }
    if (httpyacOwn && key === 'import') this.httpyacImport(i, value);
    if (httpyacOwn && key === 'loop') this.block.httpyacLoop = this.httpyacLoop(i, value);
    const refusal = httpyacOwn ? undefined : refusedMetadata(key);
    if (refusal) this.fail(`unsupported metadata @${key}`, i, 1, refusal);
    this.block.metadata.push({ key, value, span: this.lineSpan(i) });
    this.metadataAt = i;
    applyMetadata(this.block, key, value, this.badMetadata);
    // httpyac's `# @timeout 30000` is milliseconds (timeoutMetaDataHandler), not seconds.
    if (this.dialect === 'httpyac' && key === 'timeout' && /^\d+$/.test(value)) this.block.timeoutMs = Number(value);
  }

  /**
   * httpyac `# @loop for 3` / `# @loop for item of list` / `# @loop while condition`
   * (loopMetaDataHandler's three patterns, tried in that order).
   */
  private httpyacLoop(i: number, value: string): NonNullable<RequestNode['httpyacLoop']> {
    const forOf = /^\s*for\s+(.*)\s+of\s+(.*?)\s*$/.exec(value);
    if (forOf && /^[A-Za-z_$][\w$]*$/.test(forOf[1].trim()))
      return { kind: 'forOf', variable: forOf[1].trim(), iterable: forOf[2], line: i + 1 };
    const count = /^\s*for\s*(\d+)\s*$/.exec(value);
    if (count) return { kind: 'for', count: Number(count[1]), line: i + 1 };
    const condition = /^\s*while\s*(\S.*?)\s*$/.exec(value);
    if (condition) return { kind: 'while', condition: condition[1], line: i + 1 };
    return this.fail(
      `@loop '${value}' is not supported`,
      i,
      1,
      'write `# @loop for 3`, `# @loop for item of list` or `# @loop while condition`',
    );
  }

  /** httpyac `# @import ./other.http`: the file's requests and global variables become available (session). */
  private httpyacImport(i: number, value: string): void {
    if (!value) this.fail('@import needs a file', i, 1, 'write `# @import ./other.http`');
    // `{{root}}name.http`: file variables declared above with plain values are filled in.
    const path = value.replace(/\{\{\s*([\w$-]+)\s*\}\}/g, (whole, name: string) => {
      const found = this.variables.findLast((variable) => variable.name === name);
      return found && !found.value.includes('{{') ? found.value : whole;
    });
    if (path.includes('{{'))
      this.fail(
        '@import with variables in the path is supported only for file variables declared above it',
        i,
        1,
        'write the path relative to this file',
      );
    this.httpyacImports.push({ path, line: i + 1 });
  }

  /** `< {% … %}` or `< ./pre.js` before the request line. */
  private preScriptLine(i: number, line: string, t: string): number {
    const after = t.slice(1).trimStart();
    if (after.startsWith('{%')) return this.inlineScript(i, this.starts[i] + line.indexOf('{%'), this.block.preScripts);
    if (!after)
      this.fail(
        'pre-request script line needs `{% … %}` or a path',
        i,
        1,
        'write `< {% request.variables.set("a", "1") %}` or `< ./pre.js`',
      );
    this.scriptFile(i, after, this.block.preScripts);
    return i;
  }

  /** An inline `{% … %}` script starting on line i at `open` (index of `{%` in the text); returns the last line index. */
  private inlineScript(i: number, open: number, into: ScriptNode[]): number {
    const close = this.text.indexOf('%}', open + 2);
    if (close < 0)
      this.fail(
        'unterminated script: `{%` without `%}`',
        i,
        open - this.starts[i] + 1,
        'close the script with `%}` on its own line',
      );
    let last = i;
    while (last < this.lineCount - 1 && this.nexts[last] <= close) last++;
    const code = this.text.slice(open + 2, close);
    const span = { start: this.starts[i], end: this.ends[last], line: i + 1, col: 1 };
    // rest.nvim's `# @lang=lua` script: its own Lua API (script/lua-prelude.ts).
    if (runsAsRestNvimLua(this.dialect, this.block.scriptLanguage)) {
      into.push({ kind: 'inline', code, span, lua: 'rest.nvim' });
      return last;
    }
    const refusal = inlineScriptRefusal(
      code,
      this.block.scriptLanguage,
      this.dialect === 'rest.nvim' ? RESTNVIM_LUA_REFUSAL : undefined,
    );
    if (refusal) {
      // E_SCRIPT (exit 3) like the sandbox's own refusals, but raised before anything is sent.
      throw new DialError('E_SCRIPT', `unsupported script: ${refusal}`, {
        hint: 'rewrite the script with the JetBrains client/request/response API, or remove it',
        location: { file: this.fileLabel, line: i + 1, col: 1, excerpt: this.lineText(i) },
      });
    }
    into.push({ kind: 'inline', code, span });
    return last;
  }

  private scriptFile(i: number, path: string, into: ScriptNode[]): void {
    const refusal = scriptFileRefusal(
      path,
      this.block.scriptLanguage,
      this.dialect === 'rest.nvim' ? RESTNVIM_LUA_REFUSAL : undefined,
    );
    if (refusal)
      this.fail(
        `unsupported script: ${refusal}`,
        i,
        1,
        isDataFilePath(path)
          ? `\`> ${path}\` runs that file as a response handler; to save the response there write \`>> ${path}\``
          : 'rewrite the script in JavaScript with the JetBrains client/request/response API',
      );
    into.push({ kind: 'file', path, span: this.lineSpan(i) });
  }

  // ---- the request line ----

  /** Lines that look like a request line but mean something dial does not do (yet). */
  private refuseForeignLine(i: number, rest: string): void {
    if (GRAPHQL_OPERATION_RE.test(rest)) {
      this.fail(
        'GraphQL documents are not supported yet',
        i,
        1,
        'send the query as JSON: POST with Content-Type: application/json and {"query": "…"}',
      );
    }
  }

  /** `[METHOD] URL [HTTP/x]`, then indented continuation lines of the URL; returns the last line consumed. */
  private requestLine(i: number, line: string): number {
    const block = this.block;
    let rest = line.trim();
    this.refuseForeignLine(i, rest);
    const space = rest.search(/\s/);
    const word = space > 0 ? rest.slice(0, space) : '';
    const first = word || rest;
    // REST Client matches `curl` in any case; the length test keeps this off other request lines.
    if (first.length === 4 && first.toLowerCase() === 'curl') return this.curlRequest(i);
    if (word && isKnownMethod(word)) {
      block.method = word.toUpperCase();
      block.methodExplicit = true;
      rest = rest.slice(space).trimStart();
    } else if (word && Object.hasOwn(PROTOCOL_METHODS, word.toUpperCase())) {
      block.method = PROTOCOL_METHODS[word.toUpperCase()];
      block.methodExplicit = true;
      if (word !== block.method) block.keyword = word;
      rest = rest.slice(space).trimStart();
    } else if (word && Object.hasOwn(PROTOCOL_KEYWORDS, word.toUpperCase())) {
      this.fail(
        `${PROTOCOL_KEYWORDS[word.toUpperCase()]} requests (${word}) are not supported yet`,
        i,
        1,
        'dial sends plain HTTP requests only for now; keep this request in a file run by the tool that wrote it',
      );
    } else if (METHOD_RE.test(word)) {
      this.fail(
        `unknown method '${word}'`,
        i,
        1,
        `use a standard or WebDAV method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS, PROPFIND, …)`,
      );
    }
    let url = this.takeVersion(rest);
    if (!block.methodExplicit && this.dialect !== 'httpyac' && isNoTarget(url))
      return this.unreadableRequest(i, line, url);
    let last = i;
    while (last + 1 < this.lineCount && block.httpVersion === undefined && this.isUrlContinuation(last + 1)) {
      last++;
      url += this.takeVersion(this.lineText(last).trim());
    }
    block.url = this.checkedUrl(url, i, line);
    if (block.httpVersion && /prior/i.test(block.httpVersion) && /^http:\/\//i.test(block.url)) {
      this.fail(
        'HTTP/2 with prior knowledge over plain http:// (h2c) is not supported',
        i,
        1,
        'use an https:// URL (HTTP/2 is then negotiated), or HTTP/1.1',
      );
    }
    if (/^wss?:\/\//i.test(block.url)) this.webSocketTarget(i);
    block.hasRequest = true;
    block.requestLineSpan = { start: this.starts[i], end: this.ends[last], line: i + 1, col: 1 };
    block.state = 'headers';
    return last;
  }

  /**
   * A block's first line with no method whose first word cannot start a URL (`send Request`, or a
   * header such as `Content-Type: application/json` put above the request line). REST Client reads
   * it as the URL of a GET (its parseRequestLine defaults the method) and the lines under it as
   * headers and body; no HTTP client can send that, so the request fails there and the file's
   * other requests are sent. dial refuses this request at its line (RequestNode.refused) and reads
   * nothing more of it up to the next `###`; the rest of the file runs. JetBrains' reading was not
   * checked (closed source; it has no URL to send either), httpyac's neither, so in the httpyac
   * dialect the file is refused as before.
   */
  private unreadableRequest(i: number, line: string, url: string): number {
    const stray = maskTemplates(url).search(/\s/);
    this.stopReading(url, this.lineSpan(i), {
      message: `unexpected space in the request line's URL: ${JSON.stringify(url)}`,
      line: i + 1,
      col: line.indexOf(url) + stray + 1,
      hint: 'start the request with its method and URL (`POST https://example.com/path`); REST Client reads this line as the URL of a GET and cannot send it either, so only this request stops',
      excerpt: this.lineText(i),
    });
    return i;
  }

  /**
   * A request the file's tool cannot send (a request line or a cURL command): refused at its line
   * (RequestNode.refused), and nothing more of it is read up to the next `###` (`unread`).
   */
  private stopReading(url: string, span: Span, refused: NonNullable<RequestNode['refused']>): void {
    const block = this.block;
    block.url = url;
    block.hasRequest = true;
    block.requestLineSpan = span;
    block.refused ??= refused;
    block.state = 'unread';
  }

  /**
   * REST Client's cURL request (see curl-request.ts): the `curl` line, the lines its trailing `\\`
   * continues (comment lines between them skipped, as REST Client drops them), indented `-…`
   * lines right under it, and `-…` lines under a line that ends in blanks (REST Client joins all
   * the block's lines into one command; a line break is a separator only next to a blank).
   */
  private curlRequest(i: number): number {
    const block = this.block;
    let text = '';
    let last = i;
    // The line before ended in blanks: REST Client turns blanks and the line break into one space
    // (its mergeMultipleSpacesIntoSingle), so a `-…` line under it continues the command.
    let blankBefore = false;
    // Inside a quote a line break is part of the argument (`-d '{` … `}'`), as in a shell; REST Client
    // reads the block's lines as one text, so it sends those lines too (their blank runs collapsed).
    let quoted: string | undefined;
    for (let k = i; k < this.starts.length; k++) {
      const line = this.lineText(k);
      if (k > i && quoted) {
        if (line.startsWith('###')) break;
        last = k;
        quoted = quoteOpenAfter(line, quoted);
        text += quoted
          ? quotedLine(line)
          : line.trimEnd().endsWith('\\')
            ? `${line.trimEnd().slice(0, -1)} `
            : `${line}\n`;
        continue;
      }
      // A blank line or `###` ends the command whatever the line before it says (as in a shell).
      if (k > i && (line.startsWith('###') || isBlank(line))) break;
      if (k > i && text.endsWith(' ') && isComment(line.trimStart())) continue;
      if (k > i && !text.endsWith(' ') && !/^[ \t]+-/.test(line) && !(blankBefore && line.startsWith('-'))) break;
      last = k;
      blankBefore = /[ \t]$/.test(line);
      quoted = quoteOpenAfter(line, undefined);
      const trimmed = line.trimEnd();
      text += quoted ? quotedLine(line) : trimmed.endsWith('\\') ? `${trimmed.slice(0, -1)} ` : `${trimmed}\n`;
    }
    const next = last + 1 < this.starts.length ? this.lineText(last + 1).trimStart() : '';
    if (next && !next.startsWith('###') && !isComment(next) && !mayEndBody(next))
      this.fail(
        'a line right under a cURL command that does not continue it',
        last + 1,
        1,
        'end the line above with `\\` to continue the command, or leave a blank line before what follows',
      );
    const result = curlRequestOf(text.trim());
    const span: Span = { start: this.starts[i], end: this.ends[last], line: i + 1, col: 1 };
    if ('problem' in result) {
      // Refused at its line, this request only (RequestNode.refused): nothing of it is sent and the
      // file's other requests run, as for a request line no tool can send. Whole-file readers
      // (dial fmt, the k6 export) still refuse the file (refuseUnreadableRequests).
      const at = this.curlProblemLine(i, last, result.problem);
      this.stopReading(this.lineText(i).trim(), span, {
        message: result.problem,
        line: at.line + 1,
        col: at.col,
        hint: result.hint,
        excerpt: this.lineText(at.line),
      });
      return last;
    }
    const { request } = result;
    if (result.versionWord !== undefined) {
      const at = this.curlProblemLine(i, last, `\`${result.versionWord}`);
      this.warn(
        `\`${result.versionWord}\` after the URL of a curl command: sent without it, as REST Client does (it takes the first word after \`curl\` as the URL); curl would try it as a second URL`,
        at.line,
        'drop the word: a curl command takes no HTTP version word',
      );
    }
    const method = request.method.toUpperCase();
    if (!isKnownMethod(method))
      this.fail(
        `unknown method '${request.method}' in the curl command`,
        i,
        1,
        'use a standard or WebDAV method after -X',
      );
    block.method = method;
    block.methodExplicit = true;
    block.url = this.checkedUrl(request.url, i, this.lineText(i));
    for (const [name, value] of request.headers) block.headers.push({ name, value, span });
    if (request.body)
      block.curlBody =
        request.body.kind === 'file'
          ? { ...request.body, substitute: false, rootFirst: true, span }
          : { ...request.body, span };
    block.curl = true;
    block.hasRequest = true;
    block.requestLineSpan = span;
    block.state = 'post';
    return last;
  }

  /** Where in a cURL command (lines i..last) the option or text a refusal names in its first `…` stands. */
  private curlProblemLine(i: number, last: number, problem: string): { line: number; col: number } {
    const named = /`([^`\s]+)/.exec(problem)?.[1];
    for (let k = i; named && k <= last; k++) {
      const at = this.lineText(k).indexOf(named);
      if (at >= 0) return { line: k, col: at + 1 };
    }
    return { line: i, col: 1 };
  }

  /** A ws:// or wss:// target: a WebSocket request (httpyac writes the URL alone); an HTTP method there is refused. */
  private webSocketTarget(i: number): void {
    const block = this.block;
    if (!block.methodExplicit) block.method = 'WEBSOCKET';
    else if (block.method !== 'WEBSOCKET' && isKnownMethod(block.method)) {
      this.fail(
        `${block.method} cannot go to a ws:// URL`,
        i,
        1,
        'write `WEBSOCKET ws://…` (or `WS`) to open a WebSocket, or use http:// for an HTTP request',
      );
    }
  }

  private takeVersion(part: string): string {
    // JetBrains: `HTTP/2 (Prior Knowledge)` is HTTP/2 without negotiation.
    const priorKnowledge = PRIOR_KNOWLEDGE_RE.exec(part);
    if (priorKnowledge) {
      this.block.httpVersion = priorKnowledge[1];
      return part.slice(0, priorKnowledge.index).trimEnd();
    }
    const lastSpace = Math.max(part.lastIndexOf(' '), part.lastIndexOf('\t'));
    if (lastSpace > 0 && VERSION_RE.test(part.slice(lastSpace + 1))) {
      this.block.httpVersion = part.slice(lastSpace + 1);
      return part.slice(0, lastSpace).trimEnd();
    }
    return part;
  }

  /** An indented line right after the request line continues the URL (`?a=1`, `&b=2`, `/segment`, JetBrains' split targets) unless it is a header or comment. */
  private isUrlContinuation(k: number): boolean {
    const next = this.lineText(k);
    // Bounds checked for the reason line() gives: an empty line here threw requestLine's optimised code away.
    const n0 = next.length > 0 ? next.charCodeAt(0) : -1;
    // REST Client (queryStringLinePrefix): `?a=1` / `&b=2` lines right under the request line continue
    // it, indented or not; no other tool gives such a line a meaning (httpyac's own rule reads them
    // later). `??` starts an assertion.
    if ((n0 === 38 || (n0 === 63 && next.charCodeAt(1) !== 63)) && this.dialect !== 'httpyac') return true;
    if (n0 !== 32 && n0 !== 9) return false;
    const trimmed = next.trim();
    if (!trimmed) return false;
    if (trimmed[0] === '?' || trimmed[0] === '&' || trimmed[0] === '/') return true;
    return (
      !HEADER_LINE_RE.test(trimmed) &&
      !isComment(trimmed) &&
      !mayEndBody(trimmed) &&
      !trimmed.startsWith('<') &&
      // `{` opens a JSON body; `{{path}}` continues the target unless it names a header (`{{h}}: v`).
      (!trimmed.startsWith('{') || (trimmed.startsWith('{{') && !TEMPLATED_HEADER_RE.test(trimmed)))
    );
  }

  /** The URL as dial will send it: spaces after an explicit method or an http(s):// scheme are encoded, `*` is refused. */
  private checkedUrl(url: string, i: number, line: string): string {
    if (!url) this.fail('request line without a URL', i, 1, 'write `GET https://example.com/path`');
    // httpyac reads a request line of a bare grpc:// URL as a gRPC call.
    if (!this.block.methodExplicit && /^grpcs?:\/\//i.test(url)) this.block.method = 'GRPC';
    if (this.block.method === 'GRPC') {
      // kulala's `GRPC [flags] host:port package.Service/Method` keeps its spaces.
      const problem = grpcTargetProblem(url, this.block.metadata);
      if (problem) this.fail(`gRPC target: ${problem.message}`, i, 1, problem.hint);
      return url;
    }
    // Masking only hides whitespace, so a URL without any has none outside templates either.
    const stray = /\s/.test(url) ? maskTemplates(url).search(/\s/) : -1;
    if (stray >= 0) {
      // Without a method a space is refused (a stray word or prose line would otherwise go out as a
      // GET), unless the target starts with http:// or https://: REST Client (its parseRequestLine
      // takes the whole line as the URL) and httpyac (its protocolRegex does the same) then send the
      // spaces percent-encoded, as for a target after an explicit method.
      if (!this.block.methodExplicit && !/^https?:\/\/[^\s/]/i.test(url)) {
        this.fail(
          `unexpected space in the request line's URL: ${JSON.stringify(url)}`,
          i,
          line.indexOf(url) + stray + 1,
          'start with a method (GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS) and encode spaces in the URL as %20',
        );
      }
      // JetBrains and REST Client send a target written with spaces percent-encoded.
      const masked = maskTemplates(url);
      let encoded = '';
      for (let k = 0; k < url.length; k++) encoded += masked[k] === ' ' || masked[k] === '\t' ? '%20' : url[k];
      url = encoded;
    }
    // `http:localhost:3000/x`, a scheme without `//`: Node's URL parser (REST Client's and httpyac's
    // HTTP client) reads the host after it, a parser that splits at `://` does not. In a file that
    // names REST Client (a `.rest` file, a REST Client workspace, `# @dialect rest-client`) it is
    // read as REST Client sends it (got parses the URL with Node's URL parser: `http:localhost//` is
    // `http://localhost//`), with a warning at the line; elsewhere refused, not guessed (what
    // JetBrains does with it was not checked).
    const bareScheme = /^(https?):\/?(?!\/)/i.exec(url);
    if (bareScheme && this.dialect === 'rest-client') {
      const read = `${bareScheme[1]}://${url.slice(bareScheme[0].length)}`;
      this.warn(
        `\`${url}\`: the scheme ${bareScheme[1]}: is not followed by \`//\`; sent to ${read}, as REST Client's HTTP client (Node's URL parser) reads it`,
        i,
        `write ${read}`,
      );
      url = read;
    } else if (bareScheme) {
      this.fail(
        `\`${url}\`: the scheme ${bareScheme[1]}: is not followed by \`//\` (the tools read it differently)`,
        i,
        line.indexOf(url) + 1,
        `write ${bareScheme[1]}://${url.slice(bareScheme[0].length)}`,
      );
    }
    if (url === '*' && this.block.method !== 'OPTIONS') {
      this.fail(
        `the target \`*\` (asterisk-form) is only for OPTIONS, not ${this.block.method}`,
        i,
        1,
        'write the server origin instead: `GET https://example.com/`',
      );
    }
    return url;
  }

  // ---- headers ----

  private headerLine(i: number, line: string, t: string): number {
    const block = this.block;
    const script = this.httpyacScriptAt(i, t);
    if (script >= 0) return script;
    // httpyac: a `??` line that is no test ends the headers and, not being a header, starts the body.
    if (this.dialect === 'httpyac' && this.isHttpyacTestLine(t) && readTestLine(t) === 'body') {
      block.state = 'body';
      return this.bodyLine(i, line, t);
    }
    if (mayEndBody(t)) {
      const last = this.afterBodyProduction(i, line, t, false);
      if (last >= 0) {
        block.state = 'post';
        return last;
      }
    }
    if (t.charCodeAt(0) === 60 && this.fileBodyLine(i, t)) {
      block.state = 'body';
      block.bodyFirst = block.bodyLast = i;
      block.bodyHasContent = true;
      return i;
    }
    if (isComment(t)) {
      this.commentAfterRequestLine(i, t);
      return i;
    }
    if (this.dialect === 'httpyac' && isHttpyacBlockCommentStart(t)) {
      // httpyac: the headers end at the comment; lines after it are the body.
      block.state = 'body';
      return this.blockComment(i);
    }
    const colon = t.indexOf(':');
    const name = colon > 0 ? trimmedSlice(t, 0, colon) : '';
    if (!name || !HEADER_NAME_RE.test(name)) {
      if (this.dialect === 'httpyac') return this.httpyacNonHeaderLine(i, line, t);
      const fromVariable = t.charCodeAt(0) === 123 ? this.headerFromVariable(i, t) : undefined;
      if (fromVariable) {
        block.headers.push(fromVariable);
        return i;
      }
      if ((t[0] === '?' || t[0] === '&') && t[1] !== '?' && this.queryAfterVersion(i, t)) return i;
      if (/^[{[]/.test(t)) {
        // A JSON body with no blank line before it: httpyac sends it as the body; JetBrains and
        // REST Client cannot read the request (REST Client takes the line for a header, which Node
        // then rejects), so in a file that names one of them this request stops here as it would
        // there, and only this one: the tools send the file's other requests. Elsewhere dial
        // follows httpyac and says so.
        const message = `line ${i + 1} starts the body without a blank line after the headers`;
        const hint = 'leave a blank line between the headers and the body (JetBrains and REST Client require it)';
        if (
          !this.dialectUnnamed &&
          (this.dialect === 'jetbrains' || this.dialect === 'rest-client') &&
          !t.startsWith('{{')
        )
          block.refused ??= { message, line: i + 1, col: 1, hint, excerpt: this.lineText(i) };
        else this.warn(message, i, hint);
        block.state = 'body';
        return this.bodyLine(i, line, t);
      }
      this.fail('bad header line', i, 1, 'headers are `Name: value` lines; leave a blank line before the body');
    }
    block.headers.push({ name, value: trimmedSlice(t, colon + 1, t.length), span: this.lineSpan(i) });
    return i;
  }

  /**
   * REST Client puts every `{{…}}` in place before it reads a request, so a line that is only
   * `{{name}}`, the file variable `@name` holding `Header: value`, is that header there. JetBrains
   * reads no such line (it is no header), so a file that names no dialect is read as REST Client's.
   */
  private headerFromVariable(i: number, t: string): HeaderNode | undefined {
    if (this.dialect !== 'rest-client' && !this.dialectUnnamed) return undefined;
    const reference = /^\{\{\s*([\w.-]+)\s*\}\}$/.exec(t.trimEnd());
    const value = reference ? this.variables.findLast((variable) => variable.name === reference[1])?.value : undefined;
    const colon = value ? value.indexOf(':') : -1;
    const name = colon > 0 ? trimmedSlice(value!, 0, colon) : '';
    if (!name || !HEADER_NAME_RE.test(name) || value!.startsWith('//', colon + 1)) return undefined;
    if (this.dialect !== 'rest-client')
      this.warn(
        `{{${reference![1]}}} holds the header \`${name}\`: sent as that header, as REST Client (the one tool that reads such a line) sends it`,
        i,
        'write the header itself (`Name: value`), or `# @dialect rest-client` at the top to confirm',
      );
    return { name, value: trimmedSlice(value!, colon + 1, value!.length), span: this.lineSpan(i) };
  }

  /**
   * A `?a=1` / `&b=2` line right under a request line that ends in `HTTP/1.1` (or under such
   * lines): REST Client joins it to the request line and then cuts everything from ` HTTP/` off, so
   * it sends no query. dial does the same where the file is REST Client's or names no dialect (the
   * other tools read no such line), with a warning; elsewhere it is refused. False when the line
   * does not stand there.
   */
  private queryAfterVersion(i: number, t: string): boolean {
    const block = this.block;
    if (block.httpVersion === undefined || block.headers.length > 0 || !block.requestLineSpan) return false;
    let k = i - 1;
    while (k >= 0 && this.ends[k] > block.requestLineSpan.end && /^[ \t]*[?&]/.test(this.lineText(k))) k--;
    if (k < 0 || this.ends[k] !== block.requestLineSpan.end) return false;
    const hint = `write the query before the version (\`GET url?a=1 HTTP/1.1\`) or leave the version out`;
    if (this.dialect !== 'rest-client' && !this.dialectUnnamed)
      this.fail(`a query line under a request line that ends in ${block.httpVersion}`, i, 1, hint);
    this.warn(
      `\`${t.trim()}\` is not sent: REST Client joins it to the request line and cuts it off with \`${block.httpVersion}\`; dial does the same`,
      i,
      hint,
    );
    return true;
  }

  /**
   * httpyac (parseRequestLineFactory): among the headers, `?a=1` / `&b=2` and `/segment` lines
   * continue the URL; any other line starts the body, no blank line needed.
   */
  private httpyacNonHeaderLine(i: number, line: string, t: string): number {
    if (HTTPYAC_QUERY_LINE_RE.test(t) || HTTPYAC_PATH_LINE_RE.test(t)) {
      this.block.url += t.trim();
      (this.block.urlLines ??= []).push(i + 1);
      return i;
    }
    const spread = /^\s*\.{3}(\S+?),?\s*$/.exec(t);
    if (spread && this.block.state === 'headers') {
      (this.block.headerSpreads ??= []).push({ name: spread[1], line: i + 1 });
      return i;
    }
    this.block.state = 'body';
    return this.bodyLine(i, line, t);
  }

  /**
   * After the request line, comments are read for rest.nvim's `# @lang` (scripts that are not
   * JavaScript) and kulala's metadata, which kulala reads anywhere in the block (`# @env-json-key`
   * under the headers); a key dial refuses is refused here too.
   */
  private commentAfterRequestLine(i: number, t: string): void {
    const keyStart = metadataKeyStart(t);
    if (keyStart < 0) return;
    const keyEnd = metadataKeyEnd(t, keyStart);
    const key = t.slice(keyStart, keyEnd);
    if (this.metadataOnlySomeToolsRead(i, t, keyStart, key)) return;
    const refusal = refusedMetadata(key);
    if (refusal) this.fail(`unsupported metadata @${key}`, i, 1, refusal);
    if (key === 'env-json-key' || COMMAND_KEYS.has(key)) {
      const value = t.slice(keyEnd).trim();
      if (key !== 'env-json-key')
        checkCommandMetadata(key, value, (message, hint) => this.fail(`bad metadata value: ${message}`, i, 1, hint));
      this.block.metadata.push({ key, value, span: this.lineSpan(i) });
      return;
    }
    if (key === 'lang')
      this.block.scriptLanguage = t
        .slice(keyEnd)
        .replace(/^[\s=]+/, '')
        .trim()
        .toLowerCase();
  }

  /** True for `< path` / `<@ path`; `<@enc path` is refused unless the encoding is UTF-8. */
  private fileBodyLine(i: number, t: string): boolean {
    const encoding = fileBodyEncoding(t);
    if (encoding !== undefined && !isSupportedEncoding(encoding)) {
      this.fail(
        `unknown file encoding '${encoding}'`,
        i,
        1,
        'use an encoding Node knows (latin1, utf16le, windows-1252, shift_jis, …), or `<@ ./file` for UTF-8',
      );
    }
    return encoding !== undefined || isFileBodyLine(t);
  }

  // ---- body ----

  private bodyLine(i: number, line: string, t: string): number {
    const block = this.block;
    if (t.length === 0) return i;
    // `??` lines are httpyac's tests wherever they stand (no other tool has them): read as httpyac does.
    const reading = this.isHttpyacTestLine(t) ? readTestLine(t) : undefined;
    if (reading === 'body') this.warnHttpyacTestAsBody(i, t);
    else if (reading || mayEndBody(t)) {
      const last = reading ? this.assertionLine(i, line, reading) : this.afterBodyProduction(i, line, t, true);
      if (last >= 0) {
        block.state = 'post';
        block.afterBody = [[i, last]];
        return last;
      }
    }
    const script = this.httpyacScriptAt(i, t);
    if (script >= 0) {
      // httpyac reads the block before the body parser: lines after it go on the body without it.
      if (block.bodyFirst >= 0) (block.bodyGaps ??= []).push([i, script]);
      return script;
    }
    if (/^\{%/.test(t) && this.closesScriptBeforeNextRequest(i)) {
      // rest.nvim 0.x: the body ends at the `{%` line, the script (to `%}`) runs on the response.
      const legacy = this.dialect === 'rest.nvim' ? this.restNvimLegacyScript(i) : -1;
      if (legacy >= 0) {
        block.state = 'post';
        block.afterBody = [[i, legacy]];
        return legacy;
      }
    }
    if (/^\{%\s*$/.test(t) && block.bodyFirst < 0 && this.closesScriptBeforeNextRequest(i)) {
      this.fail(
        'a `{% … %}` script inside a body is not supported',
        i,
        1,
        'rest.nvim 0.x ran these as Lua; dial runs JavaScript response handlers written `> {% … %}` (JetBrains API)',
      );
    }
    if (this.dialect === 'httpyac' && SAVED_RESPONSE_RE.test(t)) {
      block.state = 'response';
      return i;
    }
    if (this.dialect === 'httpyac' && isHttpyacBlockCommentStart(t)) return this.blockComment(i);
    // rest.nvim's `# @lang=lua` above a `> {% … %}` handler, after a blank line under the request:
    // the handler's language (else a Lua handler would run as JavaScript after the request was sent).
    if (LANG_COMMENT_RE.test(t)) this.commentAfterRequestLine(i, t);
    if (block.bodyFirst < 0) {
      block.bodyFirst = i;
      this.refuseGraphqlBody(i, t);
    }
    // Also the body's first line: REST Client and JetBrains send a second request written without
    // `###` (`GET …` after a blank line) as the first request's body.
    if (!this.dialectUnnamed && isStrictRequestLine(t)) this.warnRequestLineInBody(i, t);
    if (block.bodyFirst === i && fileBodyEncoding(t) !== undefined) this.fileBodyLine(i, t);
    // Comment lines after the body's last content line are not part of it (see withoutCommentLines).
    if (block.bodyLast < block.bodyFirst || !isComment(t)) block.bodyLast = i;
    if (!block.bodyHasContent && !isComment(t)) {
      if (t.charCodeAt(0) === 64 && VARIABLE_RE.test(t)) block.bodyVariables.push(i);
      else block.bodyHasContent = true;
    }
    return i;
  }

  /** rest.nvim 0.x's response script from the `{%` on line i to its `%}`: a handler; returns its last line. */
  private restNvimLegacyScript(i: number): number {
    const open = this.text.indexOf('{%', this.starts[i]);
    const close = this.text.indexOf('%}', open + 2);
    let last = i;
    while (last < this.lineCount - 1 && this.nexts[last] <= close) last++;
    const span = { start: this.starts[i], end: this.ends[last], line: i + 1, col: 1 };
    this.block.handlers.push({ kind: 'inline', code: this.text.slice(open + 2, close), span, lua: 'rest.nvim-0' });
    return last;
  }

  /** rest.nvim 0.x: a `{%` line right after the headers whose `%}` comes before the next `###`: a Lua script. */
  private closesScriptBeforeNextRequest(i: number): boolean {
    for (let k = i + 1; k < this.lineCount; k++) {
      const line = this.lineText(k);
      if (line.startsWith('###')) return false;
      if (/^\s*%\}\s*$/.test(line)) return true;
    }
    return false;
  }

  /** httpyac turns a body that starts with a GraphQL operation into a GraphQL JSON request (done for `query`/`mutation`; `gql name < file`, subscriptions and inline fragments are refused). */
  private refuseGraphqlBody(i: number, t: string): void {
    if (this.block.method === 'GRAPHQL' || this.block.graphql) {
      // JetBrains `GRAPHQL url`, kulala `# @graphql`: the query, then (after a blank line) its JSON variables.
      const name = HTTPYAC_QUERY_RE.exec(t)?.[1];
      this.block.graphql = name ? { operationName: name, trailingVariables: true } : { trailingVariables: true };
      return;
    }
    const graphqlHeader = headerValue(this.block, 'x-request-type')?.toLowerCase() === 'graphql';
    const query = this.dialect === 'httpyac' && !graphqlHeader ? HTTPYAC_QUERY_RE.exec(t) : null;
    const fromFile = this.dialect === 'httpyac' && !graphqlHeader ? HTTPYAC_GQL_FILE_RE.exec(t) : null;
    if (fromFile) {
      // httpyac names the operation after the file when the line names none (gqlHttpRegionParser).
      const name = (fromFile[1] ?? fromFile[2].trim())
        .split(' ')
        .filter((part) => part && !part.startsWith('@'))
        .pop();
      this.block.graphql = { operationName: name, file: fromFile[2].trim(), line: i + 1 };
      return;
    }
    if (query) {
      this.block.graphql = query[1] ? { operationName: query[1] } : {};
      return;
    }
    if (!graphqlHeader && this.dialect === 'httpyac' && /^gql[ \t]/.test(t)) {
      this.fail(
        'GraphQL queries read with `gql name < file` (httpyac) are not supported yet',
        i,
        1,
        'write the query in the body, with a `< ./fragments.graphql` line inside it for a file to include',
      );
    }
    if (!graphqlHeader && this.dialect === 'httpyac' && GRAPHQL_OPERATION_RE.test(t)) {
      this.fail(
        'GraphQL bodies that start with a subscription or fragment are not supported yet',
        i,
        1,
        'start the body with the query or mutation; put fragments above the request (httpyac) or in a `< ./file.graphql` line',
      );
    }
  }

  private warnRequestLineInBody(i: number, t: string): void {
    this.warn(
      `line ${i + 1} (${t.split(/\s/)[0]} …) looks like a request line but is read as part of the body of the request at line ${this.block.requestLineSpan!.line}`,
      i,
      'put `###` above it to start a new request, or add `# @dialect httpyac` if the file was written for httpyac (which starts a request at every request line)',
    );
  }

  // ---- after the body ----

  /**
   * httpyac: a `??` line that is no test of its assert parser (`?? status 200`: no predicate) is
   * read by its body parser, which adds it to the body, after whatever body lines and blank lines
   * came before (the tests, handlers and `{{ }}` blocks between are not body text).
   */
  private warnHttpyacTestAsBody(i: number, t: string): void {
    this.warn(
      `line ${i + 1} (${t.length > 40 ? `${t.slice(0, 40)}…` : t}) is no httpyac test (no predicate such as ==, exists, contains after a space): httpyac sends it as body text of the request at line ${this.block.requestLineSpan!.line}, and so does dial`,
      i,
      'write `?? status == 200` or `?? js <expression> == true` for a test',
    );
  }

  /** A `??` line: httpyac's (its parser also takes `??status == 200`; dial's other dialects want a space). */
  private isHttpyacTestLine(t: string): boolean {
    return t.charCodeAt(0) === 63 && t.charCodeAt(1) === 63 && (this.dialect === 'httpyac' || isAssertionLine(t));
  }

  private resumeHttpyacBody(i: number, t: string, testLine = true): number {
    const block = this.block;
    if (testLine) this.warnHttpyacTestAsBody(i, t);
    if (block.bodyFirst < 0 || !block.bodyHasContent) block.bodyFirst = i;
    else for (const range of block.afterBody ?? []) if (range[0] > block.bodyLast) (block.bodyGaps ??= []).push(range);
    block.afterBody = undefined;
    block.bodyLast = i;
    block.bodyHasContent = true;
    block.state = 'body';
    return i;
  }

  private afterBodyLine(i: number, line: string, t: string): number {
    if (this.isHttpyacTestLine(t)) {
      const reading = readTestLine(t);
      return reading === 'body' ? this.resumeHttpyacBody(i, t) : this.assertionLine(i, line, reading);
    }
    const script = this.httpyacScriptAt(i, t);
    if (script >= 0) return script;
    if (this.dialect === 'httpyac' && isHttpyacBlockCommentStart(t)) return this.blockComment(i);
    if (isComment(t)) {
      this.commentAfterRequestLine(i, t);
      return i;
    }
    const variable = t.charCodeAt(0) === 64 ? VARIABLE_RE.exec(t) : null;
    if (variable) {
      this.addVariable(i, t, variable);
      return i;
    }
    const last = this.afterBodyProduction(i, line, t, false);
    if (last >= 0) return last;
    if (this.dialect === 'httpyac') {
      // httpyac: a saved response (`HTTP/1.1 400 Bad Request` and its lines) is ignored up to the next `###`.
      if (SAVED_RESPONSE_RE.test(t)) {
        this.block.state = 'response';
        return i;
      }
      // Any other line is its body parser's (the last in its chain): body text of the request.
      this.warnHttpyacLineAsBody(i, t);
      return this.resumeHttpyacBody(i, t, false);
    }
    this.fail('unexpected line after the assertions or response handler', i, 1, 'start the next request with `###`');
    return i;
  }

  /** httpyac: a line under the tests or blocks that none of its other parsers takes goes on the body. */
  private warnHttpyacLineAsBody(i: number, t: string): void {
    this.warn(
      `line ${i + 1} (${t.length > 40 ? `${t.slice(0, 40)}…` : t}) comes after the tests or scripts of the request at line ${this.block.requestLineSpan!.line}: httpyac sends it as body text of that request, and so does dial`,
      i,
      'start the next request with `###`, or move the line above the tests if it belongs to the body',
    );
  }

  /** An assertion, handler or redirect line (may appear after the body); returns the last line consumed or -1. */
  private afterBodyProduction(i: number, line: string, t: string, strictHandler: boolean): number {
    const first = t.charCodeAt(0);
    // `<> ./2024-01-01T120000.200.json`: a response reference JetBrains appends after a run; kept as text only.
    if (first === 60 && t.charCodeAt(1) === 62) return i;
    if (first === 63 && isAssertionLine(t)) return this.assertionLine(i, line);
    if (first !== 62 /* > */) return -1;
    if (t.charCodeAt(1) === 62) return this.redirectLine(i, t);
    const after = t.slice(1).trimStart();
    if (after.startsWith('{%')) return this.inlineScript(i, this.starts[i] + line.indexOf('{%'), this.block.handlers);
    if (!after || (strictHandler && !/\.(?:[cm]?js|lua)$/i.test(after))) return -1;
    this.scriptFile(i, after, this.block.handlers);
    return i;
  }

  /** `?? query [argument] [not] predicate [expected]`; `reading`: readTestLine's, when it was asked. */
  private assertionLine(i: number, line: string, reading?: ParsedAssertion | 'test'): number {
    const at = line.indexOf('??') + 2;
    if (this.httpyacOnlyTest(i, line, at)) return i;
    try {
      // readTestLine parsed the same text (the line from `??` on, leading blanks aside).
      const assertion = (typeof reading === 'object' ? reading : parseAssertion(line.slice(at))) as AssertionNode;
      assertion.span = this.lineSpan(i);
      if (assertion.query === 'xpath' && this.block.xpathNamespaces)
        assertion.namespaces = { ...this.block.xpathNamespaces };
      this.block.assertions.push(assertion);
    } catch (error) {
      if (error instanceof AssertionSyntaxError) this.fail(error.message, i, at + error.offset + 1, error.hint);
      throw error;
    }
    return i;
  }

  /**
   * httpyac's reading of a test line where it differs from dial's: a query httpyac does not have
   * (`?? typeof x === "string"`) tests the value false there; kept as a test that fails, with a
   * warning (true when handled). `===` / `!==` are `==` / `!=` followed by the text `= value` in
   * httpyac (so they fail / hold whatever the value): dial compares with the value, and warns.
   */
  private httpyacOnlyTest(i: number, line: string, at: number): boolean {
    if (httpyacReadsAsDial(line, at)) return false;
    const parts = httpyacAssertParts(line);
    if (!parts) return false;
    const source = line.slice(at).trim();
    if (!HTTPYAC_QUERIES.has(parts.type.toLowerCase())) {
      this.block.assertions.push({
        source,
        query: 'js',
        not: false,
        predicate: '==',
        unknownQuery: parts.type,
        span: this.lineSpan(i),
      });
      this.warn(
        `'?? ${source}' tests nothing: httpyac has no '${parts.type}' assertion query (it tests the value false there), so dial counts it as a failed test`,
        i,
        'write `?? js <expression> == <value>` (queries: status, header, body, js, duration, xpath)',
      );
      return true;
    }
    if ((parts.predicate === '==' || parts.predicate === '!=') && parts.expected.startsWith('=')) {
      const op = `${parts.predicate}=`;
      this.warn(
        `httpyac reads '${op}' as '${parts.predicate}' followed by the text '${parts.expected}', so this test ${parts.predicate === '==' ? 'fails' : 'holds'} there whatever the value; dial compares with '${parts.expected.slice(1).trim()}'`,
        i,
        `write '${parts.predicate}' for the same result in both`,
      );
    }
    return false;
  }

  /** `>> ./out.json` / `>>! ./out.json`. */
  private redirectLine(i: number, t: string): number {
    const overwrite = t.charCodeAt(2) === 33; /* ! */
    const target = t.slice(overwrite ? 3 : 2).trim();
    if (!target)
      this.fail('output redirect needs a path', i, 1, 'write `>> ./out.json` (or `>>! ./out.json` to overwrite)');
    this.block.outputRedirect = { path: target, overwrite, span: this.lineSpan(i) };
    return i;
  }

  // ---- variables and the finished request ----

  private addVariable(i: number, line: string, match: RegExpExecArray): void {
    const variable: FileVariable = {
      name: match[1],
      value: line.slice(match[0].length).trim(),
      span: this.lineSpan(i),
    };
    if (match[2]) variable.lazy = true;
    // httpyac's variable pattern takes an opening quote off and keeps the closing one (`"?(.*)"?`).
    if (this.dialect === 'httpyac' && variable.value.startsWith('"'))
      this.warn(
        `httpyac drops the opening quote of @${variable.name} only: it sends ${JSON.stringify(variable.value.slice(1))}`,
        i,
        `write the value without quotes (@${variable.name} = ${variable.value.replace(/^"|"$/g, '')}) to send it as written`,
      );
    this.variables.push(variable);
    if (this.block.separator || this.block.hasRequest) this.block.variables.push(variable);
  }

  private bodyOf(block: Block): BodyNode | undefined {
    if (block.curlBody) return block.curlBody;
    if (block.bodyFirst < 0 || !block.bodyHasContent) return undefined;
    const first = this.lineText(block.bodyFirst).trim();
    const span: Span = {
      start: this.starts[block.bodyFirst],
      end: this.ends[block.bodyLast],
      line: block.bodyFirst + 1,
      col: 1,
    };
    if (block.bodyFirst === block.bodyLast && (isFileBodyLine(first) || fileBodyEncoding(first) !== undefined)) {
      const substitute = first.charCodeAt(1) === 64; /* @ */
      const encoding = fileBodyEncoding(first);
      const path = first
        .slice(substitute ? 2 : 1)
        .replace(/^[\w-]+(?=[ \t])/, '')
        .trim();
      return encoding === undefined || /^utf-?8$/i.test(encoding)
        ? { kind: 'file', path, substitute, span }
        : { kind: 'file', path, substitute, encoding, span };
    }
    const text = block.bodyGaps?.length ? this.bodyTextWithoutGaps(block) : this.text.slice(span.start, span.end);
    if (block.graphql?.file) {
      // `gql name < ./file`: the lines after it are the variables; the session builds the payload.
      const variables = text.replace(/^[^\n]*\n?/, '').trim();
      return variables ? { kind: 'inline', text: variables, span } : undefined;
    }
    if (block.method === 'WEBSOCKET') this.checkWebSocketSeparators(block);
    const sent =
      block.method === 'WEBSOCKET'
        ? text
        : this.dialect === 'httpyac'
          ? withoutHttpyacComments(text)
          : withoutCommentLines(text);
    return {
      kind: 'inline',
      text: block.graphql
        ? this.httpyacGraphqlBody(block.graphql, sent)
        : inlineBodyText(block, this.restClientLeadingBlankLines(block) + sent),
      span,
    };
  }

  /**
   * REST Client drops one blank line after the headers; further blank lines before the body are
   * its first lines (its parser pushes every line after that one into the body). Kept as written
   * in the REST Client dialect, for a text body (not a `< file` line, not GraphQL or multipart,
   * whose bodies REST Client builds otherwise); the other tools' readings are not pinned down, so
   * elsewhere the body starts at its first line that is not blank, as before.
   */
  private restClientLeadingBlankLines(block: Block): string {
    if (this.dialect !== 'rest-client' || block.bodyBlank === undefined || block.bodyFirst <= block.bodyBlank + 1)
      return '';
    const type = headerValue(block, 'content-type') ?? '';
    if (/^multipart\//i.test(type) || headerValue(block, 'x-request-type')?.toLowerCase() === 'graphql') return '';
    return this.text.slice(this.starts[block.bodyBlank + 1], this.starts[block.bodyFirst]);
  }

  /**
   * REST Client sends through got, which refuses a GET or HEAD request that has a body ("The `GET`
   * method cannot be used with a body", got 9 to 11; REST Client sets no allowGetBody): such a
   * request fails there and the file's other requests are sent. Its body is every line after the
   * blank one under the headers up to the last that is neither blank nor a comment, `@name = value`
   * lines too. In a file that names REST Client dial refuses that request at the body's first line
   * (RequestNode.refused); true when it did. A cURL command is left alone (its method and body
   * come from its options).
   */
  private refuseRestClientGetBody(block: Block, bodyLine: number): boolean {
    if (this.dialect !== 'rest-client' || this.dialectUnnamed || block.curl) return false;
    if (block.method !== 'GET' && block.method !== 'HEAD') return false;
    block.refused ??= {
      message: `REST Client cannot send a ${block.method} request with a body (from line ${bodyLine + 1}): its HTTP client refuses one`,
      line: bodyLine + 1,
      col: 1,
      hint: `send the body with another method (POST), or drop it; if line ${bodyLine + 1} starts another request, put \`###\` above it; \`@name = value\` lines go above the request; to send it as written, as JetBrains does, add \`# @dialect jetbrains\``,
      excerpt: this.lineText(bodyLine),
    };
    return true;
  }

  /**
   * Only `@name = value` lines (and comments) after the headers: they are variables, not a body.
   * REST Client reads them as the body (its request range ends at the last line that is neither
   * blank nor a comment, and got then refuses a GET with a body), so dial says so, as for variables
   * after a body; a GET or HEAD in a REST Client file is refused there (refuseRestClientGetBody).
   */
  private variablesUnderRequest(block: Block): void {
    for (const i of block.bodyVariables) {
      const t = this.lineText(i).trimStart();
      this.addVariable(i, t, VARIABLE_RE.exec(t)!);
      this.variablesOutOfOrder = true;
    }
    if (block.bodyVariables.length === 0 || this.dialect === 'httpyac') return;
    const first = block.bodyVariables[0];
    // A GET in a REST Client file fails there: refused, no warning besides.
    if (!this.refuseRestClientGetBody(block, first))
      this.warn(
        `@${VARIABLE_RE.exec(this.lineText(first).trim())![1]} under the request at line ${block.requestLineSpan!.line} is read as a file variable, not sent as its body`,
        first,
        'put `@name = value` lines before the request (or after a `###` line): REST Client sends them as the body (and fails a GET that has one)',
      );
  }

  /** httpyac: the body's lines without the ones its other parsers read (see Block.bodyGaps). */
  private bodyTextWithoutGaps(block: Block): string {
    const skip = new Set<number>();
    for (const [from, to] of block.bodyGaps ?? []) for (let k = from; k <= to; k++) skip.add(k);
    let text = '';
    for (let k = block.bodyFirst; k <= block.bodyLast; k++)
      if (!skip.has(k))
        text += this.text.slice(this.starts[k], k === block.bodyLast ? this.ends[k] : this.starts[k + 1]);
    return text;
  }

  /** A WebSocket body's `=== word` lines: only `=== wait-for-server` is a marker; a misspelt one is never sent as text. */
  private checkWebSocketSeparators(block: Block): void {
    for (let k = block.bodyFirst; k <= block.bodyLast; k++) {
      const line = this.lineText(k);
      const marker = /^===[ \t]+(\S.*?)[ \t]*$/.exec(line);
      // `===wait-for-server` (no space) is a misspelt marker too, not a message.
      const glued = !marker && /^={3,}[ \t]*wait-for-server[ \t]*$/i.test(line);
      if ((marker && marker[1].toLowerCase() !== 'wait-for-server') || glued)
        this.fail(
          `unknown WebSocket separator '${marker ? `=== ${marker[1]}` : line.trim()}'`,
          k,
          1,
          'write `===` between messages, or `=== wait-for-server` to wait for a server message',
        );
    }
  }

  /** httpyac's GraphQL payload: the query up to the first blank line (plus the fragments it spreads), then optional JSON variables. */
  private httpyacGraphqlBody(graphql: { operationName?: string; trailingVariables?: boolean }, text: string): string {
    const lines = text.split(/\r?\n/);
    const blank = graphql.trailingVariables
      ? trailingVariablesBlank(lines)
      : lines.findIndex((line) => line.trim() === '');
    let query = (blank < 0 ? lines : lines.slice(0, blank)).join('\n');
    for (const [name, fragment] of this.fragments) if (query.includes(`...${name}`)) query = `${query}\n${fragment}`;
    const variables =
      blank < 0
        ? ''
        : lines
            .slice(blank + 1)
            .join('\n')
            .trim();
    const head = JSON.stringify({ query, ...(graphql.operationName ? { operationName: graphql.operationName } : {}) });
    // Variables stay a template, spliced in as written, so their {{…}} are resolved at send time.
    return variables ? `${head.slice(0, -1)},"variables":${variables}}` : head;
  }

  /** httpyac resolves a rooted target against the `host` variable (unless a `Host` header names the server). */
  private urlOf(block: Block): string {
    if (this.dialect !== 'httpyac' || !block.url.startsWith('/')) return block.url;
    if (headerValue(block, 'host') !== undefined) return block.url;
    this.noteGuessedDialect(block.requestLineSpan!.line - 1, 'a target starting with / is prefixed with {{host}}');
    return `{{host}}${block.url}`;
  }

  /** The 0-based line holding `offset`, searching forward from line `from` (binary search: files can be long). */
  private lineIndexAt(offset: number, from: number): number {
    let low = from;
    let high = this.lineCount - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  /** httpyac and kulala evaluate `{{ JavaScript }}`; dial does not yet, so such a request is refused at its line. */
  private refuseScriptPlaceholders(block: Block): void {
    const from = block.requestLineSpan!.start;
    const to =
      block.bodyFirst >= 0 && block.bodyHasContent
        ? this.ends[block.bodyLast]
        : (block.headers.at(-1)?.span.end ?? block.requestLineSpan!.end);
    const text = this.text;
    // Each `{{ … }}` of the region, found by placeholderEnd (no match arrays); a match that
    // starts before `to` but ends after it is one the region would not hold, and none follows it.
    for (let at = text.indexOf('{{', from); at >= 0 && at < to;) {
      const end = placeholderEnd(text, at);
      if (end < 0) {
        at = text.indexOf('{{', at + 1);
        continue;
      }
      if (end > to) break;
      const start = at;
      at = text.indexOf('{{', end);
      const inner = text.slice(start + 2, end - 2);
      if (/^\s*\$(?:aadToken|aadV2Token|oidcAccessToken)\b/.test(inner)) {
        this.fail(
          `REST Client's sign-in tokens are not supported: ${text.slice(start, end)}`,
          ...this.placeAt(start, block),
          'get a token yourself (for Azure: `az account get-access-token`) and pass it with --var token=… as {{token}}',
        );
      }
      // JetBrains' Java Faker variables (`{{$random.name.firstName}}`): not generated by dial, refused
      // here rather than at send time, when the file's earlier requests would have gone out.
      const random = RANDOM_RE.exec(inner);
      if (random && !KNOWN_RANDOM_RE.test(random[1].replace(/\s+/g, ''))) {
        this.fail(
          `JetBrains' Faker variable ${text.slice(start, end)} is not supported`,
          ...this.placeAt(start, block),
          'dial generates $random.uuid, .email, .integer(a, b), .float(a, b), .alphabetic(n), .alphanumeric(n) and .hexadecimal(n); write the value in a variable (`@firstName = Ann`) and use {{firstName}}',
        );
      }
      if (PLAIN_PLACEHOLDER_RE.test(inner) || !LOOKS_LIKE_JS_RE.test(inner)) continue;
      // A body path of a request reference may be an XPath with calls (`count(//a)`, `text()`).
      if (BODY_REFERENCE_RE.test(inner)) continue;
      // httpyac evaluates these in its script engine; dial does too, in its sandbox (a module only
      // Node gives is refused before sending by ScriptRunner.checkModules).
      if (this.dialect === 'httpyac') continue;
      this.fail(
        `JavaScript in {{ }} is not supported yet: ${text.slice(start, end)}`,
        ...this.placeAt(start, block),
        'compute the value in a `< {% request.variables.set(…) %}` pre-request script and write {{name}}',
      );
    }
  }

  /** The 0-based line and 1-based column of a text offset in a request (only a refusal needs it: a binary search). */
  private placeAt(offset: number, block: Block): [number, number] {
    const i = this.lineIndexAt(offset, block.requestLineSpan!.line - 1);
    return [i, offset - this.starts[i] + 1];
  }

  /**
   * `@name = value` lines after a body, set off from it by a blank line (with comments among
   * them): file variables, the body ending before them. REST Client reads them as file variables
   * too but also sends them as body text (its request range drops only trailing blank and comment
   * lines; held-out sweep 18 read its selector). Sending them as body text is never meant, so every
   * dialect reads them so, with a warning naming the line.
   */
  private trailingBodyVariables(block: Block): void {
    const found: number[] = [];
    let k = block.bodyLast;
    for (; k > block.bodyFirst; k--) {
      const t = this.lineText(k).trim();
      if (t === '' || isComment(t)) continue;
      if (t.charCodeAt(0) !== 64 || !VARIABLE_RE.test(t)) break;
      found.push(k);
    }
    if (found.length === 0) return;
    let last = k;
    while (last < block.bodyLast && this.lineText(last + 1).trim() !== '') last++;
    if (last === block.bodyLast || last >= Math.min(...found)) return;
    block.bodyLast = k;
    for (const i of found.reverse()) {
      const t = this.lineText(i).trimStart();
      this.addVariable(i, t, VARIABLE_RE.exec(t)!);
    }
    this.variablesOutOfOrder = true;
    this.warn(
      `@${VARIABLE_RE.exec(this.lineText(found[0]).trim())![1]} after the body of the request at line ${block.requestLineSpan!.line} is read as a file variable, not sent`,
      found[0],
      'put `@name = value` lines before the request (or after a `###` line) to make this explicit',
    );
  }

  /**
   * Authorization schemes another tool computes from credentials (httpyac and kulala sign `AWS key secret …`
   * with AWS Signature v4, as dial does — only a malformed line is refused here; kulala hands `NTLM user:pass`
   * (dial answers it: send/ntlm.ts) and a bare `NTLM` / `Negotiate` to curl's --ntlm / --negotiate
   * handshakes). Sent as written the others would be wrong, so each is refused at its line in every dialect. A real NTLM / Negotiate token (one base64 word) and AWS v2's `AWS key:signature` pass through.
   */
  private refuseComputedAuthorization(block: Block): void {
    for (const header of block.headers) {
      if (!lowerCaseEquals(header.name, 'authorization')) continue;
      const i = header.span.line - 1;
      const value = header.value;
      // `Authorization: oauth2 …` / `openid …` is signed in by the session (core/oauth).
      // `AWS key secret [token:…] [region:…] [service:…]` is signed at send time (session/aws-auth.ts).
      const aws = /^\s*aws\s+\S+\s+\S+/i.test(value) ? value.trim().split(/\s+/).slice(3) : [];
      const stray = aws.find((word) => !/^(token|region|service):\S/i.test(word) && !word.includes('{{'));
      if (stray !== undefined)
        this.fail(
          `AWS Signature v4: \`${stray}\` on the Authorization line is not token:…, region:… or service:…`,
          i,
          1,
          'write `Authorization: AWS <access-key-id> <secret-access-key> [token:<session-token>] [region:<region>] [service:<service>]`',
        );
      const scheme = /^\s*(ntlm|negotiate)\b\s*(.*)$/i.exec(value);
      // `NTLM user:password` is answered by dial's NTLM handshake (send/ntlm.ts); the bare and
      // space-separated forms (curl with the current user's or no credentials) and Negotiate are not.
      const ntlmWithPassword = scheme?.[1].toLowerCase() === 'ntlm' && /^.*:.+$/.test(scheme[2].trim());
      if (scheme && !ntlmWithPassword && (scheme[2] === '' || /[:\s]/.test(scheme[2].trim())))
        this.fail(
          scheme[1].toUpperCase() === 'NTLM'
            ? `NTLM authentication without a password (kulala's \`Authorization: NTLM${scheme[2] === '' ? '' : ' user password'}\`: curl --ntlm with the current user's or empty credentials) is not supported`
            : `Negotiate (SPNEGO/Kerberos) authentication (kulala's \`Authorization: Negotiate${scheme[2] === '' ? '' : ' …'}\`, curl --negotiate) is not supported: it needs a Kerberos ticket from the system's GSS-API, which dial does not use`,
          i,
          1,
          scheme[1].toUpperCase() === 'NTLM'
            ? 'write `Authorization: NTLM user:password` (or `DOMAIN\\user:password`): dial answers the NTLM challenge itself'
            : 'send the request with `curl --negotiate -u :` (after kinit); dial sends an Authorization header only as written',
        );
    }
  }

  /**
   * What a body means in the file's dialect where the tools differ: `< file` / `<@ file` and
   * rest.nvim's form bodies; where no dialect is named and the readings differ, a warning.
   */
  private readBodyInDialect(block: Block, body: BodyNode): void {
    // httpyac `# @injectVariables`: a `< ./file` body gets its variables filled in, as `<@` does.
    if (body.kind === 'file' && this.dialect === 'httpyac' && block.metadata.some((m) => m.key === 'injectVariables'))
      body.substitute = true;
    // rest.nvim reads the two markers the other way round: `< ./file` has its {{variables}} filled
    // in, `<@ ./file` is sent as it is (its parser's external_body).
    if (body.kind === 'file' && this.dialect === 'rest.nvim') body.substitute = !body.substitute;
    // `< file`: JetBrains (the format's origin) and rest.nvim fill its variables in, REST Client
    // does not; `<@ file`: REST Client, httpyac and kulala fill them in, rest.nvim does not. Where
    // the file names no tool and the body file holds a {{…}}, the readings differ: a warning.
    else if (
      body.kind === 'file' &&
      body.substitute &&
      this.dialectUnnamed &&
      bodyFileHasPlaceholder(this.path, body.path)
    )
      this.warn(
        `\`<@ ${body.path}\` holds {{…}}: dial fills its variables in, as REST Client, httpyac and kulala do; rest.nvim sends it as it is`,
        body.span.line - 1,
        'name the tool the file is for: `# @dialect rest.nvim` at the top sends it as it is, `# @dialect rest-client` confirms (or pass --dialect)',
      );
    else if (
      body.kind === 'file' &&
      !body.substitute &&
      this.dialectUnnamed &&
      bodyFileHasPlaceholder(this.path, body.path)
    )
      this.warn(
        `\`< ${body.path}\` holds {{…}}: dial sends it as it is, as REST Client does; JetBrains and rest.nvim fill its variables in`,
        body.span.line - 1,
        'name the tool the file is for: `# @dialect jetbrains` or `# @dialect rest.nvim` at the top fills the variables in, `# @dialect rest-client` confirms (or pass --dialect)',
      );
    // rest.nvim sends a form body with the blanks around each `key=value` pair removed (lines joined).
    if (
      body.kind === 'inline' &&
      this.dialect === 'rest.nvim' &&
      headerValue(block, 'content-type')?.toLowerCase().startsWith('application/x-www-form-urlencoded')
    )
      body.text = restNvimForm(body.text);
    else if (
      body.kind === 'inline' &&
      this.dialectUnnamed &&
      /[ \t][=&]|[=&][ \t]/.test(body.text) &&
      headerValue(block, 'content-type')?.toLowerCase().startsWith('application/x-www-form-urlencoded')
    )
      this.warn(
        'this form body has blanks around `=` or `&`: dial sends them as written (as JetBrains does); rest.nvim removes them',
        body.span.line - 1,
        'write the pairs without blanks (`key1=value1&key2=value2`), or `# @dialect rest.nvim` at the top of a rest.nvim file (or pass --dialect)',
      );
    else {
      this.readFormEncodingInDialect(block, body);
      this.readFormLinesInDialect(block, body);
    }
  }

  /**
   * REST Client percent-encodes a form body before sending it (encodeurl, its default
   * `formParamEncodingStrategy`; session/index.ts restClientFormEncoding); JetBrains, httpyac,
   * kulala and rest.nvim send it as written. A file that names no dialect is sent as written, and
   * where its text outside `{{…}}` holds a character REST Client would encode, with a warning.
   */
  private readFormEncodingInDialect(block: Block, body: BodyNode): void {
    if (body.kind !== 'inline' || !this.dialectUnnamed) return;
    if (!headerValue(block, 'content-type')?.toLowerCase().startsWith('application/x-www-form-urlencoded')) return;
    const literal = body.text.replace(/\{\{[^}]*\}\}/g, '');
    const at = literal.search(/%(?![0-9A-Fa-f]{2})|[^!%&-;=?-[\]_a-z~\r\n]/u);
    if (at < 0) return;
    const char = literal[at] === ' ' ? 'a space' : `\`${literal[at]}\``;
    this.warn(
      `this form body holds ${char}, which REST Client percent-encodes: dial sends the body as written (as JetBrains does)`,
      body.span.line - 1,
      'encode it in the file (a space as `%20`), or `# @dialect rest-client` at the top of a REST Client file (or pass --dialect)',
    );
  }

  /**
   * kulala removes a form body's line breaks (parser/request.lua: `body_computed:gsub("\n", "")`),
   * as rest.nvim joins its lines; JetBrains and REST Client send them (REST Client joins only a
   * line that starts with `&`, done already). A file that names no dialect gets a warning.
   */
  private readFormLinesInDialect(block: Block, body: BodyNode): void {
    if (body.kind !== 'inline' || !body.text.includes('\n')) return;
    if (!headerValue(block, 'content-type')?.toLowerCase().startsWith('application/x-www-form-urlencoded')) return;
    if (this.dialect === 'kulala') body.text = body.text.replace(/\r?\n/g, '');
    else if (this.dialectUnnamed)
      this.warn(
        'this form body spans several lines: dial sends the line breaks (as JetBrains does); kulala and rest.nvim join the lines',
        body.span.line - 1,
        'write the pairs on one line (`key1=value1&key2=value2`), or start each continuation line with `&`, or `# @dialect kulala` / `# @dialect rest.nvim` at the top of a file for those tools (or pass --dialect)',
      );
  }

  private finish(end: number): void {
    const block = this.block;
    // The block's imports, and an empty list for the next block (only when it was used: most files have none).
    const protos = this.blockProtos;
    if (protos.length > 0) this.blockProtos = [];
    if (!block.hasRequest) {
      this.fileProtos.push(...protos);
      if (this.dialect === 'httpyac' && block.name !== undefined) this.httpyacNamedRegions.push(block.name);
      if (block.runs) this.finishRunOnly(block, end);
      // httpyac's global region: its blocks run once before the requests, its response blocks after each.
      if (block.scriptBlocks) this.httpyacFile.once.push(...block.scriptBlocks);
      if (block.requestScriptBlocks) {
        const [first] = block.requestScriptBlocks;
        // `}}s`: only a line that is `}}` alone ends a block (httpyac's too), so the request line went into it.
        const lines = first.code.split('\n');
        const unclosed = lines.findIndex((text) => /^\s*\}\}\S/.test(text));
        this.fail(
          'an httpyac `{{@request}}` block in a region without a request is not supported (which requests httpyac runs it for is not pinned down)',
          first.line - 1,
          1,
          unclosed >= 0
            ? `line ${first.line + unclosed} (\`${lines[unclosed].trim()}\`) does not end the block: only a line that is \`}}\` alone does (in httpyac too), so the lines after it, the request line among them, are script; write \`}}\` there`
            : 'write `{{+request}}` to run it on every request of the file, or put it in the region of its request',
        );
      }
      if (block.postScriptBlocks) this.httpyacFile.everyPost.push(...block.postScriptBlocks);
      return;
    }
    if (block.bodyHasContent) this.trailingBodyVariables(block);
    if (!block.bodyHasContent) this.variablesUnderRequest(block);
    this.refuseScriptPlaceholders(block);
    if (block.url === '*' && headerValue(block, 'host') === undefined) {
      this.fail(
        '`OPTIONS *` needs a `Host` header naming the server',
        block.requestLineSpan!.line - 1,
        1,
        'add a line `Host: example.com` (or `Host: https://example.com`) below the request line',
      );
    }
    const marked = headerValue(block, 'x-request-type')?.toLowerCase() === 'graphql';
    if (marked && this.dialect === 'rest-client') this.warnMarkerCase(block);
    const graphql = block.graphql !== undefined || marked;
    this.refuseComputedAuthorization(block);
    // Before the headers are read: a GraphQL body drops its marker header.
    const body = this.bodyOf(block);
    if (body) this.readBodyInDialect(block, body);
    if (body) this.refuseRestClientGetBody(block, body.span.line - 1);
    if (block.method === 'GRAPHQL' && !body) {
      this.fail(
        'a GRAPHQL request without a query',
        block.requestLineSpan!.line - 1,
        1,
        'write the query below the headers, after a blank line (then its JSON variables after another)',
      );
    }
    const start = block.separator ? block.start : (block.contentStart ?? block.requestLineSpan!.start);
    const line = block.separator ? block.line : (block.contentLine ?? block.requestLineSpan!.line);
    // Built in one literal with every field (optional ones set after): object spreads in the
    // literal would take V8's slow path, ~3 µs a request.
    const request: RequestNode = {
      index: this.requests.length,
      name: block.name ?? block.title,
      title: block.title,
      span: { start, end, line, col: 1 },
      requestLineSpan: block.requestLineSpan!,
      method: block.method,
      methodExplicit: block.methodExplicit,
      url: this.urlOf(block),
      httpVersion: block.httpVersion,
      headers: exact(block.headers),
      body,
      metadata: exact(block.metadata),
      tags: exact(block.tags),
      timeoutMs: block.timeoutMs,
      noRedirect: block.noRedirect,
      noCookieJar: block.noCookieJar,
      skip: block.skip,
      retry: block.retry,
      secrets: block.secrets,
      prompts: block.prompts,
      preScripts: block.preScripts,
      handlers: block.handlers,
      assertions: exact(block.assertions),
      outputRedirect: block.outputRedirect,
      variables: block.variables,
    };
    if (block.connectTimeoutMs !== undefined) request.connectTimeoutMs = block.connectTimeoutMs;
    if (block.keyword !== undefined) request.keyword = block.keyword;
    if (block.curl) request.curl = true;
    if (block.scriptBlocks) request.httpyacScripts = block.scriptBlocks;
    if (block.requestScriptBlocks) request.httpyacRequestScripts = block.requestScriptBlocks;
    if (block.runs) request.runs = block.runs;
    if (block.postScriptBlocks) request.httpyacPostScripts = block.postScriptBlocks;
    if (block.httpyacLoop) request.httpyacLoop = block.httpyacLoop;
    if (block.httpyacDisabled) request.httpyacDisabled = block.httpyacDisabled;
    if (block.headerSpreads) request.httpyacHeaderSpreads = block.headerSpreads;
    if (block.urlLines) request.urlLines = block.urlLines;
    if (block.refused) request.refused = block.refused;
    if (block.graphql?.file) {
      request.httpyacGraphqlFile = {
        path: block.graphql.file,
        line: block.graphql.line!,
        operationName: block.graphql.operationName,
        fragments: Object.fromEntries(this.fragments),
      };
    }
    // httpyac names an unnamed GraphQL request after its operation.
    if (request.name === undefined && block.graphql?.operationName) request.name = block.graphql.operationName;
    if (graphql || block.method === 'GRAPHQL') request.graphql = true;
    if (marked && block.graphql === undefined && (this.dialect === 'rest-client' || this.dialect === 'jetbrains'))
      request.graphqlAs = 'rest-client';
    else if (block.method === 'GRAPHQL' && this.dialect === 'rest.nvim') request.graphqlAs = 'rest.nvim';
    if (protos.length > 0) request.grpcProtos = protos;
    this.requests.push(request);
  }

  /**
   * REST Client compares the marker's value with case: its released versions (0.25) take only
   * `GraphQL`, its unreleased source only `graphql`. dial takes any case; another spelling is
   * warned about, since one of the two would send the body as it is, with the marker header.
   */
  private warnMarkerCase(block: Block): void {
    const header = block.headers.find((h) => h.name.toLowerCase() === 'x-request-type');
    if (!header || header.value.trim() === 'GraphQL') return;
    this.warn(
      `\`X-Request-Type: ${header.value.trim()}\`: dial sends a GraphQL request; REST Client 0.25 reads only the value \`GraphQL\` so, and sends this body as it is, with the header`,
      header.span.line - 1,
      'write `X-Request-Type: GraphQL`, as REST Client documents it',
    );
  }

  /** A block of only `run` lines: a node of its own (method RUN, url the first target as written). */
  private finishRunOnly(block: Block, end: number): void {
    const first = block.runs![0].span;
    const start = block.separator ? block.start : (block.contentStart ?? first.start);
    const line = block.separator ? block.line : (block.contentLine ?? first.line);
    this.requests.push({
      index: this.requests.length,
      name: block.name ?? block.title,
      title: block.title,
      span: { start, end, line, col: 1 },
      requestLineSpan: first,
      method: 'RUN',
      methodExplicit: true,
      url: this.text.slice(first.start, first.end).trim().slice(3).trim(),
      headers: [],
      metadata: exact(block.metadata),
      tags: exact(block.tags),
      timeoutMs: block.timeoutMs,
      noRedirect: block.noRedirect,
      noCookieJar: block.noCookieJar,
      skip: block.skip,
      retry: block.retry,
      secrets: block.secrets,
      prompts: block.prompts,
      preScripts: block.preScripts,
      handlers: [],
      assertions: [],
      variables: block.variables,
      runs: block.runs,
      runOnly: true,
    });
  }
}
