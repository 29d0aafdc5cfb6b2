/**
 * The ONE key dispatcher: a key goes to the top screen of the stack first, then to an active
 * text field, then to the focused pane's actions, then to the global actions (which work from
 * every pane).
 */
import { actionsFor, type ActionName, type Keymap } from '../keymap.js';
import { cachedDiff, historyDiffRows } from '../diff.js';
import {
  editText,
  filteredPalette,
  none,
  pop,
  previousOf,
  replaceTop,
  clampTree,
  treeRows,
  top,
  type AppState,
  type Effect,
  type Pane,
  type Screen,
  type Step,
} from './app-state.js';
import { runAction } from './actions.js';
import { bodyEditorKey, bodyEditorText } from './body-editor.js';
import { jsonSyntaxProblem } from './body-edit.js';

/** Rows of text the body editor shows on a screen of `rows` rows. */
export function bodyEditorRows(rows: number): number {
  return Math.max(1, rows - 4);
}

type Describe = (a: ActionName) => string;
type ScreenOf<K extends Screen['kind']> = Extract<Screen, { kind: K }>;

/** Actions of each pane; any other action is global and works from every pane. */
export const paneActions: Record<Pane, ActionName[]> = {
  tree: ['up', 'down', 'pageUp', 'pageDown', 'top', 'bottom', 'filterTree'],
  request: ['up', 'down'],
  response: [
    'up',
    'down',
    'pageUp',
    'pageDown',
    'top',
    'bottom',
    'scrollLeft',
    'scrollRight',
    'nextTab',
    'prevTab',
    'toggleFold',
    'foldAll',
    'unfoldAll',
    'jsonPath',
    'search',
    'searchNext',
    'searchPrev',
    'copyBody',
    'copyCurl',
    'saveBody',
    'pager',
  ],
};

/** Actions that work whatever pane has the focus. */
export const globalActions: ActionName[] = [
  'quit',
  'palette',
  'environments',
  'history',
  'help',
  'focusNext',
  'focusPrev',
  'cancel',
  'send',
  'back',
  'toggleSecrets',
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
  'composeMessage',
];

/** `METHOD URL` (or a bare URL, sent with GET) from the new-request prompt. */
export function parseRequestLine(value: string): { method: string; url: string } | undefined {
  const words = value.trim().split(/\s+/).filter(Boolean);
  if (words.length === 1) return { method: 'GET', url: words[0] };
  if (words.length === 2 && /^[A-Za-z]+$/.test(words[0])) return { method: words[0].toUpperCase(), url: words[1] };
  return undefined;
}

function inputEffect(screen: ScreenOf<'input'>, value: string): Effect | string | undefined {
  const text = value.trim();
  if (!text) return undefined;
  switch (screen.purpose) {
    case 'saveBody':
      return { type: 'saveBody', path: text };
    case 'newRequest': {
      const line = parseRequestLine(text);
      return line
        ? { type: 'createRequest', ...line }
        : `'${text}' is not METHOD URL (e.g. GET https://example.com/get)`;
    }
    case 'rename':
      return { type: 'rename', title: text };
    case 'import':
      return { type: 'import', text };
    case 'message':
      return { type: 'sendMessage', text: value };
  }
}

function fieldKey(
  state: AppState,
  screen: ScreenOf<'input'> | ScreenOf<'edit'> | ScreenOf<'prompt'>,
  name: string | undefined,
  input: string,
): Step {
  const edited = editText(screen.value, name, input);
  const cancelled = edited.done === 'cancel' || name === 'ctrl+c';
  if (screen.kind === 'prompt') {
    if (edited.done === 'submit')
      return { state: pop(state), effects: [{ type: 'promptAnswer', value: edited.value }] };
    if (cancelled) return { state: pop(state), effects: [{ type: 'promptAnswer', value: undefined }] };
  } else if (cancelled) {
    return none(pop(state));
  } else if (edited.done === 'submit') {
    if (screen.kind === 'edit')
      return { state: pop(state), effects: [{ type: 'saveInline', field: screen.field, value: edited.value }] };
    const effect = inputEffect(screen, edited.value);
    // A value that does not fit keeps the prompt open with what was typed, and says why.
    if (typeof effect === 'string') return none({ ...state, toast: effect });
    return { state: pop(state), effects: effect ? [effect] : [] };
  }
  return none(replaceTop(state, { ...screen, value: edited.value }));
}

