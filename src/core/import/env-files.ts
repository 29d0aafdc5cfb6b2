/**
 * The environment files an import writes (HTTP-FORMAT.md §Variables, JetBrains shape):
 * `http-client.env.json` for plain values and `http-client.private.env.json` for secrets,
 * each `{ "$shared": {…}, "<env>": {…} }`.
 */
import type { ImportedFile } from './output.js';

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
    for (const map of [this.plain, this.secret]) for (const [name, env] of map) if (name !== SHARED && env.size > 0) names.add(name);
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
    if (plain) files.push({ path: 'http-client.env.json', content: plain, description: describe(this.plain) });
    const secret = render(this.secret);
    if (secret) files.push({ path: 'http-client.private.env.json', content: secret, description: `${describe(this.secret)}, secret`, mode: 0o600 });
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
