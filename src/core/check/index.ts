/**
 * `dial check`: finds what would fail before anything is sent. Every file is parsed, then
 * checked on its own (metadata, duplicate names, JSON bodies, files it reads) and against each
 * environment its folder sees (undefined variables); env files that do not parse, or that no
 * `.http` file reads, are reported too.
 */
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { statSync } from 'node:fs';
import { DialError, isDialError } from '../errors.js';
import type { HttpFile } from '../httpfile/types.js';
import type { Finding } from './types.js';
import { checkRequests, reporterFor } from './requests.js';
import { checkVariables, scriptedNames, type EnvironmentValues } from './variables.js';
import { checkPrecedence } from './precedence.js';

export type { Finding, Severity, FindingRule } from './types.js';
export { formatFindings, githubAnnotations } from './report.js';

export interface CheckOptions {
  paths: string[];
  cwd: string;
  /** Check this environment only (default: every environment the file's folder sees). */
  environment?: string;
  cliVariables: Record<string, string>;
}

export interface CheckResult {
  findings: Finding[];
  files: number;
  /** The user's VS Code settings files whose REST Client environments the checked files see (they are outside the workspace, so the command names them). */
  userSettings: string[];
}

function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path) || path;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** Findings from an error with a location (parse, env file). */
function errorFinding(error: unknown, cwd: string, rule: Finding['rule']): Finding {
  if (isDialError(error) && error.location) {
    const { file, line, col } = error.location;
    return {
      file: shownPath(resolve(cwd, file), cwd),
      line,
      col: col ?? 1,
      severity: 'error',
      rule,
      message: error.message,
    };
  }
  throw error;
}

const ENV_FILE_NAME = /^http-client(\.private)?\.env\.json$/;
const SKIPPED = new Set(['node_modules', '.git']);

/** Env files under the root (vendor and hidden folders skipped). */
async function findEnvFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && !SKIPPED.has(entry.name) && !entry.name.startsWith('.'))
      found.push(...(await findEnvFiles(path)));
    else if (entry.isFile() && ENV_FILE_NAME.test(entry.name)) found.push(path);
  }
  return found;
}

/** Env files that parse badly (errors) or that apply to none of the workspace's .http files (warnings). */
async function checkEnvFiles(root: string, httpDirs: string[], cwd: string, findings: Finding[]): Promise<Set<string>> {
  const { parseEnvFile } = await import('../env/env-store.js');
  const broken = new Set<string>();
  const envFiles = await findEnvFiles(root);
  // The workspace's only env folder is read by every file whose folder chain holds none
  // (EnvStore: JetBrains reads env files anywhere in the project).
  const soleFolder = new Set(envFiles.map((path) => dirname(path))).size === 1;
  for (const path of envFiles) {
    try {
      await parseEnvFile(await readFile(path, 'utf8'), path, /\.private\.env\.json$/.test(path));
    } catch (error) {
      findings.push(errorFinding(error, cwd, 'env-file'));
      broken.add(dirname(path));
      continue;
    }
    const dir = dirname(path);
    const reached =
      (soleFolder && httpDirs.length > 0) ||
      httpDirs.some((httpDir) => httpDir === dir || httpDir.startsWith(dir + sep));
    if (!reached) {
      findings.push({
        file: shownPath(path, cwd),
        line: 1,
        col: 1,
        severity: 'warning',
        rule: 'env-file',
        message: 'no .http file reads this env file (only files in its folder and below do)',
      });
    }
  }
  return broken;
}

/**
 * REST Client's VS Code settings outside the workspace: a user settings or workspace file that
 * does not parse is a warning at its line; the user settings files that give environments to
 * files in `readers` (the folders of files that read them, readsVscodeUserSettings) are returned.
 */
async function vscodeSettingsFindings(
  store: import('../env/env-store.js').EnvStore,
  paths: string[],
  readers: Set<string>,
  cwd: string,
  findings: Finding[],
): Promise<string[]> {
  const { vscodeSettingsProblems } = await import('../env/vscode-settings.js');
  const reported = new Set<string>();
  const userSettings = new Set<string>();
  for (const dir of new Set(paths.map((path) => dirname(path)))) {
    for (const problem of vscodeSettingsProblems(dir)) {
      if (reported.has(problem.path)) continue;
      reported.add(problem.path);
      const rel = relative(cwd, problem.path);
      findings.push({
        file: rel.startsWith('..') ? problem.path : shownPath(problem.path, cwd),
        line: problem.line,
        col: 1,
        severity: 'warning',
        rule: 'env-file',
        message: `does not parse: ${problem.message}: its REST Client environments (${problem.what}) are not read`,
      });
    }
    if (!readers.has(dir)) continue;
    try {
      for (const file of await store.filesFor(dir)) if (file.vscode === 'user') userSettings.add(file.path);
    } catch {
      // An env file that does not parse is reported by checkEnvFiles.
    }
  }
  return [...userSettings];
}

