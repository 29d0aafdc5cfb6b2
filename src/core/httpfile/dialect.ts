/**
 * Which tool's meaning a `.http` file is read with. The tools agree on most of the format; where
 * they differ (above all httpyac's request split and `host` prefix), the dialect decides. Order of
 * precedence: a `# @dialect NAME` line in the file, the `--dialect` flag, the workspace (httpyac's
 * config files or `env/*.env` folder, kulala's env-file `$schema`), constructs only one tool has,
 * a `.vscode/settings.json` or `*.code-workspace` with `rest-client.*` keys (REST Client), a
 * `.rest` file (REST Client), else the common reading.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DialError } from '../errors.js';
import {
  findWorkspaceFile,
  hasRestClientKey,
  nearestFolderSettings,
  readUserSettings,
  type SettingsProblem,
} from '../vscode-config.js';

export const DIALECTS = ['jetbrains', 'rest-client', 'httpyac', 'kulala', 'rest.nvim'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** Where a file's dialect came from (shown by `dial list --dialect`-style messages and tests). */
export type DialectSource = 'file' | 'flag' | 'workspace' | 'constructs' | 'default';

export interface DialectChoice {
  dialect: Dialect;
  source: DialectSource;
  /** A REST Client workspace's `rest-client.formParamEncodingStrategy`, when it is not the default. */
  formEncoding?: 'never' | 'always';
  /** A `.vscode/settings.json` on the way up that does not parse: where, and why it marks nothing. */
  settingsProblem?: SettingsProblem;
}

export type { SettingsProblem };

const ALIASES: Record<string, Dialect> = {
  jetbrains: 'jetbrains',
  intellij: 'jetbrains',
  'http-client': 'jetbrains',
  'rest-client': 'rest-client',
  restclient: 'rest-client',
  vscode: 'rest-client',
  httpyac: 'httpyac',
  kulala: 'kulala',
  'kulala.nvim': 'kulala',
  'rest.nvim': 'rest.nvim',
  restnvim: 'rest.nvim',
};

/** Parses a dialect name (case-insensitive, common aliases); undefined when unknown. */
export function dialectFromName(name: string): Dialect | undefined {
  return ALIASES[name.trim().toLowerCase()];
}

/** Like dialectFromName, but an unknown name is a usage error naming the choices. */
export function requireDialect(name: string): Dialect {
  const dialect = dialectFromName(name);
  if (!dialect)
    throw new DialError('E_USAGE', `unknown dialect '${name}'`, { hint: `choose one of ${DIALECTS.join(', ')}` });
  return dialect;
}

let flagDialect: Dialect | undefined;

/** The `--dialect` choice of this process (set once by the command before files are read); undefined clears it. */
export function setDialectOverride(dialect: Dialect | undefined): void {
  flagDialect = dialect;
}

/** The `--dialect` choice in force, if any. */
export function dialectOverride(): Dialect | undefined {
  return flagDialect;
}

// httpyac's own list (utils/configUtils.ts defaultConfigFiles), and older rc names.
const HTTPYAC_FILES = [
  '.httpyac.js',
  '.httpyac.cjs',
  '.httpyac.config.js',
  '.httpyac.config.cjs',
  'httpyac.config.js',
  'httpyac.config.cjs',
  'httpyac.config.mjs',
  '.httpyac.json',
  'httpyac.config.json',
  '.httpyacrc',
  '.httpyacrc.json',
  '.httpyacrc.js',
];
const workspaceCache = new Map<string, Dialect | null>();

function hasDotenvFolder(dir: string): boolean {
  try {
    return readdirSync(join(dir, 'env')).some((name) => name === '.env' || name.endsWith('.env'));
  } catch {
    return false;
  }
}