function paletteKey(
  state: AppState,
  screen: ScreenOf<'palette'>,
  name: string | undefined,
  input: string,
  keymap: Keymap,
  describe: Describe,
): Step {
  const items = filteredPalette(state, screen.query, keymap, describe);
  if (name === 'esc' || name === 'ctrl+c') return none(pop(state));
  if (name === 'up' || name === 'ctrl+k')
    return none(replaceTop(state, { ...screen, cursor: Math.max(0, screen.cursor - 1) }));
  if (name === 'down' || name === 'ctrl+j')
    return none(replaceTop(state, { ...screen, cursor: Math.min(items.length - 1, screen.cursor + 1) }));
  if (name === 'enter') {
    const item = items[screen.cursor];
    const closed = pop(state);
    if (!item) return none(closed);
    if (item.kind === 'request') {
      const rows = treeRows({ files: closed.files, treeFilter: '' });
      const at = rows.findIndex(
        (r) => r.kind === 'request' && r.fileIndex === item.fileIndex && r.requestIndex === item.requestIndex,
      );
      return none(at === -1 ? closed : { ...closed, treeFilter: '', treeFiltering: false, treeCursor: at });
    }
    return runAction(closed, item.action!);
  }
  const edited = editText(screen.query, name, input);
  return none(replaceTop(state, { ...screen, query: edited.value, cursor: 0 }));
}

function environmentsKey(
  state: AppState,
  screen: ScreenOf<'environments'>,
  name: string | undefined,
  has: (a: ActionName) => boolean,
): Step {
  const options = [undefined, ...state.environments];
  if (name === 'esc' || name === 'ctrl+c' || name === 'q' || has('environments')) return none(pop(state));
  if (has('up')) return none(replaceTop(state, { ...screen, cursor: Math.max(0, screen.cursor - 1) }));
  if (has('down'))
    return none(replaceTop(state, { ...screen, cursor: Math.min(options.length - 1, screen.cursor + 1) }));
  if (name === 'enter') {
    const picked = options[screen.cursor];
    return { state: { ...pop(state), environment: picked }, effects: [{ type: 'pickEnvironment', name: picked }] };
  }
  return none(state);
}

function historyDiffKey(state: AppState, screen: ScreenOf<'history'>, has: (a: ActionName) => boolean): Step {
  // The open diff scrolls; the cursor stays on its entry.
  const rows = historyDiffRows(state.screenRows);
  const item = screen.items[screen.cursor];
  const previous = previousOf(screen.items, screen.cursor);
  const total = item && previous ? cachedDiff(previous, item).length : 0;
  const max = Math.max(0, total - rows);
  const at = screen.diffScroll ?? 0;
  const to = (scroll: number): Step =>
    none(replaceTop(state, { ...screen, diffScroll: Math.min(max, Math.max(0, scroll)) }));
  if (has('up')) return to(at - 1);
  if (has('down')) return to(at + 1);
  if (has('pageUp')) return to(at - rows);
  if (has('pageDown')) return to(at + rows);
  if (has('top')) return to(0);
  if (has('bottom')) return to(max);
  return none(state);
}

function historyKey(
  state: AppState,
  screen: ScreenOf<'history'>,
  name: string | undefined,
  has: (a: ActionName) => boolean,
): Step {
  if (name === 'esc' || name === 'ctrl+c' || name === 'q' || has('history'))
    return none(screen.diff ? replaceTop(state, { ...screen, diff: false }) : pop(state));
  if (has('toggleSecrets')) return none({ ...state, revealSecrets: !state.revealSecrets });
  if (name === 'enter' || name === 'd')
    return none(replaceTop(state, { ...screen, diff: !screen.diff, diffScroll: 0 }));
  if (screen.diff) return historyDiffKey(state, screen, has);
  if (has('up')) return none(replaceTop(state, { ...screen, cursor: Math.max(0, screen.cursor - 1) }));
  if (has('down'))
    return none(replaceTop(state, { ...screen, cursor: Math.min(screen.items.length - 1, screen.cursor + 1) }));
  return none(state);
}

function helpKey(
  state: AppState,
  screen: ScreenOf<'help'>,
  name: string | undefined,
  has: (a: ActionName) => boolean,
): Step {
  if (name === 'esc' || name === 'q' || name === 'ctrl+c' || has('help')) return none(pop(state));
  const scroll = (to: number): Step => none(replaceTop(state, { ...screen, scroll: Math.max(0, to) }));
  if (has('up')) return scroll(screen.scroll - 1);
  if (has('down')) return scroll(screen.scroll + 1);
  if (has('pageDown')) return scroll(screen.scroll + 10);
  if (has('pageUp')) return scroll(screen.scroll - 10);
  return none(state);
}

