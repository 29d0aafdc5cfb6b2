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
import { readFile, stat } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { Exchange, HttpRequest, RequestBody, SendOptions } from '../http/types.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import { parseHttpFile } from '../httpfile/parse.js';
import { decodeFileBody } from '../httpfile/scripts.js';
import { withHttpyacEnvironment } from '../vars/httpyac-env.js';
import { expandMultipartBody, multipartBoundary } from '../httpfile/multipart.js';
import { DialError } from '../errors.js';
import { EnvStore, type Dotenv, type ResolvedEnvironment } from '../env/index.js';
import { VariableResolver } from '../vars/resolver.js';
import { evaluateReference, type RecordedExchange } from '../vars/references.js';
import { findPlaceholders } from '../vars/template.js';
import { lineColAt } from '../env/json-file.js';
import { basicAuthorization } from '../http/basic-auth.js';

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
}

export interface Session {
  readonly workspaceRoot: string;
  readonly environment?: string;
  /** `client.global`, shared by scripts. */
  globals: Map<string, unknown>;
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
  execute(
    file: HttpFile,
    node: RequestNode,
    options?: { signal?: AbortSignal; sendOptions?: Partial<SendOptions> },
  ): Promise<Exchange>;
  record(file: HttpFile, node: RequestNode, request: HttpRequest, exchange: Exchange): void;
  hasRun(file: HttpFile, node: RequestNode): boolean;
  resolveTemplate(text: string, file: HttpFile, node: RequestNode): Promise<string>;
  secretValues(): string[];
  environments(): Promise<string[]>;
}

