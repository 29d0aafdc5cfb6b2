/**
 * Where settings and history live. `DIAL_CONFIG_DIR` puts both in one folder (tests, portable
 * installs); otherwise settings go to the platform config folder and history to the data
 * folder, as env-paths (conf's own locator) computes them for the project name 'dial'.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** The folder holding config.json. */
export function configDir(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (env.DIAL_CONFIG_DIR) return env.DIAL_CONFIG_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'dial');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'dial', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'dial');
}

/** The folder holding history.jsonl. */
export function dataDir(
  env: Env = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (env.DIAL_CONFIG_DIR) return env.DIAL_CONFIG_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'dial');
  if (platform === 'win32') return join(env.LOCALAPPDATA || join(home, 'AppData', 'Local'), 'dial', 'Data');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'dial');
}

/** The settings file. */
export function settingsPath(env: Env = process.env): string {
  return join(configDir(env), 'config.json');
}

/** The history file. */
export function historyPath(env: Env = process.env): string {
  return join(dataDir(env), 'history.jsonl');
}
