/**
 * The request-execution session: one per `dial send FILE`, per `dial run`, per TUI workspace.
 * It owns what requests of a workspace share: parsed files, environments, `client.global`
 * values, the exchanges of requests that ran (so `{{login.response.body.$.token}}` works) and
 * the secret values to mask.
 *
 * API (the runner and the TUI code against this; keep it small):
 * - `createSession(options)`: options.workspaceRoot, environment (undefined = `$shared` only),
 *   cliVariables (`--var`), sendOptions (engine defaults), send (default: sendRequest from
 *   core/http), prompt (for `# @prompt`; undefined = E_VAR_UNDEFINED unless --var gives it),
 *   runReference (how a referenced request that has not run yet is run: the runner passes one
 *   that runs scripts and assertions; default: prepare + send + record), processEnv (default
 *   process.env; only `{{$processEnv X}}` reads it), keepReference (set: referenced requests
 *   that have not run are never run; their placeholders stay as written — export curl,
 *   send --curl / --offline).
 * - `globals`: the `client.global` map scripts share.
 * - `loadFile(path)`: read + parse, cached per path.
 * - `prepare(file, node, {requestVariables})`: resolve variables (running referenced requests
 *   first, once) into an HttpRequest, metadata overrides (@timeout, @no-redirect,
 *   @no-cookie-jar) and the secret values it used.
 * - `execute(file, node, {signal, sendOptions})`: prepare + send + record.
 * - `record(file, node, request, exchange)`: makes an exchange referable by the request's name.
 * - `hasRun(file, node)`: whether the request ran (or was recorded) in this session.
 * - `resolveTemplate(text, file, node)`: `{{…}}` in any text with the request's scope
 *   (assertion expected values).
 * - `secretValues()`: every secret value resolved so far (for printers and history).
 * - `environments()`: environment names defined at the workspace root.
 *
 * Reference cycles are found with the chain of requests being prepared, carried through
 * async calls (AsyncLocalStorage, entered only while a referenced request runs), so
 * concurrent files never see each other's chains.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { Exchange, HttpRequest, RequestBody, SendOptions, TlsOptions } from '../http/types.js';
import { grpcRequestParts } from './grpc.js';
import type { FileVariable, HeaderNode, HttpFile, MetadataNode, RequestNode } from '../httpfile/types.js';
import { parseHttpFile, refusalError } from '../httpfile/parse.js';
import { reportParseWarnings } from '../httpfile/warnings.js';
import { skipsCertificateCheck } from '../httpfile/metadata.js';
import { httpyacVariableName } from '../httpfile/httpyac.js';
import { decodeFileBody } from '../httpfile/scripts.js';
import { withHttpyacEnvironment } from '../vars/httpyac-env.js';
import { expandMultipartBody, multipartBoundary, MultipartFileError } from '../httpfile/multipart.js';
import { DialError } from '../errors.js';
import { EnvStore, readsVscodeUserSettings, type Dotenv, type ResolvedEnvironment } from '../env/index.js';
import { parseDotenv } from '../env/dotenv.js';
import { restNvimDotenv } from '../env/restnvim-dotenv.js';
import { VariableResolver, isPlain as isPlainTemplate, type AuthPlaceholder } from '../vars/resolver.js';
import type { OAuthClient, OAuthHost } from '../oauth/index.js';
import {
  httpyacExecuteNames,
  httpyacResponse,
  type HttpyacBlockContext,
  type HttpyacBlockOutcome,
} from '../vars/httpyac-js.js';
import type { ResponseView } from '../assert/response-view.js';
import { evaluateReference, type RecordedExchange } from '../vars/references.js';
import { findPlaceholders } from '../httpfile/placeholders.js';
import { inFileConflictMessage, scriptSetSites, shownPath } from '../vars/precedence.js';
import { lineColAt } from '../env/json-file.js';
import { basicAuthorization } from '../http/basic-auth.js';
import { VERSION } from '../../version.js';
import { guessContentType } from '../http/mime.js';
import { eventSourceHttpRequest, eventTypes, streamLimits } from './event-source.js';

/** True when a file variable stands outside every request's block (httpyac: in a global region). */
function isGlobalVariable(file: HttpFile, variable: { span: { start: number } }): boolean {
  return !file.requests.some(
    (request) => variable.span.start >= request.span.start && variable.span.start < request.span.end,
  );
}

export interface SessionOptions {
  workspaceRoot: string;
  environment?: string;
  cliVariables?: Record<string, string>;
  sendOptions?: SendOptions;
  send?: (request: HttpRequest, options: SendOptions) => Promise<Exchange>;
  prompt?: (name: string, description?: string) => Promise<string>;
  /** How a referenced request that has not run yet is executed; default: prepare + send + record. */
  runReference?: (file: HttpFile, node: RequestNode) => Promise<void>;
  /** Read by `{{$processEnv NAME}}` only. Default process.env. */
  processEnv?: Record<string, string | undefined>;
  /**
   * Set: a request that references one which has not run (`{{login.response.body.$.token}}`,
   * `# @ref login`) does not run it; the placeholder stays as its `{{…}}` text and this is told
   * of each (`dial export curl`, `send --curl`, `send --offline`: printing must send nothing).
   */
  keepReference?: (kept: KeptReference) => void;
  /**
   * Told about every request the session runs because another one references it (only when
   * it runs them itself, i.e. without runReference): before it is sent and after, so a command
   * can announce it and record it in history. Nothing a session sends goes unseen.
   */
  onDependency?: (event: DependencyEvent) => void;
  /** Set: a reference to a request that has not run is an E_INPUT naming both (`send --no-deps`). */
  refuseDependencies?: boolean;
  /**
   * OAuth 2.0 (`{{$auth.token("name")}}`): how the user is told to sign in, the browser, the
   * token cache. Default: nothing told, no browser, the cache in dial's config folder. With
   * keepReference the placeholder stays as written (printing a request never signs in).
   */
  oauth?: OAuthHost;
}

/** A referenced request the session runs on its own (SessionOptions.onDependency). */
export type DependencyEvent =
  | { phase: 'send'; name: string; neededBy: string; request: HttpRequest; environment?: string }
  | { phase: 'done'; name: string; neededBy: string; request: HttpRequest; exchange: Exchange; environment?: string }
  | { phase: 'failed'; name: string; neededBy: string; error: unknown; environment?: string };

/** A reference left as written because the session does not run requests (keepReference). */
export interface KeptReference {
  /** The request it needs. */
  request: string;
  /** As it stays in the request: `{{login.response.body.$.token}}`, or `# @ref login`. */
  text: string;
}

export interface PreparedRequest {
  request: HttpRequest;
  /** Send options the request's metadata sets, to merge over the caller's. */
  overrides: Partial<SendOptions>;
  /** Values to mask wherever this exchange is shown or stored. */
  secretValues: string[];
  /**
   * `Authorization: Digest user password` (the .http convention): the header is removed and the
   * credentials are returned here; the sender answers the server's 401 challenge with them
   * (session.execute does; the send command reuses its --auth-type digest path).
   */
  digest?: { username: string; password: string };
  /** kulala's `Authorization: NTLM user:password`: the NTLM handshake of send/ntlm.ts. */
  ntlm?: { username: string; password: string };
}

export interface Session {
  readonly workspaceRoot: string;
  readonly environment?: string;
  /** `client.global`, shared by scripts. */
  globals: Map<string, unknown>;
  /**
   * `client.global.headers` (JetBrains) of a file's execution flow, by lower-case name: every
   * request of the file prepared after a script set one gets it, unless the request writes that
   * header itself. One map per file (JetBrains' flow is the file's run), made on first use.
   */
  globalHeadersOf(file: HttpFile): Map<string, [string, string]>;
  loadFile(path: string): Promise<HttpFile>;
  /**
   * Drops the cached parse of a file (the runner calls it once a file has run, so a long run does
   * not hold every file's tree). A later loadFile parses it again; recorded exchanges are kept.
   */
  forgetFile(path: string): void;
  /** `promptAgain`: this is a new send, so its `# @prompt` values are asked again (not the session's earlier answers); the requests it references reuse them. */
  prepare(
    file: HttpFile,
    node: RequestNode,
    extra?: { requestVariables?: Map<string, string>; promptAgain?: boolean },
  ): Promise<PreparedRequest>;
  /**
   * prepare() at once, for a request that provably needs none of what prepare() waits for (no
   * placeholder, script, reference, prompt, secret, body or metadata, and a folder known to have no
   * default headers); undefined for any other, which then takes prepare(). Same result.
   */
  preparePlain(file: HttpFile, node: RequestNode, promptAgain?: boolean): PreparedRequest | undefined;
  execute(
    file: HttpFile,
    node: RequestNode,
    options?: { signal?: AbortSignal; sendOptions?: Partial<SendOptions> },
  ): Promise<Exchange>;
  record(file: HttpFile, node: RequestNode, request: HttpRequest, exchange: Exchange): void;
  /** The last recorded exchange of the request of that name (kulala's `client.responses["name"]`); never sends. */
  recordedNamed(name: string): { request: HttpRequest; exchange: Exchange } | undefined;
  hasRun(file: HttpFile, node: RequestNode): boolean;
  resolveTemplate(
    text: string,
    file: HttpFile,
    node: RequestNode,
    requestVariables?: Map<string, string>,
  ): Promise<string>;
  secretValues(): string[];
  environments(): Promise<string[]>;
  /** httpyac: keeps the file's last response, which later requests read as `response`. */
  noteHttpyacResponse(file: HttpFile, response: ResponseView): void;
  /** httpyac `# @loop`: the request variables of each pass (`$index`, the loop variable); one empty pass without a loop. */
  httpyacLoopPasses(file: HttpFile, node: RequestNode): Promise<Array<Map<string, string>>>;
  /** httpyac `# @disabled condition`: whether the condition holds (the request is then not sent). */
  httpyacDisabledHolds(file: HttpFile, node: RequestNode): Promise<boolean>;
  /** httpyac `# @loop while condition`: whether the condition holds before pass `index`. */
  httpyacLoopHolds(file: HttpFile, node: RequestNode, index: number): Promise<boolean>;
  /** httpyac: the request's `@name = value` lines under it, given their values now (see settleHttpyacVariables). */
  settleHttpyacVariables(file: HttpFile, node: RequestNode, requestVariables?: Map<string, string>): Promise<void>;
  /** httpyac: runs the request's `{{ }}` blocks that follow it, over its response (exports become globals). */
  runHttpyacPostScripts(
    file: HttpFile,
    node: RequestNode,
    response: ResponseView,
    requestVariables?: Map<string, string>,
  ): Promise<HttpyacBlockOutcome[]>;
}

const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** httpyac's `request` in a `{{ }}` block: the request as written (templates unresolved), as httpyac gives it before sending. */
function httpyacRequestOf(node: RequestNode): HttpyacBlockContext['request'] {
  const headers: Record<string, string> = {};
  for (const header of node.headers) headers[header.name] = header.value;
  return {
    method: node.method,
    url: node.url,
    headers,
    ...(node.body?.kind === 'inline' ? { body: node.body.text } : {}),
  };
}

/** The request called `name`; in httpyac files also the one whose name reads as that variable. */
function findNamed(file: HttpFile, name: string): RequestNode | undefined {
  const exact = file.requests.find((request) => request.name === name);
  if (exact || file.dialect !== 'httpyac') return exact;
  return file.requests.find((request) => request.name !== undefined && httpyacVariableName(request.name) === name);
}

/** httpyac's `httpRegion.metaData` of a request: its name, title and `# @key value` lines (a flag: true). */
function httpyacMetaData(node: RequestNode): Record<string, string | true> {
  const metaData: Record<string, string | true> = {};
  // A `### title` alone names no request in httpyac (dial takes it as the name too).
  if (node.name !== undefined && node.name !== node.title) metaData.name = node.name;
  if (node.title !== undefined) metaData.title = node.title;
  for (const meta of node.metadata) metaData[meta.key] = meta.value === '' ? true : meta.value;
  return metaData;
}

/** The variables declared outside any request of a file (httpyac's global regions). */
function globalVariables(file: HttpFile): Map<string, string> {
  const inRequests = new Set(file.requests.flatMap((request) => request.variables));
  const values = new Map<string, string>();
  for (const variable of file.variables)
    if (!inRequests.has(variable)) values.set(variable.name, httpyacValueAsDefined(variable, values, {}));
  return values;
}

