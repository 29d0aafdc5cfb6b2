/**
 * Resolving `{{…}}` for one request (docs/http-format.md, variables). Lookup order, first hit wins:
 *   1. `--var k=v` (and values typed at a `# @prompt`);
 *   2. script values: `request.variables.set` (pre-request), `client.global.set`; then request
 *      references `{{name.response.body.$.x}}` (when `name` is a request);
 *   3. file variables visible at the request (`@name = value`, may reference other variables);
 *   4. the selected environment (+ `$shared`), private over public, nearer over farther;
 *   5. the workspace root's `.env`;
 *   6. `{{$processEnv NAME}}` only when written explicitly.
 * Values from levels 1, 2 and 5 are used as they are; file and environment values are templates
 * themselves and are resolved recursively (cycles -> E_VAR_CYCLE). An unknown name is an
 * E_VAR_UNDEFINED naming the variable, the request and the places searched.
 */
import { DialError, type SourceLocation } from '../errors.js';
import type { Dotenv, ResolvedEnvironment } from '../env/index.js';
import { substitute } from '../httpfile/placeholders.js';
import { evaluateDynamic } from './dynamic.js';
import { parseReference, type ReferenceExpression } from './references.js';
import { valueToText } from './jsonpath.js';
import {
  evaluateHttpyacExpression,
  expressionIdentifiers,
  functionReads,
  holdsFunction,
  thisReads,
  mayChangeVariables,
  runHttpyacBlock,
  readsHttpyacGlobal,
  type HttpyacBlockContext,
  type HttpyacBlockOutcome,
} from './httpyac-js.js';

/** The longest text one expansion may produce (16 Mi characters). */
export const MAX_EXPANDED_LENGTH = 16 * 1024 * 1024;

/** A text resolve() gives back as it is: no placeholder, no escaped brace, not too long. */
export function isPlain(text: string): boolean {
  return text.length <= MAX_EXPANDED_LENGTH && !text.includes('{{') && !text.includes('\\{');
}

export interface ResolverOptions {
  cliVariables: Record<string, string>;
  /** Values answered at `# @prompt` (level 1). */
  prompted?: Map<string, string>;
  /** `request.variables.set` values of a pre-request script (level 2). */
  requestVariables?: Map<string, string>;
  globals: Map<string, unknown>;
  /** File variables visible at the request; the last declaration of a name wins. */
  fileVariables: Map<string, string>;
  /**
   * File variables declared below the request (the last declaration wins): REST Client reads a
   * file's variables wherever they stand, so a name defined nowhere else is taken from these.
   */
  laterFileVariables?: Map<string, string>;
  /**
   * httpyac: file variables evaluated once per run (`@session = {{$guid}}` in a global region has
   * one value for every request): name → key into `onceValues`, which the run keeps.
   */
  onceKeys?: Map<string, string>;
  onceValues?: Map<string, string>;
  /** Asks the user for a value (a terminal or the workbench); absent when nobody can answer (dial run). */
  ask?: (label: string, description?: string) => Promise<string>;
  environment: ResolvedEnvironment;
  dotenv?: Dotenv;
  /** `{{$dotenv NAME}}`'s file: the nearest `.env.<environment>` or `.env` above the .http file (REST Client). */
  dotenvNear?: () => Promise<Dotenv | undefined>;
  /** Names marked `# @secret`. */
  secretNames: Set<string>;
  processEnv: Record<string, string | undefined>;
  /** Resolves a request reference; returns undefined when `reference.name` is no request (then the name is looked up as a variable). */
  reference?: (reference: ReferenceExpression, raw: string) => Promise<string | undefined>;
  /** "request 'login' (api.http:7)", for messages. */
  where: string;
  location?: SourceLocation;
  /** Label of the file the file variables come from, for messages. */
  fileLabel: string;
  /** Where `{{name}}` is written (file:line:col and the line), for the error pointer. */
  locate?: (name: string) => SourceLocation | undefined;
  /** httpyac dialect: `{{ expression }}` that is not a name is JavaScript over the variables it reads. */
  javascriptExpressions?: boolean;
  /** httpyac: the file's last response as its scripts see it (`{{response.parsedBody.x}}` in a later request). */
  lastResponse?: () => Record<string, unknown> | undefined;
  /**
   * `@name = …{{name}}…`: the inner `{{name}}` is the variable of that name below the file level
   * (JetBrains, httpyac, kulala). False in the REST Client dialect, where it stays a cycle (REST
   * Client sends the placeholder unresolved); undefined: a cycle, as before.
   */
  selfReferenceBelowFile?: boolean;
  /** Environments that define a name (for the "select an environment" hint). */
  definedIn?: (name: string) => Promise<string[]>;
  /**
   * `{{$auth.token("name")}}` / `{{$auth.idToken("name")}}` (OAuth 2.0): the value and the secrets
   * it used. `resolve` fills `{{…}}` in the configuration's values with this request's variables.
   */
  auth?: (use: AuthPlaceholder) => Promise<{ value: string; secrets: string[] }>;
  /**
   * No environment chosen: kulala's default environment (`default`, or `dev` before kulala 6),
   * consulted only for a name defined nowhere else; `used` is told which one gave a value.
   */
  implicitEnvironment?: () => Promise<ResolvedEnvironment | undefined>;
  onImplicitEnvironment?: (environment: string, name: string) => void;
  /**
   * Told when a name the selected environment defines is taken from elsewhere by dial's order but
   * not by JetBrains' documented one: a script value (`request.variables.set`, `client.global.set`)
   * or a file variable over the environment, or a private env value over a different public one
   * (core/vars/precedence.ts). `value`: what dial uses. Set only for JetBrains-dialect files.
   */
  onPrecedence?: (name: string, by: 'request' | 'global' | 'file', value: string) => void;
}

