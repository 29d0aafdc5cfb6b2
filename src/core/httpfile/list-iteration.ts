/**
 * JetBrains' collections in per-request variables: a pre-request script that sets a list,
 * `request.variables.set("ids", [101, 102, 103])`, makes the HTTP Client send the request once per
 * item, in order, its handlers run after each (`request.iteration()` is the 0-based pass,
 * `request.variables.get("ids")` the whole list). In each pass:
 *
 * - `{{ids}}` is the item (a string as is, anything else as JSON);
 * - `{{$.ids..name}}` (or `{{$.ids[*].name}}`, then `.more.fields`) is that field of the item.
 *
 * What dial does not know the HTTP Client's answer to is refused at the placeholder's line,
 * never guessed: another way of reading the list (`{{ids[0]}}`, `{{$.ids[0].id}}`), two lists in
 * one request (pairs or every combination?), a `..name` that finds the name more than once in an
 * item, a body file that fills in variables (its placeholders are not looked at up front).
 */
import { DialError } from '../errors.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import { findPlaceholders } from './placeholders.js';

/** `$.list..a.b` or `$.list[*].a.b`: the list, how the first field is found, the fields. */
const FIELD_RE = /^\$\.([\w-]+)(\.\.|\[\*\]\.)([\w-]+(?:\.[\w-]+)*)$/;

interface Use {
  expression: string;
  line: number;
}

/** Every placeholder of the request (target, headers, inline body) with its line. */
function placeholders(node: RequestNode): Use[] {
  const uses: Use[] = [];
  for (const placeholder of findPlaceholders(node.url))
    uses.push({ expression: placeholder.expression, line: node.requestLineSpan.line });
  for (const header of node.headers)
    for (const placeholder of findPlaceholders(`${header.name}: ${header.value}`))
      uses.push({ expression: placeholder.expression, line: header.span.line });
  const body = node.body;
  if (body?.kind === 'inline') {
    for (const placeholder of findPlaceholders(body.text)) {
      const before = body.text.slice(0, placeholder.start);
      uses.push({ expression: placeholder.expression, line: body.span.line + (before.match(/\n/g)?.length ?? 0) });
    }
  }
  return uses;
}

/** The list a placeholder reads, if any: as a whole item, a field of the item, or some other way (refused). */
function listOf(
  expression: string,
  names: Set<string>,
): { name: string; fields?: string[]; deep?: boolean } | 'other' | undefined {
  if (names.has(expression)) return { name: expression };
  const field = FIELD_RE.exec(expression);
  if (field && names.has(field[1])) return { name: field[1], fields: field[3].split('.'), deep: field[2] === '..' };
  const root = /^(?:\$\.)?([\w-]+)/.exec(expression)?.[1];
  return root !== undefined && names.has(root) ? 'other' : undefined;
}

function refuse(file: HttpFile, line: number, message: string, hint: string): never {
  throw new DialError('E_INPUT', message, { location: { file: file.path || '<text>', line }, hint });
}

/**
 * Checks how a request reads the lists named `names` (before anything is sent when the names are
 * written in the script, again when the script has run); answers the placeholders that iterate.
 */
export function checkListUses(
  file: HttpFile,
  node: RequestNode,
  names: Set<string>,
): Array<Use & { name: string; fields?: string[]; deep?: boolean }> {
  const uses: Array<Use & { name: string; fields?: string[]; deep?: boolean }> = [];
  for (const use of placeholders(node)) {
    const list = listOf(use.expression, names);
    if (list === undefined) continue;
    if (list === 'other')
      refuse(
        file,
        use.line,
        `{{${use.expression}}} reads a list variable in a way dial does not send once per item`,
        'write {{name}} for the item, or {{$.name..field}} for a field of each item',
      );
    uses.push({ ...use, ...list });
  }
  const lists = new Set(uses.map((use) => use.name));
  if (lists.size > 1)
    refuse(
      file,
      uses.find((use) => use.name !== uses[0].name)!.line,
      `this request iterates over two lists (${[...lists].join(', ')}); how the HTTP Client pairs them is not settled`,
      'put the values in one list of objects and read them as {{$.list..field}}',
    );
  if (uses.length > 0 && node.body?.kind === 'file' && node.body.substitute)
    refuse(
      file,
      node.body.span.line,
      'a request sent once per list item cannot fill variables into a body file',
      'write the body inline, or read the item in the file through another variable set per pass',
    );
  return uses;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** How often `key` is a property name anywhere in `value` (JSONPath `..key` finds each). */
function occurrences(value: unknown, key: string): number {
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  for (const [name, child] of Object.entries(value as Record<string, unknown>)) {
    if (name === key && !Array.isArray(value)) count++;
    count += occurrences(child, key);
  }
  return count;
}

/**
 * The request variables of each pass of a request whose pre-request script set lists, or
 * undefined when no placeholder of the request reads one (then it is sent once).
 */
export function listPasses(
  file: HttpFile,
  node: RequestNode,
  lists: Map<string, unknown[]>,
): Array<Map<string, string>> | undefined {
  const uses = checkListUses(file, node, new Set(lists.keys()));
  if (uses.length === 0) return undefined;
  const items = lists.get(uses[0].name)!;
  return items.map((item, index) => {
    const pass = new Map<string, string>();
    for (const use of uses) {
      let value: unknown = item;
      if (use.fields) {
        if (use.deep && occurrences(item, use.fields[0]) !== 1)
          refuse(
            file,
            use.line,
            `{{${use.expression}}}: item ${index} of '${use.name}' has '${use.fields[0]}' ${occurrences(item, use.fields[0]) === 0 ? 'nowhere' : 'more than once (at several depths)'}`,
            `write {{$.${use.name}[*].${use.fields.join('.')}}} for the field of each item itself`,
          );
        for (const field of use.fields)
          value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
        if (value === undefined)
          refuse(
            file,
            use.line,
            `{{${use.expression}}}: item ${index} of '${use.name}' has no ${use.fields.join('.')}`,
            'give every item the field, or send the items without it in another request',
          );
      }
      pass.set(use.expression, text(value));
    }
    return pass;
  });
}

/** The names a request's inline pre-request scripts give a literal list (`request.variables.set("ids", [`). */
export function literalListNames(node: RequestNode): Set<string> {
  const names = new Set<string>();
  for (const script of node.preScripts)
    if (script.kind === 'inline')
      for (const match of script.code.matchAll(/\brequest\.variables\.set\s*\(\s*(['"`])([\w-]+)\1\s*,\s*\[/g))
        names.add(match[2]);
  return names;
}