/**
 * An httpyac file variable's value as httpyac keeps it (variableHttpRegionParser): its opening quote
 * dropped (`"?(.*)"?` keeps the closing one), and each `{{name}}` of a variable defined above with a
 * plain value filled in there and then, so a later `@name` does not change it. `@x := …` (lazy) and
 * names not known yet are filled in where the variable is used; so are dynamic and environment
 * values (drawn where used, as before). `--var` values stay in charge.
 */
function httpyacValueAsDefined(
  variable: FileVariable,
  known: Map<string, string>,
  cli: Record<string, string>,
): string {
  const value = variable.value.charCodeAt(0) === 34 /* " */ ? variable.value.slice(1) : variable.value;
  if (variable.lazy || !value.includes('{{')) return value;
  return value.replace(/\{\{\s*([A-Za-z_$][\w$]*)\s*\}\}/g, (whole: string, name: string) => {
    const bound = known.get(name);
    return bound !== undefined && !bound.includes('{{') && !Object.hasOwn(cli, name) ? bound : whole;
  });
}

/** A copy of the request as a `{{ }}` block left it (templates still resolved afterwards, as httpyac does). */
function withHttpyacRequest(node: RequestNode, changed: NonNullable<HttpyacBlockContext['request']>): RequestNode {
  const headers: RequestNode['headers'] = [];
  for (const [name, value] of Object.entries(changed.headers ?? {})) {
    if (value === undefined || value === null) continue;
    const span = node.headers.find((header) => header.name === name)?.span ?? node.requestLineSpan;
    headers.push({ name, value: typeof value === 'string' ? value : JSON.stringify(value), span });
  }
  const copy: RequestNode = {
    ...node,
    method: String(changed.method ?? node.method),
    url: String(changed.url ?? ''),
    headers,
  };
  const before = node.body?.kind === 'inline' ? node.body.text : undefined;
  if (changed.body !== before) {
    copy.body =
      changed.body === undefined || changed.body === null
        ? undefined
        : {
            kind: 'inline',
            text: typeof changed.body === 'string' ? changed.body : JSON.stringify(changed.body),
            span: node.body?.span ?? node.requestLineSpan,
          };
  }
  return copy;
}

function keyOf(file: HttpFile, node: RequestNode): string {
  return `${file.path}#${node.name ?? `@${node.index}`}`;
}

/** What a request is called in messages about references (names may contain '#', so never parsed back from a key). */
function referenceName(node: RequestNode): string {
  return node.name ?? `#${node.index + 1}`;
}

/** Creates a session (see the file comment for the API). */
export function createSession(options: SessionOptions): Session {
  return new RequestSession(options);
}

class RequestSession implements Session {
  readonly workspaceRoot: string;
  readonly environment?: string;
  readonly globals = new Map<string, unknown>();
  private readonly globalHeadersByFile = new Map<string, Map<string, [string, string]>>();
  private readonly env: EnvStore;
  private readonly files = new Map<string, Promise<HttpFile>>();
  private readonly recorded = new Map<string, RecordedExchange>();
  private readonly recordedByName = new Map<string, RecordedExchange>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly prompted = new Map<string, string>();
  /** `# @prompt` names answered for the request being sent now (set once a prepare asks with `promptAgain`). */
  private promptedNow: Set<string> | undefined;
  private readonly secrets = new Set<string>();
  private readonly chain = new AsyncLocalStorage<string[]>();
  private readonly names = new Map<string, string>();
  private readonly secretNamesByFile = new WeakMap<HttpFile, Set<string>>();
  private readonly labels = new WeakMap<HttpFile, string>();
  private readonly environmentsByDir = new Map<string, Promise<[ResolvedEnvironment, Dotenv | undefined]>>();
  private readonly nearestDotenvByDir = new Map<string, Promise<Dotenv | undefined>>();
  private oauthClient?: Promise<OAuthClient>;
  private readonly implicitByDir = new Map<string, Promise<ResolvedEnvironment | undefined>>();
  private readonly httpyacEnvironmentsByDir = new Map<string, Promise<[ResolvedEnvironment, Dotenv | undefined]>>();
  private readonly restNvimEnvironmentsByFile = new Map<string, Promise<[ResolvedEnvironment, Dotenv | undefined]>>();
  private readonly onceValuesByFile = new Map<string, Map<string, string>>();
  private readonly defaultHeadersByDir = new Map<string, Promise<Array<[string, [string, string]]> | null>>();
  private readonly defaultHeadersKnown = new Map<string, Array<[string, [string, string]]> | null>();
  private readonly httpyacDefaultHeadersKnown = new Map<string, Array<[string, [string, string]]> | null>();
  /** The same for files that do not read the user's VS Code settings (readsVscodeUserSettings). */
  private readonly defaultHeadersKnownWithoutUser = new Map<string, Array<[string, [string, string]]> | null>();
  /** httpyac `# @import`: the files each file imports, parsed once. */
  private readonly imports = new WeakMap<HttpFile, Promise<HttpFile[]>>();
  /** httpyac: each file's last response (`response` in later requests of the file). */
  private readonly lastHttpyacResponses = new Map<string, ResponseView>();
  /** httpyac: the values `@name = …` lines under a request took when it ran (file path, line start → value). */
  private readonly httpyacSettled = new Map<string, string>();
  /** httpyac global-region scripts, run once per file path. */
  private readonly httpyacFileScriptsRun = new Map<string, Promise<unknown>>();
  private readonly implicitNoted = new Set<string>();
  private readonly precedenceNoted = new Set<string>();

  constructor(private readonly options: SessionOptions) {
    this.workspaceRoot = resolve(options.workspaceRoot);
    this.environment = options.environment;
    this.env = new EnvStore(this.workspaceRoot);
  }

