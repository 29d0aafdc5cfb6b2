/**
 * Visual Studio's secret providers in env files: a variable whose value is an object
 * `{"provider": …, "secretName": …}` is read from a secret store instead of the file.
 *
 * - `AspnetUserSecrets`: the ASP.NET Core user secrets of the project the env file belongs to
 *   (Microsoft: the env file sits in the project's folder; dial looks there, then in the folders
 *   above it up to the repository root, for a `.csproj`/`.fsproj`/`.vbproj` with `<UserSecretsId>`).
 *   The secrets file is where .NET's user-secrets tooling keeps it: `%APPDATA%\Microsoft\UserSecrets\
 *   <id>\secrets.json` when APPDATA is set (Windows), else `~/.microsoft/usersecrets/<id>/secrets.json`;
 *   it is read as ASP.NET Core's configuration reads it (comments and trailing commas allowed,
 *   nested objects joined with `:`, names case-insensitive). The value is a secret (masked).
 * - `AzureKeyVault` and `Encrypted` (Windows DPAPI), and any other provider, need Azure or Windows
 *   machinery dial does not have: the value becomes a placeholder that is refused where a request
 *   uses it (vars/dynamic.ts), naming the env file and the variable. An unused one costs nothing.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { stripJsonComments } from '../jsonc.js';

type Env = Record<string, string | undefined>;

/** What a provider object in an env file becomes: the value, or a placeholder refused where used. */
export interface ProviderValue {
  value: string;
  /** True when the value was read from a secret store (mask it). */
  secret: boolean;
}

/** Caches for one env file: its project's secrets (by secrets id), read once. */
export interface ProviderCache {
  project?: Promise<{ id: string } | { problem: string }>;
  secrets: Map<string, Promise<Map<string, string> | { problem: string }>>;
}

export function isProviderObject(value: unknown): value is { provider: string; secretName?: unknown } {
  return value !== null && typeof value === 'object' && typeof (value as { provider?: unknown }).provider === 'string';
}

/** A `{{$secretProvider …}}` placeholder: words the dynamic-variable parser splits back (quotes kept out). */
function placeholder(provider: string, envFile: string, key: string, detail?: string): string {
  const quote = (text: string) => `"${text.replace(/["{}]/g, "'").replace(/\s+/g, ' ')}"`;
  const name = provider.replace(/[{}\s"]/g, '') || '?';
  return `{{$secretProvider ${name} ${quote(envFile)} ${quote(key)}${detail ? ` ${quote(detail)}` : ''}}}`;
}

/** The value of one provider object at `key` of the env file at `envFile`. */
export async function providerValue(
  object: { provider: string; secretName?: unknown },
  envFile: string,
  key: string,
  cache: ProviderCache,
  env: Env = process.env,
): Promise<ProviderValue> {
  if (object.provider !== 'AspnetUserSecrets')
    return { value: placeholder(object.provider, envFile, key), secret: false };
  const name = typeof object.secretName === 'string' ? object.secretName : '';
  if (!name) return { value: placeholder('AspnetUserSecrets', envFile, key, 'it has no "secretName"'), secret: false };
  const value = await aspnetUserSecret(dirname(envFile), name, cache, env);
  return typeof value === 'string'
    ? { value, secret: true }
    : { value: placeholder('AspnetUserSecrets', envFile, key, value.problem), secret: false };
}

/** Where .NET keeps the user secrets of `id` (Microsoft.Extensions.Configuration.UserSecrets' PathHelper). */
export function userSecretsPath(id: string, env: Env = process.env): string {
  const appData = env.APPDATA;
  if (appData) return join(appData, 'Microsoft', 'UserSecrets', id, 'secrets.json');
  const root = env.HOME || homedir() || env.DOTNET_USER_SECRETS_FALLBACK_DIR || '';
  return join(root, '.microsoft', 'usersecrets', id, 'secrets.json');
}

const PROJECT_FILE = /\.(?:cs|fs|vb)proj$/i;

/** The `<UserSecretsId>` of the nearest project at or above `dir` (up to the repository root). */
async function projectSecretsId(dir: string): Promise<{ id: string } | { problem: string }> {
  for (let folder = dir; ;) {
    let projects: string[] = [];
    try {
      projects = (await readdir(folder)).filter((name) => PROJECT_FILE.test(name)).sort();
    } catch {
      // An unreadable folder has no project we can read.
    }
    if (projects.length > 0) {
      const ids = new Set<string>();
      for (const project of projects) {
        const text = await readFile(join(folder, project), 'utf8').catch(() => '');
        const match = /<UserSecretsId>\s*([^<]*?)\s*<\/UserSecretsId>/i.exec(text);
        if (match?.[1]) ids.add(match[1]);
      }
      const shown = projects.map((project) => join(folder, project)).join(', ');
      if (ids.size === 1) return { id: [...ids][0] };
      if (ids.size === 0) return { problem: `${shown} has no <UserSecretsId> (run dotnet user-secrets init there)` };
      return { problem: `the projects in ${folder} have different <UserSecretsId>s` };
    }
    const parent = dirname(folder);
    if (parent === folder || existsSync(join(folder, '.git'))) break;
    folder = parent;
  }
  return { problem: `no .csproj with a <UserSecretsId> in ${dir} or above it` };
}

/** secrets.json as ASP.NET Core's configuration sees it: `a:b` names, case-insensitive, leaf values as text. */
function flatten(data: unknown, prefix: string, out: Map<string, string>): void {
  if (data !== null && typeof data === 'object') {
    for (const [name, value] of Object.entries(data as Record<string, unknown>))
      flatten(value, prefix ? `${prefix}:${name}` : name, out);
    return;
  }
  if (data === null || data === undefined) return;
  // .NET's JsonElement.ToString() writes booleans as True/False.
  out.set(prefix.toLowerCase(), typeof data === 'boolean' ? (data ? 'True' : 'False') : String(data));
}

async function readSecrets(path: string): Promise<Map<string, string> | { problem: string }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { problem: `${path} does not exist (add the secret with dotnet user-secrets set)` };
  }
  try {
    const out = new Map<string, string>();
    flatten(JSON.parse(stripJsonComments(text)), '', out);
    return out;
  } catch (error) {
    return { problem: `${path} is not valid JSON: ${(error as Error).message}` };
  }
}

async function aspnetUserSecret(
  dir: string,
  name: string,
  cache: ProviderCache,
  env: Env,
): Promise<string | { problem: string }> {
  cache.project ??= projectSecretsId(dir);
  const project = await cache.project;
  if ('problem' in project) return project;
  // .NET refuses ids that are no file name.
  if (/[/\\:*?"<>|\0]/.test(project.id)) return { problem: `<UserSecretsId> '${project.id}' is no valid folder name` };
  const path = userSecretsPath(project.id, env);
  let secrets = cache.secrets.get(path);
  if (!secrets) {
    secrets = readSecrets(path);
    cache.secrets.set(path, secrets);
  }
  const read = await secrets;
  if (!(read instanceof Map)) return read;
  const value = read.get(name.toLowerCase());
  return value ?? { problem: `the user secret '${name}' is not in ${path}` };
}
