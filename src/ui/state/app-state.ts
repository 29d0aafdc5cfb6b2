/**
 * Workbench state as a pure reducer, plus the ONE key dispatcher: a key goes to the top
 * screen of the stack first, then to an active text field, then to global actions, then to
 * the focused pane. Side effects (sending, clipboard, files) come back as `Effect`s that
 * the App component runs, so everything here is testable without rendering.
 */
import type { HttpFile, RequestNode } from '../../core/httpfile/types.js';
import { actionsFor, type ActionName, type Keymap } from '../keymap.js';
import { fuzzyFilter } from '../fuzzy.js';
import { cachedDiff, historyDiffRows } from '../diff.js';
import type { HistoryItem, RequestState, ResponseResult, WorkspaceFileEntry } from '../services.js';
import { initialViewerState, type ViewerAction, type ViewerState } from '../viewer/viewer-reducer.js';

export type Pane = 'tree' | 'request' | 'response';
export const panes: Pane[] = ['tree', 'request', 'response'];
export type Tab = 'body' | 'headers' | 'timings' | 'tests' | 'raw';
export const tabs: Tab[] = ['body', 'headers', 'timings', 'tests', 'raw'];

export interface PaletteItem {
  id: string;
  label: string;
  kind: 'request' | 'action';
  /** For requests: the position in the tree. */
  fileIndex?: number;
  requestIndex?: number;
  action?: ActionName;
}

export type Screen =
  | { kind: 'palette'; query: string; cursor: number }
  | { kind: 'environments'; cursor: number }
  /** `diffScroll`: the first diff line shown while the diff of the entry under the cursor is open. */
  | { kind: 'history'; items: HistoryItem[]; cursor: number; diff: boolean; diffScroll?: number }
  | { kind: 'help'; scroll: number }
  | { kind: 'prompt'; name: string; description?: string; value: string }
  | { kind: 'confirm'; message: string; effect: Effect }
  | { kind: 'input'; purpose: 'saveBody'; label: string; value: string }
  /** An inline edit of the selected request (method, URL or headers as `Name: value; …` lines). */
  | { kind: 'edit'; field: 'method' | 'url' | 'headers'; value: string };

export interface AppState {
  screens: Screen[];
  focus: Pane;
  files: WorkspaceFileEntry[];
  treeFilter: string;
  treeFiltering: boolean;
  treeCursor: number;
  environment?: string;
  environments: string[];
  requestState: RequestState;
  requestError?: string;
  inFlight: boolean;
  result?: ResponseResult;
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
  | { type: 'saveInline'; field: 'method' | 'url' | 'headers'; value: string }
  | { type: 'newRequest' }
  | { type: 'duplicate' }
  | { type: 'delete' }
  | { type: 'openHistory' }
  | { type: 'reload' }
  | { type: 'pickEnvironment'; name: string | undefined }
  | { type: 'promptAnswer'; value: string | undefined };

export type AppAction =
  | { type: 'key'; name: string | undefined; input: string }
  | { type: 'loaded'; files: WorkspaceFileEntry[]; environments: string[]; environment?: string }
  | { type: 'fileChanged'; fileIndex: number; file: HttpFile; select?: number }
  | { type: 'requestState'; state: RequestState; error?: string }
  | { type: 'response'; result: ResponseResult }
  | { type: 'pushScreen'; screen: Screen }
  | { type: 'popScreen' }
  | { type: 'toast'; message: string | undefined }
  | { type: 'setEnvironment'; name: string | undefined }
  | { type: 'selectRequest'; fileIndex: number; requestIndex: number }
  | { type: 'screenRows'; rows: number };

/** The starting state. */
export function initialAppState(): AppState {
  return {
    screens: [],
    focus: 'tree',
    files: [],
    treeFilter: '',
    treeFiltering: false,
    treeCursor: 0,
    environments: [],
    requestState: 'idle',
    inFlight: false,
    tab: 'body',
    viewer: initialViewerState,
    revealSecrets: false,
    screenRows: 24,
  };
}

/** A request's display label: its name, else `METHOD url`. */
export function requestLabel(node: RequestNode): string {
  return node.name ?? `${node.method} ${node.url}`;
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
    }));
    const shown = state.treeFilter ? fuzzyFilter(requests, state.treeFilter, (r) => `${r.label} ${r.method} ${entry.relativePath}`) : requests;
    if (state.treeFilter && shown.length === 0) return;
    rows.push({ kind: 'file', fileIndex, label: entry.relativePath + (entry.error ? ' (error)' : '') });
    rows.push(...shown);
  });
  return rows;
}

