/**
 * The environment files an import writes (docs/http-format.md, variables; JetBrains shape):
 * `http-client.env.json` for plain values and `http-client.private.env.json` for secrets,
 * each `{ "$shared": {…}, "<env>": {…} }`.
 */
import { parseJsonText } from '../env/json-file.js';
import { DialError, isDialError } from '../errors.js';
import type { EnvMerge, ImportedFile } from './import-result.js';
import { isObject } from '../json-object.js';

export type { EnvMerge } from './import-result.js';

/** Variable names that look like secrets go to the private file. */
export const SECRET_NAME = /token|secret|password|apikey|api_key|key/i;

/** The JetBrains environment that applies to every environment. */
export const SHARED = '$shared';

type EnvMap = Map<string, Map<string, string>>;

/** Collects variables per environment, split into plain and secret. */
export class EnvFiles {
  private readonly plain: EnvMap = new Map();
  private readonly secret: EnvMap = new Map();

  /** Sets a variable; `secret` defaults to what its name suggests. */
  set(environment: string, name: string, value: string, secret = SECRET_NAME.test(name)): void {
    const target = secret ? this.secret : this.plain;
    const other = secret ? this.plain : this.secret;
    other.get(environment)?.delete(name);
    if (!target.has(environment)) target.set(environment, new Map());
    target.get(environment)!.set(name, value);
  }

  /** The value of a variable in an environment, if set. */
  get(environment: string, name: string): string | undefined {
    return this.plain.get(environment)?.get(name) ?? this.secret.get(environment)?.get(name);
  }

  /** True when any environment defines the name. */
  defines(name: string): boolean {
    for (const map of [this.plain, this.secret]) for (const env of map.values()) if (env.has(name)) return true;
    return false;
  }

  /** Environment names (without $shared). */
  environments(): string[] {
    const names = new Set<string>();
    for (const map of [this.plain, this.secret])
      for (const [name, env] of map) if (name !== SHARED && env.size > 0) names.add(name);
    return [...names];
  }

  /** The files to write (only those with content). */
  files(): ImportedFile[] {
    const render = (map: EnvMap): string | undefined => {
      const out: Record<string, Record<string, string>> = {};
      // $shared first, then the environments in the order they were added.
      const names = [...map.keys()].sort((a, b) => (a === SHARED ? -1 : b === SHARED ? 1 : 0));
      for (const name of names) {
        const env = map.get(name)!;
        if (env.size > 0) out[name] = Object.fromEntries(env);
      }
      return Object.keys(out).length > 0 ? `${JSON.stringify(out, null, 2)}\n` : undefined;
    };
    const describe = (map: EnvMap): string => {
      const envs = [...map.entries()].filter(([, env]) => env.size > 0);
      const count = envs.reduce((sum, [, env]) => sum + env.size, 0);
      const named = envs.filter(([name]) => name !== SHARED).length;
      return `${count} variable${count === 1 ? '' : 's'}${named > 0 ? `, ${named} environment${named === 1 ? '' : 's'}` : ''}`;
    };
    const files: ImportedFile[] = [];
    const plain = render(this.plain);
    if (plain)
      files.push({ path: 'http-client.env.json', content: plain, description: describe(this.plain), merge: 'env' });
    const secret = render(this.secret);
    if (secret)
      files.push({
        path: 'http-client.private.env.json',
        content: secret,
        description: `${describe(this.secret)}, secret`,
        mode: 0o600,
        merge: 'env',
      });
    return files;
  }
}

const REFERENCE = /\{\{\s*([^{}\s]+)(?:\s[^{}]*)?\s*\}\}/g;

/** The `{{name}}` variables a text uses, without dynamic ones ($uuid…) and request references (a.response…). */
export function referencedVariables(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(REFERENCE)) {
    const name = match[1];
    if (name.startsWith('$') || /\.(response|request)\./.test(name)) continue;
    names.add(name);
  }
  return [...names];
}

type EnvObject = Record<string, Record<string, unknown>>;

/**
 * Merges imported environments (`imported`, as EnvFiles renders them) into an existing env
 * file's text: new environments and new variables are added, a variable the file already has
 * keeps its value. The file's indentation, line endings and BOM are kept. `file` and `shown`
 * name it in errors (an unreadable file stops the import: nothing is written).
 */
export function mergeEnvFile(existingText: string, imported: string, file: string, shown: string): EnvMerge {
  let existing: unknown;
  try {
    existing = parseJsonText(existingText, file, 'E_ENV');
  } catch (error) {
    if (!isDialError(error)) throw error;
    throw new DialError(
      'E_ENV',
      `cannot add the imported variables to ${shown}: ${error.message}; nothing was written`,
      {
        location: error.location,
        hint: 'fix the file, or move it away and import again',
        cause: error,
      },
    );
  }
  const bad = !isObject(existing) ? '(top level)' : Object.keys(existing).find((name) => !isObject(existing[name]));
  if (bad !== undefined) {
    throw new DialError(
      'E_ENV',
      `cannot add the imported variables to ${shown}: ${bad === '(top level)' ? 'it is not' : `'${bad}' is not`} an object of variables; nothing was written`,
      {
        location: { file, line: 1 },
        hint: 'env files look like {"dev": {"host": "…"}}; fix the file, or move it away and import again',
      },
    );
  }
  const merged = structuredClone(existing) as EnvObject;
  const added: string[] = [];
  const kept: string[] = [];
  const differing: string[] = [];
  // defineProperty: a name like __proto__ stays a plain key.
  const define = (target: object, key: string, value: unknown): void => {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  };
  for (const [envName, variables] of Object.entries(JSON.parse(imported) as EnvObject)) {
    if (!Object.hasOwn(merged, envName)) define(merged, envName, {});
    for (const [name, value] of Object.entries(variables)) {
      const key = `${envName}.${name}`;
      if (Object.hasOwn(merged[envName], name)) {
        kept.push(key);
        if (JSON.stringify(merged[envName][name]) !== JSON.stringify(value)) differing.push(key);
      } else {
        define(merged[envName], name, value);
        added.push(key);
      }
    }
  }
  if (added.length === 0) return { added, kept, differing };
  const indent = /^([ \t]+)\S/m.exec(existingText)?.[1] ?? '  ';
  const newline = existingText.includes('\r\n') ? '\r\n' : '\n';
  const bom = existingText.startsWith('\uFEFF') ? '\uFEFF' : '';
  const text = JSON.stringify(merged, null, indent).replace(/\n/g, newline);
  return { content: `${bom}${text}${/\n\s*$/.test(existingText) ? newline : ''}`, added, kept, differing };
}
