/**
 * The `.http` file model (docs/http-format.md). Every element
 * keeps its source span so printing is byte-exact and edits are surgical. Values are
 * templates: `{{variables}}` are resolved later by core/vars.
 */

/** A range of the source text: offsets are UTF-16 indexes into HttpFile.text, end exclusive; lines and cols are 1-based. */
export interface Span {
  start: number;
  end: number;
  line: number;
  col: number;
}

export interface FileVariable {
  name: string;
  /** Raw value template (may reference other variables). */
  value: string;
  span: Span;
  /**
   * httpyac `@name := value`: its `{{…}}` are filled in where the variable is used. Without it
   * httpyac fills them in where the variable is defined, with the values known there.
   */
  lazy?: true;
}

export interface HeaderNode {
  name: string;
  value: string;
  span: Span;
}

/** One metadata line `# @key value` / `// @key value`; unknown keys are kept here too. */
export interface MetadataNode {
  key: string;
  value: string;
  span: Span;
}

export type BodyNode =
  /** Inline text (variables substituted at send time). Multipart bodies are inline text whose parts may pull in files. */
  | { kind: 'inline'; text: string; span: Span }
  /** `< ./file` sent as is, or `<@ ./file` with variables substituted. Path relative to the .http file. */
  | {
      kind: 'file';
      path: string;
      substitute: boolean;
      span: Span;
      /** REST Client `<@latin1 ./file`: the file's text encoding (absent = UTF-8). */ encoding?: string;
      /** REST Client's cURL `-d @file`: a relative path is looked for in the workspace root first. */
      rootFirst?: boolean;
    };

export type ScriptNode =
  | {
      kind: 'inline';
      code: string;
      span: Span;
      /**
       * rest.nvim's Lua, run with its script API: `# @lang=lua` above the script in a rest.nvim file
       * ('rest.nvim'), or rest.nvim 0.x's `{% … %}` under the request with its `context` ('rest.nvim-0').
       */
      lua?: 'rest.nvim' | 'rest.nvim-0';
    }
  | { kind: 'file'; path: string; span: Span };

export type AssertionQuery = 'status' | 'header' | 'body' | 'duration' | 'js' | 'xpath';

export type AssertionPredicate =
  | '=='
  | '!='
  | '<'
  | '<='
  | '>'
  | '>='
  | 'contains'
  | 'startsWith'
  | 'endsWith'
  | 'matches'
  | 'exists'
  | 'isNumber'
  | 'isString'
  | 'isBoolean'
  | 'isArray'
  | 'isObject'
  | 'isNull'
  | 'isEmpty'
  /** httpyac's `isTrue` / `isFalse`: the value is truthy / falsy in JavaScript. */
  | 'isTrue'
  | 'isFalse'
  | 'length'
  /** dial extensions: `?? body schema ./x.json`, `?? body snapshot [ignore $.a $.b]` */
  | 'schema'
  | 'snapshot';

/** `?? <query> [argument] [not] <predicate> [expected]` */
export interface AssertionNode {
  /** The line as written, without `??` (for messages). */
  source: string;
  query: AssertionQuery;
  /** Header name, JSONPath, JS expression, XPath; undefined when the query takes none. */
  argument?: string;
  not: boolean;
  predicate: AssertionPredicate;
  /** For `length`: the comparison operator applied to the length. */
  lengthOperator?: '==' | '!=' | '<' | '<=' | '>' | '>=';
  /** Expected value template as written (JSON literal or string; may contain {{vars}}); for schema the path; for snapshot unused. */
  expected?: string;
  /** For snapshot: JSONPaths to ignore. */
  ignore?: string[];
  /**
   * httpyac reads the line as a test of a query it does not have (`?? typeof x === "string"`):
   * the query word as written. Such a test never holds (httpyac compares the value `false`).
   */
  unknownQuery?: string;
  /** `xpath`: the prefixes of the region's httpyac `@xpath_ns prefix=uri` lines. */
  namespaces?: Record<string, string>;
  span: Span;
}

export interface OutputRedirectNode {
  path: string;
  /** `>>!` overwrites; `>>` writes a new name when the file exists (JetBrains). */
  overwrite: boolean;
  span: Span;
}

export interface RetryPolicy {
  count: number;
  delayMs: number;
}

