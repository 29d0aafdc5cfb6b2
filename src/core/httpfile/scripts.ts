/** Checks on scripts and file bodies that dial refuses before anything is sent rather than run half or send wrong. */

/** A refusal for inline script code dial's sandbox cannot run, or undefined. */
export function inlineScriptRefusal(
  code: string,
  language: string | undefined,
  /** Why Lua is not taken here (undefined: it is). */
  luaRefused?: string,
): string | undefined {
  if (language && language !== 'js' && language !== 'javascript') {
    return `scripts in '${language}' are not supported: dial runs JavaScript handlers (JetBrains API), kulala's Lua scripts marked \`-- lua\`${language === 'lua' ? " and rest.nvim's `# @lang=lua` scripts in a file read as rest.nvim's (`# @dialect rest.nvim`)" : ''}`;
  }
  // kulala marks a Lua script with a first line `-- lua` (run by script/lua-engine.ts).
  if (luaRefused !== undefined && isLuaCode(code)) return `a Lua script (kulala \`-- lua\`) ${luaRefused}`;
  // Modules are checked where Node access is known (ScriptRunner.checkModules), before a run sends anything.
  return undefined;
}

/** `request.environment.NAME`, `request.variables["NAME"]`: the names a Lua script reads or writes literally. */
const LUA_ENV_NAME =
  /\brequest\s*\.\s*(?:environment|variables)\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*(["'])([^"'\n]+)\2\s*\])/g;

/** The names a kulala Lua script reads from (or writes to) `request.environment`. */
export function luaEnvironmentNames(code: string): Set<string> {
  const names = new Set<string>();
  for (const match of code.matchAll(LUA_ENV_NAME)) names.add(match[1] ?? match[3]);
  return names;
}

/**
 * Why a kulala Lua script (`-- lua` first line, or a `.lua` file) is refused in a file read as
 * rest.nvim's: rest.nvim runs a script as Lua only when `# @lang=lua` stands above it, and then
 * with its own API (a script without it is not run by rest.nvim at all).
 */
export const RESTNVIM_LUA_REFUSAL =
  "in a file read as rest.nvim's: rest.nvim runs an inline `{% … %}` script as Lua only under a `# @lang=lua` line, with its own API (add `# @dialect kulala` if the file was written for kulala)";

/** The language of a script under `# @lang=…` that dial runs in this dialect, or undefined. */
export function runsAsRestNvimLua(dialect: string, language: string | undefined): boolean {
  return dialect === 'rest.nvim' && language === 'lua';
}

/** kulala's mark of a Lua script: `-- lua` as its first line. */
export function isLuaCode(code: string): boolean {
  // kulala: the script's text starts with `-- lua` (more may follow on that line, a comment).
  return /^\s*--\s*lua(?![\w.])/i.test(code);
}

/** A refusal for a script file dial cannot run (not JavaScript, nor a kulala `.lua` file), or undefined. */
export function scriptFileRefusal(path: string, language: string | undefined, luaRefused?: string): string | undefined {
  if (language && language !== 'js' && language !== 'javascript')
    return `scripts in '${language}' are not supported: dial runs JavaScript handlers and kulala's Lua scripts`;
  if (/\.lua$/i.test(path)) {
    if (luaRefused === undefined) return undefined;
    return `a Lua script file ${luaRefused}`;
  }
  if (!/\.[cm]?[jt]s$/i.test(path)) return `'${path}' is not a JavaScript file: dial runs JavaScript handlers`;
  return undefined;
}

/** A path whose extension says it holds data, not a script (`> ./open.gif` meant `>> ./open.gif`). */
export function isDataFilePath(path: string): boolean {
  return /\.(?:json|xml|html?|txt|csv|gif|png|jpe?g|webp|svg|pdf|bin|zip|gz|mp3|mp4|wav|ya?ml)$/i.test(path);
}

/** `<@latin1 ./file`: the encoding word of a REST Client file body, or undefined for plain `<`/`<@`. */
export function fileBodyEncoding(line: string): string | undefined {
  const match = /^<@([A-Za-z][\w-]*)[ \t]+\S/.exec(line);
  return match ? match[1] : undefined;
}

/** True when Node can decode a file in this encoding (Buffer encodings, then the WHATWG labels of TextDecoder). */
export function isSupportedEncoding(encoding: string): boolean {
  if (Buffer.isEncoding(encoding)) return true;
  try {
    new TextDecoder(encoding);
    return true;
  } catch {
    return false;
  }
}

/** Decodes file bytes as REST Client's `<@encoding ./file` does. */
export function decodeFileBody(bytes: Buffer, encoding: string | undefined): string {
  if (!encoding) return bytes.toString('utf8');
  return Buffer.isEncoding(encoding) ? bytes.toString(encoding) : new TextDecoder(encoding).decode(bytes);
}
