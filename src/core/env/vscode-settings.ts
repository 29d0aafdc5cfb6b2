/**
 * REST Client keeps environments in VS Code's settings, key `rest-client.environmentVariables`
 * (`{"$shared": {…}, "local": {…}}`, the shape of `http-client.env.json`), at any of VS Code's
 * three levels: the user's `settings.json`, a multi-root `*.code-workspace` file's `settings`,
 * and the folder's `.vscode/settings.json` (core/vscode-config.ts finds them). VS Code merges an
 * object setting key by key across the levels, the nearer level winning; giving the env store
 * one file per level, lowest first, does the same: it layers `$shared` over the files, then the
 * named environment over the files, so a variable of the nearer level wins and a named
 * environment wins over `$shared` whatever the level, as REST Client resolves the merged object.
 * (One difference: VS Code would merge an object-valued variable member by member too; dial takes
 * the nearer level's value whole.) dial reads them under the env files (theirs win).
 *
 * `rest-client.defaultHeaders` are sent with every request that does not set them (as the
 * `$shared` default headers of this file). The files are JSON with comments and trailing commas;
 * a user settings or workspace file that does not parse adds nothing and is reported once as a
 * warning at its line (a broken `.vscode/settings.json` is reported by dialect detection).
 */
import { reportParseWarnings } from '../httpfile/warnings.js';
import { isObject } from '../json-object.js';
import { findWorkspaceFile, nearestFolderSettings, readUserSettings, type SettingsProblem } from '../vscode-config.js';

/** Which of VS Code's levels a settings env file is. */
export type VscodeLevel = 'user' | 'workspace-file' | 'folder';

/** The shape of an env file (env-store's EnvFile), written out here so the two modules do not import each other. */
export interface SettingsEnvFile {
  path: string;
  private: boolean;
  environments: Record<string, Record<string, string>>;
  defaultHeaders?: Record<string, Record<string, string>>;
  vscode?: VscodeLevel;
}

const KEY = 'rest-client.environmentVariables';
const HEADERS_KEY = 'rest-client.defaultHeaders';

/** The REST Client environments and default headers of one settings object, or undefined when it has neither. */
export function settingsEnvironments(
  data: Record<string, unknown>,
  path: string,
  level: VscodeLevel,
): SettingsEnvFile | undefined {
  const environments = data[KEY];
  const headers = data[HEADERS_KEY];
  if (!isObject(environments) && !isObject(headers)) return undefined;
  const out: SettingsEnvFile['environments'] = {};
  for (const [name, variables] of Object.entries(isObject(environments) ? environments : {})) {
    if (!isObject(variables)) continue;
    out[name] = {};
    for (const [key, value] of Object.entries(variables))
      out[name][key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const file: SettingsEnvFile = { path, private: false, environments: out, vscode: level };
  if (isObject(headers)) {
    const shared: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers))
      if (typeof value === 'string' || typeof value === 'number') shared[name] = String(value);
    if (Object.keys(shared).length) file.defaultHeaders = { $shared: shared };
  }
  return file;
}

function warnUnread(problem: SettingsProblem, what: string): void {
  reportParseWarnings([
    {
      message: `${problem.path} does not parse: ${problem.message}: its REST Client environments (${what}) are not read`,
      hint:
        what === 'VS Code user settings'
          ? 'fix the JSON (comments and trailing commas are allowed), or set DIAL_VSCODE_USER_SETTINGS=0 to leave your VS Code settings out'
          : 'fix the JSON (comments and trailing commas are allowed)',
      file: problem.path,
      line: problem.line,
    },
  ]);
}

/** The user settings and workspace file that apply to a `.http` file in `dir` but do not parse (`dial check` reports them). */
export function vscodeSettingsProblems(
  dir: string,
  env: Record<string, string | undefined> = process.env,
): Array<SettingsProblem & { what: string }> {
  const problems: Array<SettingsProblem & { what: string }> = [];
  const user = readUserSettings(env);
  if (user?.problem) problems.push({ ...user.problem, what: 'VS Code user settings' });
  for (const problem of findWorkspaceFile(dir, env).problems)
    problems.push({ ...problem, what: 'a VS Code workspace file' });
  return problems;
}

/**
 * The REST Client settings that apply to a `.http` file in `dir`, lowest level first: the user's
 * settings (unless `DIAL_VSCODE_USER_SETTINGS=0`; `env` supplies HOME and the like), the
 * workspace file's, the folder's. Files without REST Client environments or headers are left out.
 */
export function vscodeEnvironmentFiles(
  dir: string,
  env: Record<string, string | undefined> = process.env,
): SettingsEnvFile[] {
  const files: SettingsEnvFile[] = [];
  const user = readUserSettings(env);
  if (user?.problem) warnUnread(user.problem, 'VS Code user settings');
  else if (user?.data) {
    const file = settingsEnvironments(user.data, user.path, 'user');
    if (file) files.push(file);
  }
  const workspace = findWorkspaceFile(dir, env);
  for (const problem of workspace.problems) warnUnread(problem, 'a VS Code workspace file');
  if (workspace.found) {
    const file = settingsEnvironments(workspace.found.settings, workspace.found.path, 'workspace-file');
    if (file) files.push(file);
  }
  const folder = nearestFolderSettings(dir).found;
  if (folder) {
    const file = settingsEnvironments(folder.data, folder.path, 'folder');
    if (file) files.push(file);
  }
  return files;
}
