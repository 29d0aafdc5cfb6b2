/**
 * `request.environment.get(name)` in kulala's reading: kulala hands its scripts the selected
 * environment with the document's `@name = value` variables under it (kulala 5: `request.environment`
 * is the environment extended with the request's variables, the environment winning), so a script
 * may read a file variable there. JetBrains gives the environment only; other dialects keep that.
 *
 * The lookup scripts call is synchronous, so the file variables are made ready before the script
 * runs: a value without `{{` as written; one with `{{…}}` filled in (kulala 5 hands over the text
 * as written; a value with its placeholders still in would only be wrong) when a script of the
 * request names it literally (`request.environment.get("base")`), since filling in a variable
 * nobody reads could fail for nothing. A value that reads another request's exchange is not filled
 * in (that would send the request for a script's read): the script gets null, with a warning.
 */
import type { HttpFile, RequestNode, ScriptNode } from '../httpfile/types.js';
import { reportParseWarnings } from '../httpfile/warnings.js';
import { findPlaceholders } from '../httpfile/placeholders.js';
import { isLuaCode, luaEnvironmentNames } from '../httpfile/scripts.js';

const GET_CALL = /\brequest\s*\.\s*environment\s*\.\s*get\s*\(\s*(['"`])([^'"`]+)\1\s*\)/g;

/** The names a request's inline scripts read with `request.environment.get("…")`. */
function namesRead(scripts: ScriptNode[]): Set<string> {
  const names = new Set<string>();
  for (const script of scripts)
    if (script.kind === 'inline') {
      for (const match of script.code.matchAll(GET_CALL)) names.add(match[2]);
      // kulala's Lua scripts: `request.environment.NAME`.
      if (isLuaCode(script.code)) for (const name of luaEnvironmentNames(script.code)) names.add(name);
    }
  return names;
}

/**
 * The environment lookup for the scripts of `node`: `base` (the selected environment), then in a
 * kulala file its file variables (declared above the request first, then anywhere in the file).
 */
export async function scriptEnvironment(
  file: HttpFile,
  node: RequestNode,
  base: (name: string) => string | undefined,
  resolve: (template: string) => string | Promise<string>,
): Promise<(name: string) => string | undefined> {
  if (file.variables.length === 0) return base;
  // A request with a kulala Lua script (`-- lua`) is kulala's whatever the file's dialect.
  if (file.dialect !== 'kulala' && !hasLuaScript(node)) return warnOnOwnVariable(file, node, base);
  const above = new Map<string, string>();
  const later = new Map<string, string>();
  for (const variable of file.variables)
    (variable.span.start < node.requestLineSpan.start ? above : later).set(variable.name, variable.value);
  const raw = new Map([...later, ...above]);
  const values = new Map<string, string>();
  const read = namesRead([...node.preScripts, ...node.handlers]);
  for (const [name, value] of raw) {
    if (!value.includes('{{')) values.set(name, value);
    else if (read.has(name) && base(name) === undefined) {
      // Filling in `{{login.response…}}` would send `login` for a script's read: left out (null), said once.
      if (findPlaceholders(value).some((placeholder) => !SIMPLE.test(placeholder.expression))) {
        reportParseWarnings([
          {
            message: `request.environment.get('${name}') is null: the file variable reads another request or an expression, which dial does not run for a script`,
            hint: "set the value with client.global.set in that request's handler and read it with client.global.get",
            file: file.path || '<text>',
            line: [...node.preScripts, ...node.handlers][0]?.span.line ?? node.requestLineSpan.line,
          },
        ]);
        continue;
      }
      try {
        values.set(name, await resolve(value));
      } catch {
        // Left out: the script gets null, as for any name it cannot have.
      }
    }
  }
  return (name) => base(name) ?? values.get(name);
}

function hasLuaScript(node: RequestNode): boolean {
  for (const script of [...node.preScripts, ...node.handlers])
    if (script.kind === 'inline' ? isLuaCode(script.code) : /\.lua$/i.test(script.path)) return true;
  return false;
}

/** A placeholder that names a variable (or a `$` dynamic one), not another request's exchange. */
const SIMPLE = /^(?:[\w-]+|\$[\w.]+(?:\s.*)?)$/;

/**
 * Another dialect (chosen by `# @dialect` or --dialect: detection reads such a file as kulala's)
 * keeps JetBrains' answer, null, for a name only the file defines, and says so once.
 */
function warnOnOwnVariable(
  file: HttpFile,
  node: RequestNode,
  base: (name: string) => string | undefined,
): (name: string) => string | undefined {
  const declared = new Set(file.variables.map((variable) => variable.name));
  return (name) => {
    const value = base(name);
    if (value === undefined && declared.has(name)) {
      const script = [...node.preScripts, ...node.handlers][0];
      reportParseWarnings([
        {
          message: `request.environment.get('${name}') is null in the ${file.dialect} reading: '${name}' is a file variable, not an environment one`,
          hint: 'kulala gives the file variable there: add `# @dialect kulala` if the file was written for it, or use client.global / request.variables',
          file: file.path || '<text>',
          line: script?.span.line ?? node.requestLineSpan.line,
        },
      ]);
    }
    return value;
  };
}
