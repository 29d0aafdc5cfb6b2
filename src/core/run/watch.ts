/**
 * `dial run --watch`: one recursive fs.watch on the workspace; changes are debounced and
 * reported as the set of changed paths (the caller decides what to re-run).
 */
import { watch, type FSWatcher } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { HttpFile } from '../httpfile/types.js';

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

/**
 * The files a `.http` file reads when it runs (absolute paths): `< body` files, multipart
 * `< file` parts, pre-request and handler scripts, and `?? body schema` documents. A change to
 * one of them re-runs the file under --watch; files it writes (`>>`, reports) never do.
 */
export function filesReadBy(file: HttpFile): string[] {
  const dir = dirname(file.path);
  const paths = new Set<string>();
  const add = (path: string) => paths.add(resolve(dir, path.trim()));
  for (const request of file.requests) {
    if (request.body?.kind === 'file') add(request.body.path);
    if (request.body?.kind === 'inline') {
      for (const line of request.body.text.split(/\r?\n/)) {
        const part = /^<@?\s+(\S.*)$/.exec(line);
        if (part) add(part[1]);
      }
    }
    for (const script of [...request.preScripts, ...request.handlers]) if (script.kind === 'file') add(script.path);
    for (const assertion of request.assertions)
      if (assertion.predicate === 'schema' && assertion.expected) add(assertion.expected);
  }
  return [...paths];
}
