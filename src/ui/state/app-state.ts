/**
 * Workbench state and its selectors. The reducer (state/reducer.ts) changes it; keys reach it
 * through the ONE dispatcher (state/keys.ts). Side effects (sending, clipboard, files) come back
 * as `Effect`s that the App runs (ui/effects.ts), so everything here is testable without rendering.
 */
import type { HttpFile, RequestNode } from '../../core/httpfile/types.js';
import { displayName } from '../../core/request-name.js';
import type { ActionName, Keymap } from '../keymap.js';
import { fuzzyFilter } from '../fuzzy.js';
import type { HistoryItem, RequestState, ResponseResult, WorkspaceFileEntry } from '../services.js';
import type { BodyEditor } from './body-editor.js';
import { initialViewerState, type ViewerAction, type ViewerState } from '../viewer/viewer-reducer.js';

export { initialViewerState };

export type Pane = 'tree' | 'request' | 'response';
export const panes: Pane[] = ['tree', 'request', 'response'];
export type Tab = 'body' | 'headers' | 'timings' | 'tests' | 'raw';
export const tabs: Tab[] = ['body', 'headers', 'timings', 'tests', 'raw'];

export interface PaletteItem {
  id: string;
  label: string;
  /** What the query is matched against (a request's title, name, method, URL and file). */
  match: string;
  kind: 'request' | 'action';
  /** For requests: the position in the tree. */
  fileIndex?: number;
  requestIndex?: number;
  action?: ActionName;
}

/** What a one-line input asks for: each purpose has its own effect on enter. */
export type InputPurpose = 'saveBody' | 'newRequest' | 'rename' | 'import';

export type Screen =
  | { kind: 'palette'; query: string; cursor: number }
  | { kind: 'environments'; cursor: number }
  /** `diffScroll`: the first diff line shown while the diff of the entry under the cursor is open. */
  | { kind: 'history'; items: HistoryItem[]; cursor: number; diff: boolean; diffScroll?: number }
  | { kind: 'help'; scroll: number }
  | { kind: 'prompt'; name: string; description?: string; value: string }
  | { kind: 'confirm'; message: string; effect: Effect }
  | { kind: 'input'; purpose: InputPurpose; label: string; value: string }
  /** An inline edit of the selected request (method, URL, query as `a=1&b=2`, or headers as `Name: value; …`). */
  | { kind: 'edit'; field: EditField; value: string }
  /** The multi-line body editor; `json`: the body is checked as JSON before it is saved. */
  | { kind: 'body'; editor: BodyEditor; json: boolean };

export type EditField = 'method' | 'url' | 'query' | 'headers';

/** What happened to one request's last send; kept per request so a request only ever shows its own response. */
export interface RequestOutcome {
  state: RequestState;
  error?: string;
  result?: ResponseResult;
  /** Date.now() when the send started. */
  startedAt: number;
  /** How long the send ran, once it ended. */
  elapsedMs?: number;
  /** The request's block text when it was sent: another text now means the response is stale. */
  sentBlock: string;
  /** Messages a streaming request (gRPC…) received so far, shown while it runs. */
  messages?: string[];
}

export interface AppState {
  screens: Screen[];
  focus: Pane;
  /** False until the workspace has been read once (the welcome screen waits for it). */
  loaded: boolean;
  files: WorkspaceFileEntry[];
  treeFilter: string;
  treeFiltering: boolean;
  treeCursor: number;
  environment?: string;
  environments: string[];
  /** Per request (outcomeKey): its last send. */
  outcomes: Record<string, RequestOutcome>;
  /** The outcomeKey of the request in flight. */
  sending?: string;
  inFlight: boolean;
  tab: Tab;
  viewer: ViewerState;
  toast?: string;
  /** Secret values are masked (••••) unless the user revealed them. */
  revealSecrets: boolean;
  /** Terminal rows the screens get (the App reports them), to page and bound scrolling. */
  screenRows: number;
}

export type TreeRow =
  | { kind: 'file'; fileIndex: number; label: string }
  | { kind: 'request'; fileIndex: number; requestIndex: number; label: string; method: string };

