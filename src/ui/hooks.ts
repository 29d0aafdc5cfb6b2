/** The workbench's React hooks: terminal size, the first load, the spinner and the unsent request's preview. */
import { useEffect, useRef, useState } from 'react';
import { useStdout } from 'ink';
import type { HttpFile, RequestNode } from '../core/httpfile/types.js';
import type { RequestPreviewText, WorkbenchServices, WorkspaceFileEntry } from './services.js';
import type { AppAction, AppState } from './state/app-state.js';

/** The terminal size, following resizes (or a fixed size, for tests). */
export function useTerminalSize(fixed?: { columns: number; rows: number }): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = (): { columns: number; rows: number } =>
    fixed ?? { columns: stdout.columns || 100, rows: stdout.rows || 30 };
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) return;
    const onResize = (): void => setSize({ columns: stdout.columns || 100, rows: stdout.rows || 30 });
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed]);
  return size;
}

/** The workspace as read before the first frame (see startWorkbench), so that frame shows the requests. */
export interface LoadedWorkspace {
  files: WorkspaceFileEntry[];
  environments: string[];
}

/** Reads the workspace's files and environments. */
export function readWorkspace(services: WorkbenchServices): Promise<LoadedWorkspace> {
  return Promise.all([services.loadWorkspace(), services.environments()]).then(([files, environments]) => ({
    files,
    environments,
  }));
}

/** The actions that take in a loaded workspace and select the request last sent in it (where the user left off). */
export function workspaceLoadedActions(
  workspace: LoadedWorkspace,
  services: WorkbenchServices,
  environment: string | undefined,
): AppAction[] {
  const actions: AppAction[] = [{ type: 'loaded', ...workspace, environment }];
  for (const entry of workspace.files) {
    const node = entry.file?.requests.find(
      (request) => entry.file && services.requestKey(entry.file, request) === services.lastRequest,
    );
    if (node) actions.push({ type: 'selectPath', path: entry.path, requestIndex: node.index });
  }
  return actions;
}

/** Reads the workspace once, unless it was read before the first frame. */
export function useWorkspaceLoad(
  services: WorkbenchServices,
  dispatch: (action: AppAction) => void,
  state: () => AppState,
  preloaded: boolean,
): void {
  useEffect(() => {
    if (preloaded) return;
    let live = true;
    readWorkspace(services).then(
      (workspace) => {
        if (!live) return;
        for (const action of workspaceLoadedActions(workspace, services, state().environment)) dispatch(action);
      },
      (error: unknown) => {
        if (!live) return;
        dispatch({ type: 'loaded', files: [], environments: [], environment: state().environment });
        dispatch({
          type: 'toast',
          message: `cannot load the workspace: ${error instanceof Error ? error.message : String(error)}`,
        });
      },
    );
    return () => {
      live = false;
    };
  }, [services, dispatch, state, preloaded]);
}

/** A frame counter that ticks only while `active`. */
export function useSpinner(active: boolean, frames: number): number {
  const [spin, setSpin] = useState(0);
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setSpin((n) => (n + 1) % frames), 80);
    return () => clearInterval(timer);
  }, [active, frames]);
  return spin;
}

/** The resolved preview of a request that has no response of its own; recomputed when its text or the environment changes. */
export function usePreview(
  services: WorkbenchServices,
  target: { file: HttpFile; node: RequestNode; block: string } | undefined,
  environment: string | undefined,
): RequestPreviewText | undefined {
  const [preview, setPreview] = useState<{ id: string; value: RequestPreviewText } | undefined>(undefined);
  // `id` stands for the target and the environment (objects that are new at each render): the effect reads them here.
  const latest = useRef({ target, environment });
  latest.current = { target, environment };
  const id = target ? `${target.file.path}#${target.node.index}\n${environment ?? ''}\n${target.block}` : '';
  useEffect(() => {
    const wanted = latest.current;
    if (!wanted.target) return;
    let live = true;
    services.preview(wanted.target.file, wanted.target.node, wanted.environment).then(
      (value) => live && setPreview({ id, value }),
      (error: unknown) =>
        live &&
        setPreview({ id, value: { lines: [], problem: error instanceof Error ? error.message : String(error) } }),
    );
    return () => {
      live = false;
    };
  }, [id, services]);
  return preview?.id === id ? preview.value : undefined;
}
