/**
 * JetBrains and kulala `import` and `run` lines (docs/http-format.md, "Running other requests"):
 *
 *   import ./auth.http                      the requests of auth.http can be run by name
 *   run #Login                              runs the request named Login (this file or an imported one)
 *   run #Login (@host=example.com, @u=ann)  … with these variables
 *   run ./other.http                        runs every request of other.http
 *   run ./other.http#Login                  runs one of them
 *
 * Pure text parsing; core/workspace finds and runs the targets.
 */
import type { RunLineNode } from './types.js';

const RUN_LINE_RE = /^run[ \t]+(\S.*)$/;
const IMPORT_LINE_RE = /^import[ \t]+(\S.*)$/;
/** The trailing `(@a=1, @b=2)` of a run line. */
const OVERRIDES_RE = /[ \t]*\((\s*@[^()]*)\)[ \t]*$/;

export function isRunLine(t: string): boolean {
  return RUN_LINE_RE.test(t);
}

export function isImportLine(t: string): boolean {
  return IMPORT_LINE_RE.test(t);
}

/** The path of an `import` line (quotes dropped). */
export function importPath(t: string): string {
  return unquote(IMPORT_LINE_RE.exec(t)![1].trim());
}

function unquote(text: string): string {
  return /^(["']).*\1$/.test(text) ? text.slice(1, -1) : text;
}

/** A `run` line's target and variables; a string says what is wrong with it. */
export function parseRunLine(t: string): Omit<RunLineNode, 'span'> | string {
  let target = RUN_LINE_RE.exec(t)![1].trim();
  const variables: RunLineNode['variables'] = [];
  const overrides = OVERRIDES_RE.exec(target);
  if (overrides) {
    target = target.slice(0, overrides.index).trim();
    for (const pair of overrides[1].split(',')) {
      const match = /^\s*@([A-Za-z_$][\w.$-]*)\s*=\s*(.*?)\s*$/.exec(pair);
      if (!match) return `bad variable '${pair.trim()}' (write \`(@name=value, @other=value)\`)`;
      variables.push({ name: match[1], value: unquote(match[2]) });
    }
  }
  if (target.startsWith('#')) {
    const name = target.slice(1).trim();
    return name ? { name, variables } : 'the request name after `#` is missing';
  }
  const hash = target.search(/\.(?:http|rest)#/i);
  if (hash >= 0) {
    const split = target.indexOf('#', hash);
    const name = target.slice(split + 1).trim();
    return name ? { path: unquote(target.slice(0, split)), name, variables } : 'the request name after `#` is missing';
  }
  if (!/\.(?:http|rest)$/i.test(unquote(target)))
    return 'a run line names a request (`run #name`) or a .http file (`run ./file.http`)';
  return { path: unquote(target), variables };
}
