/** The parser's working state for one request block (internal to the parser). */
import type {
  AssertionNode,
  BodyNode,
  HeaderNode,
  OutputRedirectNode,
  RequestNode,
  RunLineNode,
  ScriptNode,
  Span,
} from './types.js';

/**
 * `response`: httpyac's saved response (`HTTP/1.1 200 OK` and what follows), read as comment text.
 * `unread`: the rest of a request whose request line no tool can send (RequestNode.refused), up to
 * the next `###`; only its `@name = value` lines are read.
 */
export type BlockState = 'pre' | 'headers' | 'body' | 'post' | 'response' | 'unread';

/** The metadata views a block collects, exactly as RequestNode holds them. */
export type BlockMetadata = Pick<
  RequestNode,
  | 'metadata'
  | 'preScripts'
  | 'variables'
  | 'name'
  | 'tags'
  | 'timeoutMs'
  | 'connectTimeoutMs'
  | 'noRedirect'
  | 'noCookieJar'
  | 'skip'
  | 'retry'
  | 'secrets'
  | 'prompts'
>;

export interface Block extends BlockMetadata {
  start: number;
  line: number;
  separator: boolean;
  title?: string;
  /** For a block without `###`: where the request's own text begins. */
  contentStart?: number;
  contentLine?: number;
  state: BlockState;
  hasRequest: boolean;
  method: string;
  methodExplicit: boolean;
  /** A protocol keyword as written when it is not the method's name (httpyac's `WS`). */
  keyword?: string;
  url: string;
  httpVersion?: string;
  requestLineSpan?: Span;
  headers: HeaderNode[];
  /** The blank line that ended the headers (0-based), if one did. */
  bodyBlank?: number;
  bodyFirst: number;
  bodyLast: number;
  bodyHasContent: boolean;
  /** `@var = value` lines seen in the body: variables if the body turns out to hold nothing else. */
  bodyVariables: number[];
  /**
   * httpyac: line ranges (0-based, inclusive) between bodyFirst and bodyLast that are not body
   * text (assertions, handlers, `{{ }}` blocks read before a `??` line that goes on the body).
   */
  bodyGaps?: Array<[number, number]>;
  /** httpyac `@xpath_ns prefix=uri` lines of this region: the namespaces of its `?? xpath` tests. */
  xpathNamespaces?: Record<string, string>;
  /** httpyac: line ranges consumed after the body (assertions, handlers, scripts), in case the body resumes. */
  afterBody?: Array<[number, number]>;
  assertions: AssertionNode[];
  handlers: ScriptNode[];
  outputRedirect?: OutputRedirectNode;
  /** httpyac: the body is a GraphQL query (`query`/`mutation` first line); the operation name if any. */
  graphql?: { operationName?: string; file?: string; line?: number; trailingVariables?: boolean };
  /** httpyac `{{ … }}` blocks before the request line. */
  scriptBlocks?: Array<{ code: string; line: number }>;
  httpyacLoop?: RequestNode['httpyacLoop'];
  httpyacDisabled?: RequestNode['httpyacDisabled'];
  headerSpreads?: RequestNode['httpyacHeaderSpreads'];
  urlLines?: RequestNode['urlLines'];
  /** Set where the file's tool cannot read this request. */
  refused?: RequestNode['refused'];
  /** httpyac `{{@request}}` blocks: run on the final request. */
  requestScriptBlocks?: Array<{ code: string; line: number }>;
  /** httpyac `{{ … }}` blocks that run after the response. */
  postScriptBlocks?: Array<{ code: string; line: number }>;
  /** `# @lang lua` (rest.nvim): scripts of this block are not JavaScript. */
  scriptLanguage?: string;
  /** JetBrains/kulala `run` lines before the request line. */
  runs?: RunLineNode[];
  /** REST Client's cURL request: the request line is a curl command, its headers and body come from it. */
  curl?: true;
  curlBody?: BodyNode;
}

/** An empty block starting at `start` (a `###` line when `separator`). */
export function newBlock(start: number, line: number, separator: boolean, title?: string): Block {
  return {
    start,
    line,
    separator,
    title,
    state: 'pre',
    metadata: [],
    preScripts: [],
    variables: [],
    tags: [],
    noRedirect: false,
    noCookieJar: false,
    secrets: [],
    prompts: [],
    hasRequest: false,
    method: 'GET',
    methodExplicit: false,
    url: '',
    headers: [],
    bodyFirst: -1,
    bodyLast: -1,
    bodyHasContent: false,
    bodyVariables: [],
    assertions: [],
    handlers: [],
  };
}
