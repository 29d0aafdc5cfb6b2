/**
 * Which tool's meaning a `.http` file is read with. The tools agree on most of the format; where
 * they differ (above all httpyac's request split and `host` prefix), the dialect decides. Order of
 * precedence: a `# @dialect NAME` line in the file, the `--dialect` flag, the workspace (httpyac's
 * config files or `env/*.env` folder), constructs only one tool has, else the common reading.
 */
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { DialError } from '../errors.js';

export const DIALECTS = ['jetbrains', 'rest-client', 'httpyac', 'kulala', 'rest.nvim'] as const;
export type Dialect = (typeof DIALECTS)[number];

/** Where a file's dialect came from (shown by `dial list --dialect`-style messages and tests). */
export type DialectSource = 'file' | 'flag' | 'workspace' | 'constructs' | 'default';

export interface DialectChoice {
  dialect: Dialect;
  source: DialectSource;
}

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

/** httpyac when a folder from the file's up to the repository root holds httpyac's config or `env/*.env`. */
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
    if (HTTPYAC_FILES.some((name) => existsSync(join(dir, name))) || hasDotenvFolder(dir)) {
      found = 'httpyac';
      break;
    }
    const parent = dirname(dir);
    if (parent === dir || existsSync(join(dir, '.git'))) break;
    dir = parent;
  }
  for (const seen of visited) workspaceCache.set(seen, found ?? null);
  return found;
}

const DIALECT_LINE_RE = /^[ \t]*(?:#+|\/\/+)[ \t]*@dialect[ \t]+(\S+)/m;
// Metadata only httpyac has; kulala's env-from-command keys; rest.nvim's Lua handlers.
const HTTPYAC_ONLY_RE =
  /^[ \t]*(?:#+|\/\/+)[ \t]*@(?:ref|forceRef|import|loop|jwt|keepStreaming|note|sleep|verbose|debug|injectVariables|ratelimit|save|openWith)\b|\{\{[@+]|^[ \t]*\{\{(?:request|response|after|streaming|responseLogging)?[ \t]*\r?\n[\s\S]*?^[ \t]*\}\}[ \t]*$|^\/\*|^HTTP\/\d(?:\.\d)?[ \t]+\d{3}\b/m;
const KULALA_ONLY_RE = /^[ \t]*(?:#+|\/\/+)[ \t]*@(?:env-stdin-cmd|stdin-cmd|env-json-key|curl-|grpc-|graphql)/m;
const RESTNVIM_ONLY_RE = /^[ \t]*(?:#+|\/\/+)[ \t]*@lang[ \t]*=?[ \t]*lua|^[ \t]*>[ \t]*\S+\.lua[ \t]*$/m;

/** The `# @dialect NAME` line of a file: its dialect and 0-based line, or an E_PARSE error for an unknown name. */
export function dialectDeclaredIn(text: string, file: string): Dialect | undefined {
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

const REQUEST_LINE_RE =
  /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]+(?:https?:\/\/|\{\{)\S*(?:[ \t]+HTTP\/\d(?:\.\d)?)?$/;
const NAME_LINE_RE = /^(?:#+|\/\/+)[ \t]*@name[ \t]+\S/;

/**
 * A `# @name` line right above a request line, after an earlier request line with no `###`
 * between them: httpyac reads a second named request there; the other tools would send both lines
 * as the first request's body, which no one writes a `# @name` for.
 */
function namesRequestWithoutSeparator(text: string): boolean {
  if (!text.includes('@name')) return false;
  let requestSeen = false;
  let previous = '';
  for (const raw of text.split('\n')) {
    const t = raw.trim();
    if (t.startsWith('###')) requestSeen = false;
    else if (REQUEST_LINE_RE.test(t)) {
      if (requestSeen && NAME_LINE_RE.test(previous)) return true;
      requestSeen = true;
    }
    previous = t;
  }
  return false;
}

/** A dialect implied by constructs only one tool has. */
export function dialectFromConstructs(text: string): Dialect | undefined {
  if (HTTPYAC_ONLY_RE.test(text) || HTTPYAC_ESCAPE_RE.test(text)) return 'httpyac';
  if (ROOTED_TARGET_RE.test(text) && !HOST_HEADER_RE.test(text)) return 'httpyac';
  if (KULALA_ONLY_RE.test(text) || readsOwnVariableFromEnvironment(text)) return 'kulala';
  if (RESTNVIM_ONLY_RE.test(text)) return 'rest.nvim';
  // Last: a weaker sign than the tool-only constructs above.
  if (namesRequestWithoutSeparator(text)) return 'httpyac';
  return undefined;
}

/** Chooses the dialect of one file (see the module comment for the order). */
export function chooseDialect(text: string, file: string, explicit?: Dialect): DialectChoice {
  const declared = dialectDeclaredIn(text, file);
  if (declared) return { dialect: declared, source: 'file' };
  const flag = explicit ?? flagDialect;
  if (flag) return { dialect: flag, source: 'flag' };
  const workspace = detectWorkspaceDialect(file);
  if (workspace) return { dialect: workspace, source: 'workspace' };
  const constructs = dialectFromConstructs(text);
  if (constructs) return { dialect: constructs, source: 'constructs' };
  // `.rest` is REST Client's own extension.
  if (file.toLowerCase().endsWith('.rest')) return { dialect: 'rest-client', source: 'workspace' };
  return { dialect: 'jetbrains', source: 'default' };
}