/** A package.json naming an httpyac plugin (configUtils.isPlugin), which httpyac loads for the files below it. */
function namesHttpyacPlugin(dir: string): boolean {
  const path = join(dir, 'package.json');
  if (!existsSync(path)) return false;
  try {
    return /"(?:httpyac-|@[\w-]+\.?[\w-]+\/httpyac-)plugin-[^"]*"\s*:/.test(readFileSync(path, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * kulala's env files point their `$schema` at kulala.nvim's own schema (its docs and fixtures do);
 * no other tool writes that URL. Only the first 2 KiB are read, where `$schema` stands.
 */
const KULALA_SCHEMA_RE = /"\$schema"\s*:\s*"[^"]*kulala[^"]*"/i;
const KULALA_ENV_FILES = ['http-client.env.json', 'http-client.private.env.json'];

function namesKulalaSchema(dir: string): boolean {
  for (const name of KULALA_ENV_FILES) {
    const path = join(dir, name);
    if (!existsSync(path)) continue;
    try {
      if (KULALA_SCHEMA_RE.test(readFileSync(path, 'utf8').slice(0, 2048))) return true;
    } catch {
      // An unreadable env file marks nothing; loading it reports the error.
    }
  }
  return false;
}

/**
 * httpyac when a folder from the file's up to the repository root holds httpyac's config, `env/*.env`
 * or a package.json naming an httpyac plugin; kulala when it holds an `http-client.env.json` whose
 * `$schema` is kulala.nvim's. The nearest such folder decides.
 */
export function detectWorkspaceDialect(filePath: string): Dialect | undefined {
  if (!filePath) return undefined;
  let dir = dirname(resolve(filePath));
  const visited: string[] = [];
  let found: Dialect | undefined;
  for (;;) {
    const cached = workspaceCache.get(dir);
    if (cached !== undefined) {
      found = cached ?? undefined;
      break;
    }
    visited.push(dir);
    if (HTTPYAC_FILES.some((name) => existsSync(join(dir, name))) || hasDotenvFolder(dir) || namesHttpyacPlugin(dir)) {
      found = 'httpyac';
      break;
    }
    if (namesKulalaSchema(dir)) {
      found = 'kulala';
      break;
    }
    const parent = dirname(dir);
    if (parent === dir || existsSync(join(dir, '.git'))) break;
    dir = parent;
  }
  for (const seen of visited) workspaceCache.set(seen, found ?? null);
  return found;
}

/** What the project's VS Code settings say about REST Client: where, and its form encoding. */
interface RestClientSettingsMark {
  path: string;
  /** Set when the project's settings set it ('automatic' too: it then wins over the user's). */
  formEncoding?: FormEncodingSetting;
}
type FormEncodingSetting = 'never' | 'always' | 'automatic';
interface SettingsScan {
  mark?: RestClientSettingsMark;
  problem?: SettingsProblem;
}

/** `rest-client.formParamEncodingStrategy` of a settings object, when it sets one. */
function formEncodingOf(data: Record<string, unknown>): FormEncodingSetting | undefined {
  if (!Object.hasOwn(data, 'rest-client.formParamEncodingStrategy')) return undefined;
  const strategy = data['rest-client.formParamEncodingStrategy'];
  // REST Client (models/formParamEncodingStrategy.ts) takes the value in any case; others are "automatic".
  const name = typeof strategy === 'string' ? strategy.toLowerCase() : '';
  return name === 'never' || name === 'always' ? name : 'automatic';
}

/** A form encoding setting as a DialectChoice carries it: 'automatic' (REST Client's default) is none. */
function chosenEncoding(setting: FormEncodingSetting | undefined): 'never' | 'always' | undefined {
  return setting === 'automatic' ? undefined : setting;
}

/** The user's VS Code `rest-client.formParamEncodingStrategy` (unless DIAL_VSCODE_USER_SETTINGS=0), when not the default. */
function userFormEncoding(): FormEncodingSetting | undefined {
  const data = readUserSettings()?.data;
  return data ? formEncodingOf(data) : undefined;
}

/**
 * VS Code REST Client's workspace: the nearest `.vscode/settings.json` from the file's folder up
 * to the repository root that holds a `rest-client.*` key (`rest-client.environmentVariables`,
 * `rest-client.defaultHeaders`, …), else the `settings` of the `*.code-workspace` file whose
 * folders hold the file (core/vscode-config.ts finds it), when they hold such a key. A settings
 * file without such a key marks nothing and the search goes on upwards; a `.vscode/settings.json`
 * that does not parse marks nothing and is reported (`problem`; the env store reports a broken
 * workspace file). The user's own VS Code settings are never read here: they say what the user
 * has installed, not what the project's files are written for.
 */
export function detectRestClientSettings(filePath: string): SettingsScan {
  if (!filePath) return {};
  const dir = dirname(resolve(filePath));
  const folder = nearestFolderSettings(dir);
  const problem = folder.problem && {
    ...folder.problem,
    // VS Code reads a broken settings file as far as it parses; dial reads none of it (nor its
    // environments, env/vscode-settings.ts), and says so once.
    message: `${folder.problem.message}: its REST Client settings (environments, the REST Client reading of the files below it) are not read`,
  };
  const folderEncoding = folder.found && formEncodingOf(folder.found.data);
  // The folder's value wins over the workspace file's, as VS Code merges them: the workspace file
  // is looked for only when the folder's settings leave something to find.
  const workspace = folderEncoding ? undefined : findWorkspaceFile(dir).found;
  const workspaceMarks = workspace !== undefined && hasRestClientKey(workspace.settings);
  if (!folder.found && !workspaceMarks) return problem ? { problem } : {};
  const formEncoding = folderEncoding ?? (workspaceMarks ? formEncodingOf(workspace.settings) : undefined);
  const mark: RestClientSettingsMark = { path: folder.found?.path ?? workspace!.path };
  if (formEncoding) mark.formEncoding = formEncoding;
  return problem ? { mark, problem } : { mark };
}

const DIALECT_LINE_RE = /^[ \t]*(?:#+|\/\/+)[ \t]*@dialect[ \t]+(\S+)/m;
// Metadata only httpyac has; kulala's env-from-command keys; rest.nvim's Lua handlers.
const HTTPYAC_ONLY_RE =
  /^[ \t]*(?:#+|\/\/+)[ \t]*@(?:ref|forceRef|import|loop|jwt|keepStreaming|note|sleep|verbose|debug|injectVariables|ratelimit|save|openWith)\b|\{\{[@+]|^[ \t]*\{\{(?:request|response|after|streaming|responseLogging)?[ \t]*\r?\n[\s\S]*?^[ \t]*\}\}[ \t]*$|^\/\*|^HTTP\/\d(?:\.\d)?[ \t]+\d{3}\b|^[ \t]*@xpath_ns[ \t]/m;
const KULALA_ONLY_RE = /^[ \t]*(?:#+|\/\/+)[ \t]*@(?:env-stdin-cmd|stdin-cmd|env-json-key|curl-|grpc-|graphql)/m;
/** kulala's Lua script: `{%` then `-- lua` as the script's first line. */
const KULALA_LUA_MARK_RE = /\{%[ \t]*\r?\n[ \t]*--[ \t]*lua(?![\w.])/;
/** The same mark on a script that opens a line (`> {%`, `< {%` or `{%` alone): a Lua script, which only kulala runs. */
const KULALA_LUA_SCRIPT_RE = /^[ \t]*(?:[<>][ \t]*)?\{%[ \t]*\r?\n[ \t]*--[ \t]*lua(?![\w.])/m;
const RESTNVIM_ONLY_RE = /^[ \t]*(?:#+|\/\/+)[ \t]*@lang[ \t]*=?[ \t]*lua|^[ \t]*>[ \t]*\S+\.lua[ \t]*$/m;
/**
 * rest.nvim 0.x's response script: a `{%` line of its own under the request, whose code (up to
 * `%}`) uses its `context` (result, set_env, json_decode, pretty_print).
 */
export const RESTNVIM_LEGACY_RE =
  /^[ \t]*\{%[ \t]*\r?\n(?:[^%]|%(?!\}))*?\bcontext\s*\.\s*(?:result|set_env|json_decode|pretty_print)\b/m;

/**
 * Which of the patterns above may match a text, as bits. Every pattern but two is anchored at a
 * line start, so a look at the first characters of each line (done while the parser builds its
 * line table, see lines.ts) says which could match; a pattern is then run only when its bit is
 * set, and its answer is the pattern's own. On a 10,000-request file the seven passes over the
 * whole text took ~6% of the parse; most files set no bit. A bit is a necessary condition, never
 * a sufficient one: tests/core/httpfile/dialect-hints.property.test.ts holds that.
 */
export const HINT_DIALECT_LINE = 1;
export const HINT_HTTPYAC = 2;
export const HINT_ROOTED = 4;
export const HINT_KULALA = 8;
export const HINT_LUA = 16;
export const HINT_ALL = 31;

/** Metadata keys (after `@`) that may start a match, by first character: httpyac's, kulala's, `lang`, `dialect`. */
let keyHints: Map<number, Array<[string, number]>> | undefined;

/** Built on first use: `dial send` loads this module at every start and may read no file. */
function keyHintTable(): Map<number, Array<[string, number]>> {
  if (keyHints) return keyHints;
  keyHints = new Map();
  const keys: Array<[string, number]> = [
    ...['ref', 'forceRef', 'import', 'loop', 'jwt', 'keepStreaming', 'note', 'sleep', 'verbose', 'debug'].map(
      (key): [string, number] => [key, HINT_HTTPYAC],
    ),
    ...['injectVariables', 'ratelimit', 'save', 'openWith'].map((key): [string, number] => [key, HINT_HTTPYAC]),
    ...['env-stdin-cmd', 'env-json-key', 'curl-', 'grpc-', 'graphql'].map((key): [string, number] => [
      key,
      HINT_KULALA,
    ]),
    ['lang', HINT_LUA],
    ['dialect', HINT_DIALECT_LINE],
  ];
  for (const entry of keys) {
    const code = entry[0].charCodeAt(0);
    const list = keyHints.get(code) ?? [];
    list.push(entry);
    keyHints.set(code, list);
  }
  return keyHints;
}
const ROOTED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

function isTab(code: number): boolean {
  return code === 32 || code === 9;
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** After `#+` or `//+` at `k`: `[ \t]*@key`. */
function metadataHints(text: string, k: number): number {
  while (isTab(text.charCodeAt(k))) k++;
  if (text.charCodeAt(k) !== 64 /* @ */) return 0;
  const keys = keyHintTable().get(text.charCodeAt(k + 1));
  if (!keys) return 0;
  let bits = 0;
  for (const [key, bit] of keys) if (text.startsWith(key, k + 1)) bits |= bit;
  return bits;
}

/** `METHOD[ \t]+/` (not `//`) at `q`. */
function rootedHint(text: string, q: number): number {
  for (const method of ROOTED_METHODS) {
    if (!text.startsWith(method, q)) continue;
    let k = q + method.length;
    if (!isTab(text.charCodeAt(k))) continue;
    while (isTab(text.charCodeAt(k))) k++;
    if (text.charCodeAt(k) === 47 && text.charCodeAt(k + 1) !== 47) return HINT_ROOTED;
  }
  return 0;
}

/** The bits the line starting at `start` may set (any line break before it: the patterns use `^` with /m). */
export function lineHints(text: string, start: number): number {
  let q = start;
  let c = text.charCodeAt(q);
  while (isTab(c)) c = text.charCodeAt(++q);
  switch (c) {
    case 35 /* # */: {
      let k = q + 1;
      while (text.charCodeAt(k) === 35) k++;
      return metadataHints(text, k);
    }
    case 47 /* / */: {
      if (text.charCodeAt(q + 1) === 42 /* * */) return q === start ? HINT_HTTPYAC : 0;
      if (text.charCodeAt(q + 1) !== 47) return 0;
      let k = q + 2;
      while (text.charCodeAt(k) === 47) k++;
      return metadataHints(text, k);
    }
    case 123 /* { */: {
      // rest.nvim 0.x: a `{%` line.
      if (text.charCodeAt(q + 1) === 37) return HINT_LUA;
      // A `{{` line that ends after an optional word (httpyac's script block).
      if (text.charCodeAt(q + 1) !== 123) return 0;
      let k = q + 2;
      while (isLetter(text.charCodeAt(k))) k++;
      while (isTab(text.charCodeAt(k))) k++;
      const end = text.charCodeAt(k);
      return end === 13 || end === 10 ? HINT_HTTPYAC : 0;
    }
    case 62 /* > */:
      return HINT_LUA;
    case 60 /* < */: {
      // A `< {%` pre-request script (kulala's `-- lua` mark).
      let k = q + 1;
      while (isTab(text.charCodeAt(k))) k++;
      return text.charCodeAt(k) === 123 && text.charCodeAt(k + 1) === 37 ? HINT_LUA : 0;
    }
    case 64 /* @ */:
      // httpyac's `@xpath_ns prefix=uri`.
      return text.startsWith('@xpath_ns', q) && isTab(text.charCodeAt(q + 9)) ? HINT_HTTPYAC : 0;
    case 72 /* H */:
      return (q === start && text.startsWith('HTTP/', q) ? HINT_HTTPYAC : 0) | rootedHint(text, q);
    case 71 /* G */:
    case 80 /* P */:
    case 68 /* D */:
    case 79 /* O */:
      return rootedHint(text, q);
    default:
      return 0;
  }
}

/**
 * The bits of a whole text, from the bits of its lines split at `\n`: a text with other line
 * breaks (a lone `\r`, U+2028, U+2029: `^` matches after them too) gets every bit, and the two
 * patterns that are not anchored (`{{@`/`{{+` and httpyac's escaped `\{\{`) are looked for here.
 */
export function finishHints(text: string, lineBits: number): number {
  if (text.includes('\u2028') || text.includes('\u2029')) return HINT_ALL;
  if (text.includes('\r') && /\r(?!\n)/.test(text)) return HINT_ALL;
  let bits = lineBits;
  if (/\{\{[@+]|\\\{\\\{/.test(text)) bits |= HINT_HTTPYAC;
  // The rest.nvim patterns need `lua`, or (0.x) `context`.
  if (bits & HINT_LUA && !text.includes('lua') && !text.includes('context')) bits &= ~HINT_LUA;
  return bits;
}

/** The bits of a text, for a caller without the parser's line table. */
export function textHints(text: string): number {
  let bits = 0;
  for (let start = 0; start < text.length;) {
    bits |= lineHints(text, start);
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    start = nl + 1;
  }
  return finishHints(text, bits);
}

/** The `# @dialect NAME` line of a file: its dialect and 0-based line, or an E_PARSE error for an unknown name. */
export function dialectDeclaredIn(text: string, file: string, hints = textHints(text)): Dialect | undefined {
  if (!(hints & HINT_DIALECT_LINE)) return undefined;
  const match = DIALECT_LINE_RE.exec(text);
  if (!match) return undefined;
  const dialect = dialectFromName(match[1]);
  if (dialect) return dialect;
  const line = text.slice(0, match.index).split('\n').length;
  throw new DialError('E_PARSE', `unknown dialect '${match[1]}'`, {
    hint: `write one of: ${DIALECTS.join(', ')}`,
    location: { file: file || '<text>', line, excerpt: match[0].trim() },
  });
}

/** httpyac's escaped placeholder `\{\{name\}\}` (sent as `{{name}}`). */
const HTTPYAC_ESCAPE_RE = /\\\{\\\{[^}\n]+?\\\}\\\}/;
/** A request line whose target starts with `/`: only httpyac sends it without a `Host` header (it uses `{{host}}`). */
const ROOTED_TARGET_RE = /^[ \t]*(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]+\/(?!\/)/m;
const HOST_HEADER_RE = /^[ \t]*Host[ \t]*:/im;

const ENVIRONMENT_GET_RE = /\brequest\s*\.\s*environment\s*\.\s*get\s*\(\s*(['"`])([\w.-]+)\1\s*\)/g;

/**
 * A script reading one of the file's own `@name = value` variables with
 * `request.environment.get("name")`: kulala answers it (its scripts' environment holds the file's
 * variables); JetBrains answers null unless an env file defines the name, so the file was written
 * for kulala (where an env file does define it, both give that value).
 */
function readsOwnVariableFromEnvironment(text: string): boolean {
  if (!text.includes('environment')) return false;
  for (const match of text.matchAll(ENVIRONMENT_GET_RE)) {
    const name = match[2].replace(/[.-]/g, (c) => `\\${c}`);
    if (new RegExp(`^[ \\t]*@${name}[ \\t]*=`, 'm').test(text)) return true;
  }
  return false;
}

// Any case, as the parser reads methods (`post` is POST): `dial fmt` writes them upper case, and
// a file must keep its dialect through that.
const REQUEST_LINE_RE =
  /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]+(?:https?:\/\/|\{\{)\S*(?:[ \t]+HTTP\/\d(?:\.\d)?)?$/i;
const NAME_LINE_RE = /^(?:#+|\/\/+)[ \t]*@name[ \t]+\S/;

/**
 * A `# @name` line right above a request line, after an earlier request line with no `###`
 * between them: httpyac reads a second named request there; the other tools would send both lines
 * as the first request's body, which no one writes a `# @name` for.
 */
export function namesRequestWithoutSeparator(text: string): boolean {
  // From each `@name` line down to the next line and up to the nearest `###` or request line, so
  // a file is not split into lines for it (the parse of 10,000 requests is in `npm run bench`).
  for (let at = text.indexOf('@name'); at >= 0; at = text.indexOf('@name', at + 5)) {
    const start = text.lastIndexOf('\n', at) + 1;
    const end = lineEnd(text, start);
    const nameLine = text.slice(start, end).trim();
    if (!NAME_LINE_RE.test(nameLine) || nameLine.startsWith('###') || end >= text.length) continue;
    if (!REQUEST_LINE_RE.test(text.slice(end + 1, lineEnd(text, end + 1)).trim())) continue;
    for (let lineStart = start; lineStart > 0;) {
      const previousStart = lineStart >= 2 ? text.lastIndexOf('\n', lineStart - 2) + 1 : 0;
      const line = text.slice(previousStart, lineStart - 1).trim();
      if (line.startsWith('###')) break;
      if (REQUEST_LINE_RE.test(line)) return true;
      lineStart = previousStart;
    }
  }
  return false;
}

/** Where the line that starts at `start` ends (its `\n`, or the end of the text). */
function lineEnd(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end < 0 ? text.length : end;
}

/** A dialect implied by constructs only one tool has. */
export function dialectFromConstructs(text: string, hints = textHints(text)): Dialect | undefined {
  if (hints & HINT_HTTPYAC && (HTTPYAC_ONLY_RE.test(text) || HTTPYAC_ESCAPE_RE.test(text))) return 'httpyac';
  if (hints & HINT_ROOTED && ROOTED_TARGET_RE.test(text) && !HOST_HEADER_RE.test(text)) return 'httpyac';
  if ((hints & HINT_KULALA && KULALA_ONLY_RE.test(text)) || readsOwnVariableFromEnvironment(text)) return 'kulala';
  // A `.lua` handler is rest.nvim's unless a script of the file carries kulala's `-- lua` mark.
  if (hints & HINT_LUA && RESTNVIM_ONLY_RE.test(text)) return KULALA_LUA_MARK_RE.test(text) ? 'kulala' : 'rest.nvim';
  // A `{% -- lua` script: kulala's Lua (the other tools run `{% %}` scripts as JavaScript, where `-- lua` is no code).
  if (hints & HINT_LUA && KULALA_LUA_SCRIPT_RE.test(text)) return 'kulala';
  if (hints & HINT_LUA && RESTNVIM_LEGACY_RE.test(text)) return 'rest.nvim';
  // Last: a weaker sign than the tool-only constructs above.
  if (namesRequestWithoutSeparator(text)) return 'httpyac';
  return undefined;
}

/**
 * Chooses the dialect of one file (see the module comment for the order). `hints`: the text's
 * bits when the caller has them (the parser does, from its line table).
 */
export function chooseDialect(text: string, file: string, explicit?: Dialect, hints?: number): DialectChoice {
  const choice = chooseDialectOf(text, file, explicit, hints);
  // REST Client reads its settings for every file, also one named REST Client's by `# @dialect` or --dialect.
  if (choice.dialect === 'rest-client') {
    // The project's settings first; then the user's (VS Code merges user < workspace < folder),
    // which apply to a file already read as REST Client's but never make one so.
    const formEncoding = chosenEncoding(detectRestClientSettings(file).mark?.formEncoding ?? userFormEncoding());
    if (formEncoding) choice.formEncoding = formEncoding;
  }
  return choice;
}

function chooseDialectOf(text: string, file: string, explicit?: Dialect, hints?: number): DialectChoice {
  if (hints === undefined) hints = textHints(text);
  const declared = dialectDeclaredIn(text, file, hints);
  if (declared) return { dialect: declared, source: 'file' };
  const flag = explicit ?? flagDialect;
  if (flag) return { dialect: flag, source: 'flag' };
  const workspace = detectWorkspaceDialect(file);
  if (workspace) return { dialect: workspace, source: 'workspace' };
  const constructs = dialectFromConstructs(text, hints);
  if (constructs) return { dialect: constructs, source: 'constructs' };
  // REST Client's settings are editor settings, often kept beside another tool's files: a weaker
  // mark than httpyac's or kulala's config and than constructs only another tool has.
  // Its form encoding is read by chooseDialect, as for every REST Client file.
  const settings = detectRestClientSettings(file);
  if (settings.mark) return { dialect: 'rest-client', source: 'workspace' };
  if (settings.problem) {
    const choice = chooseWithoutSettings(file);
    choice.settingsProblem = settings.problem;
    return choice;
  }
  return chooseWithoutSettings(file);
}

function chooseWithoutSettings(file: string): DialectChoice {
  // `.rest` is REST Client's own extension.
  if (file.toLowerCase().endsWith('.rest')) return { dialect: 'rest-client', source: 'workspace' };
  return { dialect: 'jetbrains', source: 'default' };
}
