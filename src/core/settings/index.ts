/**
 * Persisted settings (docs/cli.md, config): a thin typed API over config.json. Reading is fast — no
 * file, no zod — and writing goes through conf (atomic temp+rename, mode 0600). A value is
 * validated before anything is written, so a refused `config set` leaves the file untouched.
 */
import { readFileSync } from 'node:fs';
import { DialError } from '../errors.js';
import { parseDuration } from '../duration.js';
import { JsonSyntaxError, parseJson } from '../format/json.js';
import { settingsPath } from './paths.js';
import { KEYMAP_EXAMPLE } from './keymap.js';
import { plainlyValidSetting } from './plain-values.js';
import type { Settings, SettingKey } from './types.js';

export { settingsPath, historyPath, configDir, dataDir } from './paths.js';
export {
  KEYMAP_ACTIONS,
  KEYMAP_PRESETS,
  KEY_NAME,
  KEYMAP_EXAMPLE,
  keymapProblem,
  type KeymapAction,
  type KeymapProblem,
} from './keymap.js';

export type { Settings, SettingKey } from './types.js';

/** Every key, in the order `config list` shows them. */
export const SETTING_KEYS: readonly SettingKey[] = [
  'timeout',
  'followRedirects',
  'maxRedirects',
  'verifyTls',
  'historyLimit',
  'editor',
  'pager',
  'theme',
  'keymap',
  'proxy',
  'maxBodySize',
  'defaultEnvironment',
  'lastRequest',
];

/** What each key means, for `config list` and error hints. */
export const SETTING_HELP: Record<SettingKey, string> = {
  timeout: 'request timeout: 500ms, 30s, 2m (a bare number means seconds; 0 = none)',
  followRedirects: 'follow redirects: true or false (unset: send does not, .http requests do)',
  maxRedirects: 'most redirects followed',
  verifyTls: 'verify TLS certificates: true or false',
  historyLimit: 'history entries kept (0 = no history)',
  editor: 'editor command for bodies and requests (default $VISUAL, $EDITOR)',
  pager: 'pager command for responses (default $PAGER)',
  theme: 'TUI colour theme',
  keymap: `TUI key overrides as JSON, e.g. ${KEYMAP_EXAMPLE}`,
  proxy: 'proxy URL for every request (default HTTP(S)_PROXY)',
  maxBodySize: 'largest decoded response body dial run keeps: 1GiB, 512MiB or bytes (compression bombs stop sooner)',
  defaultEnvironment: 'environment last chosen per workspace (JSON object)',
  lastRequest: 'request last opened per workspace (JSON object)',
};

/** The defaults (docs/cli.md, config). */
export function defaultSettings(): Settings {
  return {
    timeout: '30s',
    maxRedirects: 10,
    verifyTls: true,
    historyLimit: 500,
    keymap: {},
    maxBodySize: '1GiB',
    defaultEnvironment: {},
    lastRequest: {},
  };
}

type Env = Record<string, string | undefined>;

/** True for a known key. */
export function isSettingKey(key: string): key is SettingKey {
  return (SETTING_KEYS as readonly string[]).includes(key);
}

/** The request timeout of settings in milliseconds (0 = none). */
export function settingsTimeoutMs(settings: Pick<Settings, 'timeout'>): number {
  return typeof settings.timeout === 'number'
    ? Math.round(settings.timeout * 1000)
    : parseDuration(settings.timeout, 'timeout setting');
}

/** Reads the raw stored object; undefined when there is no file. Throws E_CONFIG for broken JSON. */
function readStored(path: string): { text: string; data: Record<string, unknown> } | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DialError('E_CONFIG', `cannot read settings file ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const node = parseJson(text);
    if (node.type !== 'object') {
      throw new DialError('E_CONFIG', `settings file ${path} must hold a JSON object`, {
        location: { file: path, line: 1 },
        hint: `fix or delete the file (\`dial config path\` prints it)`,
      });
    }
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    const before = text.slice(0, error.offset);
    const line = before.split('\n').length;
    const col = error.offset - before.lastIndexOf('\n');
    throw new DialError('E_CONFIG', `settings file is not valid JSON: ${error.message}`, {
      location: { file: path, line, col, excerpt: text.split('\n')[line - 1] },
      hint: 'fix or delete the file; `dial config set` rewrites it',
    });
  }
  return { text, data: JSON.parse(text) as Record<string, unknown> };
}

function lineOfKey(text: string, key: string): number {
  const index = text.search(new RegExp(`"${key}"\\s*:`));
  return index < 0 ? 1 : text.slice(0, index).split('\n').length;
}

/**
 * The settings in effect: defaults overlaid with config.json. Without a file, or with one whose
 * values are plainly valid (./plain-values.ts), this does not load zod; an invalid file is an
 * E_CONFIG naming the file, line and key.
 */
