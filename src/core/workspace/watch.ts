/** Noticing that request files or env files changed on disk, so the workbench shows them as they are. */
import { watch, type FSWatcher } from 'node:fs';
import { basename } from 'node:path';

/** What a changed file is to the workbench, or undefined when it does not matter. */
export function changedKind(name: string): 'http' | 'env' | undefined {
  const file = basename(name);
  if (/\.(http|rest)$/i.test(file)) return 'http';
  if (/^http-client(\.private)?\.env\.json$/i.test(file) || /^\.env(\..+)?$/.test(file)) return 'env';
  return undefined;
}

/**
 * Watches `dir` (and its subfolders) and calls `onChange` once per burst of changes (an editor's
 * save is several events; a git pull many), 150 ms after the last one. Returns the stop function;
 * where the platform cannot watch, nothing is reported (ctrl+l still reloads).
 */
export function watchWorkspace(dir: string, onChange: (kind: 'http' | 'env') => void, quietMs = 150): () => void {
  let timer: NodeJS.Timeout | undefined;
  let pending: 'http' | 'env' | undefined;
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { recursive: true, persistent: false }, (_event, name) => {
      const kind = name ? changedKind(String(name)) : undefined;
      if (!kind || String(name).split(/[\\/]/).includes('node_modules')) return;
      // An env change also reloads the requests; it wins over a plain `.http` change in the same burst.
      pending = pending === 'env' ? 'env' : kind;
      clearTimeout(timer);
      timer = setTimeout(() => {
        const kindNow = pending!;
        pending = undefined;
        onChange(kindNow);
      }, quietMs);
    });
    watcher.on('error', () => watcher?.close());
  } catch {
    return () => undefined;
  }
  return () => {
    clearTimeout(timer);
    watcher?.close();
  };
}
