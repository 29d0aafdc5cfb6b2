/** Checks on scripts and file bodies that dial refuses before anything is sent rather than run half or send wrong. */

/** A refusal for inline script code dial's sandbox cannot run, or undefined. */
export function inlineScriptRefusal(code: string, language: string | undefined): string | undefined {
  if (language && language !== 'js' && language !== 'javascript') {
    return `scripts in '${language}' are not supported: dial runs JavaScript handlers (JetBrains API)`;
  }
  // kulala marks a Lua script with a first line `-- lua`.
  if (/^\s*--\s*lua\s*(?:\r?\n|$)/i.test(code))
    return 'Lua scripts (kulala `-- lua`) are not supported: dial runs JavaScript handlers (JetBrains API)';
  // Modules are checked where Node access is known (ScriptRunner.checkModules), before a run sends anything.
  return undefined;
}

/** A refusal for a script file dial cannot run (not JavaScript), or undefined. */
export function scriptFileRefusal(path: string, language: string | undefined): string | undefined {
  if (language && language !== 'js' && language !== 'javascript')
    return `scripts in '${language}' are not supported: dial runs JavaScript handlers`;
  if (/\.lua$/i.test(path))
    return 'Lua scripts (rest.nvim) are not supported: dial runs JavaScript handlers (JetBrains API)';
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