/** One `{{$auth.…}}` placeholder of a request. */
export interface AuthPlaceholder {
  kind: 'token' | 'idToken';
  name: string;
  /** The placeholder as written, `{{$auth.token("name")}}`. */
  raw: string;
  location?: SourceLocation;
  where: string;
  environment: ResolvedEnvironment;
  resolve: (text: string) => Promise<string>;
}

/** httpyac's prompt placeholders: kind, label, `$value:` (default, or the choices of `$pick`). */
const HTTPYAC_PROMPT_RE = /^\$(input|password|pick)(?:-askonce)?\s+([\s\S]*?)(?:\s*\$value:\s*([\s\S]*))?$/;

/** Text a JavaScript value of another type gives: a boolean, null or a number. */
const LITERAL_TEXT_RE = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

/** httpyac `{{$xpath:name //path}}` / `{{$xpath //path}}`: the name (optional) and the XPath. */
const HTTPYAC_XPATH_RE = /^\s*\$xpath(?::(\S*))?\s+(\S.*?)\s*$/i;

const AUTH_CALL = /^\$auth\.(token|idToken)\s*\(\s*(?:"([^"]+)"|'([^']+)')\s*\)$/;

/** Resolves templates for one request and collects the secret values it used. */
export class VariableResolver {
  /** Resolved values that must be masked wherever the exchange is shown. */
  readonly secretValues = new Set<string>();
  private readonly cache = new Map<string, string>();
  /** Values httpyac `{{ … }}` blocks exported for this request. */
  private readonly exported = new Map<string, string>();

  constructor(private readonly options: ResolverOptions) {}

  /** Substitutes every `{{…}}` in text (httpyac: then `\{\{x\}\}` becomes a literal `{{x}}`). */
  resolve(text: string): Promise<string> {
    // Most URLs, headers and bodies of a run hold no placeholder: nothing to substitute or check
    // (and no async function's promise and microtask for each).
    if (isPlain(text)) return Promise.resolve(text);
    return this.templateUnescaped(text);
  }

  /** What resolve() gives, at once, for a text with nothing to substitute; undefined for any other text. */
  resolveNow(text: string): string | undefined {
    return isPlain(text) ? text : undefined;
  }