export interface RequestNode {
  /** Position in the file, 0-based. */
  index: number;
  /** From `# @name` (wins) or the `###` separator title; undefined when unnamed. */
  name?: string;
  /** The text after `###`, if any. */
  title?: string;
  /** Whole request block: from its `###` separator (or file start) up to the next separator. */
  span: Span;
  /** Span of the request line (METHOD URL VERSION) including URL continuation lines. */
  requestLineSpan: Span;
  method: string;
  /** False when the method was omitted (GET implied); the printer keeps it omitted. */
  methodExplicit: boolean;
  /** A protocol keyword as written when it is not `method` (httpyac's `WS` for WEBSOCKET): printed back as written. */
  keyword?: string;
  /** URL template with continuation lines joined (no whitespace between parts). */
  url: string;
  /** Lines (1-based) among the headers that httpyac joins to the URL (`?a=1`, `&b=2`, `/segment`), not next to the request line. */
  urlLines?: number[];
  /**
   * A request the file's own tool cannot read, though the rest of the file is fine (REST Client and
   * JetBrains fail such a request when it is sent and send the others): dial refuses it with this
   * E_PARSE error when it would be prepared or sent, and `dial check` reports it; the file's other
   * requests run. The fields read as if the request had been read otherwise (see parse.ts).
   */
  refused?: { message: string; line: number; col: number; hint: string; excerpt: string };
  httpVersion?: string;
  headers: HeaderNode[];
  body?: BodyNode;
  metadata: MetadataNode[];
  /** Convenience views of metadata. */
  tags: string[];
  timeoutMs?: number;
  /** JetBrains `# @connection-timeout 2s` (additive: dial also maps it to SendOptions.connectTimeoutMs). */
  connectTimeoutMs?: number;
  noRedirect: boolean;
  noCookieJar: boolean;
  skip?: { reason?: string };
  retry?: RetryPolicy;
  /** Variable names marked `# @secret`. */
  secrets: string[];
  prompts: Array<{ name: string; description?: string }>;
  preScripts: ScriptNode[];
  handlers: ScriptNode[];
  assertions: AssertionNode[];
  outputRedirect?: OutputRedirectNode;
  /** File variables declared inside this block (they apply from here on, JetBrains style). */
  variables: FileVariable[];
  /**
   * A GraphQL request (`GRAPHQL url`, `X-Request-Type: GraphQL`, an httpyac `query` body): the body
   * is its JSON payload; sent as a POST, and `errors` in its answer are shown (core/session/graphql.ts).
   */
  graphql?: boolean;
  /**
   * Whose GraphQL request this is, where dial sends it as that tool does rather than its own way:
   * - 'rest-client': `X-Request-Type: GraphQL` (in a REST Client file, or one read as JetBrains',
   *   which has no such marker): no `Content-Type` or `Accept` added, the payload
   *   `{query, operationName, variables}` written compactly;
   * - 'rest.nvim': `GRAPHQL url` in a rest.nvim file: `{query, variables}` (no operationName), no
   *   `Accept` added, and curl's `Content-Type: application/x-www-form-urlencoded` unless written.
   */
  graphqlAs?: 'rest-client' | 'rest.nvim';
  /**
   * REST Client's cURL request: the request line (requestLineSpan, over its continuation lines)
   * is a curl command, and the headers and body come from it (their spans are that command's).
   */
  curl?: true;
  /** httpyac `{{ … }}` blocks before the request line (httpyac dialect): their `exports` become variables. */
  httpyacScripts?: Array<{ code: string; line: number }>;
  /**
   * JetBrains/kulala `run` lines of the block: run before the request, in order. A block of only
   * `run` lines is a node of its own with `runOnly` set (method `RUN`, url the first target).
   */
  runs?: RunLineNode[];
  runOnly?: true;
  /** httpyac `{{@request}}` / `{{+request}}` blocks: run on the final request (URL, headers, body resolved); what they change is sent. */
  httpyacRequestScripts?: Array<{ code: string; line: number }>;
  /** httpyac `{{ … }}` blocks after the request line (or `{{@response}}`): run with `response` once it is in. */
  httpyacPostScripts?: Array<{ code: string; line: number }>;
  /**
   * httpyac `# @loop`: the request is sent once per pass, with `$index` (and the loop variable) set;
   * `while`: as long as the JavaScript condition holds, evaluated before each pass.
   */
  /** httpyac `# @disabled condition`: not sent when the JavaScript condition holds (evaluated before the send). */
  httpyacDisabled?: { condition: string; line: number };
  httpyacLoop?:
    | { kind: 'for'; count: number; line: number }
    | { kind: 'forOf'; variable: string; iterable: string; line: number }
    | { kind: 'while'; condition: string; line: number };
  /** httpyac `...defaultHeaders` lines among the headers: the object variable's fields become headers. */
  httpyacHeaderSpreads?: Array<{ name: string; line: number }>;
  /** httpyac `gql name < ./query.gql`: the query file (the body holds the variables) and the fragments defined before it. */
  httpyacGraphqlFile?: { path: string; line: number; operationName?: string; fragments: Record<string, string> };
  /** gRPC: httpyac `proto < ./file.proto` imports of this block and of the file's blocks without a request. */
  grpcProtos?: Array<{ path: string; importPaths: string[] }>;
}