export async function loadSettings(env: Env = process.env): Promise<Settings> {
  const path = settingsPath(env);
  const stored = readStored(path);
  const settings = defaultSettings();
  if (!stored) return settings;
  // zod loads only for a value that is not plainly valid (it words the error).
  const plain = SETTING_KEYS.every((key) => !(key in stored.data) || plainlyValidSetting(key, stored.data[key]));
  const { checkValue } = plain ? { checkValue: () => undefined } : await import('./schema.js');
  for (const key of SETTING_KEYS) {
    if (!(key in stored.data)) continue;
    const value = stored.data[key];
    const problem = checkValue(key, value);
    if (problem) {
      const where = [key, ...problem.path.map(String)].join('.');
      const line = lineOfKey(stored.text, key);
      throw new DialError('E_CONFIG', `invalid setting '${where}': ${problem.message}`, {
        location: { file: path, line, excerpt: stored.text.split('\n')[line - 1] },
        hint: `set a valid value with \`dial config set ${key} …\` or remove it with \`dial config unset ${key}\``,
      });
    }
    (settings as unknown as Record<string, unknown>)[key] = value;
  }
  return settings;
}

/** The values stored in the file (no defaults), for `config list` to mark what is set. */
export function storedSettingKeys(env: Env = process.env): SettingKey[] {
  const stored = readStored(settingsPath(env));
  return stored ? SETTING_KEYS.filter((key) => key in stored.data) : [];
}

/** Turns the text a user typed (`config set KEY VALUE`) into the value stored for that key. */
export function parseSettingValue(key: SettingKey, raw: string): unknown {
  switch (key) {
    case 'followRedirects':
    case 'verifyTls': {
      const lower = raw.trim().toLowerCase();
      if (['true', 'yes', 'on', '1'].includes(lower)) return true;
      if (['false', 'no', 'off', '0'].includes(lower)) return false;
      return raw;
    }
    case 'maxRedirects':
    case 'historyLimit':
      return /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
    case 'timeout':
      return /^\s*\d+(?:\.\d+)?\s*$/.test(raw) ? Number(raw) : raw.trim();
    case 'keymap':
    case 'defaultEnvironment':
    case 'lastRequest':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new DialError('E_USAGE', `'${key}' takes a JSON object, got '${raw}'`, {
          hint: `e.g. dial config set ${key} '{"…": …}'`,
        });
      }
    default:
      return raw;
  }
}

async function openStore(env: Env) {
  const path = settingsPath(env);
  // Refuse to rewrite a file we cannot read: the user's text would be lost.
  readStored(path);
  const { default: Conf } = await import('conf');
  const { dirname } = await import('node:path');
  return new Conf<Record<string, unknown>>({
    cwd: dirname(path),
    configName: 'config',
    projectSuffix: '',
    configFileMode: 0o600,
    accessPropertiesByDotNotation: false,
    clearInvalidConfig: false,
  });
}

async function validated(key: string, value: unknown): Promise<SettingKey> {
  if (!isSettingKey(key)) {
    throw new DialError('E_USAGE', `unknown setting '${key}'`, { hint: `settings are: ${SETTING_KEYS.join(', ')}` });
  }
  const { checkValue } = await import('./schema.js');
  const problem = checkValue(key, value);
  if (problem) {
    const where = [key, ...problem.path.map(String)].join('.');
    throw new DialError('E_USAGE', `invalid value for '${where}': ${problem.message}`, { hint: SETTING_HELP[key] });
  }
  return key;
}

/** Validates and stores a value typed on the command line; nothing is written when it is refused. */
export async function setSetting(key: string, raw: string, env: Env = process.env): Promise<unknown> {
  const value = isSettingKey(key) ? parseSettingValue(key, raw) : raw;
  await setSettingValue(key, value, env);
  return value;
}

/** Validates and stores a typed value (the TUI's keymap editor, remembered choices). */
export async function setSettingValue(key: string, value: unknown, env: Env = process.env): Promise<void> {
  const checked = await validated(key, value);
  const store = await openStore(env);
  store.set(checked, value);
}

/** Removes a key so its default applies again; no file is created when there is none. */
export async function unsetSetting(key: string, env: Env = process.env): Promise<void> {
  if (!isSettingKey(key)) {
    throw new DialError('E_USAGE', `unknown setting '${key}'`, { hint: `settings are: ${SETTING_KEYS.join(', ')}` });
  }
  const stored = readStored(settingsPath(env));
  if (!stored || !(key in stored.data)) return;
  const store = await openStore(env);
  store.delete(key);
}

async function updateRecord(
  key: 'defaultEnvironment' | 'lastRequest',
  root: string,
  value: string | undefined,
  env: Env,
): Promise<void> {
  const stored = readStored(settingsPath(env));
  const current = stored?.data[key];
  const record: Record<string, string> =
    current && typeof current === 'object' && !Array.isArray(current) ? { ...(current as Record<string, string>) } : {};
  if (value === undefined) delete record[root];
  else record[root] = value;
  await setSettingValue(key, record, env);
}

/** Remembers the environment chosen for a workspace (undefined forgets it). */
export function rememberEnvironment(
  workspaceRoot: string,
  name: string | undefined,
  env: Env = process.env,
): Promise<void> {
  return updateRecord('defaultEnvironment', workspaceRoot, name, env);
}

/** Remembers the request last opened in a workspace (undefined forgets it). */
export function rememberLastRequest(
  workspaceRoot: string,
  requestId: string | undefined,
  env: Env = process.env,
): Promise<void> {
  return updateRecord('lastRequest', workspaceRoot, requestId, env);
}