export type Effect =
  | { type: 'quit' }
  | { type: 'send' }
  | { type: 'cancel' }
  | { type: 'viewer'; action: ViewerAction }
  | { type: 'copyBody' }
  | { type: 'copyCurl' }
  | { type: 'saveBody'; path: string }
  | { type: 'pager' }
  | { type: 'editBody' }
  | { type: 'editRequest' }
  | { type: 'saveInline'; field: EditField; value: string }
  | { type: 'saveBodyText'; text: string }
  | { type: 'createRequest'; method: string; url: string }
  | { type: 'rename'; title: string }
  /** A curl command, or the path of a Postman collection or OpenAPI file. */
  | { type: 'import'; text: string }
  | { type: 'duplicate' }
  | { type: 'delete' }
  | { type: 'openHistory' }
  | { type: 'reload' }
  | { type: 'pickEnvironment'; name: string | undefined }
  | { type: 'promptAnswer'; value: string | undefined };

export type AppAction =
  | { type: 'key'; name: string | undefined; input: string }
  | { type: 'loaded'; files: WorkspaceFileEntry[]; environments: string[]; environment?: string }
  /** `removed` / `inserted`: a request left or joined the file at that index (later requests' outcomes follow them). */
  | { type: 'fileChanged'; fileIndex: number; file: HttpFile; select?: number; removed?: number; inserted?: number }
  | { type: 'sendStarted'; key: string; sentBlock: string; at: number }
  | { type: 'requestState'; state: RequestState; error?: string; at?: number }
  | { type: 'response'; result: ResponseResult; at?: number }
  | { type: 'streamMessage'; data: string }
  | { type: 'pushScreen'; screen: Screen }
  | { type: 'popScreen' }
  | { type: 'toast'; message: string | undefined }
  | { type: 'setEnvironment'; name: string | undefined }
  | { type: 'selectRequest'; fileIndex: number; requestIndex: number }
  | { type: 'selectPath'; path: string; requestIndex: number }
  | { type: 'screenRows'; rows: number }
  | { type: 'viewer'; viewer: ViewerState };

/** The starting state. */
export function initialAppState(): AppState {
  return {
    screens: [],
    focus: 'tree',
    loaded: false,
    files: [],
    treeFilter: '',
    treeFiltering: false,
    treeCursor: 0,
    environments: [],
    outcomes: {},
    inFlight: false,
    tab: 'body',
    viewer: initialViewerState,
    revealSecrets: false,
    screenRows: 24,
  };
}

/** A request's display label: its `### title`, else `# @name`, else `METHOD path`. */
export function requestLabel(node: RequestNode): string {
  return displayName(node);
}

/** The key outcomes are stored under: the file and the request's position in it. */
export function outcomeKey(path: string, index: number): string {
  return `${path}#${index}`;
}

/** The source text of a request block. */
export function blockText(file: HttpFile, node: RequestNode): string {
  return file.text.slice(node.span.start, node.span.end);
}

/** The rows of the tree, with the filter applied (files are shown when any request matches). */
export function treeRows(state: Pick<AppState, 'files' | 'treeFilter'>): TreeRow[] {
  const rows: TreeRow[] = [];
  state.files.forEach((entry, fileIndex) => {
    const requests = (entry.file?.requests ?? []).map((node) => ({
      kind: 'request' as const,
      fileIndex,
      requestIndex: node.index,
      label: requestLabel(node),
      method: node.method,
      match: `${requestLabel(node)} ${node.name ?? ''} ${node.method} ${node.url} ${entry.relativePath}`,
    }));
    const shown = state.treeFilter ? fuzzyFilter(requests, state.treeFilter, (r) => r.match) : requests;
    if (state.treeFilter && shown.length === 0) return;
    rows.push({ kind: 'file', fileIndex, label: entry.relativePath + (entry.error ? ' (error)' : '') });
    rows.push(...shown.map(({ match: _match, ...row }) => row));
  });
  return rows;
}

/** The request under the tree cursor (or the first request of the file under it). */
export function selectedRequest(
  state: AppState,
): { entry: WorkspaceFileEntry; fileIndex: number; node: RequestNode } | undefined {
  const rows = treeRows(state);
  const row = rows[state.treeCursor];
  if (!row) return undefined;
  const entry = state.files[row.fileIndex];
  const node = row.kind === 'request' ? entry.file?.requests[row.requestIndex] : entry.file?.requests[0];
  return node ? { entry, fileIndex: row.fileIndex, node } : undefined;
}

/** The selected request's own last send (never another request's), and whether its file changed since. */
export function selectedOutcome(state: AppState): (RequestOutcome & { stale: boolean }) | undefined {
  const selected = selectedRequest(state);
  if (!selected?.entry.file) return undefined;
  const outcome = state.outcomes[outcomeKey(selected.entry.path, selected.node.index)];
  if (!outcome) return undefined;
  return { ...outcome, stale: outcome.sentBlock !== blockText(selected.entry.file, selected.node) };
}