  private async templateUnescaped(text: string): Promise<string> {
    const value = await this.template(text, []);
    if (!this.options.javascriptExpressions || !value.includes('\\{')) return value;
    return value.replace(/(?:\\\{){2}([^}]+?)(?:\\\}){2}/g, (_, name: string) => `{{${name}}}`);
  }

  /** The value of one variable name (as `{{name}}` would give). */
  variable(name: string): Promise<string> {
    return this.expression(name, []);
  }

  private async template(text: string, chain: string[]): Promise<string> {
    const value = await substitute(text, (expression) => this.expression(expression, chain));
    // Checked at every level, so `@a1={{a0}}{{a0}}` thirty deep stops at the limit, not at V8's string size.
    if (value.length > MAX_EXPANDED_LENGTH) throw this.tooLarge(chain, value.length);
    return value;
  }

  private tooLarge(chain: string[], length: number): DialError {
    const o = this.options;
    const what = chain.length ? `variable '${chain[chain.length - 1]}'` : 'the text';
    return new DialError(
      'E_VAR_TOO_LARGE',
      `${what} expands to more than ${MAX_EXPANDED_LENGTH / 1048576} Mi characters (${Math.round(length / 1048576)} Mi) in ${o.where}`,
      {
        location: (chain.length ? o.locate?.(chain[0]) : undefined) ?? o.location,
        hint:
          'a variable that repeats others grows exponentially; check the chain' +
          (chain.length > 1 ? ` ${chain.join(' -> ')}` : ''),
      },
    );
  }

  private secret(value: string): void {
    if (value) this.secretValues.add(value);
  }

  private async expression(expression: string, chain: string[]): Promise<string> {
    const o = this.options;
    if (!expression)
      throw new DialError('E_VAR_UNDEFINED', `empty {{}} in ${o.where}`, {
        location: o.location,
        hint: 'write {{name}}',
      });
    if (expression.startsWith('$auth.')) return this.auth(expression);
    // `{{$global.token}}`, `{{this.token}}`: JavaScript over httpyac's objects, not a dotted name.
    if (o.javascriptExpressions && (readsHttpyacGlobal(expression) || /^this\s*[.[]/.test(expression)))
      return this.javascript(expression, chain);
    const asked = o.javascriptExpressions ? HTTPYAC_PROMPT_RE.exec(expression) : null;
    if (asked) return this.httpyacPrompt(expression, asked);
    // httpyac `{{process.env.TOKEN}}`: the process environment, asked for by name (as {{$processEnv TOKEN}}).
    const processEnv = o.javascriptExpressions ? /^process\.env\.([A-Za-z_][\w]*)$/.exec(expression) : null;
    if (processEnv) return this.expression(`$processEnv ${processEnv[1]}`, chain);
    if (o.javascriptExpressions && HTTPYAC_XPATH_RE.test(expression)) return this.httpyacXpath(expression, chain);
    if (expression.startsWith('$')) {
      // httpyac's `{{$index}}` in a `# @loop` pass is a request variable, not a dynamic one.
      const own = o.requestVariables?.get(expression);
      if (own !== undefined) return own;
      return evaluateDynamic(expression, {
        processEnv: o.processEnv,
        dotenv: o.javascriptExpressions
          ? await this.httpyacDotenv(expression, chain)
          : o.dotenvNear && expression.startsWith('$dotenv')
            ? ((await o.dotenvNear()) ?? o.dotenv)
            : o.dotenv,
        variable: (name) => this.expression(name, chain),
        shared: async (name) => {
          const template = o.environment.shared?.get(name);
          return template === undefined ? undefined : this.template(template, [...chain, `$shared ${name}`]);
        },
        where: o.where,
        secret: (value) => this.secret(value),
      });
    }
    // REST Client `{{%name}}`: the variable's value, percent-encoded.
    if (expression.charCodeAt(0) === 37 /* % */ && /^%[\w.$-]+$/.test(expression))
      return encodeURIComponent(await this.expression(expression.slice(1), chain));
    const name = expression;
    const markSecret = (value: string): string => {
      if (o.secretNames.has(name)) this.secret(value);
      return value;
    };
    const cli = Object.hasOwn(o.cliVariables, name) ? o.cliVariables[name] : o.prompted?.get(name);
    if (cli !== undefined) return markSecret(cli);
    const scripted = o.requestVariables?.get(name) ?? this.exported.get(name);
    if (scripted !== undefined) {
      if (o.onPrecedence && o.environment.values.has(name) && o.requestVariables?.has(name))
        o.onPrecedence(name, 'request', scripted);
      return markSecret(scripted);
    }
    if (o.globals.has(name)) {
      const global = valueToText(o.globals.get(name));
      if (o.onPrecedence && o.environment.values.has(name)) o.onPrecedence(name, 'global', global);
      return markSecret(global);
    }
    const reference = o.reference ? parseReference(expression) : undefined;
    if (reference) {
      const value = await o.reference!(reference, expression);
      if (value !== undefined) return markSecret(value);
    }

    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    if (chain.includes(name)) {
      // `@token = {{token}}` (or `Bearer {{token}}`): a file variable naming itself stands for the
      // variable of that name below the file level (environment, .env), as JetBrains, httpyac and
      // kulala read it. REST Client leaves such a placeholder unresolved, so there it stays a cycle.
      const below = `${name} (environment)`;
      const selfReference = chain[chain.length - 1] === name && o.fileVariables.has(name);
      if (selfReference && o.selfReferenceBelowFile && !chain.includes(below)) {
        const value = await this.belowFileLevel(name, [...chain, below]);
        if (value !== undefined) return markSecret(value);
        throw await this.undefinedError(
          name,
          `the file variable '${name}' refers to itself, which means the '${name}' of the environment or .env; neither defines it`,
        );
      }
      throw new DialError(
        'E_VAR_CYCLE',
        `variable cycle: ${[...chain.slice(chain.indexOf(name)), name].join(' -> ')} (${o.where})`,
        {
          location: o.location,
          hint:
            selfReference && o.selfReferenceBelowFile === false
              ? `REST Client sends {{${name}}} unresolved here; define '${name}' once, or give the file variable another name`
              : 'a variable cannot depend on itself; break the chain',
        },
      );
    }
    let value: string | undefined;
    const template = o.fileVariables.get(name) ?? o.environment.values.get(name);
    const onceKey = o.fileVariables.has(name) ? o.onceKeys?.get(name) : undefined;
    if (onceKey !== undefined && o.onceValues?.has(onceKey)) {
      value = o.onceValues.get(onceKey);
    } else if (template !== undefined) {
      value = await this.template(template, [...chain, name]);
      if (onceKey !== undefined) o.onceValues?.set(onceKey, value);
      if (!o.fileVariables.has(name) && o.environment.secretNames.has(name)) this.secret(value);
      if (o.onPrecedence && o.fileVariables.has(name) && o.environment.values.has(name))
        o.onPrecedence(name, 'file', value);
    } else if (o.dotenv?.values.has(name)) {
      value = o.dotenv.values.get(name)!;
      this.secret(value);
    }
    const later = value === undefined ? o.laterFileVariables?.get(name) : undefined;
    if (later !== undefined) value = await this.template(later, [...chain, name]);
    if (value === undefined) value = await this.fromImplicitEnvironment(name, chain);
    if (value === undefined) value = await this.namedResponse(expression);
    // httpyac evaluates each `{{ expression }}` where it stands: two `{{Math.random()}}` are two draws.
    if (value === undefined && o.javascriptExpressions && !/^[\w.$-]+$/.test(expression))
      return markSecret(await this.javascript(expression, chain));
    // httpyac: `{{item.id}}` where `item` holds an object (a `# @loop` item, an export) is JavaScript too.
    if (value === undefined && o.javascriptExpressions && /^[A-Za-z_$][\w$]*\./.test(expression)) {
      const head = /^[A-Za-z_$][\w$]*/.exec(expression)![0];
      const lastResponse = head === 'response' && this.options.lastResponse?.() !== undefined;
      if (lastResponse || (await this.isDefined(head, chain))) value = await this.javascript(expression, chain);
    }
    // httpyac: `{{false}}`, `{{42}}` are JavaScript literals (a name defined nowhere).
    if (value === undefined && o.javascriptExpressions && LITERAL_TEXT_RE.test(expression)) value = expression;
    if (value === undefined) throw await this.undefinedError(name);
    // `{{counter.index++}}` gives a new value each time it is written.
    if (o.javascriptExpressions && mayChangeVariables(expression)) return markSecret(value);
    this.cache.set(name, markSecret(value));
    return value;
  }

  /**
   * httpyac `{{$xpath:name //path}}` (xpathVariableReplacer): the XPath over the XML of variable
   * `name` (a named request's response body, or text), or without a name over the last response's
   * body when it is XML: a node's text, several nodes' texts as a JSON list. Nothing selected is an
   * error here (httpyac would send the placeholder as written).
   */
  private async httpyacXpath(expression: string, chain: string[]): Promise<string> {
    const o = this.options;
    const [, name, path] = HTTPYAC_XPATH_RE.exec(expression)!;
    const fail = (why: string): DialError =>
      new DialError('E_VAR_UNDEFINED', `{{${expression}}}: ${why} (${o.where})`, {
        location: o.locate?.(expression) ?? o.location,
        hint: 'name the request whose XML answer to read: {{$xpath:name //path}}, with # @name name (and # @ref name) on it',
      });
    let xml: string | undefined;
    if (name) xml = await this.expression(name, chain);
    else {
      const last = o.lastResponse?.() as { body?: unknown; contentType?: { mimeType?: string } } | undefined;
      if (typeof last?.body === 'string' && /[/+]xml\b/.test(last.contentType?.mimeType ?? '')) xml = last.body;
    }
    if (xml === undefined) throw fail('there is no XML response to read');
    const { evaluateXPath, assertionValue } = await import('../xpath.js');
    let value: unknown;
    try {
      value = assertionValue(await evaluateXPath(xml, path));
    } catch (error) {
      throw fail(error instanceof Error ? error.message : String(error));
    }
    if (value === undefined || value === false || value === '') throw fail(`'${path}' selects nothing`);
    return typeof value === 'string'
      ? value
      : typeof value === 'number' || value === true
        ? String(value)
        : JSON.stringify(value);
  }

  /** `{{$auth.token("name")}}`: the token (masked from here on) of a `Security.Auth` configuration. */
  private async auth(expression: string): Promise<string> {
    const o = this.options;
    const location = o.locate?.(expression) ?? o.location;
    const match = AUTH_CALL.exec(expression);
    if (!match || !o.auth)
      throw new DialError('E_VAR_UNDEFINED', `unknown dynamic variable {{${expression}}} (${o.where})`, {
        location,
        hint: 'write {{$auth.token("name")}} or {{$auth.idToken("name")}}, name being a configuration of "Security": {"Auth": …} in the env file',
      });
    const { value, secrets } = await o.auth({
      kind: match[1] as 'token' | 'idToken',
      name: match[2] ?? match[3],
      raw: `{{${expression}}}`,
      location,
      where: o.where,
      environment: o.environment,
      resolve: (text) => this.template(text, []),
    });
    for (const secret of secrets) this.secret(secret);
    return value;
  }

  /** A name's value from below the file level: the selected environment, then the root `.env`, then kulala's default environment. */
  private async belowFileLevel(name: string, chain: string[]): Promise<string | undefined> {
    const o = this.options;
    const template = o.environment.values.get(name);
    if (template !== undefined) {
      const value = await this.template(template, chain);
      if (o.environment.secretNames.has(name)) this.secret(value);
      return value;
    }
    if (o.dotenv?.values.has(name)) {
      const value = o.dotenv.values.get(name)!;
      this.secret(value);
      return value;
    }
    return this.fromImplicitEnvironment(name, chain);
  }

  /** kulala's default environment when none is chosen (names defined nowhere else only). */
  private async fromImplicitEnvironment(name: string, chain: string[]): Promise<string | undefined> {
    const o = this.options;
    if (o.environment.name !== undefined || !o.implicitEnvironment) return undefined;
    const implicit = await o.implicitEnvironment();
    const template = implicit?.values.get(name);
    if (implicit?.name === undefined || template === undefined) return undefined;
    o.onImplicitEnvironment?.(implicit.name, name);
    const value = await this.template(template, [...chain, name]);
    if (implicit.secretNames.has(name)) this.secret(value);
    return value;
  }

  /**
   * httpyac: a named request's response body is a variable of that name (`{{login}}`,
   * `{{login.token}}`, `{{login.items[0].id}}`). Tried only for names defined nowhere else.
   */
  private async namedResponse(expression: string): Promise<string | undefined> {
    // httpyac's `<name>Response` is the whole response: `{{loginResponse.headers.location}}`.
    const headers = /^([\w-]+)Response\.headers\.([\w-]+)$/.exec(expression);
    if (headers && this.options.javascriptExpressions && this.options.reference) {
      const reference = parseReference(`${headers[1]}.response.headers.${headers[2]}`);
      if (reference) {
        const value = await this.options.reference(reference, expression).catch(() => undefined);
        if (value !== undefined) return value;
      }
    }
    // In a script block, `loginResponse` alone is that whole response object.
    const whole = /^([\w-]+)Response$/.exec(expression);
    if (whole && this.options.javascriptExpressions && this.options.reference) {
      const value = await this.options
        .reference({ name: whole[1], part: 'response', section: 'response', path: '*' }, expression)
        .catch(() => undefined);
      if (value !== undefined) return value;
    }
    const match = /^([\w-]+)(?:\.([\w$.[\]'"-]+))?$/.exec(expression);
    if (!match || !this.options.reference) return undefined;
    const reference: ReferenceExpression = {
      name: match[1],
      part: 'response',
      section: 'body',
      path: match[2] === undefined ? '*' : `$.${match[2]}`,
    };
    try {
      return await this.options.reference(reference, expression);
    } catch (error) {
      // `name` is no request either: report the undefined variable, not a missing request.
      if (
        error instanceof DialError &&
        error.code === 'E_VAR_UNDEFINED' &&
        error.message.startsWith(`{{${expression}}}: no request named`)
      )
        return undefined;
      throw error;
    }
  }

  /**
   * Runs httpyac `{{ … }}` blocks (in order); what they export becomes variables of this request
   * (script level) and run-wide globals (httpyac keeps them for the file's later requests).
   */
  async runScriptBlocks(
    blocks: ReadonlyArray<{ code: string; line: number }>,
    context: Omit<HttpyacBlockContext, 'globals'> = {},
    /** The file the blocks are written in, when not the request's own (an imported file). */
    file?: string,
  ): Promise<HttpyacBlockOutcome[]> {
    const outcomes: HttpyacBlockOutcome[] = [];
    let request = context.request;
    for (const block of blocks) {
      const outcome = await runHttpyacBlock(
        block.code,
        await this.scopeFor(block.code, []),
        { file: file ?? this.options.location?.file ?? this.options.fileLabel, line: block.line },
        { ...context, request, globals: this.options.globals },
      );
      // The next block sees what this one changed.
      if (request && outcome.request) request = outcome.request;
      for (const [name, value] of outcome.exported) {
        this.exported.set(name, value);
        this.cache.delete(name);
      }
      outcomes.push(outcome);
    }
    return outcomes;
  }

  private async isDefined(name: string, chain: string[]): Promise<boolean> {
    try {
      await this.expression(name, chain);
      return true;
    } catch (error) {
      if (error instanceof DialError && error.code === 'E_VAR_UNDEFINED') return false;
      throw error;
    }
  }

  /** httpyac: the value of a JavaScript expression over the variables (`# @loop for x of list`): parsed JSON, or the text. */
  async javascriptValue(expression: string): Promise<unknown> {
    const name = expression.trim();
    const text = /^[A-Za-z_$][\w$]*$/.test(name)
      ? await this.expression(name, [])
      : await this.javascript(expression, []);
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  /**
   * Evaluates an httpyac expression with each variable it names in scope (response bodies parsed as
   * JSON). What it changes in an object a script exported (`{{counter.index++}}`) is kept, as in
   * httpyac, where expressions work on the variables' own objects (`# @loop while counter.index < 3`).
   */
  private async javascript(expression: string, chain: string[]): Promise<string> {
    const changed = mayChangeVariables(expression) ? new Map<string, string>() : undefined;
    const value = await evaluateHttpyacExpression(
      expression,
      await this.scopeFor(expression, chain),
      this.options.location ?? { file: this.options.fileLabel, line: 1 },
      /\bresponse\b/.test(expression) ? this.options.lastResponse?.() : undefined,
      this.options.globals,
      changed,
    );
    for (const [name, text] of changed ?? []) {
      // Only the objects scripts exported live on between expressions; a copy of a file variable does not.
      if (!this.options.globals.has(name)) continue;
      this.options.globals.set(name, JSON.parse(text));
      if (this.exported.has(name)) this.exported.set(name, text);
      this.cache.delete(name);
    }
    return value;
  }

  /**
   * httpyac's prompts (showInputBoxVariableReplacer, showQuickpickVariableReplacer):
   * `{{$input label $value: default}}`, `{{$password label}}`, `{{$pick label $value: a,b}}`.
   * Asked when someone can answer; an empty answer takes the default. A run cannot ask: an error
   * at the line, before anything is sent.
   */
  private async httpyacPrompt(expression: string, match: RegExpExecArray): Promise<string> {
    const o = this.options;
    const [, kind, label, fallback] = match;
    if (!o.ask) {
      throw new DialError(
        'E_VAR_UNDEFINED',
        `{{${expression}}} asks for a value, and nobody can answer here (${o.where})`,
        {
          location: o.locate?.(expression) ?? o.location,
          hint: 'put it in a file variable (`@user = {{$input …}}`) and pass --var user=…, or send the request from a terminal',
        },
      );
    }
    const choices = kind.startsWith('pick') && fallback ? ` (one of ${fallback})` : '';
    const hint = !choices && fallback ? ` (empty: ${fallback})` : choices;
    const answer = await o.ask(label.trim(), `${kind.startsWith('password') ? 'hidden' : 'httpyac'} prompt${hint}`);
    const value = answer === '' && fallback !== undefined && !choices ? fallback.trim() : answer;
    if (kind.startsWith('password')) this.secret(value);
    return value;
  }

  /**
   * httpyac's `{{$dotenv NAME}}` (restClientVariableReplacer) reads any variable, not only `.env`:
   * for httpyac files a name `.env` lacks is looked up among the variables.
   */
  private async httpyacDotenv(expression: string, chain: string[]): Promise<Dotenv | undefined> {
    const o = this.options;
    const key = /^\$dotenv\s+([^\s%]\S*)\s*$/.exec(expression)?.[1];
    if (!key || o.dotenv?.values.has(key) || !(await this.isDefined(key, chain))) return o.dotenv;
    const values = new Map(o.dotenv?.values);
    values.set(key, await this.expression(key, chain));
    return { path: o.dotenv?.path ?? '', values };
  }

  /** The variables a piece of code names, resolved (JSON values parsed); names defined nowhere are left out. */
  private async scopeFor(code: string, chain: string[]): Promise<Record<string, unknown>> {
    const expression = code;
    const scope: Record<string, unknown> = {};
    // httpyac's `$index` in a `# @loop` pass: a number, in blocks and expressions alike.
    const index = code.includes('$index') ? this.options.requestVariables?.get('$index') : undefined;
    if (index !== undefined) scope.$index = Number(index);

    // httpyac's `this.name` / `` this[`name${$index}`] ``: variables too (see thisReads).
    const read = new Set([...expressionIdentifiers(expression), ...thisReads(code, index).names]);
    // A name is read once; the functions an exported value carries read more (added to `read` below).
    for (const name of read) {
      let text: string | undefined;
      try {
        text = await this.expression(name, [...chain, expression]);
      } catch (error) {
        if (error instanceof DialError && error.code === 'E_VAR_UNDEFINED') continue;
        throw error;
      }
      try {
        scope[name] = /^\s*[[{]/.test(text)
          ? JSON.parse(text)
          : LITERAL_TEXT_RE.test(text)
            ? await this.typedFileValue(name, text, chain)
            : text;
      } catch {
        scope[name] = text;
      }
      // An exported function is made again in this scope: the variables it reads come along.
      if (holdsFunction(scope[name])) for (const more of functionReads(scope[name])) read.add(more);
    }
    return scope;
  }

  /**
   * httpyac keeps the value of a variable whose whole text is one `{{expression}}` as the
   * expression gave it (parseHandlebarsString): `@callRequest = {{false}}` is the boolean false in a
   * later `!callRequest`, not the text "false". Asked only for a value that reads as a literal.
   */
  private async typedFileValue(name: string, text: string, chain: string[]): Promise<unknown> {
    const o = this.options;
    if (Object.hasOwn(o.cliVariables, name) || o.requestVariables?.has(name) || this.exported.has(name)) return text;
    const inner = /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(o.fileVariables.get(name)?.trim() ?? '')?.[1];
    if (!inner || inner.startsWith('$')) return text;
    if (LITERAL_TEXT_RE.test(inner)) return JSON.parse(inner) as unknown;
    if (/^[A-Za-z_][\w]*$/.test(inner)) {
      const exported = o.globals.get(inner);
      return exported !== undefined && typeof exported !== 'string' && !o.fileVariables.has(inner) ? exported : text;
    }
    return JSON.parse(await this.javascript(`JSON.stringify(${inner})`, [...chain, name])) as unknown;
  }

  private async undefinedError(name: string, why?: string): Promise<DialError> {
    const o = this.options;
    const env = o.environment;
    const places = [
      '--var',
      'script variables',
      `file variables of ${o.fileLabel}`,
      env.name
        ? `environment '${env.name}'${env.files.length ? ` (${env.files.join(', ')})` : ''}`
        : `$shared of ${env.files.length ? env.files.join(', ') : 'env files (none found)'}`,
      o.dotenv ? o.dotenv.path : '.env (none in the workspace root)',
    ];
    if (!why && env.unreadVariableHook)
      why = `the httpyac config's hook at ${env.unreadVariableHook} may provide it, and dial does not run JavaScript configs; pass --var ${name}=…`;
    let hint = `${why ? `${why}. ` : ''}looked in: ${places.join('; ')}. The process environment is read only explicitly: {{$processEnv ${name}}}`;
    const near = o.dotenvNear ? await o.dotenvNear() : undefined;
    if (near && near.path !== o.dotenv?.path && near.values.has(name))
      hint = `'${name}' is defined in ${near.path}, beside the file: dial reads that .env for {{$dotenv ${name}}} and in the rest.nvim dialect (add \`# @dialect rest.nvim\` to a rest.nvim file). ${hint}`;
    const elsewhere = env.name === undefined && o.definedIn ? await o.definedIn(name) : [];
    if (elsewhere.length)
      hint = `'${name}' is defined in environment ${elsewhere.map((e) => `'${e}'`).join(', ')}: select one with -e ${elsewhere[0]}. ${hint}`;
    return new DialError('E_VAR_UNDEFINED', `variable '${name}' is not defined (${o.where})`, {
      location: o.locate?.(name) ?? o.location,
      hint,
    });
  }
}