function bodyKey(state: AppState, screen: ScreenOf<'body'>, name: string | undefined, input: string): Step {
  const { editor, done } = bodyEditorKey(screen.editor, name, input, bodyEditorRows(state.screenRows));
  if (done === 'cancel') return none(pop(state));
  if (done === 'save') {
    const text = bodyEditorText(editor);
    const problem = screen.json ? jsonSyntaxProblem(text) : undefined;
    // An invalid JSON body is not saved: the editor stays open with it, and says where it breaks.
    if (problem) return none({ ...state, toast: `not saved: ${problem}` });
    return { state: pop(state), effects: [{ type: 'saveBodyText', text }] };
  }
  return none(replaceTop(state, { ...screen, editor }));
}

function screenKey(
  state: AppState,
  screen: Screen,
  name: string | undefined,
  input: string,
  keymap: Keymap,
  describe: Describe,
): Step {
  const has = (action: ActionName): boolean => name !== undefined && keymap[action].includes(name);
  switch (screen.kind) {
    case 'prompt':
    case 'input':
    case 'edit':
      return fieldKey(state, screen, name, input);
    case 'confirm':
      if (name === 'y' || name === 'Y' || name === 'enter') return { state: pop(state), effects: [screen.effect] };
      if (name === 'n' || name === 'N' || name === 'esc' || name === 'ctrl+c' || name === 'q') return none(pop(state));
      return none(state);
    case 'body':
      return bodyKey(state, screen, name, input);
    case 'palette':
      return paletteKey(state, screen, name, input, keymap, describe);
    case 'environments':
      return environmentsKey(state, screen, name, has);
    case 'history':
      return historyKey(state, screen, name, has);
    case 'help':
      return helpKey(state, screen, name, has);
  }
}

function treeFilterKey(state: AppState, name: string | undefined, input: string): Step {
  const edited = editText(state.treeFilter, name, input);
  const firstRequest = (s: AppState): number =>
    Math.max(
      0,
      treeRows(s).findIndex((r) => r.kind === 'request'),
    );
  if (edited.done === 'cancel') return none({ ...state, treeFiltering: false, treeFilter: '', treeCursor: 0 });
  // Enter leaves the filter with the first matching request selected.
  if (edited.done === 'submit') return none({ ...state, treeFiltering: false, treeCursor: firstRequest(state) });
  if (name === 'up' || name === 'down') return none(clampTree(state, state.treeCursor + (name === 'up' ? -1 : 1)));
  const next = { ...state, treeFilter: edited.value };
  return none({ ...next, treeCursor: firstRequest(next) });
}

function viewerInputKey(state: AppState, value: string, name: string | undefined, input: string): Step {
  const edited = editText(value, name, input);
  if (edited.done === 'submit') return { state, effects: [{ type: 'viewer', action: { type: 'inputSubmit' } }] };
  if (edited.done === 'cancel' || name === 'ctrl+c')
    return { state, effects: [{ type: 'viewer', action: { type: 'inputCancel' } }] };
  return { state, effects: [{ type: 'viewer', action: { type: 'inputChange', value: edited.value } }] };
}

/** One key, through the screens, text fields, the focused pane, then the global actions. */
export function handleKey(
  state0: AppState,
  name: string | undefined,
  input: string,
  keymap: Keymap,
  describe: Describe,
): Step {
  // Any key clears a transient message.
  const state = state0.toast ? { ...state0, toast: undefined } : state0;
  const screen = top(state);
  if (screen) return screenKey(state, screen, name, input, keymap, describe);
  if (state.treeFiltering) return treeFilterKey(state, name, input);
  if (state.viewer.input) return viewerInputKey(state, state.viewer.input.value, name, input);
  if (name === undefined) return none(state);
  const has = (action: ActionName): boolean => keymap[action].includes(name);
  // Cancel beats everything while a request is in flight: Esc / Ctrl+C never quit then.
  if (state.inFlight && (has('cancel') || has('back'))) return { state, effects: [{ type: 'cancel' }] };
  const candidates = actionsFor(keymap, name);
  const focused = paneActions[state.focus];
  const chosen = candidates.find((a) => focused.includes(a)) ?? candidates.find((a) => globalActions.includes(a));
  return chosen ? runAction(state, chosen) : none(state);
}
