/**
 * REST Client keeps environments in VS Code's settings: `.vscode/settings.json` at the workspace
 * root, key `rest-client.environmentVariables` (`{"$shared": {…}, "local": {…}}`), the same shape
 * as `http-client.env.json`. dial reads them under the env files (theirs win). Its
 * `rest-client.defaultHeaders` are sent with every request that does not set them (as the
 * `$shared` default headers of this file). The file is JSON with comments and trailing commas;
 * one that does not parse or has neither key adds nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { stripJsonComments } from '../jsonc.js';

/** The shape of an env file (env-store's EnvFile), written out here so the two modules do not import each other. */
interface SettingsEnvFile {
  path: string;
  private: boolean;
  environments: Record<string, Record<string, string>>;
  defaultHeaders?: Record<string, Record<string, string>>;
}

export const VSCODE_SETTINGS = join('.vscode', 'settings.json');
const KEY = 'rest-client.environmentVariables';
const HEADERS_KEY = 'rest-client.defaultHeaders';

/** The REST Client environments of a workspace's VS Code settings, or undefined. */
export async function vscodeEnvironments(root: string): Promise<SettingsEnvFile | undefined> {
  const path = join(root, VSCODE_SETTINGS);
  let data: unknown;
  try {
    data = JSON.parse(stripJsonComments(await readFile(path, 'utf8')));
  } catch {
    return undefined;
  }
  const isObject = (value: unknown): value is Record<string, unknown> =>
    !!value && typeof value === 'object' && !Array.isArray(value);
  const environments = (data as Record<string, unknown> | null)?.[KEY];
  const headers = (data as Record<string, unknown> | null)?.[HEADERS_KEY];
  if (!isObject(environments) && !isObject(headers)) return undefined;
  const out: SettingsEnvFile['environments'] = {};
  for (const [name, variables] of Object.entries(isObject(environments) ? environments : {})) {
    if (!isObject(variables)) continue;
    out[name] = {};
    for (const [key, value] of Object.entries(variables))
      out[name][key] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const file: SettingsEnvFile = { path, private: false, environments: out };
  if (isObject(headers)) {
    const shared: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers))
      if (typeof value === 'string' || typeof value === 'number') shared[name] = String(value);
    if (Object.keys(shared).length) file.defaultHeaders = { $shared: shared };
  }
  return file;
}
