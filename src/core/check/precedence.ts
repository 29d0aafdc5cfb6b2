/**
 * `dial check`: in a JetBrains-dialect file, names the file sets (`@name = …`, a literal-name
 * `client.global.set` / `request.variables.set`) that an environment defines with another value.
 * dial's order takes the file's value; JetBrains' documentation ranks the environment first.
 * Warnings, once per name and file (core/vars/precedence.ts holds the messages).
 */
import type { HttpFile } from '../httpfile/types.js';
import { lineColAt } from '../env/json-file.js';
import { firstUse, inFileConflictMessage, scriptSetSites, shownPath, type InFileSetter } from '../vars/precedence.js';
import type { EnvironmentValues } from './variables.js';
import type { Finding } from './types.js';

type Report = (offset: number, rule: Finding['rule'], message: string, severity?: Finding['severity']) => void;

/** Where a name is set in the file: its setter, offset and the value when known without running. */
interface Definition {
  setter: InFileSetter;
  offset: number;
  /** Undefined: computed by the script at run time. */
  value?: string;
}

/** Whether `value` (undefined = unknown until run) may differ from the environment's `envValue`. */
function differs(envValue: string, value: string | undefined): boolean {
  return value === undefined || envValue !== value;
}

/** Offset of a 1-based line's start. */
function lineOffset(text: string, line: number): number {
  let offset = 0;
  for (let n = 1; n < line && offset >= 0; n++) offset = text.indexOf('\n', offset) + 1 || -1;
  return Math.max(0, offset);
}

/**
 * Reports the conflicts of one file against the environments checked. `base`: the folder paths
 * are shown relative to.
 */
export function checkPrecedence(
  file: HttpFile,
  environments: EnvironmentValues[],
  base: string,
  report: Report,
  /** `--var` names: they win in every order. */
  cliVariables: Record<string, string> = {},
): void {
  if (file.dialect !== 'jetbrains') return;
  const definitions = new Map<string, Definition[]>();
  for (const variable of file.variables)
    definitions.set(variable.name, [
      ...(definitions.get(variable.name) ?? []),
      { setter: '@name', offset: variable.span.start, value: variable.value },
    ]);
  for (const site of scriptSetSites(file))
    definitions.set(site.name, [
      ...(definitions.get(site.name) ?? []),
      { setter: site.setter, offset: lineOffset(file.text, site.line), value: site.literal },
    ]);
  /** Names whose in-file value some `{{name}}` reads (they hide the environment in dial's order). */
  const shadowing = new Set<string>();
  for (const [name, all] of definitions) {
    if (Object.hasOwn(cliVariables, name)) continue;
    // Only what a later `{{name}}` reads: dial reads a declaration below every use only for a name
    // defined nowhere else (REST Client's reading), so the environment wins there in both orders.
    const defined = all.filter((definition) => firstUse(file, name, definition.offset + 1) >= 0);
    if (defined.length === 0) continue;
    shadowing.add(name);
    let first: { definition: Definition; environment: EnvironmentValues } | undefined;
    const others: string[] = [];
    for (const environment of environments) {
      const envValue = environment.values.get(name);
      if (envValue === undefined) continue;
      const definition = defined.find((candidate) => differs(envValue, candidate.value));
      if (!definition) continue;
      if (first) others.push(environment.name ?? '$shared');
      else first = { definition, environment };
    }
    if (!first) continue;
    const { definition, environment } = first;
    const { message, hint } = inFileConflictMessage({
      name,
      setter: definition.setter,
      environment: environment.name,
      envFile: shownPath(environment.sources?.get(name) ?? '', base),
      envValue: environment.values.get(name)!,
      secret: environment.secretNames?.has(name) ?? false,
    });
    const also = others.length
      ? ` (also environment${others.length > 1 ? 's' : ''} ${others.map((n) => `'${n}'`).join(', ')})`
      : '';
    const lines = defined
      .filter((other) => other !== definition)
      .map((other) => lineColAt(file.text, other.offset).line);
    const elsewhere = lines.length ? ` (set again at line${lines.length > 1 ? 's' : ''} ${lines.join(', ')})` : '';
    report(definition.offset, 'precedence', `${message}${also}${elsewhere}; ${hint}`, 'warning');
  }
}