  loadFile(path: string): Promise<HttpFile> {
    const absolute = resolve(path);
    let pending = this.files.get(absolute);
    if (!pending) {
      const unreadable = (error: NodeJS.ErrnoException): never => {
        throw new DialError(
          'E_NOT_FOUND',
          `cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
          { cause: error },
        );
      };
      const text = readSmallFileNow(absolute);
      pending =
        text === undefined
          ? readFile(absolute, 'utf8').then((read) => parseHttpFile(read, absolute), unreadable)
          : typeof text === 'string'
            ? new Promise<HttpFile>((resolveFile) => resolveFile(parseHttpFile(text, absolute)))
            : Promise.reject(text).catch(unreadable);
      this.files.set(absolute, pending);
    }
    return pending;
  }

  forgetFile(path: string): void {
    this.files.delete(resolve(path));
  }

  environments(): Promise<string[]> {
    return this.env.names(this.workspaceRoot);
  }

  secretValues(): string[] {
    // Asked once per request by the run: no new empty array each time when there is no secret.
    return this.secrets.size === 0 ? NO_SECRET_VALUES : [...this.secrets];
  }

  hasRun(file: HttpFile, node: RequestNode): boolean {
    return this.recorded.has(keyOf(file, node));
  }

  recordedNamed(name: string): { request: HttpRequest; exchange: Exchange } | undefined {
    return this.recordedByName.get(name);
  }

  record(file: HttpFile, node: RequestNode, request: HttpRequest, exchange: Exchange): void {
    const entry = { request, exchange };
    this.recorded.set(keyOf(file, node), entry);
    if (node.name) this.recordedByName.set(node.name, entry);
  }

  async execute(
    file: HttpFile,
    node: RequestNode,
    options: { signal?: AbortSignal; sendOptions?: Partial<SendOptions>; onSend?: (request: HttpRequest) => void } = {},
  ): Promise<Exchange> {
    const prepared = await this.prepare(file, node);
    options.onSend?.(prepared.request);
    const send = this.options.send ?? (await import('../http/index.js')).sendRequest;
    const sendOptions: SendOptions = {
      ...this.options.sendOptions,
      ...options.sendOptions,
      ...prepared.overrides,
      ...(options.signal ? { signal: options.signal } : {}),
    };
    // kulala's `# @curl-insecure`: no certificate check for this request (as run/execute.ts does).
    if (node.metadata.length > 0 && skipsCertificateCheck(node.metadata))
      sendOptions.tls = { ...(sendOptions.tls ?? { verify: true }), verify: false };
    let request = prepared.request;
    let exchange: Exchange;
    if (prepared.ntlm) {
      const { ntlmCredentials, sendWithNtlm } = await import('../send/ntlm.js');
      const engine = this.options.send ? undefined : await import('../http/index.js');
      ({ exchange, request } = await sendWithNtlm(
        (outgoing) => send(outgoing, sendOptions),
        request,
        ntlmCredentials(prepared.ntlm.username, prepared.ntlm.password),
        { release: engine?.releaseBody },
      ));
    } else if (prepared.digest) {
      const { sendWithDigest } = await import('../send/digest.js');
      const engine = this.options.send ? undefined : await import('../http/index.js');
      ({ exchange, request } = await sendWithDigest(
        (outgoing) => send(outgoing, sendOptions),
        request,
        prepared.digest,
        { release: engine?.releaseBody },
      ));
    } else {
      exchange = await send(request, sendOptions);
    }
    this.record(file, node, request, exchange);
    return exchange;
  }

  prepare(
    file: HttpFile,
    node: RequestNode,
    extra: { requestVariables?: Map<string, string>; promptAgain?: boolean } = {},
  ): Promise<PreparedRequest> {
    return this.prepareInChain(file, node, extra);
  }

  globalHeadersOf(file: HttpFile): Map<string, [string, string]> {
    let headers = this.globalHeadersByFile.get(file.path);
    if (!headers) this.globalHeadersByFile.set(file.path, (headers = new Map()));
    return headers;
  }

  preparePlain(file: HttpFile, node: RequestNode, promptAgain?: boolean): PreparedRequest | undefined {
    // Everything prepareInChain does that needs the resolver, an await or the request's metadata
    // is ruled out here; what is left is done the same way, by the same functions.
    if (
      node.metadata.length > 0 ||
      node.prompts.length > 0 ||
      node.secrets.length > 0 ||
      node.runOnly ||
      node.refused ||
      node.body ||
      node.graphql ||
      node.httpyacScripts ||
      node.httpyacHeaderSpreads ||
      node.httpyacGraphqlFile ||
      node.httpyacLoop ||
      file.dialect === 'httpyac' ||
      // REST Client joins repeated headers, drops Content-Length and encodes the URL (prepareInChain).
      file.dialect === 'rest-client' ||
      node.httpyacRequestScripts ||
      // client.global.headers set by an earlier script of the file.
      (this.globalHeadersByFile.size > 0 && this.globalHeadersByFile.get(file.path)?.size) ||
      node.method === 'GRPC' ||
      node.method === 'SSE' ||
      !isPlainTemplate(node.url) ||
      /[\r\n]/.test(node.url) ||
      node.url.startsWith('/') ||
      node.url === '*' ||
      this.knownDefaultHeaders(file).get(this.folderOf(file)) !== null
    )
      return undefined;
    const headers: Array<[string, string]> = [];
    for (const header of node.headers) {
      if (!isPlainTemplate(header.name) || !isPlainTemplate(header.value)) return undefined;
      this.checkHeader(file, node, header, header.name, header.value);
      headers.push([header.name, header.value]);
    }
    // NTLM takes the general path: its password is a secret to redact, and NO_SECRETS is shared.
    if (httpyacAuthIndex(headers) >= 0 || awsAuthIndex(headers) >= 0 || ntlmAuthIndex(headers) >= 0) return undefined;
    // A new send forgets the `# @prompt` answers of the last one (as prepareInChain).
    if (promptAgain && (!this.promptedNow || this.promptedNow.size > 0) && this.chain.getStore() === undefined)
      this.promptedNow = new Set();
    // No metadata here: nothing for metadataOverrides to set, and no secret (the request has no
    // placeholder) for applyAuthConvention to find; one shared empty value each, not three
    // objects a request.
    const auth = applyAuthConvention(headers, NO_SECRETS);
    const request: HttpRequest = {
      method: node.method,
      url: completeUrl(node.url, headers),
      headers,
      body: { kind: 'none' },
    };
    this.setHttpVersion(file, node, request);
    const secretValues = NO_SECRET_VALUES;
    const overrides =
      node.timeoutMs === undefined && node.connectTimeoutMs === undefined && !node.noRedirect && !node.noCookieJar
        ? NO_OVERRIDES
        : metadataOverrides(node);
    return auth.digest
      ? { request, overrides, secretValues, digest: auth.digest }
      : { request, overrides, secretValues };
  }

  async resolveTemplate(
    text: string,
    file: HttpFile,
    node: RequestNode,
    requestVariables?: Map<string, string>,
  ): Promise<string> {
    const resolver = await this.resolver(file, node, requestVariables ? { requestVariables } : {}, false);
    const value = await resolver.resolve(text);
    for (const secret of resolver.secretValues) this.secrets.add(secret);
    return value;
  }

  /** The file's path relative to the workspace, as messages show it (computed once per file: path.relative is not free). */
  private label(file: HttpFile): string {
    let label = this.labels.get(file);
    if (label === undefined) {
      label = file.path ? relative(this.workspaceRoot, file.path) || file.path : '<text>';
      this.labels.set(file, label);
    }
    return label;
  }

  /**
   * `Authorization: AWS key secret …` (kulala, httpyac): taken out of the headers to be signed once the
   * request is final (session/aws-auth.ts); its secret and token are masked like secrets.
   */
  private takeAwsAuthorization(
    file: HttpFile,
    node: RequestNode,
    headers: Array<[string, string]>,
    secrets: Set<string>,
  ): { value: string; location: { file: string; line: number } } | undefined {
    const index = awsAuthIndex(headers);
    if (index < 0) return undefined;
    const value = headers[index][1];
    headers.splice(index, 1);
    const words = value.trim().split(/\s+/);
    if (words[2]) secrets.add(words[2]);
    const token = words.find((word) => /^token:./i.test(word));
    if (token) secrets.add(token.slice('token:'.length));
    const written = node.headers.find((header) => header.name.toLowerCase() === 'authorization');
    return { value, location: { file: file.path || '<text>', line: (written?.span ?? node.requestLineSpan).line } };
  }

  private where(file: HttpFile, node: RequestNode): string {
    const label = this.label(file);
    return `${node.name ? `request '${node.name}'` : `request #${node.index + 1}`} at ${label}:${node.requestLineSpan.line}`;
  }

  /**
   * The file variables visible at a request (declared above it). Made per send, not kept per
   * node in a WeakMap: at 5,000 requests the weak tables cost the collector more than they saved.
   */
  private secretNames(file: HttpFile): Set<string> {
    let names = this.secretNamesByFile.get(file);
    if (!names) {
      // `# @secret x` masks x wherever the file uses it, not only in the request that says so.
      names = new Set(file.requests.flatMap((request) => request.secrets));
      this.secretNamesByFile.set(file, names);
    }
    return names;
  }

  /**
   * The selected environment and `.env` for a folder: env files are read once per session, so
   * resolved once per folder (twice where files that read the user's VS Code settings and files
   * that do not, see readsVscodeUserSettings, share a folder).
   */
  private environmentFor(dir: string, vscodeUser = true): Promise<[ResolvedEnvironment, Dotenv | undefined]> {
    const key = vscodeUser ? dir : `\0${dir}`;
    let pending = this.environmentsByDir.get(key);
    if (!pending) {
      pending = Promise.all([this.env.resolve(dir, this.environment, { vscodeUser }), this.env.dotenv()]);
      this.environmentsByDir.set(key, pending);
    }
    return pending;
  }

  /** The values of httpyac's once-per-run file variables of a file (see ResolverOptions.onceKeys). */
  private onceValuesOf(file: HttpFile): Map<string, string> {
    let values = this.onceValuesByFile.get(file.path);
    if (!values) this.onceValuesByFile.set(file.path, (values = new Map()));
    return values;
  }

  /**
   * `{{$dotenv NAME}}` as REST Client reads it: from the .http file's folder upwards, the first
   * folder holding `.env.<environment>` (the selected one) or `.env` gives the file (dial stops at
   * the workspace root, whose `.env` is the one plain `{{NAME}}` falls back to).
   */
  private nearestDotenv(dir: string): Promise<Dotenv | undefined> {
    let pending = this.nearestDotenvByDir.get(dir);
    if (!pending) {
      pending = (async () => {
        const root = resolve(this.workspaceRoot);
        for (let folder = resolve(dir); ; folder = dirname(folder)) {
          const names = this.environment ? [`.env.${this.environment}`, '.env'] : ['.env'];
          for (const name of names) {
            const path = resolve(folder, name);
            const text = await readFile(path, 'utf8').catch(() => undefined);
            if (text !== undefined) return { path, values: parseDotenv(text) };
          }
          if (folder === root || dirname(folder) === folder || !folder.startsWith(root)) return undefined;
        }
      })();
      this.nearestDotenvByDir.set(dir, pending);
    }
    return pending;
  }

  /** environmentFor(dir), plus httpyac's `env/*.env` files and JSON config for httpyac files (under the JetBrains env files). */
  private fileEnvironment(file: HttpFile, dir: string): Promise<[ResolvedEnvironment, Dotenv | undefined]> {
    if (file.dialect === 'rest.nvim' && file.path) return this.restNvimEnvironment(file.path, dir);
    // Most files are not httpyac's: their environment's promise as it is (no async frame per request).
    if (file.dialect !== 'httpyac') return this.environmentFor(dir, readsVscodeUserSettings(file));
    let pending = this.httpyacEnvironmentsByDir.get(dir);
    if (!pending) {
      pending = this.environmentFor(dir, false).then(async ([jetbrains, dotenv]) => [
        await withHttpyacEnvironment(jetbrains, dir, this.environment),
        dotenv,
      ]);
      this.httpyacEnvironmentsByDir.set(dir, pending);
    }
    return pending;
  }

  /** environmentFor(dir) with the `.env` rest.nvim loads for the file (by its name) over the root's, if it finds one. */
  private restNvimEnvironment(path: string, dir: string): Promise<[ResolvedEnvironment, Dotenv | undefined]> {
    let pending = this.restNvimEnvironmentsByFile.get(path);
    if (!pending) {
      pending = this.environmentFor(dir, false).then(async ([environment, dotenv]) => {
        const near = await restNvimDotenv(path, this.workspaceRoot);
        if (!near || near.path === dotenv?.path) return [environment, dotenv];
        // The root's `.env` stays under it (dial reads that one for every file).
        return [environment, { path: near.path, values: new Map([...(dotenv?.values ?? []), ...near.values]) }];
      });
      this.restNvimEnvironmentsByFile.set(path, pending);
    }
    return pending;
  }

  /** The default headers found so far per folder, for the file's reading (httpyac's or the others'). */
  private knownDefaultHeaders(file: HttpFile): Map<string, Array<[string, [string, string]]> | null> {
    if (file.dialect === 'httpyac') return this.httpyacDefaultHeadersKnown;
    return readsVscodeUserSettings(file) ? this.defaultHeadersKnown : this.defaultHeadersKnownWithoutUser;
  }

  /** A file's folder (the workspace root for text not from disk): its env, default headers, relative paths. */
  private folderOf(file: HttpFile): string {
    return file.path ? dirname(file.path) : this.workspaceRoot;
  }

  /**
   * The default headers (kulala `$default_headers`, httpyac `defaultHeaders`) of a file's
   * environment; with no environment chosen, those of kulala's default environment after them (as
   * its names are, see implicitEnvironment). Null when there are none: known once per folder.
   */
  private defaultHeadersFor(file: HttpFile, dir: string): Promise<Array<[string, [string, string]]> | null> {
    const key = `${file.dialect === 'httpyac' ? 'httpyac' : readsVscodeUserSettings(file) ? '' : 'no-user'}\n${dir}`;
    let pending = this.defaultHeadersByDir.get(key);
    if (!pending) {
      pending = (async () => {
        const [environment] = await this.fileEnvironment(file, dir);
        const implicit =
          this.environment === undefined ? (await this.implicitEnvironment(dir))?.defaultHeaders : undefined;
        const all = [...(environment.defaultHeaders ?? []), ...(implicit ?? [])];
        const found = all.length > 0 ? all : null;
        this.knownDefaultHeaders(file).set(dir, found);
        return found;
      })();
      this.defaultHeadersByDir.set(key, pending);
    }
    return pending;
  }

  /** Adds the default headers the request does not set itself, their variables resolved. */
  private async addDefaultHeaders(
    defaults: Array<[string, [string, string]]>,
    resolver: VariableResolver,
    headers: Array<[string, string]>,
  ): Promise<void> {
    const set = new Set(headers.map(([name]) => name.toLowerCase()));
    for (const [key, [name, template]] of defaults) {
      if (set.has(key)) continue;
      const value = await resolver.resolve(template);
      if (!HEADER_NAME_RE.test(name) || /[\r\n]/.test(value))
        throw new DialError('E_HEADER_INJECTION', `default header '${name.replace(/[\r\n]/g, '')}' is not valid`, {
          hint: 'fix the default headers of the environment (a name is a token, a value one line)',
        });
      headers.push([name, value]);
      set.add(key);
    }
  }

  /** Says once per file and environment that names were taken from kulala's default environment. */
  private noteImplicitEnvironment(file: HttpFile, node: RequestNode, environment: string, name: string): void {
    const key = `${file.path}\n${environment}`;
    if (this.implicitNoted.has(key)) return;
    this.implicitNoted.add(key);
    reportParseWarnings([
      {
        message: `no environment chosen: names only environment '${environment}' defines ('${name}' first) are taken from it, as kulala does`,
        hint: `choose the environment with -e ${environment} (or another) to make this explicit`,
        file: this.label(file),
        line: node.requestLineSpan.line,
      },
    ]);
  }

  /**
   * A JetBrains-dialect file sets a name the selected environment defines too: dial keeps its order and says where JetBrains'
   * documented one would send another value, once per name and file (core/vars/precedence.ts).
   */
  private notePrecedence(
    file: HttpFile,
    node: RequestNode,
    environment: ResolvedEnvironment,
    name: string,
    by: 'request' | 'global' | 'file',
    value: string,
  ): void {
    // Once per name and file.
    const key = `${file.path}\n${name}`;
    if (this.precedenceNoted.has(key)) return;
    const envValue = environment.values.get(name);
    if (envValue === undefined) return;
    let line = node.requestLineSpan.line;
    let elsewhere = false;
    if (by === 'file') {
      // The declaration the resolver took: the last one above the request.
      const declaration = file.variables.filter(
        (variable) => variable.name === name && variable.span.start < node.requestLineSpan.start,
      );
      const last = declaration[declaration.length - 1];
      if (!last) return;
      // A template in the env file is compared as written (resolving it could run requests).
      if (envValue.includes('{{') ? envValue === last.value : envValue === value) return;
      line = last.span.line;
    } else {
      if (envValue === value) return;
      const setter = by === 'global' ? 'client.global.set' : 'request.variables.set';
      const site = scriptSetSites(file).find((candidate) => candidate.name === name && candidate.setter === setter);
      if (site) line = site.line;
      else elsewhere = true;
    }
    this.precedenceNoted.add(key);
    const { message, hint } = inFileConflictMessage({
      name,
      setter: by === 'file' ? '@name' : by === 'global' ? 'client.global.set' : 'request.variables.set',
      environment: environment.name,
      envFile: shownPath(environment.sources.get(name) ?? '', this.workspaceRoot),
      envValue,
      secret: environment.secretNames.has(name),
      elsewhere,
    });
    reportParseWarnings([{ message, hint, file: this.label(file), line }]);
  }

  /**
   * kulala's default environment, used when none is chosen for names defined nowhere else:
   * `default` (kulala 6 and later) or else `dev` (kulala 5 and earlier), when the env files define it.
   */
  private implicitEnvironment(dir: string): Promise<ResolvedEnvironment | undefined> {
    let pending = this.implicitByDir.get(dir);
    if (!pending) {
      // kulala's rule, so the user's VS Code settings (REST Client's) take no part in it.
      pending = this.env.names(dir, { vscodeUser: false }).then((names) => {
        const name = ['default', 'dev'].find((candidate) => names.includes(candidate));
        return name === undefined ? undefined : this.env.resolve(dir, name, { vscodeUser: false });
      });
      this.implicitByDir.set(dir, pending);
    }
    return pending;
  }

  /** `preparing`: the resolver serves prepare(node), so references it runs chain from node (cycle detection). */
  private async resolver(
    file: HttpFile,
    node: RequestNode,
    extra: { requestVariables?: Map<string, string> },
    preparing: boolean,
  ): Promise<VariableResolver> {
    const dir = this.folderOf(file);
    const [environment, dotenv] = await this.fileEnvironment(file, dir);
    const fileVariables = new Map<string, string>();
    // httpyac: the variables of imported files' global regions, under the file's own.
    if (file.httpyacImports)
      for (const imported of await this.importsOf(file))
        for (const [name, value] of globalVariables(imported)) fileVariables.set(name, value);
    let laterFileVariables: Map<string, string> | undefined;
    let onceKeys: Map<string, string> | undefined;
    const httpyac = file.dialect === 'httpyac';
    const cli = this.options.cliVariables ?? {};
    for (const variable of file.variables) {
      if (variable.span.start < node.requestLineSpan.start) {
        fileVariables.set(
          variable.name,
          httpyac
            ? (this.httpyacSettled.get(`${file.path}\n${variable.span.start}`) ??
                httpyacValueAsDefined(variable, fileVariables, cli))
            : variable.value,
        );
        // httpyac runs its global regions once per send: a dynamic value there is drawn once.
        if (
          file.dialect === 'httpyac' &&
          /\{\{\s*\$(?!global\b)/.test(variable.value) &&
          isGlobalVariable(file, variable)
        )
          (onceKeys ??= new Map()).set(variable.name, `${variable.name}\n${variable.span.start}`);
        else onceKeys?.delete(variable.name);
      } else
        (laterFileVariables ??= new Map()).set(
          variable.name,
          httpyac ? httpyacValueAsDefined(variable, fileVariables, cli) : variable.value,
        );
    }
    const where = this.where(file, node);
    return new VariableResolver({
      cliVariables: this.options.cliVariables ?? {},
      prompted: this.prompted,
      requestVariables: extra.requestVariables,
      globals: this.globals,
      fileVariables,
      laterFileVariables,
      // Plain properties, not spreads: a spread in this literal takes V8's slow path on every request.
      onceKeys,
      onceValues: onceKeys ? this.onceValuesOf(file) : undefined,
      ask: this.options.prompt,
      environment,
      dotenv,
      dotenvNear: () => this.nearestDotenv(dir),
      javascriptExpressions: file.dialect === 'httpyac',
      selfReferenceBelowFile: file.dialect !== 'rest-client',
      lastResponse: () => {
        const view = this.lastHttpyacResponses.get(file.path);
        return view ? httpyacResponse(view) : undefined;
      },
      secretNames: this.secretNames(file),
      processEnv: this.options.processEnv ?? process.env,
      reference: (reference, raw) =>
        this.reference(
          file,
          preparing ? node : undefined,
          reference.name,
          (recorded) => evaluateReference(reference, recorded, raw, where),
          raw,
          where,
          `{{${raw}}}`,
        ),
      where,
      fileLabel: this.label(file),
      location: { file: file.path || '<text>', line: node.requestLineSpan.line },
      locate: (name) => locatePlaceholder(file, node, name),
      auth: (use) => this.auth(use),
      implicitEnvironment: this.environment === undefined ? () => this.implicitEnvironment(dir) : undefined,
      onImplicitEnvironment: (environment, name) => this.noteImplicitEnvironment(file, node, environment, name),
      onPrecedence:
        file.dialect === 'jetbrains' && environment.values.size > 0
          ? (name, by, value) => this.notePrecedence(file, node, environment, name, by, value)
          : undefined,
      definedIn: async (name) => {
        const found = new Set<string>();
        for (const envFile of await this.env.filesFor(dir)) {
          for (const [envName, values] of Object.entries(envFile.environments))
            if (envName !== '$shared' && Object.hasOwn(values, name)) found.add(envName);
        }
        return [...found].sort();
      },
    });
  }

  /** `{{$auth.token("name")}}`: core/oauth, loaded on the first use only. */
  private async auth(use: AuthPlaceholder): Promise<{ value: string; secrets: string[] }> {
    if (this.options.keepReference) return { value: use.raw, secrets: [] };
    const client = await this.oauth();
    return client.token({
      kind: use.kind,
      name: use.name,
      location: use.location,
      where: use.where,
      configs: use.environment.auth,
      environmentName: use.environment.name,
      envFiles: use.environment.files,
      resolve: use.resolve,
    });
  }

  /**
   * httpyac's `Authorization: oauth2 [flow] [prefix]` (core/oauth/httpyac.ts): the header becomes
   * `Bearer <token>`. Printing a request (keepReference) leaves it as written.
   */
  private async httpyacAuth(
    file: HttpFile,
    node: RequestNode,
    headers: Array<[string, string]>,
    resolver: VariableResolver,
  ): Promise<void> {
    const index = httpyacAuthIndex(headers);
    if (index < 0 || this.options.keepReference) return;
    const { HTTPYAC_AUTH, httpyacAuthSource, inHttpyacWords } = await import('../oauth/httpyac.js');
    const written = node.headers.find((header) => header.name.toLowerCase() === 'authorization');
    const line = written?.span.line ?? node.requestLineSpan.line;
    const location = { file: file.path || '<text>', line, excerpt: file.text.split(/\r?\n/, line)[line - 1] };
    if (!HTTPYAC_AUTH.test(headers[index][1]))
      throw new DialError(
        'E_INPUT',
        `cannot read the httpyac OAuth 2.0 header '${headers[index][1]}' (${this.where(file, node)})`,
        {
          location,
          hint: 'write Authorization: oauth2 client_credentials|password|code|device_code [variable prefix]',
        },
      );
    const lookup = (name: string) =>
      resolver.variable(name).catch((error: unknown) => {
        if (error instanceof DialError && error.code === 'E_VAR_UNDEFINED' && error.message.includes(`'${name}'`))
          return undefined;
        throw error;
      });
    const source = await httpyacAuthSource(headers[index][1], lookup, location);
    const prefix = HTTPYAC_AUTH.exec(headers[index][1])?.[3];
    const client = await this.oauth();
    try {
      const { value, secrets } = await client.token({
        kind: 'token',
        name: source.name,
        location,
        where: this.where(file, node),
        configs: new Map([[source.name, source]]),
        envFiles: [],
        resolve: async (text) => text,
      });
      headers[index] = [headers[index][0], `Bearer ${value}`];
      for (const secret of secrets) resolver.secretValues.add(secret);
    } catch (error) {
      throw error instanceof DialError && error.code === 'E_ENV' ? inHttpyacWords(error, prefix) : error;
    }
  }

  private oauth(): Promise<OAuthClient> {
    this.oauthClient ??= import('../oauth/index.js').then(({ createOAuthClient }) =>
      createOAuthClient({
        host: this.options.oauth ?? { notify: () => undefined },
        workspaceRoot: this.workspaceRoot,
        environment: this.environment,
        sendOptions: this.options.sendOptions,
        processEnv: this.options.processEnv ?? process.env,
        ...(this.options.send ? { send: this.options.send } : {}),
      }),
    );
    return this.oauthClient;
  }

  /**
   * Evaluates a reference to request `name`, running it first (once) when it has not run.
   * `from`: the request being prepared, which joins the chain of requests being prepared.
   * `kept`: the reference as written, returned as is when the session keeps references.
   */
  private async reference(
    file: HttpFile,
    from: RequestNode | undefined,
    name: string,
    evaluate: (recorded: RecordedExchange) => Promise<string>,
    raw: string,
    where: string,
    kept: string,
  ): Promise<string> {
    // httpyac: a request of a file this one imports (`# @import`) runs in that file.
    const [owner, target] = await this.findRequest(file, name);
    let recorded = target ? this.recorded.get(keyOf(owner, target)) : this.recordedByName.get(name);
    if (!recorded) {
      if (!target) {
        throw new DialError(
          'E_VAR_UNDEFINED',
          `{{${raw}}}: no request named '${name}' in ${file.path ? relative(this.workspaceRoot, file.path) : 'this file'} (${where})`,
          {
            hint: 'name the request with `# @name ' + name + '` or `### ' + name + '`',
          },
        );
      }
      if (this.options.keepReference) {
        this.options.keepReference({ request: name, text: kept });
        return kept;
      }
      const key = keyOf(owner, target);
      // The chain lives in AsyncLocalStorage only while a referenced request runs: entering it
      // turns on promise hooks, which cost every later await of the run, so plain requests never do.
      let chain = this.chain.getStore() ?? [];
      if (from) {
        const fromKey = keyOf(file, from);
        this.names.set(fromKey, referenceName(from));
        if (chain[chain.length - 1] !== fromKey) chain = [...chain, fromKey];
      }
      this.names.set(key, referenceName(target));
      if (chain.includes(key)) {
        const names = [...chain.slice(chain.indexOf(key)), key].map((k) => this.names.get(k) ?? k);
        throw new DialError('E_VAR_CYCLE', `request reference cycle: ${names.join(' -> ')} (${where})`, {
          hint: 'requests that reference each other can never run; remove one reference',
        });
      }
      let running = this.running.get(key);
      if (!running) {
        const runTarget = () =>
          this.options.runReference
            ? this.options.runReference(owner, target)
            : this.runDependency(owner, target, from);
        running = this.chain.run([...chain, key], runTarget);
        this.running.set(key, running);
        // A run that failed or was cancelled is forgotten, so the next request that needs it tries again.
        const started = running;
        started.catch(() => {
          if (this.running.get(key) === started) this.running.delete(key);
        });
      }
      await running;
      recorded = this.recorded.get(key);
      if (!recorded)
        throw new DialError('E_VAR_UNDEFINED', `{{${raw}}}: request '${name}' did not produce a response (${where})`);
    }
    return evaluate(recorded);
  }

  /** Runs a referenced request itself (no runReference), telling onDependency before and after; refused with refuseDependencies. */
  private async runDependency(file: HttpFile, target: RequestNode, from: RequestNode | undefined): Promise<void> {
    const name = referenceName(target);
    const neededBy = from ? referenceName(from) : 'this request';
    const environment = this.options.environment;
    if (this.options.refuseDependencies) {
      throw new DialError(
        'E_INPUT',
        `'${neededBy}' needs request '${name}' to run first, and dependencies are turned off`,
        {
          location: { file: file.path || '<text>', line: target.requestLineSpan.line },
          hint: `send '${name}' yourself, or leave out --no-deps to let dial run it (it is announced)`,
        },
      );
    }
    const tell = this.options.onDependency;
    let sent: HttpRequest | undefined;
    try {
      const exchange = await this.execute(file, target, {
        sendOptions: { bodyTarget: { kind: 'buffer' } },
        onSend: (request) => {
          sent = request;
          tell?.({ phase: 'send', name, neededBy, request, environment });
        },
      });
      if (sent) tell?.({ phase: 'done', name, neededBy, request: sent, exchange, environment });
    } catch (error) {
      tell?.({ phase: 'failed', name, neededBy, error, environment });
      throw error;
    }
  }

  /** The request named `name` in `file`, else in the files it imports (httpyac `# @import`), with the file that holds it. */
  private async findRequest(file: HttpFile, name: string): Promise<[HttpFile, RequestNode | undefined]> {
    const own = findNamed(file, name);
    if (own || !file.httpyacImports) return [file, own];
    for (const imported of await this.importsOf(file)) {
      const target = findNamed(imported, name);
      if (target) return [imported, target];
    }
    return [file, undefined];
  }

  /**
   * httpyac `# @import ./other.http`: the files a file imports, and the ones they import, parsed
   * once per session (paths relative to the importing file). A missing file is an error at its line.
   */
  private importsOf(file: HttpFile): Promise<HttpFile[]> {
    let pending = this.imports.get(file);
    if (!pending) {
      pending = this.loadImports(file, new Set([file.path]));
      this.imports.set(file, pending);
    }
    return pending;
  }

  private async loadImports(file: HttpFile, seen: Set<string>): Promise<HttpFile[]> {
    const found: HttpFile[] = [];
    for (const entry of file.httpyacImports ?? []) {
      const path = resolve(this.folderOf(file), entry.path);
      if (seen.has(path)) continue;
      seen.add(path);
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        throw new DialError('E_NOT_FOUND', `@import: cannot read ${entry.path}`, {
          location: { file: file.path || '<text>', line: entry.line },
          hint: 'the path is relative to the .http file that imports it',
          cause: error,
        });
      }
      const imported = parseHttpFile(text, path, { dialect: 'httpyac' });
      found.push(imported, ...(await this.loadImports(imported, seen)));
    }
    return found;
  }

  /** Forgets that the request named `name` in `file` ran, so the next reference runs it again. */
  private async forgetRun(file: HttpFile, name: string): Promise<void> {
    const [owner, target] = await this.findRequest(file, name);
    if (!target) return;
    const key = keyOf(owner, target);
    this.recorded.delete(key);
    this.running.delete(key);
  }

  /** prepare(): resolves a request into what is sent, running the requests it references first. */
  private async prepareInChain(
    file: HttpFile,
    node: RequestNode,
    extra: { requestVariables?: Map<string, string>; promptAgain?: boolean },
  ): Promise<PreparedRequest> {
    // The file's tool cannot read this request (parse.ts): refused before anything is sent.
    if (node.refused) throw refusalError(file, node.refused);
    if (node.runOnly) {
      throw new DialError(
        'E_INPUT',
        `${this.where(file, node)} holds only \`run\` lines: it runs other requests and sends nothing itself`,
        {
          location: { file: file.path || '<text>', line: node.requestLineSpan.line },
          hint: `run it with dial run ${this.label(file)}:${node.requestLineSpan.line}`,
        },
      );
    }
    if (node.prompts.length > 0) await this.askPrompts(file, node, extra.promptAgain);
    // A new send forgets the `# @prompt` answers of the last one (see askPrompts), prompts or not.
    else if (extra.promptAgain && this.chain.getStore() === undefined) this.promptedNow = new Set();
    const resolver = await this.resolver(file, node, extra, true);
    // Each step below that has nothing to do is skipped without an async call (a promise and a
    // microtask each): most requests of a run hold no placeholder, script, `@ref` or body.
    if (node.secrets.length > 0) await this.askSecrets(file, node, resolver);
    if (file.httpyacImports || file.httpyacFileScripts) await this.runHttpyacGlobalScripts(file, resolver);
    // httpyac runs a region's `# @ref` lines before its `{{ }}` blocks (they stand above them).
    if (node.metadata.length > 0 || node.httpyacScripts) await this.runRefs(file, node);
    if (node.httpyacScripts) node = await this.runHttpyacPreScripts(node, resolver);
    this.checkClosedTemplates(file, node);
    let url = plainUrl(node, resolver) ?? (await this.resolveUrl(file, node, resolver));
    const headers = this.plainHeaders(file, node, resolver) ?? (await this.resolveHeaders(file, node, resolver));
    const globalHeaders = this.globalHeadersByFile.size > 0 ? this.globalHeadersByFile.get(file.path) : undefined;
    if (globalHeaders?.size) await this.addGlobalHeaders(file, node, headers, resolver, globalHeaders);
    if (httpyacAuthIndex(headers) >= 0) await this.httpyacAuth(file, node, headers, resolver);
    const clientCert = file.dialect === 'httpyac' ? this.takeHttpyacClientCert(file, node, headers) : undefined;
    const asteriskForm = url === '*';
    const grpc = node.method === 'GRPC' ? grpcRequestParts(url, node, file, this.workspaceRoot, headers) : undefined;
    if (file.dialect === 'rest-client' && headers.length > 0) {
      // REST Client (parseRequestHeaders): a name written twice is one header, its values joined;
      // a Content-Length written in the file is dropped (Node computes it from the body).
      if (headers.length > 1) joinRepeatedHeaders(headers);
      const length = headers.findIndex(([name]) => name.toLowerCase() === 'content-length');
      if (length >= 0) headers.splice(length, 1);
    }
    url = grpc ? grpc.url : completeUrl(url, headers);
    // REST Client runs its URLs through the same encoding as its form bodies (httpClient.ts).
    if (file.dialect === 'rest-client' && !asteriskForm) url = restClientFormEncoding(url);
    // A rooted target with no Host header cannot be sent as written; httpyac's rule gives it the
    // `host` variable. Used in every dialect, only when such a variable is defined.
    if (url.startsWith('/')) url = `${await resolver.variable('host').catch(() => '')}${url}`;
    const aws = this.takeAwsAuthorization(file, node, headers, resolver.secretValues);
    const auth = applyAuthConvention(headers, resolver.secretValues, file.dialect === 'httpyac');
    const body: RequestBody =
      node.body || node.httpyacGraphqlFile ? await this.resolveBody(file, node, resolver, headers) : { kind: 'none' };
    let request: HttpRequest = { method: node.method, url, headers, body };
    if (asteriskForm) request.asteriskForm = true;
    if (grpc) request.grpc = grpc.grpc;
    if (node.graphql) {
      const { graphqlHttpRequest } = await import('./graphql.js');
      request = await graphqlHttpRequest(request, node, {
        dir: this.folderOf(file),
        fileLabel: file.path || '<text>',
      });
    }
    this.setHttpVersion(file, node, request);
    if (node.httpyacRequestScripts) request = await this.runHttpyacRequestScripts(node, request, resolver);
    const overrides = metadataOverrides(node);
    // httpyac's `cookieJarEnabled: false`: as `# @no-cookie-jar` on every request of the workspace.
    if (file.dialect === 'httpyac' && (await this.fileEnvironment(file, this.folderOf(file)))[0].httpyacCookieJarOff)
      overrides.cookieJar = undefined;
    if (node.method === 'SSE') {
      const events = eventTypes(request);
      if (events) overrides.sse = { ...overrides.sse, events };
      request = eventSourceHttpRequest(request);
    }
    if (clientCert) overrides.tls = clientCert;
    // httpyac `# @proxy http://proxy:8080`: this request goes through that proxy.
    const proxy = file.dialect === 'httpyac' ? node.metadata.find((meta) => meta.key === 'proxy')?.value : undefined;
    if (proxy) overrides.proxy = await resolver.resolve(proxy);
    // httpyac `# @noProxy` (`# @no-proxy`): this request goes direct, whatever HTTP(S)_PROXY says.
    if (file.dialect === 'httpyac' && node.metadata.some((meta) => meta.key === 'noProxy' || meta.key === 'no-proxy')) {
      delete overrides.proxy;
      overrides.env = {};
    }
    // AWS Signature v4 signs the request as it is sent: last, once the URL, headers and body are final.
    if (aws) request = await (await import('./aws-auth.js')).signAwsRequest(request, aws);
    const secretValues = [...resolver.secretValues];
    for (const secret of secretValues) this.secrets.add(secret);
    return {
      request,
      overrides,
      secretValues,
      ...(auth.digest ? { digest: auth.digest } : {}),
      ...(auth.ntlm ? { ntlm: auth.ntlm } : {}),
    };
  }

  /**
   * Where a body file named `written` is read from: next to the .http file, or — REST Client's
   * resolveRequestBodyPath, for `< file` in its dialect and cURL's `-d @file` — the workspace root
   * first when the file is there.
   */
  private async bodyFilePath(written: string, dir: string, rootFirst: boolean): Promise<string> {
    if (rootFirst && !isAbsolute(written)) {
      const atRoot = resolve(this.workspaceRoot, written);
      const isFile = await stat(atRoot).then(
        (info) => info.isFile(),
        () => false,
      );
      if (isFile) return atRoot;
    }
    return resolve(dir, written);
  }

  /** The HTTP version the request line asks for, on the request (`HTTP/2 (Prior Knowledge)` needs https). */
  private setHttpVersion(file: HttpFile, node: RequestNode, request: HttpRequest): void {
    if (node.httpVersion === undefined) return;
    const version = node.httpVersion.toUpperCase();
    if (version === 'HTTP/2' || version === 'HTTP/2.0') request.httpVersion = '2';
    else if (version.startsWith('HTTP/2 ')) {
      // `HTTP/2 (Prior Knowledge)`: over TLS HTTP/2 is negotiated; plain-text h2c is not spoken.
      if (!request.url.startsWith('https:')) {
        throw new DialError('E_INPUT', `HTTP/2 with prior knowledge needs https:// here (${this.where(file, node)})`, {
          location: { file: file.path || '<text>', line: node.requestLineSpan.line },
          hint: 'dial does not speak plain-text HTTP/2 (h2c); use https:// or HTTP/1.1',
        });
      }
      request.httpVersion = '2';
    } else if (version === 'HTTP/1.1') request.httpVersion = '1.1';
  }

  /** httpyac: runs the blocks before the request; a block that changed `request` changes what is sent. */
  private async runHttpyacPreScripts(node: RequestNode, resolver: VariableResolver): Promise<RequestNode> {
    const original = httpyacRequestOf(node)!;
    const outcomes = await resolver.runScriptBlocks(node.httpyacScripts ?? [], {
      request: original,
      region: httpyacMetaData(node),
    });
    const changed = outcomes.at(-1)?.request;
    return changed && JSON.stringify(changed) !== JSON.stringify(original) ? withHttpyacRequest(node, changed) : node;
  }

  /**
   * httpyac's `{{@request}}` blocks (onRequest hooks): run on the final request, the URL complete
   * and variables filled in; what they change in `request` (method, url, headers, a text body) is
   * what is sent. A body that is not text (a file, multipart) is not given to them and stays.
   */
  private async runHttpyacRequestScripts(
    node: RequestNode,
    request: HttpRequest,
    resolver: VariableResolver,
  ): Promise<HttpRequest> {
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers)
      headers[name] = Object.hasOwn(headers, name) ? `${headers[name]}, ${value}` : value;
    // httpyac sets its default Accept and User-Agent before these hooks run, so a block can drop them.
    const defaults = HTTPYAC_DEFAULT_HEADERS.filter(([name]) => !findHeaderName(headers, name));
    for (const [name, value] of defaults) headers[name] = value;
    const body = request.body.kind === 'text' ? request.body.text : undefined;
    const given = { method: request.method, url: request.url, headers, ...(body !== undefined ? { body } : {}) };
    const outcomes = await resolver.runScriptBlocks(node.httpyacRequestScripts ?? [], {
      request: structuredClone(given),
      region: httpyacMetaData(node),
    });
    const changed = outcomes.at(-1)?.request;
    if (!changed || JSON.stringify(changed) === JSON.stringify(given)) return request;
    const next: HttpRequest = {
      ...request,
      method: String(changed.method ?? request.method),
      url: String(changed.url ?? request.url),
      headers: Object.entries(changed.headers ?? {})
        .filter(([, value]) => value !== undefined && value !== null)
        .map(([name, value]): [string, string] => [name, typeof value === 'string' ? value : JSON.stringify(value)]),
    };
    const dropped = defaults.filter(([name]) => !findHeaderName(next.headers, name)).map(([name]) => name);
    if (dropped.length > 0) next.omitHeaders = [...(request.omitHeaders ?? []), ...dropped];
    if (changed.body !== body)
      next.body =
        changed.body === undefined || changed.body === null
          ? { kind: 'none' }
          : { kind: 'text', text: typeof changed.body === 'string' ? changed.body : JSON.stringify(changed.body) };
    return next;
  }

  /** httpyac: the global scripts of the files a file imports, then its own (each once per session). */
  private async runHttpyacGlobalScripts(file: HttpFile, resolver: VariableResolver): Promise<void> {
    if (file.httpyacImports)
      for (const imported of await this.importsOf(file))
        if (imported.httpyacFileScripts) await this.runHttpyacFileScripts(imported, resolver);
    if (file.httpyacFileScripts) await this.runHttpyacFileScripts(file, resolver);
  }

  /** httpyac: the `{{ }}` blocks of the file's global regions, run once per file (before its first request). */
  private runHttpyacFileScripts(file: HttpFile, resolver: VariableResolver): Promise<unknown> {
    let pending = this.httpyacFileScriptsRun.get(file.path);
    if (!pending) {
      pending = resolver.runScriptBlocks(file.httpyacFileScripts ?? [], {}, file.path);
      this.httpyacFileScriptsRun.set(file.path, pending);
    }
    return pending;
  }

  async httpyacDisabledHolds(file: HttpFile, node: RequestNode): Promise<boolean> {
    const disabled = node.httpyacDisabled;
    if (!disabled) return false;
    const resolver = await this.resolver(file, node, {}, false);
    await this.runHttpyacGlobalScripts(file, resolver);
    try {
      return (await resolver.javascriptValue(`!!(${disabled.condition})`)) === true;
    } catch (error) {
      if (error instanceof DialError && error.code === 'E_SCRIPT')
        throw new DialError('E_SCRIPT', `@disabled ${disabled.condition}: ${error.message}`, {
          location: { file: file.path || '<text>', line: disabled.line },
          hint: error.hint,
        });
      throw error;
    }
  }

  async httpyacLoopHolds(file: HttpFile, node: RequestNode, index: number): Promise<boolean> {
    const loop = node.httpyacLoop;
    if (loop?.kind !== 'while') return false;
    const requestVariables = new Map([['$index', String(index)]]);
    const resolver = await this.resolver(file, node, { requestVariables }, false);
    await this.runHttpyacGlobalScripts(file, resolver);
    // httpyac loops while the value is truthy (evalExpression); an undefined name ends the loop there too.
    try {
      return (await resolver.javascriptValue(`!!(${loop.condition})`)) === true;
    } catch (error) {
      if (error instanceof DialError && error.code === 'E_SCRIPT')
        throw new DialError('E_SCRIPT', `@loop while ${loop.condition}: ${error.message}`, {
          location: { file: file.path || '<text>', line: loop.line },
          hint: error.hint,
        });
      throw error;
    }
  }

  async httpyacLoopPasses(file: HttpFile, node: RequestNode): Promise<Array<Map<string, string>>> {
    const loop = node.httpyacLoop;
    if (!loop || loop.kind === 'while') return [new Map()];
    if (loop.kind === 'for')
      return Array.from({ length: loop.count }, (_, index) => new Map([['$index', String(index)]]));
    const resolver = await this.resolver(file, node, {}, false);
    await this.runHttpyacGlobalScripts(file, resolver);
    const list = await resolver.javascriptValue(loop.iterable);
    if (!Array.isArray(list)) {
      throw new DialError('E_SCRIPT', `@loop: '${loop.iterable}' is not a list (${this.where(file, node)})`, {
        location: { file: file.path || '<text>', line: loop.line },
        hint: 'loop over an array: `# @loop for item of items`',
      });
    }
    return list.map(
      (item, index) =>
        new Map([
          ['$index', String(index)],
          [loop.variable, typeof item === 'string' ? item : JSON.stringify(item)],
        ]),
    );
  }

  noteHttpyacResponse(file: HttpFile, response: ResponseView): void {
    this.lastHttpyacResponses.set(file.path, response);
  }

  /**
   * httpyac runs a region's `@name = {{…}}` lines under its request after the request, in order
   * (their hooks follow the request's): `@session = {{refreshCookie(response)}}` takes the cookie of
   * that response, and a later `@session = {{refreshCookie(response, session)}}` the session before
   * it. Their values are fixed here, after the response, for the requests below to read; one that
   * cannot be worked out now (an error) is left to be read where it is used, as before. `:=` (lazy)
   * lines stay lazy.
   */
  async settleHttpyacVariables(
    file: HttpFile,
    node: RequestNode,
    requestVariables?: Map<string, string>,
  ): Promise<void> {
    const start = node.requestLineSpan.start;
    for (const variable of node.variables) {
      if (variable.span.start < start || variable.lazy) continue;
      const key = `${file.path}\n${variable.span.start}`;
      this.httpyacSettled.delete(key);
      // A resolver per line: it sees what the lines above settled (`session` in `refreshCookie(response, session)`).
      const resolver = await this.resolver(file, node, requestVariables ? { requestVariables } : {}, false);
      try {
        this.httpyacSettled.set(key, await resolver.resolve(variable.value));
        for (const secret of resolver.secretValues) this.secrets.add(secret);
      } catch {
        // Read where it is used, with the response of then (dial's reading before this).
      }
    }
  }

  async runHttpyacPostScripts(
    file: HttpFile,
    node: RequestNode,
    response: ResponseView,
    requestVariables?: Map<string, string>,
  ): Promise<HttpyacBlockOutcome[]> {
    if (!node.httpyacPostScripts) return [];
    const own = this.ownResponse(node, response).requestVariables;
    const variables = requestVariables && own ? new Map([...requestVariables, ...own]) : (requestVariables ?? own);
    const resolver = await this.resolver(file, node, variables ? { requestVariables: variables } : {}, false);
    const outcomes = await resolver.runScriptBlocks(node.httpyacPostScripts, {
      region: httpyacMetaData(node),
      request: httpyacRequestOf(node),
      response: httpyacResponse(response, node.metadata.find((meta) => meta.key === 'jwt')?.value),
    });
    for (const secret of resolver.secretValues) this.secrets.add(secret);
    return outcomes;
  }

  /**
   * httpyac: a named request's own blocks and `?? js` lines after the response see its name as that
   * response's body (the name is set before they run), not as a request to send again.
   */
  ownResponse(node: RequestNode, response: ResponseView): { requestVariables?: Map<string, string> } {
    return node.name ? { requestVariables: new Map([[node.name, response.text()]]) } : {};
  }

  /** Asks the request's `# @prompt` values that neither --var nor an earlier answer gives (E_VAR_UNDEFINED with no prompt). */
  private async askPrompts(file: HttpFile, node: RequestNode, promptAgain: boolean | undefined): Promise<void> {
    const cli = this.options.cliVariables ?? {};
    // A new send with promptAgain (the TUI, as JetBrains) asks its `# @prompt` values again; the
    // requests it references (prepared inside the chain) reuse this send's answers.
    if (promptAgain && this.chain.getStore() === undefined) this.promptedNow = new Set();
    for (const prompt of node.prompts) {
      if (Object.hasOwn(cli, prompt.name) || (this.promptedNow ?? this.prompted).has(prompt.name)) continue;
      if (!this.options.prompt) {
        throw new DialError(
          'E_VAR_UNDEFINED',
          `no value for @prompt variable '${prompt.name}' (${this.where(file, node)})`,
          {
            location: { file: file.path || '<text>', line: node.requestLineSpan.line },
            hint: `pass --var ${prompt.name}=…${prompt.description ? ` (${prompt.description})` : ''}`,
          },
        );
      }
      this.prompted.set(prompt.name, await this.options.prompt(prompt.name, prompt.description));
      this.promptedNow?.add(prompt.name);
    }
  }

  /**
   * kulala's `# @secret password [label]` asks for the value (hidden), as `# @prompt` does; dial
   * also masks it. A value defined elsewhere (--var, env files, file variables) is used as it is.
   */
  private async askSecrets(file: HttpFile, node: RequestNode, resolver: VariableResolver): Promise<void> {
    const cli = this.options.cliVariables ?? {};
    for (const name of node.secrets) {
      if (Object.hasOwn(cli, name) || this.prompted.has(name)) continue;
      const defined = await resolver.variable(name).then(
        () => true,
        (error: unknown) => !(error instanceof DialError && error.code === 'E_VAR_UNDEFINED'),
      );
      if (defined) continue;
      if (!this.options.prompt) {
        throw new DialError('E_VAR_UNDEFINED', `no value for @secret variable '${name}' (${this.where(file, node)})`, {
          location: { file: file.path || '<text>', line: node.requestLineSpan.line },
          hint: `kulala asks for a \`# @secret\` value; pass --var ${name}=…`,
        });
      }
      this.prompted.set(name, await this.options.prompt(name, 'secret'));
    }
  }

  /** httpyac's `# @ref login` / `# @forceRef login`: makes sure the named requests ran first. */
  private async runRefs(file: HttpFile, node: RequestNode): Promise<void> {
    // httpyac's `$httpyac.execute('name')` in a block before the request: run then, as `# @forceRef name`.
    const executed = (node.httpyacScripts ?? []).flatMap((block) =>
      httpyacExecuteNames(block.code).map((name): MetadataNode => ({
        key: 'forceRef',
        value: name,
        span: { start: 0, end: 0, line: block.line, col: 1 },
      })),
    );
    for (const meta of executed.length > 0 ? [...node.metadata, ...executed] : node.metadata) {
      if (meta.key !== 'ref' && meta.key !== 'forceRef') continue;
      for (const name of meta.value.split(/[\s,]+/).filter(Boolean)) {
        // A region with no request (httpyac: only variables under `# @name`) has nothing to run.
        if (file.httpyacNamedRegions?.includes(name) && !file.requests.some((request) => request.name === name))
          continue;
        // `@forceRef` runs the request again even when it already ran in this session.
        if (meta.key === 'forceRef') await this.forgetRun(file, name);
        await this.reference(
          file,
          node,
          name,
          async () => '',
          `@${meta.key} ${name}`,
          this.where(file, node),
          `# @${meta.key} ${name}`,
        );
      }
    }
  }

  /** Throws on a `{{` left open in the URL or a header (it would be sent as literal text). */
  private checkClosedTemplates(file: HttpFile, node: RequestNode): void {
    // Checked before anything resolves; the list is only built when a `{{` is left open.
    const anyUnclosed = unclosed(node.url) || node.headers.some((h) => unclosed(h.value));
    for (const [what, template, line] of anyUnclosed
      ? [
          ['URL', node.url, node.requestLineSpan.line] as const,
          ...node.headers.map((h) => [`header '${h.name}'`, h.value, h.span.line] as const),
        ]
      : []) {
      if (unclosed(template)) {
        throw new DialError('E_VAR_UNDEFINED', `unclosed {{ in the ${what} (${this.where(file, node)})`, {
          location: { file: file.path || '<text>', line, excerpt: file.text.split(/\r?\n/, line)[line - 1] },
          hint: 'close the variable with }}',
        });
      }
    }
  }

  /** The request's URL with its variables resolved; a line break a variable brought in is refused. */
  private async resolveUrl(file: HttpFile, node: RequestNode, resolver: VariableResolver): Promise<string> {
    const url = await resolver.resolve(node.url);
    if (/[\r\n]/.test(url)) {
      throw new DialError(
        'E_HEADER_INJECTION',
        `the URL contains a line break after variable substitution (${this.where(file, node)})`,
        {
          location: { file: file.path || '<text>', line: node.requestLineSpan.line },
          hint: 'a variable used in the URL holds CR or LF; fix its value',
        },
      );
    }
    return url;
  }

  /** The request's headers with their variables resolved; line breaks and invalid names are refused. */
  private async resolveHeaders(
    file: HttpFile,
    node: RequestNode,
    resolver: VariableResolver,
  ): Promise<Array<[string, string]>> {
    const headers: Array<[string, string]> = [];
    for (const header of node.headers) {
      const name = await resolver.resolve(header.name);
      const value = await resolver.resolve(header.value);
      this.checkHeader(file, node, header, name, value);
      headers.push([name, value]);
    }
    if (node.httpyacHeaderSpreads) await this.spreadHttpyacHeaders(file, node, resolver, headers);
    // Known after the first request of a folder: no await at all when there are none.
    const dir = this.folderOf(file);
    let defaults = this.knownDefaultHeaders(file).get(dir);
    if (defaults === undefined) defaults = await this.defaultHeadersFor(file, dir);
    if (defaults) await this.addDefaultHeaders(defaults, resolver, headers);
    return headers;
  }

  /**
   * resolveHeaders at once when no header holds a placeholder and the folder is known to have no
   * default headers (none to wait for); else undefined.
   */
  private plainHeaders(
    file: HttpFile,
    node: RequestNode,
    resolver: VariableResolver,
  ): Array<[string, string]> | undefined {
    if (node.httpyacHeaderSpreads) return undefined;
    if (this.knownDefaultHeaders(file).get(this.folderOf(file)) !== null) return undefined;
    const headers: Array<[string, string]> = [];
    for (const header of node.headers) {
      const name = resolver.resolveNow(header.name);
      const value = resolver.resolveNow(header.value);
      if (name === undefined || value === undefined) return undefined;
      this.checkHeader(file, node, header, name, value);
      headers.push([name, value]);
    }
    return headers;
  }

  /**
   * JetBrains' `client.global.headers`: the ones this request does not write itself (its own header
   * wins, whatever its case), their `{{variables}}` filled in as in a header line.
   */
  private async addGlobalHeaders(
    file: HttpFile,
    node: RequestNode,
    headers: Array<[string, string]>,
    resolver: VariableResolver,
    globalHeaders: Map<string, [string, string]>,
  ): Promise<void> {
    const own = new Set(headers.map(([name]) => name.toLowerCase()));
    for (const [key, [name, value]] of globalHeaders) {
      if (own.has(key)) continue;
      const resolved = value.includes('{{') ? await resolver.resolve(value) : value;
      if (/[\r\n]/.test(resolved))
        throw new DialError(
          'E_HEADER_INJECTION',
          `header '${name}' set by client.global.headers holds a line break after variable substitution (${this.where(file, node)})`,
          {
            location: { file: file.path || '<text>', line: node.requestLineSpan.line },
            hint: 'a variable used in the header value holds CR or LF; fix its value',
          },
        );
      headers.push([name, resolved]);
    }
  }

  /** Refuses a resolved header with a line break or an invalid name. */
  private checkHeader(file: HttpFile, node: RequestNode, header: HeaderNode, name: string, value: string): void {
    // Made only for an error: a run resolves thousands of headers that are fine.
    const location = () => ({
      file: file.path || '<text>',
      line: header.span.line,
      excerpt: file.text.slice(header.span.start, header.span.end),
    });
    if (/[\r\n]/.test(value) || /[\r\n]/.test(name)) {
      throw new DialError(
        'E_HEADER_INJECTION',
        `header '${name.replace(/[\r\n]/g, '')}' contains a line break after variable substitution (${this.where(file, node)})`,
        {
          location: location(),
          hint: 'a variable used in this header holds CR or LF; fix its value',
        },
      );
    }
    if (!HEADER_NAME_RE.test(name)) {
      throw new DialError('E_INPUT', `'${name}' is not a valid header name (${this.where(file, node)})`, {
        location: location(),
        hint: "header names are tokens: letters, digits and !#$%&'*+.^_`|~-",
      });
    }
  }

  /**
   * httpyac `X-ClientCert: cert: ./a.crt key: ./a.key` (clientCertVariableReplacer): a header whose
   * name ends in `clientcert` names the TLS client certificate and is not sent. Paths are relative
   * to the .http file; `pfx:` is refused (dial reads PEM files only).
   */
  private takeHttpyacClientCert(
    file: HttpFile,
    node: RequestNode,
    headers: Array<[string, string]>,
  ): TlsOptions | undefined {
    const index = headers.findIndex(([name]) => name.toLowerCase().endsWith('clientcert'));
    if (index < 0 || node.metadata.some((meta) => meta.key === 'noClientCert')) return undefined;
    const match = /^\s*(?:cert:\s*(\S*)\s*)?(?:key:\s*(\S*)\s*)?(?:pfx:\s*(\S*)\s*)?(?:passphrase:\s*(\S*)\s*)?$/.exec(
      headers[index][1],
    );
    if (!match || !(match[1] || match[3])) return undefined;
    const line = node.headers.find((header) => header.name.toLowerCase().endsWith('clientcert'))?.span.line;
    if (match[3] || match[4]) {
      throw new DialError('E_INPUT', `${headers[index][0]}: pfx client certificates are not supported yet`, {
        location: { file: file.path || '<text>', line: line ?? node.requestLineSpan.line },
        hint: 'convert it to PEM (openssl pkcs12 -in a.pfx -out a.crt -clcerts -nokeys; … -nocerts -nodes -out a.key) and write cert: and key:',
      });
    }
    headers.splice(index, 1);
    const dir = this.folderOf(file);
    const base = this.options.sendOptions?.tls;
    return {
      ...base,
      verify: base?.verify ?? true,
      certFile: resolve(dir, match[1]),
      ...(match[2] ? { keyFile: resolve(dir, match[2]) } : {}),
    };
  }

  /** httpyac `...defaultHeaders`: the fields of an object variable become headers (parseDefaultHeadersFactory). */
  private async spreadHttpyacHeaders(
    file: HttpFile,
    node: RequestNode,
    resolver: VariableResolver,
    headers: Array<[string, string]>,
  ): Promise<void> {
    for (const spread of node.httpyacHeaderSpreads ?? []) {
      const value = await resolver.javascriptValue(spread.name);
      if (value === null || typeof value !== 'object' || Array.isArray(value)) {
        throw new DialError('E_INPUT', `...${spread.name}: not an object of headers (${this.where(file, node)})`, {
          location: { file: file.path || '<text>', line: spread.line },
          hint: 'export an object: exports.defaultHeaders = { Accept: "application/json" }',
        });
      }
      for (const [name, raw] of Object.entries(value as Record<string, unknown>)) {
        if (raw === undefined || raw === null) continue;
        const text = typeof raw === 'string' ? raw : JSON.stringify(raw);
        if (!HEADER_NAME_RE.test(name) || /[\r\n]/.test(text)) {
          throw new DialError('E_HEADER_INJECTION', `...${spread.name}: header '${name}' is not valid`, {
            location: { file: file.path || '<text>', line: spread.line },
          });
        }
        headers.push([name, text]);
      }
    }
  }

  /** httpyac `gql name < ./query.gql` (gqlAction): {query (+ the fragments it spreads), operationName, variables}. */
  private async httpyacGraphqlFileBody(
    node: RequestNode,
    resolver: VariableResolver,
    dir: string,
    fileLabel: string,
  ): Promise<RequestBody> {
    const gql = node.httpyacGraphqlFile!;
    let query: string;
    try {
      query = await readFile(resolve(dir, await resolver.resolve(gql.path)), 'utf8');
    } catch (error) {
      throw new DialError('E_NOT_FOUND', `GraphQL query file not found: ${gql.path}`, {
        location: { file: fileLabel, line: gql.line },
        hint: 'the path after `gql name <` is relative to the .http file',
        cause: error,
      });
    }
    for (const [name, fragment] of Object.entries(gql.fragments))
      if (query.includes(`...${name}`)) query = `${query}\n${fragment}`;
    const payload: { query: string; operationName?: string; variables?: unknown } = {
      query: await resolver.resolve(query),
    };
    if (gql.operationName) payload.operationName = gql.operationName;
    if (node.body?.kind === 'inline') {
      const variables = await resolver.resolve(node.body.text);
      try {
        payload.variables = JSON.parse(variables);
      } catch (error) {
        throw new DialError('E_INPUT', `the GraphQL variables are not JSON: ${(error as Error).message}`, {
          location: { file: fileLabel, line: node.body.span.line },
          hint: 'write the variables as a JSON object after a blank line',
        });
      }
    }
    return { kind: 'text', text: JSON.stringify(payload) };
  }

  /**
   * The request's body: inline text (a multipart body expanded, its `< file` parts read) or a
   * `< file` (read and resolved when it substitutes variables, else sent from disk).
   */
  private async resolveBody(
    file: HttpFile,
    node: RequestNode,
    resolver: VariableResolver,
    headers: Array<[string, string]>,
  ): Promise<RequestBody> {
    const source = node.body;
    // Paths in a body are relative to the .http file.
    const dir = this.folderOf(file);
    const fileLabel = file.path || '<text>';
    if (node.httpyacGraphqlFile) return this.httpyacGraphqlFileBody(node, resolver, dir, fileLabel);
    if (source?.kind === 'inline') {
      const contentType = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      // rest.nvim hands a body to curl with --data-raw: without a Content-Type, curl sends its form type.
      if (file.dialect === 'rest.nvim' && contentType === undefined)
        headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
      const boundary = multipartBoundary(contentType);
      // JetBrains (a message line may be an input-file-ref) and REST Client (parseBody): a
      // `< ./file` line among other body lines is that file's content, in its place.
      // (GraphQL queries include their `< ./x.graphql` lines themselves: session/graphql.ts.)
      if (!boundary && !node.graphql && file.dialect !== 'httpyac' && FILE_LINE_RE.test(source.text))
        return this.bodyWithFileLines(file, source, resolver, dir);
      if (node.graphql && !boundary && source.text.includes('{{')) {
        // A value spliced into the query is escaped as the content of its JSON string (session/graphql.ts).
        const { graphqlTemplateParts, graphqlPayloadText } = await import('./graphql.js');
        const parts = graphqlTemplateParts(source.text);
        if (parts) return { kind: 'text', text: await graphqlPayloadText(parts, (t) => resolver.resolve(t)) };
      }
      const text = await resolver.resolve(source.text);
      if (!boundary) {
        if (file.dialect === 'rest.nvim' && !node.graphql)
          return restNvimBody(source.text, text, contentType, fileLabel, source.span.line);
        if (file.dialect !== 'rest-client') return { kind: 'text', text };
        // REST Client: form bodies encoded (formParamEncodingStrategy), NDJSON ends with a line break.
        if (isFormType(contentType)) return { kind: 'text', text: restClientFormBody(text, file.formEncoding) };
        return { kind: 'text', text: mediaType(contentType) === 'application/x-ndjson' ? `${text}\n` : text };
      }
      const bytes = await expandMultipartBody(text, {
        boundary,
        baseDir: dir,
        substitute: (t) => resolver.resolve(t),
      }).catch((error: unknown) => {
        if (!(error instanceof MultipartFileError)) throw error;
        // The line of the `< ./file` that failed (counted in the text with variables put in: the
        // body's first line when a value spanned lines and the count no longer matches).
        const sameLines = text.split('\n').length === source.text.split('\n').length;
        throw new DialError('E_NOT_FOUND', `multipart body: ${error.message}`, {
          location: { file: fileLabel, line: source.span.line + (sameLines ? error.line : 0) },
          hint: 'paths in a multipart `< ./file` line are relative to the .http file',
          cause: error.reason,
        });
      });
      return { kind: 'bytes', bytes };
    }
    if (source?.kind === 'file') {
      const written = await resolver.resolve(source.path);
      const path = await this.bodyFilePath(written, dir, source.rootFirst || file.dialect === 'rest-client');
      const location = {
        file: fileLabel,
        line: source.span.line,
        excerpt: file.text.slice(source.span.start, source.span.end),
      };
      try {
        if (!(await stat(path)).isFile()) throw new Error('not a file');
      } catch {
        throw new DialError('E_NOT_FOUND', `body file not found: ${path}`, {
          location,
          hint: 'paths in `< ./file` are relative to the .http file',
        });
      }
      if (!source.substitute) {
        // JetBrains fills the variables of a `< ./file` body in (REST Client does not): in a file
        // declared JetBrains', a UTF-8 text file holding `{{` is resolved; anything else goes as it is.
        if (file.dialect !== 'jetbrains' || file.dialectSource === 'default' || file.dialectSource === undefined)
          return { kind: 'file', path };
        const bytes = await readFile(path);
        const text = utf8TemplateText(bytes, source.encoding);
        return text === undefined ? { kind: 'file', path } : { kind: 'text', text: await resolver.resolve(text) };
      }
      // rest.nvim guesses the type of any file body from its name (a sent-as-is file gets it below, in prepareBody).
      if (file.dialect === 'rest.nvim' && !headers.some(([name]) => name.toLowerCase() === 'content-type'))
        headers.push(['Content-Type', guessContentType(path)]);
      return { kind: 'text', text: await resolver.resolve(decodeFileBody(await readFile(path), source.encoding)) };
    }
    return { kind: 'none' };
  }

  /**
   * A body whose lines include `< ./file` (sent as it is) or `<@ ./file` / `<@latin1 ./file`
   * (decoded, variables filled in) lines: each such line is the file, the other lines are text
   * with their variables filled in; lines are joined with `\n` (REST Client's EOL on Linux).
   */
  private async bodyWithFileLines(
    file: HttpFile,
    source: { text: string; span: { line: number } },
    resolver: VariableResolver,
    dir: string,
  ): Promise<RequestBody> {
    const parts: Buffer[] = [];
    const lines = source.text.split('\n');
    for (const [index, line] of lines.entries()) {
      if (index > 0) parts.push(Buffer.from('\n'));
      const match = FILE_LINE_PARTS_RE.exec(line.replace(/\r$/, ''));
      if (!match) {
        parts.push(Buffer.from(await resolver.resolve(line), 'utf8'));
        continue;
      }
      const written = await resolver.resolve(match[3]);
      const path = await this.bodyFilePath(written, dir, file.dialect === 'rest-client');
      let bytes: Buffer;
      try {
        bytes = await readFile(path);
      } catch {
        throw new DialError('E_NOT_FOUND', `body file not found: ${path}`, {
          location: { file: file.path || '<text>', line: source.span.line + index, excerpt: line },
          hint: 'paths in `< ./file` are relative to the .http file',
        });
      }
      if (match[1] === undefined) parts.push(bytes);
      else {
        const encoding = match[2] && !/^utf-?8$/i.test(match[2]) ? match[2] : undefined;
        parts.push(Buffer.from(await resolver.resolve(decodeFileBody(bytes, encoding)), 'utf8'));
      }
    }
    return { kind: 'bytes', bytes: Buffer.concat(parts) };
  }
}

/** A `< ./file` line in a body (REST Client's inputFileSyntax: `<`, `<@`, `<@encoding`, then the path). */
const FILE_LINE_RE = /^<(?:@[\w-]*)?[ \t]+\S/m;
const FILE_LINE_PARTS_RE = /^<(?:(@)([\w-]+)?)?[ \t]+(.+?)\s*$/;

/** Headers written twice (any case) become one, under the first spelling: values joined with `,`, Cookie's with `;`. */
function joinRepeatedHeaders(headers: Array<[string, string]>): void {
  const first = new Map<string, number>();
  for (let i = 0; i < headers.length; i++) {
    const key = headers[i][0].toLowerCase();
    const at = first.get(key);
    if (at === undefined) {
      first.set(key, i);
      continue;
    }
    headers[at] = [headers[at][0], `${headers[at][1]}${key === 'cookie' ? ';' : ','}${headers[i][1]}`];
    headers.splice(i--, 1);
  }
}

function mediaType(contentType: string | undefined): string | undefined {
  return contentType?.split(';')[0].trim().toLowerCase();
}

function isFormType(contentType: string | undefined): boolean {
  return mediaType(contentType) === 'application/x-www-form-urlencoded';
}

/**
 * REST Client's form bodies (its default `formParamEncodingStrategy`, "automatic", runs the npm
 * `encodeurl` over them) and its URLs (encodeurl before every send): every character a URL cannot hold is percent-encoded as `encodeURI`
 * does (a space as `%20`, `ü` as `%C3%BC`, `<` as `%3C`), a `%` that starts no `%XX` as `%25`;
 * `&`, `=`, `+`, already encoded `%XX` and the other URL characters stay as written.
 */
export function restClientFormEncoding(text: string): string {
  return text.replace(/%(?![0-9A-Fa-f]{2})|[^!%&-;=?-[\]_a-z~]/gu, (char) => {
    if (char === '%') return '%25';
    try {
      return encodeURI(char);
    } catch {
      return encodeURI('\uFFFD'); // a lone surrogate
    }
  });
}

/**
 * A REST Client form body under the workspace's `rest-client.formParamEncodingStrategy`
 * (httpRequestParser.ts): "automatic" (the default) runs encodeurl over it, "never" sends it as
 * written, "always" splits it at `&` and each pair at its first `=` and encodes both sides with
 * encodeURIComponent (an already encoded `%20` becomes `%2520`, a pair without `=` gets one).
 */
export function restClientFormBody(text: string, strategy?: 'never' | 'always'): string {
  if (strategy === 'never') return text;
  if (strategy !== 'always') return restClientFormEncoding(text);
  const encode = (part: string): string => {
    try {
      return encodeURIComponent(part);
    } catch {
      return encodeURIComponent(
        part.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'),
      ); // a lone surrogate
    }
  };
  return text
    .split('&')
    .map((pair) => {
      const at = pair.indexOf('=');
      return at < 0 ? `${encode(pair)}=` : `${encode(pair.slice(0, at))}=${encode(pair.slice(at + 1))}`;
    })
    .join('&');
}

/**
 * The .http auth conventions (JetBrains, REST Client): `Authorization: Basic user password` or
 * `Basic user:password` is sent base64-encoded (an already encoded value is left alone);
 * `Digest user password` becomes digest credentials and the header is dropped.
 */
function applyAuthConvention(
  headers: Array<[string, string]>,
  secrets: Set<string>,
  httpyac = false,
): { digest?: { username: string; password: string }; ntlm?: { username: string; password: string } } {
  const index = headers.findIndex(([name]) => name.toLowerCase() === 'authorization');
  if (index < 0) return {};
  // kulala `NTLM user:password` (curl --ntlm -u; the password after the last colon): the handshake of send/ntlm.ts.
  const ntlm = /^\s*NTLM\s+(.*):(.+?)\s*$/is.exec(headers[index][1]);
  if (ntlm) {
    headers.splice(index, 1);
    secrets.add(ntlm[2]);
    return { ntlm: { username: ntlm[1], password: ntlm[2] } };
  }
  const match = /^(Basic|Digest)\s+(.*\S)\s*$/i.exec(headers[index][1]);
  if (!match) return {};
  const credentials = match[2];
  let username: string;
  let password: string;
  // httpyac (basicAuthVariableReplacer) splits at the last colon first: `Basic john doe:secret`.
  const lastColon = httpyac && /^basic$/i.test(match[1]);
  const colon = lastColon ? credentials.lastIndexOf(':') : credentials.indexOf(':');
  const space = credentials.search(/\s/);
  if (lastColon ? colon > 0 : colon >= 0 && (space < 0 || colon < space)) {
    username = credentials.slice(0, colon);
    password = credentials.slice(colon + 1);
  } else if (space >= 0) {
    username = credentials.slice(0, space);
    password = credentials.slice(space).trim();
  } else {
    return {}; // one token: already encoded (Basic) or a full Digest response
  }
  if (/^digest$/i.test(match[1])) {
    if (/\busername\s*=/i.test(credentials)) return {};
    headers.splice(index, 1);
    return { digest: { username, password } };
  }
  const basic = basicAuthorization(username, password);
  const encoded = basic.slice('Basic '.length);
  headers[index] = [headers[index][0], basic];
  // The encoded form hides the secret from plain-text masking: mask it as a whole.
  if ([...secrets].some((secret) => credentials.includes(secret))) secrets.add(encoded);
  return {};
}

/** Up to this size a .http file is read at once (loadFile); a larger one, or anything but a regular file, is read asynchronously. */
const READ_NOW_BYTES = 1024 * 1024;

/**
 * A small regular file's text, read synchronously: fs/promises' readFile takes an open, a stat,
 * reads and a close, each a trip to the thread pool with its promise (~80 µs of CPU for an 8 KB
 * file against ~7 µs read at once), and `dial run` reads every file it plans. A FIFO, a device or
 * a large file answers undefined (read asynchronously, as before); a file that cannot be read
 * answers its error.
 */
function readSmallFileNow(path: string): string | NodeJS.ErrnoException | undefined {
  try {
    const stats = statSync(path);
    if (!stats.isFile() || stats.size > READ_NOW_BYTES) return undefined;
    return readFileSync(path, 'utf8');
  } catch (error) {
    return error as NodeJS.ErrnoException;
  }
}

/**
 * A file's text read as loadFile reads it: at once when it is a small regular file, else with
 * fs/promises; a file that cannot be read rejects with its error (`dial run` reads each planned
 * file again at its turn with it: fs/promises' four trips to the thread pool were ~80 µs a file).
 */
export function readTextFile(path: string): Promise<string> {
  const text = readSmallFileNow(path);
  if (text === undefined) return readFile(path, 'utf8');
  return typeof text === 'string' ? Promise.resolve(text) : Promise.reject(text);
}

/** preparePlain's answers for a request without metadata or placeholders (read only, never changed). */
const NO_SECRETS: Set<string> = new Set();
const NO_SECRET_VALUES: string[] = Object.freeze([]) as unknown as string[];
const NO_OVERRIDES: Partial<SendOptions> = Object.freeze({});

/** Send options the request's metadata sets (@timeout, @connection-timeout, @no-redirect, @no-cookie-jar). */
function metadataOverrides(node: RequestNode): Partial<SendOptions> {
  const overrides: Partial<SendOptions> = {};
  if (node.timeoutMs !== undefined) overrides.timeoutMs = node.timeoutMs;
  if (node.connectTimeoutMs !== undefined) overrides.connectTimeoutMs = node.connectTimeoutMs;
  if (node.noRedirect) overrides.followRedirects = false;
  if (node.noCookieJar) overrides.cookieJar = undefined;
  const sse = node.metadata.length > 0 ? streamLimits(node) : undefined;
  if (sse) overrides.sse = sse;
  if (node.metadata.some((meta) => meta.key === 'keepStreaming')) overrides.keepStreaming = true;
  return overrides;
}

/** resolveUrl at once for a URL with nothing to substitute (one with a line break takes resolveUrl, which refuses it). */
function plainUrl(node: RequestNode, resolver: VariableResolver): string | undefined {
  const url = resolver.resolveNow(node.url);
  return url !== undefined && !/[\r\n]/.test(url) ? url : undefined;
}

/** The header httpyac's `Authorization: oauth2 …` (or `openid …`) is written in, or -1. */
/** `Authorization: AWS key secret …`, signed with AWS Signature v4 (session/aws-auth.ts). */
function awsAuthIndex(headers: Array<[string, string]>): number {
  return headers.findIndex(
    ([name, value]) => name.toLowerCase() === 'authorization' && /^\s*aws\s+\S+\s+\S+/i.test(value),
  );
}

/** kulala's `Authorization: NTLM user:password`, answered with the NTLM handshake (send/ntlm.ts). */
function ntlmAuthIndex(headers: Array<[string, string]>): number {
  return headers.findIndex(([name, value]) => name.toLowerCase() === 'authorization' && /^\s*NTLM\s/i.test(value));
}

function httpyacAuthIndex(headers: Array<[string, string]>): number {
  return headers.findIndex(
    ([name, value]) => name.toLowerCase() === 'authorization' && /^\s*(oauth2|openid)\b/i.test(value),
  );
}

/** True when a `{{` is never closed (it would be sent as literal text). */
function unclosed(template: string): boolean {
  const last = template.lastIndexOf('{{');
  return last >= 0 && template.indexOf('}}', last + 2) < 0;
}

/** Where `{{name}}` is written: in the request's block first, else above it (a file variable). */
function locatePlaceholder(
  file: HttpFile,
  node: RequestNode,
  name: string,
): { file: string; line: number; col: number; excerpt: string } | undefined {
  const find = (from: number, to: number): number | undefined => {
    for (const placeholder of findPlaceholders(file.text.slice(from, to)))
      if (placeholder.expression === name) return from + placeholder.start;
    return undefined;
  };
  const at = find(node.span.start, node.span.end) ?? find(0, node.span.start);
  if (at === undefined) return undefined;
  const { line, col } = lineColAt(file.text, at);
  const lineStart = file.text.lastIndexOf('\n', at - 1) + 1;
  const lineEnd = file.text.indexOf('\n', at);
  return {
    file: file.path || '<text>',
    line,
    col,
    excerpt: file.text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).replace(/\r$/, ''),
  };
}

/**
 * `/path` + Host header -> a full URL; a URL without a scheme gets http:// (as JetBrains does).
 * A Host header written with a scheme (`Host: https://example.com`) is sent without it.
 */
function completeUrl(url: string, headers: Array<[string, string]>): string {
  if (url.startsWith('/') || url === '*') {
    const index = headers.findIndex(([name]) => name.toLowerCase() === 'host');
    const host = index < 0 ? undefined : headers[index][1];
    const origin = host ? originOfHost(host) : undefined;
    // What goes on the wire is the authority alone: `Host: example.com:8080`.
    if (host && /^https?:\/\//i.test(host))
      headers[index] = [headers[index][0], host.replace(/^https?:\/\/|\/.*$/gi, '')];
    if (url === '*') return origin ? `${origin}/` : url;
    return origin ? `${origin}${url}` : url;
  }
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
}

/** The origin a Host header names: `example.com` → http, `example.com:443` → https, or the scheme written in it. */
function originOfHost(host: string): string {
  // rest.nvim and the JetBrains spec also write the scheme in the Host header (`Host: https://example.com`).
  if (/^https?:\/\//i.test(host)) return host.replace(/\/+$/, '');
  return `${/:443$/.test(host) ? 'https' : 'http'}://${host}`;
}

/** A body file's text when it is UTF-8 (or the named encoding) and holds a `{{`; undefined for other (binary) files. */
function utf8TemplateText(bytes: Buffer, encoding: string | undefined): string | undefined {
  if (!bytes.includes('{{')) return undefined;
  if (encoding) return decodeFileBody(bytes, encoding);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * rest.nvim's JSON and XML bodies (its parser's json_body, a body starting with `{` or `[` and a
 * blank, or xml_body, `<` and a name; or the Content-Type saying so): sent trimmed, and a JSON body
 * that does not parse once its variables are filled in is not sent at all ("parsing request body
 * failed"): refused here at the body's line. Any other body goes as written.
 */
function restNvimBody(
  written: string,
  text: string,
  contentType: string | undefined,
  fileLabel: string,
  line: number,
): RequestBody {
  const type = contentType === undefined ? undefined : mediaType(contentType);
  const json = /^[{[]\s/.test(written) || type === 'application/json';
  const xml = !json && (/^<[^\s@]/.test(written) || type === 'application/xml');
  if (!json && !xml) return { kind: 'text', text };
  const trimmed = text.trim();
  if (json) {
    try {
      JSON.parse(trimmed);
    } catch (error) {
      throw new DialError(
        'E_INPUT',
        `the JSON body does not parse (${(error as Error).message}): rest.nvim does not send it`,
        {
          location: { file: fileLabel, line },
          hint: "fix the JSON, or name another tool with `# @dialect` if the file is not rest.nvim's",
          cause: error,
        },
      );
    }
  }
  return { kind: 'text', text: trimmed };
}

/** The headers httpyac gives every request before its `{{@request}}` hooks (dial's own values). */
const HTTPYAC_DEFAULT_HEADERS: ReadonlyArray<[string, string]> = [
  ['Accept', '*/*'],
  ['User-Agent', `dial/${VERSION}`],
];

/** Whether a header list or record names `name` (any case) with a value. */
function findHeaderName(headers: Record<string, unknown> | ReadonlyArray<[string, string]>, name: string): boolean {
  const lower = name.toLowerCase();
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  return entries.some(([key, value]) => key.toLowerCase() === lower && value !== undefined && value !== null);
}