/** The response the selected request shows, if it has one. */
export function shownResult(state: AppState): ResponseResult | undefined {
  return selectedOutcome(state)?.result;
}

/** Whether the workspace has been read and holds no `.http` file: the welcome screen. */
export function isWelcome(state: AppState): boolean {
  return state.loaded && state.files.length === 0;
}

/** Palette entries: every request, then every action. */
export function paletteItems(state: AppState, keymap: Keymap, describe: (action: ActionName) => string): PaletteItem[] {
  const items: PaletteItem[] = [];
  state.files.forEach((entry, fileIndex) =>
    entry.file?.requests.forEach((node) => {
      const label = `${requestLabel(node)}  ${entry.relativePath}`;
      const match = `${requestLabel(node)} ${node.name ?? ''} ${node.method} ${node.url} ${entry.relativePath}`;
      items.push({
        id: `r:${fileIndex}:${node.index}`,
        kind: 'request',
        label,
        match,
        fileIndex,
        requestIndex: node.index,
      });
    }),
  );
  for (const action of Object.keys(keymap) as ActionName[]) {
    if (!paletteActions.has(action)) continue;
    const label = `${describe(action)}  (${keymap[action][0] ?? ''})`;
    items.push({ id: `a:${action}`, kind: 'action', label, match: describe(action), action });
  }
  return items;
}

/** The palette entries the query keeps, best first. */
export function filteredPalette(
  state: AppState,
  query: string,
  keymap: Keymap,
  describe: (action: ActionName) => string,
): PaletteItem[] {
  return fuzzyFilter(paletteItems(state, keymap, describe), query, (item) => item.match);
}

const paletteActions = new Set<ActionName>([
  'send',
  'environments',
  'history',
  'help',
  'quit',
  'copyBody',
  'copyCurl',
  'saveBody',
  'pager',
  'foldAll',
  'unfoldAll',
  'jsonPath',
  'search',
  'reload',
  'editMethod',
  'editUrl',
  'editQuery',
  'editHeaders',
  'editBody',
  'editBodyExternal',
  'editRequest',
  'newRequest',
  'duplicate',
  'rename',
  'delete',
  'importRequests',
  'toggleSecrets',
]);

/** Line-editing of a single text field; returns the new value, or a submit/cancel outcome. */
export function editText(
  value: string,
  name: string | undefined,
  input: string,
): { value: string; done?: 'submit' | 'cancel' } {
  if (name === 'enter') return { value, done: 'submit' };
  if (name === 'esc') return { value, done: 'cancel' };
  if (name === 'backspace' || name === 'ctrl+h') return { value: value.slice(0, -1) };
  if (name === 'ctrl+u') return { value: '' };
  if (name === 'ctrl+w') return { value: value.replace(/\s*\S+\s*$/, '') };
  if (name === 'space') return { value: value + ' ' };
  // Printable single keys and pasted text; control keys are ignored.
  if (name === undefined || name.length === 1) {
    const text = input.replace(/[\x00-\x1f\x7f]/g, '');
    return { value: value + text };
  }
  return { value };
}

/** The entry before `index` (older) for the same request, if any; items are newest first. */
export function previousOf(items: HistoryItem[], index: number): HistoryItem | undefined {
  const item = items[index];
  if (!item) return undefined;
  for (let i = index + 1; i < items.length; i++) if (items[i].requestKey === item.requestKey) return items[i];
  return undefined;
}

/** The state with the tree cursor kept on a row. */
export function clampTree(state: AppState, cursor: number): AppState {
  const count = treeRows(state).length;
  return { ...state, treeCursor: Math.min(Math.max(0, cursor), Math.max(0, count - 1)) };
}

/** The top screen of the stack. */
export function top(state: AppState): Screen | undefined {
  return state.screens[state.screens.length - 1];
}

/** The state with its top screen replaced. */
export function replaceTop(state: AppState, screen: Screen): AppState {
  return { ...state, screens: [...state.screens.slice(0, -1), screen] };
}

/** The state with its top screen closed. */
export function pop(state: AppState): AppState {
  return { ...state, screens: state.screens.slice(0, -1) };
}

/** The state with a screen opened on top. */
export function push(state: AppState, screen: Screen): AppState {
  return { ...state, screens: [...state.screens, screen] };
}

export interface Step {
  state: AppState;
  effects: Effect[];
}

/** A step with no effect. */
export const none = (state: AppState): Step => ({ state, effects: [] });