const HEADER_NAME_RE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

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

  constructor(private readonly options: SessionOptions) {
    this.workspaceRoot = resolve(options.workspaceRoot);
    this.environment = options.environment;
    this.env = new EnvStore(this.workspaceRoot);
  }

  loadFile(path: string): Promise<HttpFile> {
    const absolute = resolve(path);
    let pending = this.files.get(absolute);
    if (!pending) {
      pending = readFile(absolute, 'utf8').then(
        (text) => parseHttpFile(text, absolute),
        (error: NodeJS.ErrnoException) => {
          throw new DialError(
            'E_NOT_FOUND',
            `cannot read ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
            { cause: error },
          );
        },
      );
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
    return [...this.secrets];
  }

  hasRun(file: HttpFile, node: RequestNode): boolean {
    return this.recorded.has(keyOf(file, node));
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
    let request = prepared.request;
    let exchange: Exchange;
    if (prepared.digest) {
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

  async resolveTemplate(text: string, file: HttpFile, node: RequestNode): Promise<string> {
    const resolver = await this.resolver(file, node, {}, false);
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

  private where(file: HttpFile, node: RequestNode): string {
    const label = this.label(file);
    return `${node.name ? `request '${node.name}'` : `request #${node.index + 1}`} at ${label}:${node.requestLineSpan.line}`;
  }

  /**
   * The file variables visible at a request (declared above it). Made per send, not kept per
   * node in a WeakMap: at 5,000 requests the weak tables cost the collector more than they saved.
   */
  private fileVariablesAt(file: HttpFile, node: RequestNode): Map<string, string> {
    const variables = new Map<string, string>();
    for (const variable of file.variables)
      if (variable.span.start < node.requestLineSpan.start) variables.set(variable.name, variable.value);
    return variables;
  }

  private secretNames(file: HttpFile): Set<string> {
    let names = this.secretNamesByFile.get(file);
    if (!names) {
      // `# @secret x` masks x wherever the file uses it, not only in the request that says so.
      names = new Set(file.requests.flatMap((request) => request.secrets));
      this.secretNamesByFile.set(file, names);
    }
    return names;
  }

  /** The selected environment and `.env` for a folder: env files are read once per session, so resolved once per folder. */
  private environmentFor(dir: string): Promise<[ResolvedEnvironment, Dotenv | undefined]> {
    let pending = this.environmentsByDir.get(dir);
    if (!pending) {
      pending = Promise.all([this.env.resolve(dir, this.environment), this.env.dotenv()]);
      this.environmentsByDir.set(dir, pending);
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
    const dir = file.path ? dirname(file.path) : this.workspaceRoot;
    const [jetbrainsEnvironment, dotenv] = await this.environmentFor(dir);
    // httpyac files also read httpyac's `env/*.env` files (under the JetBrains env files).
    const environment =
      file.dialect === 'httpyac'
        ? await withHttpyacEnvironment(jetbrainsEnvironment, dir, this.environment)
        : jetbrainsEnvironment;
    const fileVariables = this.fileVariablesAt(file, node);
    const where = this.where(file, node);
    return new VariableResolver({
      cliVariables: this.options.cliVariables ?? {},
      prompted: this.prompted,
      requestVariables: extra.requestVariables,
      globals: this.globals,
      fileVariables,
      environment,
      dotenv,
      javascriptExpressions: file.dialect === 'httpyac',
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
    const target = file.requests.find((request) => request.name === name);
    let recorded = target ? this.recorded.get(keyOf(file, target)) : this.recordedByName.get(name);
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
      const key = keyOf(file, target);
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
          this.options.runReference ? this.options.runReference(file, target) : this.runDependency(file, target, from);
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

  /** Forgets that the request named `name` in `file` ran, so the next reference runs it again. */
  private forgetRun(file: HttpFile, name: string): void {
    const target = file.requests.find((request) => request.name === name);
    if (!target) return;
    const key = keyOf(file, target);
    this.recorded.delete(key);
    this.running.delete(key);
  }

  /** prepare(): resolves a request into what is sent, running the requests it references first. */
  private async prepareInChain(
    file: HttpFile,
    node: RequestNode,
    extra: { requestVariables?: Map<string, string>; promptAgain?: boolean },
  ): Promise<PreparedRequest> {
    if (node.prompts.length > 0) await this.askPrompts(file, node, extra.promptAgain);
    // A new send forgets the `# @prompt` answers of the last one (see askPrompts), prompts or not.
    else if (extra.promptAgain && this.chain.getStore() === undefined) this.promptedNow = new Set();
    const resolver = await this.resolver(file, node, extra, true);
    if (node.httpyacScripts) await resolver.runScriptBlocks(node.httpyacScripts);
    if (node.metadata.length > 0) await this.runRefs(file, node);
    this.checkClosedTemplates(file, node);
    let url = await this.resolveUrl(file, node, resolver);
    const headers = await this.resolveHeaders(file, node, resolver);
    url = completeUrl(url, headers);
    const auth = applyAuthConvention(headers, resolver.secretValues);
    const body = await this.resolveBody(file, node, resolver, headers);
    const request: HttpRequest = { method: node.method, url, headers, body };
    const version = node.httpVersion?.toUpperCase();
    if (version === 'HTTP/2' || version === 'HTTP/2.0') request.httpVersion = '2';
    else if (version === 'HTTP/1.1') request.httpVersion = '1.1';
    const overrides = metadataOverrides(node);
    const secretValues = [...resolver.secretValues];
    for (const secret of secretValues) this.secrets.add(secret);
    return auth.digest
      ? { request, overrides, secretValues, digest: auth.digest }
      : { request, overrides, secretValues };
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

  /** httpyac's `# @ref login` / `# @forceRef login`: makes sure the named requests ran first. */
  private async runRefs(file: HttpFile, node: RequestNode): Promise<void> {
    for (const meta of node.metadata) {
      if (meta.key !== 'ref' && meta.key !== 'forceRef') continue;
      for (const name of meta.value.split(/[\s,]+/).filter(Boolean)) {
        // `@forceRef` runs the request again even when it already ran in this session.
        if (meta.key === 'forceRef') this.forgetRun(file, name);
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
      headers.push([name, value]);
    }
    return headers;
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
    const dir = file.path ? dirname(file.path) : this.workspaceRoot;
    const fileLabel = file.path || '<text>';
    if (source?.kind === 'inline') {
      const text = await resolver.resolve(source.text);
      const contentType = headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
      const boundary = multipartBoundary(contentType);
      if (!boundary) return { kind: 'text', text };
      const bytes = await expandMultipartBody(text, {
        boundary,
        baseDir: dir,
        substitute: (t) => resolver.resolve(t),
      }).catch((error: NodeJS.ErrnoException) => {
        throw new DialError('E_NOT_FOUND', `multipart body: ${error.message}`, {
          location: { file: fileLabel, line: source.span.line },
          cause: error,
        });
      });
      return { kind: 'bytes', bytes };
    }
    if (source?.kind === 'file') {
      const path = resolve(dir, await resolver.resolve(source.path));
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
      return source.substitute
        ? { kind: 'text', text: await resolver.resolve(decodeFileBody(await readFile(path), source.encoding)) }
        : { kind: 'file', path };
    }
    return { kind: 'none' };
  }
}

/**
 * The .http auth conventions (JetBrains, REST Client): `Authorization: Basic user password` or
 * `Basic user:password` is sent base64-encoded (an already encoded value is left alone);
 * `Digest user password` becomes digest credentials and the header is dropped.
 */
function applyAuthConvention(
  headers: Array<[string, string]>,
  secrets: Set<string>,
): { digest?: { username: string; password: string } } {
  const index = headers.findIndex(([name]) => name.toLowerCase() === 'authorization');
  if (index < 0) return {};
  const match = /^(Basic|Digest)\s+(.*\S)\s*$/i.exec(headers[index][1]);
  if (!match) return {};
  const credentials = match[2];
  let username: string;
  let password: string;
  const colon = credentials.indexOf(':');
  const space = credentials.search(/\s/);
  if (colon >= 0 && (space < 0 || colon < space)) {
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

/** Send options the request's metadata sets (@timeout, @connection-timeout, @no-redirect, @no-cookie-jar). */
function metadataOverrides(node: RequestNode): Partial<SendOptions> {
  const overrides: Partial<SendOptions> = {};
  if (node.timeoutMs !== undefined) overrides.timeoutMs = node.timeoutMs;
  if (node.connectTimeoutMs !== undefined) overrides.connectTimeoutMs = node.connectTimeoutMs;
  if (node.noRedirect) overrides.followRedirects = false;
  if (node.noCookieJar) overrides.cookieJar = undefined;
  return overrides;
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

/** `/path` + Host header -> a full URL; a URL without a scheme gets http:// (as JetBrains does). */
function completeUrl(url: string, headers: Array<[string, string]>): string {
  if (url.startsWith('/')) {
    const host = headers.find(([name]) => name.toLowerCase() === 'host')?.[1];
    // rest.nvim and the JetBrains spec also write the scheme in the Host header (`Host: https://example.com`).
    if (host && /^https?:\/\//i.test(host)) return `${host.replace(/\/+$/, '')}${url}`;
    if (host) return `${/:443$/.test(host) ? 'https' : 'http'}://${host}${url}`;
    return url;
  }
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`;
}
