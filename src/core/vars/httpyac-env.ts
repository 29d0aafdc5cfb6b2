/**
 * httpyac's environments: `.env` files in an `env/` folder (or beside the `.http` file), the
 * nameless `.env` always, `<name>.env` and `.env.<name>` when environment `name` is chosen; and the `environments`
 * and `defaultHeaders` of its JSON config (`.httpyac.json`, `httpyac.config.json`):
 * `$shared` always, the chosen environment or else `$default`. Used for files read in the
 * httpyac dialect, under the JetBrains env files (which win on a clash).
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { createRequire } from 'node:module';
import { defaultNodeAccess } from '../script/trust.js';
import { DialError } from '../errors.js';
import { parseDotenv } from '../env/dotenv.js';
import { lineColAt, parseJsonText } from '../env/json-file.js';
import type { ResolvedEnvironment } from '../env/index.js';
import { SCRIPT_CONFIGS } from '../env/httpyac-names.js';
import { literalConfig } from './js-literal.js';

const JSON_CONFIGS = ['.httpyac.json', 'httpyac.config.json'];

interface HttpyacConfig {
  path: string;
  values: Map<string, string>;
  headers: Array<[string, string]>;
}

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** The config's `environments` ($shared, then `name` or else $default) and `defaultHeaders`. */
function configParts(data: Record<string, unknown> | null, path: string, name: string | undefined): HttpyacConfig {
  const environments = (data?.environments ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const values = new Map<string, string>();
  for (const layer of ['$shared', name ?? '$default'])
    for (const [key, value] of Object.entries(environments[layer] ?? {})) values.set(key, text(value));
  const headers = Object.entries((data?.defaultHeaders ?? {}) as Record<string, unknown>).map(
    ([header, value]): [string, string] => [header, text(value)],
  );
  return { path, values, headers };
}

/**
 * A JavaScript config (`httpyac.config.js`, …) that sets environments or default headers: in a
 * workspace given Node access (`dial trust`, `--allow-node`) it is loaded with Node, as httpyac
 * does, and read like the JSON one; elsewhere refused where it names them, so requests never go
 * out without them (loading it runs its code).
 */
function scriptConfig(
  folder: string,
  name: string | undefined,
  configs: ScriptConfigSource[],
): HttpyacConfig | undefined {
  for (const { fileName, path, source } of configs) {
    const at = source.search(/\b(?:environments|defaultHeaders)\b/);
    if (at < 0) continue;
    // A config that is one literal object runs nothing: read it as the JSON one is.
    const literal = literalConfig(source);
    if (literal) return configParts(literal, path, name);
    const { line, col } = lineColAt(source, at);
    const location = { file: path, line, col, excerpt: source.split(/\r?\n/)[line - 1] };
    if (!defaultNodeAccess()(path)) {
      throw new DialError(
        'E_ENV',
        `${fileName}: environments and default headers in a JavaScript config are read only where scripts may use Node`,
        {
          location,
          hint: `loading it runs its code: if you trust this folder, run \`dial trust ${folder}\` (or pass --allow-node); or move them to a .httpyac.json next to it ({"environments": {…}, "defaultHeaders": {…}})`,
        },
      );
    }
    const loaded = loadScriptConfig(fileName, path);
    if (loaded === null || typeof loaded !== 'object')
      throw new DialError('E_ENV', `${fileName}: a config that is not an object (a function, say) is not read`, {
        location,
        hint: 'export the settings object itself: module.exports = { environments: {…} }',
      });
    return configParts(loaded as Record<string, unknown>, path, name);
  }
  return undefined;
}

/** Loads a JavaScript config with Node's require, as httpyac does (only where scripts may use Node). */
function loadScriptConfig(fileName: string, path: string): unknown {
  try {
    // Node's own require (the bundle turns import() of a path into require too); an ES module
    // config loads through it where Node can require ES modules.
    const module = createRequire(path)(path) as { default?: unknown; __esModule?: boolean };
    return module && typeof module === 'object' && 'default' in module ? module.default : module;
  } catch (error) {
    const esm = (error as { code?: string }).code === 'ERR_REQUIRE_ESM';
    throw new DialError(
      'E_ENV',
      `${fileName} could not be loaded: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      {
        location: { file: path, line: 1 },
        ...(esm && {
          hint: 'this Node cannot require an ES module config: write module.exports = {…}, or use a .httpyac.json',
        }),
      },
    );
  }
}

/**
 * httpyac's `cookieJarEnabled: false` (cookieJarInterceptor): its requests neither send nor keep
 * cookies. The nearest config that sets it decides (a JSON config, a literal JavaScript one, or a
 * JavaScript one loaded where scripts may use Node; elsewhere that one is refused at the line).
 * `folders` are nearest first, each with its JavaScript configs as withHttpyacEnvironment read them.
 * Returns where it is switched off (`file:line`), or undefined when the jar stays on.
 */
async function cookieJarSwitchedOff(folders: Array<[string, ScriptConfigSource[]]>): Promise<string | undefined> {
  for (const [folder, configs] of folders) {
    for (const { fileName, path, source } of configs) {
      const at = source.search(/\bcookieJarEnabled\b/);
      if (at < 0) continue;
      const { line, col } = lineColAt(source, at);
      let config: unknown = literalConfig(source);
      if (!config) {
        if (!defaultNodeAccess()(path))
          throw new DialError(
            'E_ENV',
            `${fileName}: cookieJarEnabled in a JavaScript config is read only where scripts may use Node`,
            {
              location: { file: path, line, col, excerpt: source.split(/\r?\n/)[line - 1] },
              hint: `it decides whether cookies are sent: if you trust this folder, run \`dial trust ${folder}\` (or pass --allow-node); or move it to a .httpyac.json next to it ({"cookieJarEnabled": false})`,
            },
          );
        config = loadScriptConfig(fileName, path);
      }
      const value = (config as { cookieJarEnabled?: unknown } | null)?.cookieJarEnabled;
      return value === false ? `${path}:${line}` : undefined;
    }
    for (const fileName of JSON_CONFIGS) {
      const path = join(folder, fileName);
      const source = await readIfPresent(path);
      if (source === undefined || !/"cookieJarEnabled"/.test(source)) continue;
      const data = parseJsonText(source, path, 'E_ENV') as { cookieJarEnabled?: unknown } | null;
      const at = source.search(/"cookieJarEnabled"/);
      return data?.cookieJarEnabled === false ? `${path}:${lineColAt(source, at).line}` : undefined;
    }
  }
  return undefined;
}

