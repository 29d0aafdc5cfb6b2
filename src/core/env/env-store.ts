/**
 * Environment files (docs/http-format.md, variables: levels 4 and 5): `http-client.env.json` and
 * `http-client.private.env.json` (JetBrains shape `{"dev": {"host": "…"}, "$shared": {…}}`)
 * next to a `.http` file or in any parent folder up to the workspace root, and the root's `.env`.
 *
 * Layering, lowest to highest: for each folder from the root down to the file's folder, the
 * public then private `$shared`; then, again root → file folder, the public then private
 * selected environment. So nearer files win, private wins over public, and a named environment
 * wins over `$shared`. A variable is secret when any private file in the chain defines it (even
 * if a public value wins), or when it comes from `.env`. REST Client's environments in VS Code's
 * settings (user, `*.code-workspace`, `.vscode/settings.json`: ./vscode-settings.ts) come first in
 * the chain, lowest level first, so they sit under every env file.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { DialError } from '../errors.js';
import { lineColAt, parseJsonText } from './json-file.js';
import { parseDotenv } from './dotenv.js';
import { extractSecurity, mergeAuthConfigs, type AuthConfigEntry, type AuthConfigSource } from './security.js';
import { isObject } from '../json-object.js';

export const ENV_FILE = 'http-client.env.json';
export const PRIVATE_ENV_FILE = 'http-client.private.env.json';
/** Visual Studio's per-user env file (kept out of version control, like the private one). */
export const USER_ENV_FILE = 'http-client.env.json.user';
export const DOTENV_FILE = '.env';
export const SHARED_ENV = '$shared';

export interface EnvFile {
  path: string;
  private: boolean;
  environments: Record<string, Record<string, string>>;
  /** `Security.Auth` configurations by environment (taken out of the variables; see ./security.ts). */
  security?: Record<string, Record<string, AuthConfigEntry>>;
  /** Variables (by environment) whose value was read from a secret store (Visual Studio's `AspnetUserSecrets`): masked. */
  providerSecrets?: Record<string, Set<string>>;
  /** Headers every request gets unless it sets them (kulala `$default_headers`, httpyac `defaultHeaders`), by environment. */
  defaultHeaders?: Record<string, Record<string, string>>;
  /** Set for REST Client's environments in VS Code settings: which level (./vscode-settings.ts). */
  vscode?: 'user' | 'workspace-file' | 'folder';
}

export interface ResolvedEnvironment {
  /** The selected environment; undefined = only `$shared`. */
  name?: string;
  values: Map<string, string>;
  /** Names whose value must be masked. */
  secretNames: Set<string>;
  /** Env files consulted (root first). */
  files: string[];
  /** The file each winning value came from. */
  sources: Map<string, string>;
  /** `Security.Auth` configurations (`{{$auth.token("name")}}`), merged over the files. */
  auth?: Map<string, AuthConfigSource>;
  /** The `$shared` values alone (REST Client's `{{$shared name}}`). */
  shared?: Map<string, string>;
  /** Headers a request gets unless it sets them, as templates (lower-case name → [name, value]); nearer files and the named environment win. */
  defaultHeaders?: Map<string, [string, string]>;
  /** httpyac: a JavaScript config whose hooks provide variables dial does not run (file:line of the hook), for the undefined-variable hint. */
  unreadVariableHook?: string;
  /** httpyac: `cookieJarEnabled: false` in its config (file:line): its requests neither send nor keep cookies. */
  httpyacCookieJarOff?: string;
}

/**
 * `vscodeUser: false` leaves REST Client's environments in the user's VS Code settings out: they
 * apply to files read as REST Client's and to files that name no tool (readsVscodeUserSettings),
 * not to files another tool's marks make that tool's.
 */
export interface EnvReadOptions {
  vscodeUser?: boolean;
}

/** Whether a `.http` file sees REST Client's environments from the user's VS Code settings (see EnvReadOptions). */
export function readsVscodeUserSettings(file: { dialect?: string; dialectSource?: string }): boolean {
  return file.dialect === 'rest-client' || file.dialectSource === undefined || file.dialectSource === 'default';
}