/** The request under the tree cursor (or the first request of the file under it). */
export function selectedRequest(state: AppState): { entry: WorkspaceFileEntry; fileIndex: number; node: RequestNode } | undefined {
  const rows = treeRows(state);
  const row = rows[state.treeCursor];
  if (!row) return undefined;
  const entry = state.files[row.fileIndex];
  const node = row.kind === 'request' ? entry.file?.requests[row.requestIndex] : entry.file?.requests[0];
  return node ? { entry, fileIndex: row.fileIndex, node } : undefined;
}

/** Palette entries: every request, then every action. */
export function paletteItems(state: AppState, keymap: Keymap, describe: (action: ActionName) => string): PaletteItem[] {
  const items: PaletteItem[] = [];
  state.files.forEach((entry, fileIndex) =>
    entry.file?.requests.forEach((node) =>
      items.push({ id: `r:${fileIndex}:${node.index}`, kind: 'request', label: `${requestLabel(node)}  ${entry.relativePath}`, fileIndex, requestIndex: node.index }),
    ),
  );
  for (const action of Object.keys(keymap) as ActionName[]) {
    if (paletteActions.has(action)) items.push({ id: `a:${action}`, kind: 'action', label: `${describe(action)}  (${keymap[action][0] ?? ''})`, action });
  }
  return items;
}

const paletteActions = new Set<ActionName>([
  'send', 'environments', 'history', 'help', 'quit', 'copyBody', 'copyCurl', 'saveBody', 'pager', 'foldAll', 'unfoldAll',
  'jsonPath', 'search', 'reload', 'editMethod', 'editUrl', 'editHeaders', 'editBody', 'editRequest', 'newRequest', 'duplicate', 'delete', 'toggleSecrets',
]);

