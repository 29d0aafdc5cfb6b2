/**
 * `dial run --watch`: one recursive fs.watch on the workspace; changes are debounced and
 * reported as the set of changed paths (the caller decides what to re-run).
 */
import { watch, type FSWatcher } from 'node:fs';
import { resolve } from 'node:path';

export interface WatchHandle {
  close(): void;
}

const IGNORED = /(^|[\\/])(node_modules|\.git|__snapshots__)([\\/]|$)|\.tmp$/;

/** Calls `onChange` with the absolute paths changed (debounced); ignores snapshot folders and temp files. */
export function watchForChanges(root: string, onChange: (paths: string[]) => void, debounceMs = 150): WatchHandle {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(root, { recursive: true }, (_event, name) => {
    if (!name) return;
    const path = String(name);
    if (IGNORED.test(path)) return;
    pending.add(resolve(root, path));
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      const paths = [...pending];
      pending = new Set();
      onChange(paths);
    }, debounceMs);
  });
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher.close();
    },
  };
}