/** A file that defines an environment (EnvStore.origins): as shownEnvPath shows it, and its VS Code level if it is VS Code's settings. */
export interface EnvOrigin {
  path: string;
  vscode?: EnvFile['vscode'];
}

export interface Dotenv {
  path: string;
  values: Map<string, string>;
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      return undefined;
    throw new DialError('E_ENV', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

function stringify(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/**
 * A variable whose value is an object is read member by member too: `{"url": {"api": "…"}}`
 * gives `{{url.api}}` (JetBrains resolves such dotted names in env files, kulala follows it).
 * A name the environment writes out itself, dots and all, keeps its own value.
 */
function addNestedValues(
  out: Record<string, string>,
  written: Record<string, unknown>,
  prefix: string,
  value: Record<string, unknown>,
): void {
  for (const [member, inner] of Object.entries(value)) {
    const name = `${prefix}.${member}`;
    if (!Object.hasOwn(written, name)) out[name] = stringify(inner);
    if (isObject(inner)) addNestedValues(out, written, name, inner);
  }
}

/** kulala's key for the headers of an environment (or of `$shared`) that every request gets. */
const DEFAULT_HEADERS_KEY = '$default_headers';

/**
 * Takes kulala's `"$default_headers": {"Accept": "…"}` out of each environment (it is no
 * variable); an empty list (`[]`) means none. Anything but an object of strings is refused, so
 * headers are never dropped silently.
 */
function extractDefaultHeaders(
  data: Record<string, unknown>,
  text: string,
  path: string,
): Record<string, Record<string, string>> | undefined {
  let found: Record<string, Record<string, string>> | undefined;
  for (const [envName, variables] of Object.entries(data)) {
    if (!variables || typeof variables !== 'object' || Array.isArray(variables)) continue;
    if (!Object.hasOwn(variables, DEFAULT_HEADERS_KEY)) continue;
    const headers = (variables as Record<string, unknown>)[DEFAULT_HEADERS_KEY];
    delete (variables as Record<string, unknown>)[DEFAULT_HEADERS_KEY];
    if (Array.isArray(headers) && headers.length === 0) continue;
    const valid =
      headers !== null &&
      typeof headers === 'object' &&
      !Array.isArray(headers) &&
      Object.values(headers).every((value) => typeof value === 'string' || typeof value === 'number');
    if (!valid) {
      const { line, col } = lineColAt(text, Math.max(0, text.indexOf(`"${DEFAULT_HEADERS_KEY}"`)));
      throw new DialError(
        'E_ENV',
        `"${DEFAULT_HEADERS_KEY}" of environment '${envName}' must be an object of headers`,
        {
          location: { file: path, line, col, excerpt: text.split(/\r?\n/)[line - 1] },
          hint: '"$default_headers": {"Accept": "application/json"}',
        },
      );
    }
    (found ??= {})[envName] = Object.fromEntries(
      Object.entries(headers as Record<string, string | number>).map(([name, value]) => [name, String(value)]),
    );
  }
  return found;
}

/** Parses and validates one env file's text (zod/mini); errors name the file, line and column. */
export async function parseEnvFile(text: string, path: string, isPrivate: boolean): Promise<EnvFile> {
  // An empty file (0 bytes, or only blanks; trim() takes a BOM too) holds no environment: JetBrains lists none from it and
  // runs the requests with the other env files (held-out sweep 14: an empty public file beside the
  // private one that holds every environment). A file with any other text must be valid JSON.
  if (text.trim() === '') return { path, private: isPrivate, environments: {} };
  // JetBrains reads env files as JSON with comments and trailing commas; so does dial.
  const data = parseJsonText(text, path, 'E_ENV', { comments: true });
  // A `"$schema"` key (editor completion for env files) is not an environment.
  if (data !== null && typeof data === 'object' && !Array.isArray(data))
    delete (data as Record<string, unknown>).$schema;
  const defaultHeaders =
    text.includes(DEFAULT_HEADERS_KEY) && data !== null && typeof data === 'object' && !Array.isArray(data)
      ? extractDefaultHeaders(data as Record<string, unknown>, text, path)
      : undefined;
  // `Security` (OAuth 2.0 configurations) is no variable: only a file that has one pays for the look.
  const security =
    text.includes('"Security"') && data !== null && typeof data === 'object' && !Array.isArray(data)
      ? extractSecurity(data as Record<string, unknown>, text, path, isPrivate)
      : undefined;
  const { envFileSchema } = await import('./env-schema.js');
  const result = envFileSchema.safeParse(data);
  if (!result.success) {
    const issue = result.error.issues[0];
    const envName = issue.path[0];
    const where = envName === undefined ? 'the file' : `environment '${String(envName)}'`;
    const at = envName === undefined ? 0 : Math.max(0, text.indexOf(JSON.stringify(String(envName))));
    const { line, col } = lineColAt(text, at);
    throw new DialError('E_ENV', `${where} must be an object of variables`, {
      location: { file: path, line, col, excerpt: text.split(/\r?\n/)[line - 1] },
      hint: 'env files look like {"dev": {"host": "http://localhost:8080"}, "$shared": {…}}',
    });
  }
  const environments: Record<string, Record<string, string>> = {};
  let providerSecrets: EnvFile['providerSecrets'];
  // Visual Studio's secret providers (`{"provider": "AspnetUserSecrets", "secretName": …}`): read
  // from the store (./secret-providers.ts); only a file that has one loads that module.
  const providers = text.includes('"provider"') ? await import('./secret-providers.js') : undefined;
  const cache = { secrets: new Map() };
  for (const [name, variables] of Object.entries(result.data)) {
    environments[name] = {};
    for (const [key, value] of Object.entries(variables)) {
      if (!providers?.isProviderObject(value)) {
        environments[name][key] = stringify(value);
        if (isObject(value)) addNestedValues(environments[name], variables, key, value);
        continue;
      }
      const read = await providers.providerValue(value, path, key, cache);
      environments[name][key] = read.value;
      if (read.secret) ((providerSecrets ??= {})[name] ??= new Set()).add(key);
    }
  }
  const file: EnvFile = { path, private: isPrivate, environments };
  if (security && Object.keys(security).length) file.security = security;
  if (providerSecrets) file.providerSecrets = providerSecrets;
  if (defaultHeaders) file.defaultHeaders = defaultHeaders;
  return file;
}

/** The default headers of `layers` over `files` (root first): later layers and nearer files win. */
export function mergeDefaultHeaders(
  files: Array<Pick<EnvFile, 'defaultHeaders'>>,
  layers: string[],
): Map<string, [string, string]> | undefined {
  let merged: Map<string, [string, string]> | undefined;
  for (const layer of layers)
    for (const file of files)
      for (const [name, value] of Object.entries(file.defaultHeaders?.[layer] ?? {}))
        (merged ??= new Map()).set(name.toLowerCase(), [name, value]);
  return merged;
}

/** The folders from `root` down to `dir` (just `dir` when it is outside the root). */
export function folderChain(dir: string, root: string): string[] {
  const from = resolve(dir);
  const top = resolve(root);
  const rel = relative(top, from);
  if (rel.startsWith('..') || rel.includes(`..${sep}`) || resolve(top, rel) !== from) return [from];
  const chain = [top];
  if (rel) {
    let current = top;
    for (const part of rel.split(sep)) chain.push((current = join(current, part)));
  }
  return chain;
}

/** Folders walked at most when looking for env files away from a file's folder chain. */
const ENV_FOLDER_WALK_LIMIT = 2000;

/**
 * The folders under `root` that hold `http-client.env.json` or `http-client.private.env.json`
 * (node_modules, .git and hidden folders skipped, as `dial check` skips them). A workspace too big
 * to walk within the limit gives no answer (empty), rather than a partial one.
 */
async function findEnvFolders(root: string): Promise<string[]> {
  const found: string[] = [];
  const queue = [root];
  for (let visited = 0; queue.length > 0; visited++) {
    if (visited >= ENV_FOLDER_WALK_LIMIT) return [];
    const folder = queue.shift()!;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    if (entries.some((entry) => entry.isFile() && (entry.name === ENV_FILE || entry.name === PRIVATE_ENV_FILE)))
      found.push(folder);
    for (const entry of entries)
      if (entry.isDirectory() && entry.name !== 'node_modules' && !entry.name.startsWith('.'))
        queue.push(join(folder, entry.name));
  }
  return found;
}

/** Loads env files and `.env` for one workspace, caching every file read. */
export class EnvStore {
  private readonly files = new Map<string, Promise<EnvFile | undefined>>();
  private dotenvFile?: Promise<Dotenv | undefined>;
  private readonly vscode = new Map<string, Promise<EnvFile[]>>();
  private readonly env: Record<string, string | undefined>;
  private envFolders?: Promise<string[]>;

  /**
   * `options.env`: where the user's VS Code settings are looked for (HOME, XDG_CONFIG_HOME,
   * APPDATA, DIAL_VSCODE_USER_SETTINGS); default process.env.
   */
  constructor(
    readonly root: string,
    options: { env?: Record<string, string | undefined> } = {},
  ) {
    this.env = options.env ?? process.env;
  }

  private load(path: string, isPrivate: boolean): Promise<EnvFile | undefined> {
    let pending = this.files.get(path);
    if (!pending) {
      pending = readText(path).then((text) => (text === undefined ? undefined : parseEnvFile(text, path, isPrivate)));
      this.files.set(path, pending);
    }
    return pending;
  }

  /** REST Client's environments in VS Code's settings for a file in `dir`, lowest level first (./vscode-settings.ts). */
  private vscodeFiles(dir: string): Promise<EnvFile[]> {
    const key = resolve(dir);
    let pending = this.vscode.get(key);
    if (!pending) {
      pending = import('./vscode-settings.js').then((module) => module.vscodeEnvironmentFiles(key, this.env));
      this.vscode.set(key, pending);
    }
    return pending;
  }

  /**
   * Env files that apply to a `.http` file in `dir`, root first, public before private in each
   * folder; REST Client's environments in VS Code's settings (the user's, the workspace file's,
   * the folder's `.vscode/settings.json`, in that order) come before all.
   */
  async filesFor(dir: string, options: EnvReadOptions = {}): Promise<EnvFile[]> {
    const loaded = await Promise.all([
      this.vscodeFiles(dir),
      ...folderChain(dir, this.root).flatMap((folder) => this.folderFiles(folder)),
    ]);
    const files = loaded.flat().filter((file): file is EnvFile => file !== undefined);
    return options.vscodeUser === false ? files.filter((file) => file.vscode !== 'user') : files;
  }

  /** Environment names defined for `dir` (without `$shared`). */
  async names(dir: string = this.root, options: EnvReadOptions = {}): Promise<string[]> {
    const names = new Set<string>();
    for (const file of await this.filesFor(dir, options))
      for (const name of Object.keys(file.environments)) if (name !== SHARED_ENV) names.add(name);
    return [...names].sort();
  }

  /** A folder's env files, public before private: JetBrains' private one, then the user's. */
  private folderFiles(folder: string): Array<Promise<EnvFile | undefined>> {
    return [
      this.load(join(folder, ENV_FILE), false),
      this.load(join(folder, PRIVATE_ENV_FILE), true),
      this.load(join(folder, USER_ENV_FILE), true),
    ];
  }

  /**
   * JetBrains reads env files anywhere in the project, not only beside the `.http` file or above it
   * (observed by httpyac's maintainer in IntelliJ: AnWeber/vscode-httpyac#9, #94; an environment
   * two files both define is an error there). dial keeps its folder chain and, only when that chain
   * holds no env file at all and `-e NAME` names an environment it lacks, looks for the one folder
   * of the workspace that holds env files (`http/` requests beside an `http-client/` folder, held-out
   * sweep 14). Two or more such folders are not merged: the environment stays unknown.
   */
  private async soleEnvFolderFiles(): Promise<EnvFile[]> {
    this.envFolders ??= findEnvFolders(this.root);
    const folders = await this.envFolders;
    if (folders.length !== 1) return [];
    const loaded = await Promise.all(this.folderFiles(folders[0]));
    return loaded.filter((file): file is EnvFile => file !== undefined);
  }

  /** The variables of environment `name` (plus `$shared`) for a `.http` file in `dir`. Unknown name -> E_ENV. */
  async resolve(dir: string, name?: string, options: EnvReadOptions = {}): Promise<ResolvedEnvironment> {
    let files = await this.filesFor(dir, options);
    // The chain's env files are those no VS Code level gave: with none, the workspace's sole env folder.
    if (
      name !== undefined &&
      name !== SHARED_ENV &&
      !files.some((file) => file.environments[name] || file.vscode === undefined)
    ) {
      const elsewhere = await this.soleEnvFolderFiles();
      if (elsewhere.some((file) => file.environments[name])) files = [...files, ...elsewhere];
    }
    if (
      name !== undefined &&
      name !== SHARED_ENV &&
      !files.some((file) => file.environments[name]) &&
      !(await import('./httpyac-names.js').then((module) => module.httpyacDefines(dir, this.root, name)))
    ) {
      const known = await this.names(dir, options);
      const userOnly =
        options.vscodeUser === false &&
        (await this.filesFor(dir)).find((file) => file.vscode === 'user' && file.environments[name]);
      throw new DialError('E_ENV', `unknown environment '${name}'`, {
        hint: userOnly
          ? `only your VS Code user settings (${userOnly.path}) define it, and they are read for REST Client files and files that name no tool, not for this one`
          : files.length === 0
            ? `no ${ENV_FILE} found between ${dir} and the workspace root ${this.root}`
            : `environments: ${known.join(', ') || '(none besides $shared)'} (from ${files.map((file) => file.path).join(', ')})`,
      });
    }
    const values = new Map<string, string>();
    const secretNames = new Set<string>();
    const sources = new Map<string, string>();
    const shared = new Map<string, string>();
    const layers = name && name !== SHARED_ENV ? [SHARED_ENV, name] : [SHARED_ENV];
    for (const layer of layers) {
      for (const file of files) {
        const variables = file.environments[layer];
        if (!variables) continue;
        for (const [key, value] of Object.entries(variables)) {
          if (layer === SHARED_ENV) shared.set(key, value);
          values.set(key, value);
          sources.set(key, file.path);
          if (file.private || file.providerSecrets?.[layer]?.has(key)) secretNames.add(key);
        }
      }
    }
    const auth = files.some((file) => file.security) ? mergeAuthConfigs(files, layers) : undefined;
    const defaultHeaders = files.some((file) => file.defaultHeaders) ? mergeDefaultHeaders(files, layers) : undefined;
    const resolved: ResolvedEnvironment = {
      name,
      values,
      secretNames,
      files: files.map((file) => file.path),
      sources,
      shared,
    };
    if (auth) resolved.auth = auth;
    if (defaultHeaders) resolved.defaultHeaders = defaultHeaders;
    return resolved;
  }

  /** The workspace root's `.env`, if any. */
  dotenv(): Promise<Dotenv | undefined> {
    if (!this.dotenvFile) {
      const path = join(this.root, DOTENV_FILE);
      this.dotenvFile = readText(path).then((text) =>
        text === undefined ? undefined : { path, values: parseDotenv(text) },
      );
    }
    return this.dotenvFile;
  }

  /** Env files anywhere in the chain of `dir` — for messages. */
  async describe(dir: string): Promise<string[]> {
    return (await this.filesFor(dir)).map((file) => shownEnvPath(this.root, file.path));
  }

  /** Each environment name of `dir` (without `$shared`), sorted, with the files that define it, lowest first. */
  async origins(dir: string = this.root): Promise<Map<string, EnvOrigin[]>> {
    const origins = new Map<string, EnvOrigin[]>();
    for (const file of await this.filesFor(dir))
      for (const name of Object.keys(file.environments)) {
        if (name === SHARED_ENV) continue;
        const origin: EnvOrigin = { path: shownEnvPath(this.root, file.path) };
        if (file.vscode) origin.vscode = file.vscode;
        origins.set(name, [...(origins.get(name) ?? []), origin]);
      }
    return new Map([...origins].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

/** An env file's path for messages: relative to the workspace root, absolute when it lies outside (the user's VS Code settings). */
export function shownEnvPath(root: string, path: string): string {
  const rel = relative(root, path);
  return !rel ? path : rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/** Env file names as a convenience for discovery code. */
export function isEnvFileName(path: string): boolean {
  const base = path.slice(dirname(path).length + 1);
  return base === ENV_FILE || base === PRIVATE_ENV_FILE || base === USER_ENV_FILE;
}