/** `run #name`, `run ./file.http`, `run ./file.http#name`, each optionally `(@var=value, …)`. */
export interface RunLineNode {
  /** The `.http` file to run (relative to this file), if the line names one. */
  path?: string;
  /** The request to run (`#name`): a `# @name`, a `###` title, or `METHOD url` (kulala). */
  name?: string;
  /** `(@host=example.com, @user=ann)`: variables for the requests it runs (templates). */
  variables: Array<{ name: string; value: string }>;
  span: Span;
}

/** `import ./other.http`: its requests can be run by name with `run #name`. */
export interface ImportNode {
  path: string;
  span: Span;
}

/** Something dial read one way while another tool may read it another: shown, never fatal. */
export interface ParseWarning {
  message: string;
  hint?: string;
  file: string;
  /** 1-based. */
  line: number;
}

export interface HttpFile {
  /** Absolute path ('' for text not from disk). */
  path: string;
  /** The exact source text. */
  text: string;
  /** All file variables in source order (including those inside request blocks). */
  variables: FileVariable[];
  requests: RequestNode[];
  /** The tool whose meaning the file was read with (see dialect.ts). */
  dialect?: import('./dialect.js').Dialect;
  /** Where the dialect came from: 'default' when nothing in the file, flag or workspace named it. */
  dialectSource?: import('./dialect.js').DialectSource;
  /**
   * REST Client dialect: the workspace's `rest-client.formParamEncodingStrategy` when it is not
   * "automatic" (never: form bodies as written; always: each name and value encodeURIComponent'd).
   */
  formEncoding?: 'never' | 'always';
  /** Ambiguities worth telling the user about (absent when there are none). */
  warnings?: ParseWarning[];
  /** JetBrains/kulala `import ./file.http` lines (absent when there are none). */
  imports?: ImportNode[];
  /** httpyac: `{{ … }}` blocks of global regions (no request), run once before the file's requests. */
  httpyacFileScripts?: Array<{ code: string; line: number }>;
  /** httpyac `# @import ./other.http`: files whose requests and variables this file may use. */
  httpyacImports?: Array<{ path: string; line: number }>;
  /**
   * httpyac: names of regions with no request (`# @name variables` over `@host = …` lines). A
   * `# @ref` to one runs nothing: its variables are file variables already.
   */
  httpyacNamedRegions?: string[];
}

/**
 * A request to print as a NEW block (formatRequest): the TUI's "new request", the importers.
 * Everything but `url` is optional; the printer writes the canonical style of docs/http-format.md.
 * (Additive to the contract: printer input only; parsed files never carry drafts.)
 */
export interface RequestDraft {
  /** Text after `###`; defaults to `name`. */
  title?: string;
  /** Printed as `# @name x` (both JetBrains and VS Code REST Client read it). */
  name?: string;
  /** Default 'GET'. */
  method?: string;
  /** False prints the request line without its method (GET implied, or WEBSOCKET before ws://). Default true. */
  methodExplicit?: boolean;
  /** Printed instead of `method` (a protocol keyword as written, e.g. `WS`). */
  keyword?: string;
  url: string;
  /** As written on the request line: 'HTTP/1.1', 'HTTP/2'. */
  httpVersion?: string;
  /** Block-level file variables, printed `@name = value` right after the separator. */
  variables?: Array<{ name: string; value: string }>;
  /** Other metadata lines in order: `{ key: 'tag', value: 'smoke' }` prints `# @tag smoke`; no value prints `# @key`. */
  metadata?: Array<{ key: string; value?: string }>;
  preScripts?: Array<{ kind: 'inline'; code: string } | { kind: 'file'; path: string }>;
  headers?: Array<{ name: string; value: string }>;
  /** A string is an inline body. */
  body?: string | { kind: 'inline'; text: string } | { kind: 'file'; path: string; substitute: boolean };
  /** Assertion lines without the leading `?? `, e.g. `status == 200`. */
  assertions?: string[];
  handlers?: Array<{ kind: 'inline'; code: string } | { kind: 'file'; path: string }>;
  outputRedirect?: { path: string; overwrite: boolean };
}
