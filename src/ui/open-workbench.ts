/**
 * Wires the workbench for `dial open`: settings (keymap, theme, editor, pager, remembered
 * environment), the core services, then the Ink screen.
 */
import { createCoreServices } from './core-services.js';
import { resolveKeymap, KeymapError } from './keymap.js';
import { themeName, ThemeError, type ThemeName } from './theme.js';
import { DialError } from '../core/errors.js';
import { closeConnections } from '../core/http/index.js';
import { loadSettings, rememberEnvironment } from '../core/settings/index.js';
import { findWorkspaceRoot } from '../core/workspace/discover.js';
import type { WorkbenchTerminal } from './start.js';

export interface OpenWorkbenchOptions {
  /** The folder given to `dial open`. */
  dir: string;
  environment?: string;
  cliVariables: Record<string, string>;
  color: boolean;
  /** Opens an OAuth 2.0 sign-in page in the browser (the command's opener: the UI starts no programs of its own). */
  openBrowser?: (url: string) => void | Promise<void>;
  /** `--cookie-jar FILE` (absolute) or `--no-cookie-jar` (false). */
  cookieJar?: string | false;
  /** Another terminal than this process's (the build's warm-up run draws on a stand-in). */
  terminal?: WorkbenchTerminal;
}

/** Opens the TUI and resolves with the exit code when the user quits. */
export async function openWorkbench(options: OpenWorkbenchOptions): Promise<number> {
  const root = findWorkspaceRoot(options.dir);
  const settings = await loadSettings(process.env);
  let keymap;
  try {
    keymap = await resolveKeymap(settings.keymap);
  } catch (error) {
    if (error instanceof KeymapError)
      throw new DialError('E_CONFIG', error.message, { hint: 'fix `keymap` with `dial config set keymap …`' });
    throw error;
  }
  let theme: ThemeName;
  try {
    theme = themeName(settings.theme);
  } catch (error) {
    if (error instanceof ThemeError)
      throw new DialError('E_CONFIG', error.message, { hint: 'fix it with `dial config set theme dark|light|mono`' });
    throw error;
  }
  // -e wins, and is remembered for this workspace as a pick with ctrl+e is; otherwise the environment last picked here.
  const environment = options.environment ?? settings.defaultEnvironment[root];
  if (options.environment !== undefined && settings.defaultEnvironment[root] !== options.environment) {
    try {
      await rememberEnvironment(root, options.environment, process.env);
    } catch {
      // Best effort, as for ctrl+e: an unwritable settings file must not keep the workbench closed.
    }
  }
  const { startWorkbench } = await import('./start.js');
  return startWorkbench({
    ...(options.terminal && { terminal: options.terminal }),
    keymap,
    color: options.color,
    theme,
    environment,
    services: (suspend) =>
      createCoreServices({
        root,
        dir: options.dir,
        environment,
        cliVariables: options.cliVariables,
        suspend,
        settings,
        ...(options.openBrowser && { openBrowser: options.openBrowser }),
        ...(options.cookieJar !== undefined && { cookieJar: options.cookieJar }),
      }),
    onClose: () => closeConnections(),
  });
}