/** Line-editing of a single text field; returns the new value, or a submit/cancel outcome. */
export function editText(value: string, name: string | undefined, input: string): { value: string; done?: 'submit' | 'cancel' } {
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

function clampTree(state: AppState, cursor: number): AppState {
  const count = treeRows(state).length;
  return { ...state, treeCursor: Math.min(Math.max(0, cursor), Math.max(0, count - 1)) };
}

function top(state: AppState): Screen | undefined {
  return state.screens[state.screens.length - 1];
}

function replaceTop(state: AppState, screen: Screen): AppState {
  return { ...state, screens: [...state.screens.slice(0, -1), screen] };
}

function pop(state: AppState): AppState {
  return { ...state, screens: state.screens.slice(0, -1) };
}

export interface Step {
  state: AppState;
  effects: Effect[];
}

/** Reduces one action; keys may produce effects for the component to run. */
export function appReducer(state: AppState, action: AppAction, keymap: Keymap, describe: (a: ActionName) => string = (a) => a): Step {
  switch (action.type) {
    case 'key':
      return handleKey(state, action.name, action.input, keymap, describe);
    case 'loaded':
      return { state: clampTree({ ...state, files: action.files, environments: action.environments, environment: action.environment }, state.treeCursor), effects: [] };
    case 'fileChanged': {
      const files = state.files.map((entry, i) => (i === action.fileIndex ? { ...entry, file: action.file, error: undefined } : entry));
      let next: AppState = { ...state, files };
      if (action.select !== undefined) {
        const rows = treeRows({ files, treeFilter: '' });
        const at = rows.findIndex((r) => r.kind === 'request' && r.fileIndex === action.fileIndex && r.requestIndex === action.select);
        next = { ...next, treeFilter: '', treeCursor: at === -1 ? state.treeCursor : at };
      }
      return { state: clampTree(next, next.treeCursor), effects: [] };
    }
    case 'requestState':
      return {
        state: {
          ...state,
          requestState: action.state,
          requestError: action.error,
          inFlight: action.state === 'resolving' || action.state === 'sending' || action.state === 'receiving',
        },
        effects: [],
      };
    case 'response':
      return { state: { ...state, result: action.result, viewer: initialViewerState, requestState: 'done', inFlight: false, requestError: undefined }, effects: [] };
    case 'pushScreen':
      return { state: { ...state, screens: [...state.screens, action.screen] }, effects: [] };
    case 'popScreen':
      return { state: pop(state), effects: [] };
    case 'toast':
      return { state: { ...state, toast: action.message }, effects: [] };
    case 'setEnvironment':
      return { state: { ...state, environment: action.name }, effects: [] };
    case 'screenRows':
      return { state: state.screenRows === action.rows ? state : { ...state, screenRows: action.rows }, effects: [] };
    case 'selectRequest': {
      const next = { ...state, treeFilter: '', treeFiltering: false };
      const at = treeRows(next).findIndex((r) => r.kind === 'request' && r.fileIndex === action.fileIndex && r.requestIndex === action.requestIndex);
      return { state: at === -1 ? state : { ...next, treeCursor: at }, effects: [] };
    }
  }
}

function handleKey(state0: AppState, name: string | undefined, input: string, keymap: Keymap, describe: (a: ActionName) => string): Step {
  // Any key clears a transient message.
  const state = state0.toast ? { ...state0, toast: undefined } : state0;
  const none = (s: AppState): Step => ({ state: s, effects: [] });
  const has = (action: ActionName): boolean => name !== undefined && keymap[action].includes(name);
  const screen = top(state);

  // 1. The top screen takes every key.
  if (screen) {
    switch (screen.kind) {
      case 'prompt': {
        const edited = editText(screen.value, name, input);
        if (edited.done === 'submit') return { state: pop(state), effects: [{ type: 'promptAnswer', value: edited.value }] };
        if (edited.done === 'cancel' || name === 'ctrl+c') return { state: pop(state), effects: [{ type: 'promptAnswer', value: undefined }] };
        return none(replaceTop(state, { ...screen, value: edited.value }));
      }
      case 'input':
      case 'edit': {
        const edited = editText(screen.value, name, input);
        if (edited.done === 'cancel' || name === 'ctrl+c') return none(pop(state));
        if (edited.done === 'submit') {
          if (screen.kind === 'input') return { state: pop(state), effects: edited.value.trim() ? [{ type: 'saveBody', path: edited.value.trim() }] : [] };
          return { state: pop(state), effects: [{ type: 'saveInline', field: screen.field, value: edited.value }] };
        }
        return none(replaceTop(state, { ...screen, value: edited.value }));
      }
      case 'confirm':
        if (name === 'y' || name === 'Y' || name === 'enter') return { state: pop(state), effects: [screen.effect] };
        if (name === 'n' || name === 'N' || name === 'esc' || name === 'ctrl+c' || name === 'q') return none(pop(state));
        return none(state);
      case 'palette': {
        const items = fuzzyFilter(paletteItems(state, keymap, describe), screen.query, (i) => i.label);
        if (name === 'esc' || name === 'ctrl+c') return none(pop(state));
        if (name === 'up' || name === 'ctrl+k') return none(replaceTop(state, { ...screen, cursor: Math.max(0, screen.cursor - 1) }));
        if (name === 'down' || name === 'ctrl+j') return none(replaceTop(state, { ...screen, cursor: Math.min(items.length - 1, screen.cursor + 1) }));
        if (name === 'enter') {
          const item = items[screen.cursor];
          const closed = pop(state);
          if (!item) return none(closed);
          if (item.kind === 'request') {
            return appReducer(closed, { type: 'selectRequest', fileIndex: item.fileIndex!, requestIndex: item.requestIndex! }, keymap, describe);
          }
          return runAction(closed, item.action!);
        }
        const edited = editText(screen.query, name, input);
        return none(replaceTop(state, { ...screen, query: edited.value, cursor: 0 }));
      }
      case 'environments': {
        const options = [undefined, ...state.environments];
        if (name === 'esc' || name === 'ctrl+c' || name === 'q' || has('environments')) return none(pop(state));
        if (has('up')) return none(replaceTop(state, { ...screen, cursor: Math.max(0, screen.cursor - 1) }));
        if (has('down')) return none(replaceTop(state, { ...screen, cursor: Math.min(options.length - 1, screen.cursor + 1) }));
        if (name === 'enter') {
          const picked = options[screen.cursor];
          return { state: { ...pop(state), environment: picked }, effects: [{ type: 'pickEnvironment', name: picked }] };
        }
        return none(state);
      }
      case 'history': {
        if (name === 'esc' || name === 'ctrl+c' || name === 'q' || has('history')) {
          return none(screen.diff ? replaceTop(state, { ...screen, diff: false }) : pop(state));
        }
        if (has('toggleSecrets')) return none({ ...state, revealSecrets: !state.revealSecrets });
        if (name === 'enter' || name === 'd') return none(replaceTop(state, { ...screen, diff: !screen.diff, diffScroll: 0 }));
        if (screen.diff) {
          // The open diff scrolls; the cursor stays on its entry.
          const rows = historyDiffRows(state.screenRows);
          const item = screen.items[screen.cursor];
          const previous = previousOf(screen.items, screen.cursor);
          const total = item && previous ? cachedDiff(previous, item).length : 0;
          const max = Math.max(0, total - rows);
          const at = screen.diffScroll ?? 0;
          const to = (scroll: number): Step => none(replaceTop(state, { ...screen, diffScroll: Math.min(max, Math.max(0, scroll)) }));
          if (has('up')) return to(at - 1);
          if (has('down')) return to(at + 1);
          if (has('pageUp')) return to(at - rows);
          if (has('pageDown')) return to(at + rows);
          if (has('top')) return to(0);
          if (has('bottom')) return to(max);
          return none(state);
        }
        if (has('up')) return none(replaceTop(state, { ...screen, cursor: Math.max(0, screen.cursor - 1) }));
        if (has('down')) return none(replaceTop(state, { ...screen, cursor: Math.min(screen.items.length - 1, screen.cursor + 1) }));
        return none(state);
      }
      case 'help':
        if (name === 'esc' || name === 'q' || name === 'ctrl+c' || has('help')) return none(pop(state));
        if (has('up')) return none(replaceTop(state, { ...screen, scroll: Math.max(0, screen.scroll - 1) }));
        if (has('down')) return none(replaceTop(state, { ...screen, scroll: screen.scroll + 1 }));
        if (has('pageDown')) return none(replaceTop(state, { ...screen, scroll: screen.scroll + 10 }));
        if (has('pageUp')) return none(replaceTop(state, { ...screen, scroll: Math.max(0, screen.scroll - 10) }));
        return none(state);
    }
  }

  // 2. Text fields of the workspace.
  if (state.treeFiltering) {
    const edited = editText(state.treeFilter, name, input);
    if (edited.done === 'cancel') return none({ ...state, treeFiltering: false, treeFilter: '', treeCursor: 0 });
    if (edited.done === 'submit') {
      // Enter leaves the filter with the first matching request selected.
      const rows = treeRows(state);
      const first = rows.findIndex((r) => r.kind === 'request');
      return none({ ...state, treeFiltering: false, treeCursor: first === -1 ? 0 : first });
    }
    if (name === 'up' || name === 'down') {
      return none(clampTree(state, state.treeCursor + (name === 'up' ? -1 : 1)));
    }
    const next = { ...state, treeFilter: edited.value };
    const rows = treeRows(next);
    const first = rows.findIndex((r) => r.kind === 'request');
    return none({ ...next, treeCursor: first === -1 ? 0 : first });
  }
  if (state.viewer.input) {
    const edited = editText(state.viewer.input.value, name, input);
    if (edited.done === 'submit') return { state, effects: [{ type: 'viewer', action: { type: 'inputSubmit' } }] };
    if (edited.done === 'cancel' || name === 'ctrl+c') return { state, effects: [{ type: 'viewer', action: { type: 'inputCancel' } }] };
    return { state, effects: [{ type: 'viewer', action: { type: 'inputChange', value: edited.value } }] };
  }

  if (name === undefined) return none(state);
  const candidates = actionsFor(keymap, name);

  // 3. Cancel beats everything while a request is in flight: Esc / Ctrl+C never quit then.
  if (state.inFlight && (has('cancel') || has('back'))) return { state, effects: [{ type: 'cancel' }] };

  // 4. Global actions, then the focused pane's.
  const globalActions: ActionName[] = ['quit', 'palette', 'environments', 'history', 'help', 'focusNext', 'focusPrev', 'cancel', 'send', 'back', 'toggleSecrets', 'reload'];
  const paneActions: Record<Pane, ActionName[]> = {
    tree: ['up', 'down', 'pageUp', 'pageDown', 'top', 'bottom', 'filterTree', 'editMethod', 'editUrl', 'editHeaders', 'editBody', 'editRequest', 'newRequest', 'duplicate', 'delete'],
    request: ['up', 'down', 'editMethod', 'editUrl', 'editHeaders', 'editBody', 'editRequest', 'newRequest', 'duplicate', 'delete'],
    response: ['up', 'down', 'pageUp', 'pageDown', 'top', 'bottom', 'scrollLeft', 'scrollRight', 'nextTab', 'prevTab', 'toggleFold', 'foldAll', 'unfoldAll', 'jsonPath', 'search', 'searchNext', 'searchPrev', 'copyBody', 'copyCurl', 'saveBody', 'pager'],
  };
  const focused = paneActions[state.focus];
  const chosen = candidates.find((a) => focused.includes(a)) ?? candidates.find((a) => globalActions.includes(a));
  if (!chosen) return none(state);
  return runAction(state, chosen);
}

/** Runs one named action (from a key or the palette). */
export function runAction(state: AppState, action: ActionName): Step {
  const none = (s: AppState): Step => ({ state: s, effects: [] });
  const effect = (e: Effect): Step => ({ state, effects: [e] });
  const selected = selectedRequest(state);
  const viewer = (a: ViewerAction): Step => ({ state, effects: [{ type: 'viewer', action: a }] });
  switch (action) {
    case 'quit':
      return effect({ type: 'quit' });
    case 'cancel':
      return state.inFlight ? effect({ type: 'cancel' }) : effect({ type: 'quit' });
    case 'back':
      if (state.inFlight) return effect({ type: 'cancel' });
      if (state.viewer.jsonPath) return viewer({ type: 'clearFilter' });
      if (state.treeFilter) return none({ ...state, treeFilter: '', treeCursor: 0 });
      return none(state);
    case 'palette':
      return none({ ...state, screens: [...state.screens, { kind: 'palette', query: '', cursor: 0 }] });
    case 'environments': {
      const cursor = state.environment ? state.environments.indexOf(state.environment) + 1 : 0;
      return none({ ...state, screens: [...state.screens, { kind: 'environments', cursor }] });
    }
    case 'history':
      return effect({ type: 'openHistory' });
    case 'reload':
      return effect({ type: 'reload' });
    case 'help':
      return none({ ...state, screens: [...state.screens, { kind: 'help', scroll: 0 }] });
    case 'focusNext':
    case 'focusPrev': {
      const at = panes.indexOf(state.focus);
      const next = panes[(at + (action === 'focusNext' ? 1 : panes.length - 1)) % panes.length];
      return none({ ...state, focus: next });
    }
    case 'send':
      if (state.inFlight) return none({ ...state, toast: 'a request is already in flight (esc cancels it)' });
      return selected ? effect({ type: 'send' }) : none({ ...state, toast: 'no request selected' });
    case 'up':
    case 'down':
    case 'pageUp':
    case 'pageDown':
    case 'top':
    case 'bottom': {
      if (state.focus === 'response') {
        if (action === 'up' || action === 'down') return viewer({ type: 'move', by: action === 'up' ? -1 : 1 });
        if (action === 'pageUp' || action === 'pageDown') return viewer({ type: 'page', direction: action === 'pageUp' ? -1 : 1 });
        return viewer({ type: action === 'top' ? 'top' : 'bottom' });
      }
      const delta = { up: -1, down: 1, pageUp: -10, pageDown: 10, top: -1e9, bottom: 1e9 }[action];
      return none(clampTree(state, state.treeCursor + delta));
    }
    case 'filterTree':
      return none({ ...state, treeFiltering: true, focus: 'tree' });
    case 'nextTab':
    case 'prevTab': {
      const at = tabs.indexOf(state.tab);
      return none({ ...state, tab: tabs[(at + (action === 'nextTab' ? 1 : tabs.length - 1)) % tabs.length] });
    }
    case 'scrollLeft':
    case 'scrollRight':
      return viewer({ type: 'scrollX', by: action === 'scrollLeft' ? -20 : 20 });
    case 'toggleFold':
      return viewer({ type: 'toggleFold' });
    case 'foldAll':
      return viewer({ type: 'foldAll' });
    case 'unfoldAll':
      return viewer({ type: 'unfoldAll' });
    case 'jsonPath':
      return { state: { ...state, focus: 'response', tab: 'body' }, effects: [{ type: 'viewer', action: { type: 'startInput', kind: 'jsonPath' } }] };
    case 'search':
      return { state: { ...state, focus: 'response', tab: 'body' }, effects: [{ type: 'viewer', action: { type: 'startInput', kind: 'search' } }] };
    case 'searchNext':
    case 'searchPrev':
      return viewer({ type: 'findNext', direction: action === 'searchNext' ? 1 : -1 });
    case 'copyBody':
    case 'copyCurl':
    case 'pager':
      if (!state.result) return none({ ...state, toast: 'no response yet' });
      return effect({ type: action });
    case 'saveBody':
      if (!state.result) return none({ ...state, toast: 'no response yet' });
      return none({ ...state, screens: [...state.screens, { kind: 'input', purpose: 'saveBody', label: 'Save body to', value: '' }] });
    case 'editMethod':
    case 'editUrl':
    case 'editHeaders': {
      if (!selected) return none({ ...state, toast: 'no request selected' });
      const node = selected.node;
      const field = action === 'editMethod' ? 'method' : action === 'editUrl' ? 'url' : 'headers';
      const value = field === 'method' ? node.method : field === 'url' ? node.url : node.headers.map((h) => `${h.name}: ${h.value}`).join('; ');
      return none({ ...state, screens: [...state.screens, { kind: 'edit', field, value }] });
    }
    case 'editBody':
    case 'editRequest':
    case 'duplicate':
      return selected ? effect({ type: action }) : none({ ...state, toast: 'no request selected' });
    case 'newRequest':
      return state.files.some((f) => f.file) ? effect({ type: 'newRequest' }) : none({ ...state, toast: 'no .http file in this workspace' });
    case 'toggleSecrets':
      return none({ ...state, revealSecrets: !state.revealSecrets });
    case 'delete':
      if (!selected) return none({ ...state, toast: 'no request selected' });
      return none({ ...state, screens: [...state.screens, { kind: 'confirm', message: `Delete ${requestLabel(selected.node)}? (y/n)`, effect: { type: 'delete' } }] });
  }
}
