/**
 * Wires the workbench for `dial open`: settings (keymap, editor, pager, remembered
 * environment), the core services, then the Ink screen.
 */
import { createCoreServices } from './core-services.js';
import { resolveKeymap, KeymapError } from './keymap.js';
import { DialError } from '../core/errors.js';
import { closeConnections } from '../core/http/index.js';

export interface OpenWorkbenchOptions {
  root: string;
  environment?: string;
  cliVariables: Record<string, string>;
  color: boolean;
}

/** Opens the TUI and resolves with the exit code when the user quits. */
export async function openWorkbench(options: OpenWorkbenchOptions): Promise<number> {
  let keymap;
  try {
    keymap = await resolveKeymap(undefined);
  } catch (error) {
    if (error instanceof KeymapError) throw new DialError('E_CONFIG', error.message, { hint: 'fix `keymap` with `dial config set keymap …`' });
    throw error;
  }
  const { startWorkbench } = await import('./start.js');
  return startWorkbench({
    keymap,
    color: options.color,
    environment: options.environment,
    services: (suspend) => createCoreServices({ root: options.root, environment: options.environment, cliVariables: options.cliVariables, suspend }),
    onClose: () => closeConnections(),
  });
}
