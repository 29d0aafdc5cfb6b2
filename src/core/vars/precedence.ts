/**
 * Where dial's variable order and JetBrains' documented one part (docs/http-format.md,
 * "Variables"). dial takes a value set in the file (`@name = …`, `client.global.set`,
 * `request.variables.set`) over the selected environment, and a private env file's value over a
 * public one; JetBrains' documentation lists environment variables first (public over private),
 * then globals, in-place and per-request variables. dial keeps its order (the format spec's), but
 * in a JetBrains-dialect file says so when the values differ: these are the messages, shared by
 * `dial check` (findings) and `dial run` / `dial send` (warnings on stderr).
 */
import { relative } from 'node:path';
import type { HttpFile } from '../httpfile/types.js';

/** How a file sets a name that the environment also defines. */
export type InFileSetter = '@name' | 'client.global.set' | 'request.variables.set';

/** One literal-name `client.global.set('name', …)` / `request.variables.set('name', …)` of an inline script. */
export interface ScriptSetSite {
  name: string;
  setter: Exclude<InFileSetter, '@name'>;
  /** 1-based line of the call in the `.http` file. */
  line: number;
  /** The value when the call's second argument is a plain string literal; undefined when computed at run time. */
  literal?: string;
}

const SET_CALL_RE =
  /\b(client\s*\.\s*global|request\s*\.\s*variables)\s*\.\s*set\s*\(\s*(["'`])([\w.-]+)\2\s*,\s*(?:(["'])((?:(?!\4)[^\\\n])*)\4\s*\)|)/g;

/** The literal-name set calls of a file's inline scripts, in file order. */
export function scriptSetSites(file: HttpFile): ScriptSetSite[] {
  const sites: ScriptSetSite[] = [];
  for (const node of file.requests) {
    for (const script of [...node.preScripts, ...node.handlers]) {
      if (script.kind !== 'inline' || !script.code.includes('.set')) continue;
      for (const match of script.code.matchAll(SET_CALL_RE)) {
        const before = script.code.slice(0, match.index);
        let newlines = 0;
        for (let at = before.indexOf('\n'); at >= 0; at = before.indexOf('\n', at + 1)) newlines++;
        sites.push({
          name: match[3],
          setter: match[1].startsWith('client') ? 'client.global.set' : 'request.variables.set',
          line: script.span.line + newlines,
          ...(match[4] !== undefined && { literal: match[5] }),
        });
      }
    }
  }
  return sites.sort((a, b) => a.line - b.line);
}

/**
 * The offset of the first `{{name}}` the file writes (a request, a file variable, a body) at or
 * after `from`, or -1.
 */
export function firstUse(file: HttpFile, name: string, from = 0): number {
  const escaped = name.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const pattern = new RegExp(`\\{\\{\\s*%?${escaped}\\s*\\}\\}`, 'g');
  pattern.lastIndex = from;
  return pattern.exec(file.text)?.index ?? -1;
}

/** A path as messages show it: relative to `base` when inside it. */
export function shownPath(path: string, base: string): string {
  if (!path) return path;
  const rel = relative(base, path);
  return rel && !rel.startsWith('..') ? rel : path;
}

/** A value for a message: quoted, cut when long, or `(secret)`. */
export function shownValue(value: string, secret: boolean): string {
  if (secret) return 'its value (secret)';
  const cut = value.length > 60 ? `${value.slice(0, 57)}…` : value;
  return `'${cut.replace(/\r?\n/g, '\\n')}'`;
}

export interface InFileConflict {
  name: string;
  setter: InFileSetter;
  /** The environment's name (undefined: only `$shared`). */
  environment?: string;
  /** The env file the environment's value comes from, as shown. */
  envFile: string;
  /** The environment's value as written (a template when it holds `{{…}}`). */
  envValue: string;
  secret: boolean;
  /** The script that set it is not an inline one of this file (an external script, another file of the run). */
  elsewhere?: boolean;
}

/** The message and hint for a name set in the file and also defined by the selected environment. */
export function inFileConflictMessage(conflict: InFileConflict): { message: string; hint: string } {
  const { name, setter, envFile } = conflict;
  const where =
    conflict.environment === undefined
      ? `'$shared' of ${envFile}`
      : `environment '${conflict.environment}' of ${envFile}`;
  const how = setter === '@name' ? `'@${name} = …'` : `${setter}('${name}', …)`;
  const set = conflict.elsewhere ? `was set by ${how} in a script outside this file` : `is set here by ${how}`;
  const used = conflict.elsewhere ? 'the value the script set' : 'the value set here';
  return {
    message:
      `'${name}' ${set} and also defined in ${where}: dial uses ${used}; ` +
      `JetBrains' documentation ranks environment variables first and would send ${shownValue(conflict.envValue, conflict.secret)} instead`,
    hint: `rename one of them, or drop '${name}' from ${where}, to make it explicit`,
  };
}
