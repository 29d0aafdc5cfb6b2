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
import { substitute } from './template.js';
import { evaluateDynamic } from './dynamic.js';
import { parseReference, type ReferenceExpression } from './references.js';
import { valueToText } from './jsonpath.js';
import { evaluateHttpyacExpression, expressionIdentifiers, runHttpyacBlock } from './httpyac-js.js';

/** The longest text one expansion may produce (16 Mi characters). */
export const MAX_EXPANDED_LENGTH = 16 * 1024 * 1024;

export interface ResolverOptions {
  cliVariables: Record<string, string>;
  /** Values answered at `# @prompt` (level 1). */
  prompted?: Map<string, string>;
  /** `request.variables.set` values of a pre-request script (level 2). */
  requestVariables?: Map<string, string>;
  globals: Map<string, unknown>;
  /** File variables visible at the request; the last declaration of a name wins. */
  fileVariables: Map<string, string>;
  environment: ResolvedEnvironment;
  dotenv?: Dotenv;
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
  /** Environments that define a name (for the "select an environment" hint). */
  definedIn?: (name: string) => Promise<string[]>;
}

/** Resolves templates for one request and collects the secret values it used. */
export class VariableResolver {
  /** Resolved values that must be masked wherever the exchange is shown. */
  readonly secretValues = new Set<string>();
  private readonly cache = new Map<string, string>();
  /** Values httpyac `{{ … }}` blocks exported for this request. */
  private readonly exported = new Map<string, string>();

  constructor(private readonly options: ResolverOptions) {}

  /** Substitutes every `{{…}}` in text. */
  resolve(text: string): Promise<string> {
    // Most URLs, headers and bodies of a run hold no placeholder: nothing to substitute or check.
    if (text.length <= MAX_EXPANDED_LENGTH && !text.includes('{{')) return Promise.resolve(text);
    return this.template(text, []);
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
    if (expression.startsWith('$')) {
      return evaluateDynamic(expression, {
        processEnv: o.processEnv,
        dotenv: o.dotenv,
        variable: (name) => this.expression(name, chain),
        where: o.where,
        secret: (value) => this.secret(value),
      });
    }
    const name = expression;
    const markSecret = (value: string): string => {
      if (o.secretNames.has(name)) this.secret(value);
      return value;
    };
    const cli = Object.hasOwn(o.cliVariables, name) ? o.cliVariables[name] : o.prompted?.get(name);
    if (cli !== undefined) return markSecret(cli);
    const scripted = o.requestVariables?.get(name) ?? this.exported.get(name);
    if (scripted !== undefined) return markSecret(scripted);
    if (o.globals.has(name)) return markSecret(valueToText(o.globals.get(name)));
    const reference = o.reference ? parseReference(expression) : undefined;
    if (reference) {
      const value = await o.reference!(reference, expression);
      if (value !== undefined) return markSecret(value);
    }

    const cached = this.cache.get(name);
    if (cached !== undefined) return cached;
    if (chain.includes(name)) {
      throw new DialError(
        'E_VAR_CYCLE',
        `variable cycle: ${[...chain.slice(chain.indexOf(name)), name].join(' -> ')} (${o.where})`,
        {
          location: o.location,
          hint: 'a variable cannot depend on itself; break the chain',
        },
      );
    }
    let value: string | undefined;
    const template = o.fileVariables.get(name) ?? o.environment.values.get(name);
    if (template !== undefined) {
      value = await this.template(template, [...chain, name]);
      if (!o.fileVariables.has(name) && o.environment.secretNames.has(name)) this.secret(value);
    } else if (o.dotenv?.values.has(name)) {
      value = o.dotenv.values.get(name)!;
      this.secret(value);
    }
    if (value === undefined) value = await this.namedResponse(expression);
    if (value === undefined && o.javascriptExpressions && !/^[\w.$-]+$/.test(expression))
      value = await this.javascript(expression, chain);
    if (value === undefined) throw await this.undefinedError(name);
    this.cache.set(name, markSecret(value));
    return value;
  }

  /**
   * httpyac: a named request's response body is a variable of that name (`{{login}}`,
   * `{{login.token}}`, `{{login.items[0].id}}`). Tried only for names defined nowhere else.
   */
  private async namedResponse(expression: string): Promise<string | undefined> {
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

  /** Runs httpyac `{{ … }}` blocks (in order); what they export becomes variables of this request (script level). */
  async runScriptBlocks(blocks: ReadonlyArray<{ code: string; line: number }>): Promise<void> {
    for (const block of blocks) {
      const exported = await runHttpyacBlock(block.code, await this.scopeFor(block.code, []), {
        file: this.options.location?.file ?? this.options.fileLabel,
        line: block.line,
      });
      for (const [name, value] of exported) this.exported.set(name, value);
    }
  }

  /** Evaluates an httpyac expression with each variable it names in scope (response bodies parsed as JSON). */
  private async javascript(expression: string, chain: string[]): Promise<string> {
    return evaluateHttpyacExpression(
      expression,
      await this.scopeFor(expression, chain),
      this.options.location ?? { file: this.options.fileLabel, line: 1 },
    );
  }

  /** The variables a piece of code names, resolved (JSON values parsed); names defined nowhere are left out. */
  private async scopeFor(code: string, chain: string[]): Promise<Record<string, unknown>> {
    const expression = code;
    const scope: Record<string, unknown> = {};
    for (const name of expressionIdentifiers(expression)) {
      let text: string | undefined;
      try {
        text = await this.expression(name, [...chain, expression]);
      } catch (error) {
        if (error instanceof DialError && error.code === 'E_VAR_UNDEFINED') continue;
        throw error;
      }
      try {
        scope[name] = /^\s*[[{]/.test(text) ? JSON.parse(text) : text;
      } catch {
        scope[name] = text;
      }
    }
    return scope;
  }

  private async undefinedError(name: string): Promise<DialError> {
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
    let hint = `looked in: ${places.join('; ')}. The process environment is read only explicitly: {{$processEnv ${name}}}`;
    const elsewhere = env.name === undefined && o.definedIn ? await o.definedIn(name) : [];
    if (elsewhere.length)
      hint = `'${name}' is defined in environment ${elsewhere.map((e) => `'${e}'`).join(', ')}: select one with -e ${elsewhere[0]}. ${hint}`;
    return new DialError('E_VAR_UNDEFINED', `variable '${name}' is not defined (${o.where})`, {
      location: o.locate?.(name) ?? o.location,
      hint,
    });
  }
}