/**
 * A config whose `configureHooks(api)` hands `api` on (`plugin(api)`, `require('./x')(api)`): the
 * code it hands it to may register any hook. dial reads that code when the config requires it from
 * a relative path and refuses a hook there that changes what is sent (as for a config's own); code
 * it cannot read is refused at the call, as it may change the request (a plugin that turns a YAML
 * body into JSON, say).
 */
async function refuseHandedApi(configs: ScriptConfigSource[]): Promise<void> {
  for (const { fileName, path, source } of configs) {
    const signature = /\bconfigureHooks\s*(?::\s*(?:async\s+)?(?:function\b[^(]*)?\s*\(?|\()\s*([A-Za-z_$][\w$]*)/.exec(
      source,
    );
    if (!signature) continue;
    const api = signature[1];
    const handed = new RegExp(
      `([A-Za-z_$][\\w$.]*\\s*(?:\\([^()]*\\))?)\\s*\\(\\s*(?:[^()]*,\\s*)?${api}\\s*[,)]`,
      'g',
    );
    handed.lastIndex = signature.index + signature[0].length;
    for (let call = handed.exec(source); call; call = handed.exec(source)) {
      const callee = call[1].trim();
      if (/^(?:function|if|while|for|switch|return)$/.test(callee)) continue;
      const target = await handedCode(path, source, callee);
      // Code dial can read: refused where it registers a hook that changes what is sent, else fine.
      if (target) {
        refuseSendingHook([target]);
        continue;
      }
      const { line, col } = lineColAt(source, call.index);
      throw new DialError(
        'E_ENV',
        `${fileName}: configureHooks hands httpyac's api to ${callee}, which may register hooks that change what httpyac sends; dial runs none`,
        {
          location: { file: path, line, col, excerpt: source.split(/\r?\n/)[line - 1] },
          hint: 'send these files with httpyac, or do what the plugin does in the .http files themselves',
        },
      );
    }
  }
}

/** The source `callee` is loaded from, when the config requires it from a relative path (`require('./plugin')`). */
async function handedCode(path: string, source: string, callee: string): Promise<ScriptConfigSource | undefined> {
  const inline = /^require\(\s*(['"])([^'"]+)\1\s*\)$/.exec(callee)?.[2];
  const name = callee.split('.')[0];
  const spec =
    inline ??
    new RegExp(`\\b(?:const|let|var)\\s+${name}\\s*=\\s*require\\(\\s*(['"])([^'"]+)\\1\\s*\\)`).exec(source)?.[2] ??
    new RegExp(`\\bimport\\s+${name}\\s+from\\s+(['"])([^'"]+)\\1`).exec(source)?.[2];
  if (!spec || !/^\.{1,2}\//.test(spec)) return undefined;
  const base = resolvePath(dirname(path), spec);
  for (const candidate of [base, `${base}.js`, `${base}.cjs`, join(base, 'index.js')]) {
    const text = await readIfPresent(candidate);
    if (text !== undefined) return { fileName: spec, path: candidate, source: text };
  }
  return undefined;
}

/**
 * httpyac hooks that change what is parsed or sent (onRequest edits the request, replaceVariable
 * the values, execute/parse* the steps, provideEnvironments the environments). dial runs no config
 * hooks and no plugins, so a config or plugin registering one is refused before anything is sent.
 * responseLogging and onStreaming only log; provideVariables and onResponse add variables, which the
 * undefined-variable error names (variableHook); provideAssertValue only adds test kinds.
 */
const SENDING_HOOK_RE =
  /\bhooks\s*\.\s*(onRequest|replaceVariable|execute|parse|parseMetaData|parseEndRegion|provideEnvironments)\b/;

function refuseSendingHook(configs: ScriptConfigSource[]): void {
  for (const { fileName, path, source } of configs) {
    const match = SENDING_HOOK_RE.exec(source);
    if (!match) continue;
    const { line, col } = lineColAt(source, match.index);
    throw new DialError(
      'E_ENV',
      `${fileName}: it registers an httpyac ${match[1]} hook, which dial does not run (it changes what httpyac sends)`,
      {
        location: { file: path, line, col, excerpt: source.split(/\r?\n/)[line - 1] },
        hint:
          match[1] === 'onRequest'
            ? 'do what the hook does in the .http files: a `{{@request}}` block changes the request before it is sent, defaultHeaders in a .httpyac.json add headers'
            : 'send these files with httpyac, or do what the hook does in the .http files themselves',
      },
    );
  }
}

/** httpyac's plugin names (configUtils.isPlugin): dependencies httpyac loads and whose hooks it runs. */
const PLUGIN_RE = /^(?:httpyac-|@[\w-]+\.?[\w-]+\/httpyac-)plugin-/;

/** A plugin's main script, as httpyac's require would find it; undefined when it is not installed (httpyac skips it). */
async function pluginSource(packageDir: string, name: string, spec: unknown): Promise<ScriptConfigSource | undefined> {
  const local = typeof spec === 'string' && /^(?:file:|\.{1,2}\/|\/)/.test(spec);
  const folder = local ? resolvePath(packageDir, spec.replace(/^file:/, '')) : join(packageDir, 'node_modules', name);
  const manifest = await readIfPresent(join(folder, 'package.json'));
  let main = 'index.js';
  try {
    const declared = manifest === undefined ? undefined : (JSON.parse(manifest) as { main?: unknown }).main;
    if (typeof declared === 'string' && declared) main = declared;
  } catch {
    // httpyac's require would fail on it too: index.js is the best guess
  }
  for (const candidate of [main, `${main}.js`, join(main, 'index.js')]) {
    const path = join(folder, candidate);
    const source = await readIfPresent(path);
    if (source !== undefined) return { fileName: `${name} (httpyac plugin)`, path, source };
  }
  return undefined;
}

/**
 * httpyac loads every `httpyac-plugin-*` dependency of the nearest package.json and runs its hooks
 * on each request. dial runs none: a plugin registering a hook that changes what is sent is refused
 * at that line (one that is not installed httpyac skips, and so does dial).
 */
async function refusePlugins(dir: string): Promise<void> {
  for (const folder of envFolders(dir).filter((_, index) => index % 2 === 0)) {
    const source = await readIfPresent(join(folder, 'package.json'));
    if (source === undefined) continue;
    type Deps = Record<string, unknown> | undefined;
    let data: { dependencies?: Deps; devDependencies?: Deps } | null;
    try {
      data = JSON.parse(source) as typeof data;
    } catch {
      return;
    }
    const deps = { ...data?.devDependencies, ...data?.dependencies };
    for (const [name, spec] of Object.entries(deps)) {
      if (!PLUGIN_RE.test(name)) continue;
      const plugin = await pluginSource(folder, name, spec);
      if (plugin) refuseSendingHook([plugin]);
    }
    return;
  }
}

/**
 * A JS config's hook that adds variables (`provideVariables`, or `onResponse` setting them): dial does not
 * run it, so a variable only it gives stays undefined. Its `file:line`, for that error's hint.
 */
async function variableHook(configs: ScriptConfigSource[]): Promise<string | undefined> {
  const hookIn = async (path: string, source: string | undefined, follow: boolean): Promise<string | undefined> => {
    if (source === undefined) return undefined;
    // The hook's registration (`api.hooks.provideVariables.addHook(…)`), else any mention of it.
    const registered = source.search(/\bhooks\s*\.\s*(?:provideVariables|onResponse)\b/);
    const at = registered >= 0 ? registered : source.search(/\bprovideVariables\b/);
    if (at >= 0) return `${path}:${lineColAt(source, at).line}`;
    // A config that hands over to another one: `require(path.join(__dirname, 'infra', 'httpyac.config.js'))`.
    const delegate = follow ? /require\(([^)]*config\.c?js['"][^)]*)\)/.exec(source) : null;
    if (!delegate) return undefined;
    const parts = [...delegate[1].matchAll(/['"]([^'"]+)['"]/g)].map((match) => match[1]);
    const delegatePath = join(dirname(path), ...parts);
    return hookIn(delegatePath, await readIfPresent(delegatePath), false);
  };
  for (const { path, source } of configs) {
    const found = await hookIn(path, source, true);
    if (found) return found;
  }
  return undefined;
}

interface ScriptConfigSource {
  fileName: string;
  path: string;
  source: string;
}

/** The JavaScript configs in `folder`, read once for both their settings and their hooks. */
async function scriptConfigSources(folder: string): Promise<ScriptConfigSource[]> {
  const found: ScriptConfigSource[] = [];
  for (const fileName of SCRIPT_CONFIGS) {
    const path = join(folder, fileName);
    const source = await readIfPresent(path);
    if (source !== undefined) found.push({ fileName, path, source });
  }
  return found;
}

/** A file's text, or undefined when it cannot be read (httpyac skips such a config or .env file). */
async function readIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The `environments` ($shared, then `name` or else $default) and `defaultHeaders` of a JSON config in `folder`. */
async function readConfig(folder: string, name: string | undefined): Promise<HttpyacConfig | undefined> {
  for (const fileName of JSON_CONFIGS) {
    const path = join(folder, fileName);
    const source = await readIfPresent(path);
    if (source === undefined) continue;
    return configParts(parseJsonText(source, path, 'E_ENV') as Record<string, unknown> | null, path, name);
  }
  return undefined;
}

async function readValues(path: string): Promise<Map<string, string> | undefined> {
  const source = await readIfPresent(path);
  return source === undefined ? undefined : parseDotenv(source);
}

/** The `.env` files httpyac reads for a file in `dir`, nearest folder first up to the repository root. */
function envFolders(dir: string): string[] {
  const folders: string[] = [];
  for (let at = dir; ;) {
    folders.push(at, join(at, 'env'));
    const parent = dirname(at);
    if (parent === at || existsSync(join(at, '.git'))) break;
    at = parent;
  }
  return folders;
}

/** Adds httpyac's `.env` values under `base` (base values win); returns base unchanged when there are none. */
export async function withHttpyacEnvironment(
  base: ResolvedEnvironment,
  dir: string,
  name: string | undefined,
): Promise<ResolvedEnvironment> {
  const values = new Map<string, string>();
  const files: string[] = [];
  const sources = new Map<string, string>();
  const folders = envFolders(dir);
  // Farther folders first, so nearer files and the named environment override them.
  for (const folder of [...folders].reverse()) {
    // httpyac's dotenv provider: `.env`, then `NAME.env` and `.env.NAME` for environment NAME.
    for (const fileName of name ? ['.env', `${name}.env`, `.env.${name}`] : ['.env']) {
      const path = join(folder, fileName);
      const found = await readValues(path);
      if (!found) continue;
      files.push(path);
      for (const [key, value] of found) {
        values.set(key, value);
        sources.set(key, path);
      }
    }
  }
  await refusePlugins(dir);
  const defaultHeaders = new Map<string, [string, string]>();
  let unreadVariableHook: string | undefined;
  // Each folder's JavaScript configs, nearest folder first (the `env/` folders hold no config).
  const scriptConfigs: Array<[string, ScriptConfigSource[]]> = [];
  for (const folder of folders.filter((_, index) => index % 2 === 0).reverse()) {
    const configs = await scriptConfigSources(folder);
    scriptConfigs.unshift([folder, configs]);
    refuseSendingHook(configs);
    await refuseHandedApi(configs);
    unreadVariableHook = (await variableHook(configs)) ?? unreadVariableHook;
    const config = scriptConfig(folder, name, configs) ?? (await readConfig(folder, name));
    if (!config) continue;
    files.push(config.path);
    for (const [key, value] of config.values) {
      values.set(key, value);
      sources.set(key, config.path);
    }
    for (const [header, value] of config.headers) defaultHeaders.set(header.toLowerCase(), [header, value]);
  }
  // httpyac reads one config for the workspace: the nearest folder's that sets cookieJarEnabled decides.
  const httpyacCookieJarOff = await cookieJarSwitchedOff(scriptConfigs);
  if (files.length === 0)
    return unreadVariableHook || httpyacCookieJarOff
      ? {
          ...base,
          ...(unreadVariableHook ? { unreadVariableHook } : {}),
          ...(httpyacCookieJarOff ? { httpyacCookieJarOff } : {}),
        }
      : base;
  for (const [key, value] of base.values) values.set(key, value);
  for (const [key, source] of base.sources) sources.set(key, source);
  for (const [key, header] of base.defaultHeaders ?? []) defaultHeaders.set(key, header);
  return {
    ...base,
    values,
    files: [...files, ...base.files],
    sources,
    ...(defaultHeaders.size ? { defaultHeaders } : {}),
    ...(unreadVariableHook ? { unreadVariableHook } : {}),
    ...(httpyacCookieJarOff ? { httpyacCookieJarOff } : {}),
  };
}