/** The environments to check a folder against. */
async function environmentsFor(
  store: import('../env/env-store.js').EnvStore,
  dir: string,
  only: string | undefined,
  httpyac: boolean,
  vscodeUser: boolean,
): Promise<EnvironmentValues[]> {
  // httpyac files also read httpyac's env/*.env files and JSON config (core/vars/httpyac-env.ts).
  const withHttpyac = httpyac ? (await import('../vars/httpyac-env.js')).withHttpyacEnvironment : undefined;
  const httpyacNames = httpyac
    ? await (await import('../env/httpyac-names.js')).httpyacEnvironmentNames(dir, store.root)
    : [];
  const names =
    only !== undefined ? [only] : [...new Set([...(await store.names(dir, { vscodeUser })), ...httpyacNames])].sort();
  const values = async (name?: string): Promise<EnvironmentValues> => {
    const base = await store.resolve(dir, name, { vscodeUser });
    const resolved = withHttpyac ? await withHttpyac(base, dir, name) : base;
    return {
      ...(name !== undefined && { name }),
      values: resolved.values,
      auth: new Set(resolved.auth?.keys()),
      sources: resolved.sources,
      secretNames: resolved.secretNames,
    };
  };
  if (names.length === 0) return [await values()];
  return Promise.all(names.map((name) => values(name)));
}

/** Runs every check over the files under the given paths. */
export async function checkFiles(options: CheckOptions): Promise<CheckResult> {
  const [{ findWorkspaceRoot, discoverHttpFiles }, { EnvStore, readsVscodeUserSettings }, { parseHttpFile }] =
    await Promise.all([
      import('../workspace/discover.js'),
      import('../env/env-store.js'),
      import('../httpfile/index.js'),
    ]);
  const given = options.paths.length ? options.paths.map((p) => resolve(options.cwd, p)) : [options.cwd];
  let start = given[0];
  try {
    if (!statSync(start).isDirectory()) start = dirname(start);
  } catch {
    start = options.cwd;
  }
  const root = findWorkspaceRoot(start);
  const findings: Finding[] = [];
  const paths = (await discoverHttpFiles(root, given)).sort();
  if (paths.length === 0)
    throw new DialError('E_NOT_FOUND', `no .http or .rest files in ${options.paths.join(', ') || options.cwd}`, {
      hint: 'give .http files or folders that hold them',
    });
  // Every file of the workspace may define a request another one references.
  const workspace = (await discoverHttpFiles(root, [root])).sort();
  const parsed = new Map<string, HttpFile>();
  for (const path of new Set([...paths, ...workspace])) {
    try {
      parsed.set(path, parseHttpFile(await readFile(path, 'utf8'), path));
    } catch (error) {
      if (paths.includes(path)) findings.push(errorFinding(error, options.cwd, 'parse'));
    }
  }
  const all = [...parsed.values()];
  const requestNames = new Set(all.flatMap((file) => file.requests.flatMap((r) => (r.name ? [r.name] : []))));
  const store = new EnvStore(root);
  const dotenv = (await store.dotenv())?.values ?? new Map<string, string>();
  const broken = await checkEnvFiles(
    root,
    workspace.map((p) => dirname(p)),
    options.cwd,
    findings,
  );
  const scope = { cliVariables: options.cliVariables, scripted: scriptedNames(all), requestNames, dotenv };
  for (const path of paths) {
    const file = parsed.get(path);
    if (!file) continue;
    const shown = shownPath(path, options.cwd);
    // What `dial run` prints as warnings (a request line read as body, lines after a body…).
    for (const warning of file.warnings ?? [])
      findings.push({
        file: shown,
        line: warning.line,
        col: 1,
        severity: 'warning',
        rule: 'parse',
        message: warning.message,
      });
    // Requests the file's tool cannot read (the rest of the file runs): `dial run` refuses each at its line.
    for (const request of file.requests)
      if (request.refused)
        findings.push({
          file: shown,
          line: request.refused.line,
          col: request.refused.col,
          severity: 'error',
          rule: 'parse',
          message: request.refused.message,
        });
    const report = reporterFor(file, shown, findings);
    checkRequests(file, report, requestNames);
    const dir = dirname(path);
    if ([...broken].some((b) => dir === b || dir.startsWith(b + sep))) continue;
    const environments = await environmentsFor(
      store,
      dir,
      options.environment,
      file.dialect === 'httpyac',
      readsVscodeUserSettings(file),
    );
    checkVariables(file, environments, scope, report, importedVariables(file, parsed));
    checkPrecedence(file, environments, options.cwd, report, options.cliVariables);
  }
  const readers = new Set(
    paths.filter((path) => parsed.has(path) && readsVscodeUserSettings(parsed.get(path)!)).map((path) => dirname(path)),
  );
  const userSettings = await vscodeSettingsFindings(store, paths, readers, options.cwd, findings);
  findings.sort((a, b) => (a.file === b.file ? a.line - b.line || a.col - b.col : a.file < b.file ? -1 : 1));
  return { findings, files: paths.length, userSettings };
}

/**
 * httpyac's `# @import ./other.http`: the imported files' variables (and theirs, transitively)
 * are defined in the importing file too, under its own.
 */
function importedVariables(
  file: HttpFile,
  parsed: Map<string, HttpFile>,
  seen = new Set<string>(),
): Map<string, string> {
  const variables = new Map<string, string>();
  for (const imported of file.httpyacImports ?? []) {
    const path = resolve(dirname(file.path), imported.path);
    const other = parsed.get(path);
    if (!other || seen.has(path)) continue;
    seen.add(path);
    for (const [name, value] of importedVariables(other, parsed, seen)) variables.set(name, value);
    for (const variable of other.variables) variables.set(variable.name, variable.value);
  }
  return variables;
}
