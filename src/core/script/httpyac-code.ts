/**
 * What the text of an httpyac block or expression says before it runs: its `this[…]` reads and
 * its `$httpyac` calls. Read by the script sandbox (to refuse before sending) and by the
 * variable resolver (core/vars/httpyac-js.ts).
 */

/**
 * httpyac runs a block and an expression with `this` bound to its variables object, so
 * `this.token` and `this['token']` read the variable `token` (undefined when there is none), and
 * `` this[`name${$index}`] `` a loop pass's own response. The names such reads give; `index` is
 * the loop pass's `$index`, when there is one. A key computed any other way is `computed`.
 */
export function thisReads(code: string, index?: string): { names: string[]; computed?: number } {
  if (!/\bthis\b/.test(code)) return { names: [] };
  const names = new Set<string>();
  let computed: number | undefined;
  const plain = code.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => ' '.repeat(comment.length));
  for (const match of plain.matchAll(THIS_READ_RE)) {
    const [, dotted, single, double, template, other] = match;
    const name = dotted ?? single ?? double;
    if (name !== undefined) names.add(name);
    else if (template !== undefined && /^[\w$]*(?:\$\{\s*\$index\s*\}[\w$]*)*$/.test(template))
      names.add(template.replace(/\$\{\s*\$index\s*\}/g, index ?? 'undefined'));
    else if (other !== undefined || template !== undefined) computed ??= match.index;
  }
  return computed === undefined ? { names: [...names] } : { names: [...names], computed };
}
const THIS_READ_RE =
  /(?<![\w$]|(?<!\.\.)\.)this\s*(?:\.\s*([A-Za-z_$][\w$]*)|\[\s*(?:'([^'\\\n]*)'|"([^"\\\n]*)"|`([^`\\]*)`|([^\]\s][^\]]*))\s*\])/g;

/** The line (from `firstLine`) of a block's `this[…]` with a key dial cannot tell before running it. */
export function computedThisLine(code: string, firstLine: number): number | undefined {
  const at = thisReads(code, '0').computed;
  return at === undefined ? undefined : firstLine + (code.slice(0, at).match(/\n/g)?.length ?? 0);
}

/** `$httpyac.execute('name')`: the one call of httpyac's JS API dial runs (see httpyacApiUse). */
const EXECUTE_RE = /\$httpyac\s*\.\s*execute\s*\(\s*(['"])([^'"\n\\]+)\1\s*\)/g;

/** The requests a block before the request runs with `$httpyac.execute('name')` (dial runs them first, as `# @forceRef`). */
export function httpyacExecuteNames(code: string): string[] {
  if (!code.includes('$httpyac')) return [];
  return [...code.matchAll(EXECUTE_RE)].map((match) => match[2]);
}

/**
 * Where a block uses httpyac's `$httpyac` API in a way dial does not run: anything but
 * `$httpyac.execute('name')` with a literal name in a block before the request (`before`). The
 * offset of the first such use, or undefined.
 */
export function unsupportedHttpyacApi(code: string, before: boolean): number | undefined {
  if (!code.includes('$httpyac')) return undefined;
  const plain = code
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g, (comment) => ' '.repeat(comment.length))
    .replace(before ? EXECUTE_RE : /(?!)/g, (call) => ' '.repeat(call.length));
  const at = plain.search(/\$httpyac\b/);
  return at < 0 ? undefined : at;
}
