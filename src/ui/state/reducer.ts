/** The workbench reducer: one pure step per action; keys go to the dispatcher in keys.ts. */
import type { ActionName, Keymap } from '../keymap.js';
import type { RequestState } from '../services.js';
import { initialViewerState } from '../viewer/viewer-reducer.js';
import {
  clampTree,
  none,
  outcomeKey,
  pop,
  selectedRequest,
  treeRows,
  type AppAction,
  type AppState,
  type RequestOutcome,
  type Step,
} from './app-state.js';
import { handleKey } from './keys.js';
import { displayName } from '../../core/request-name.js';

const inFlightStates = new Set<RequestState>(['resolving', 'sending', 'receiving']);

/** Outcomes of one file after a request left (`removed`) or joined (`inserted`) it at an index: later ones follow their request. */
export function shiftOutcomes(
  outcomes: Record<string, RequestOutcome>,
  path: string,
  change: { removed?: number; inserted?: number },
): Record<string, RequestOutcome> {
  if (change.removed === undefined && change.inserted === undefined) return outcomes;
  const next: Record<string, RequestOutcome> = {};
  for (const [key, outcome] of Object.entries(outcomes)) {
    const hash = key.lastIndexOf('#');
    const index = Number(key.slice(hash + 1));
    if (key.slice(0, hash) !== path) {
      next[key] = outcome;
      continue;
    }
    if (change.removed !== undefined) {
      if (index === change.removed) continue;
      next[outcomeKey(path, index > change.removed ? index - 1 : index)] = outcome;
    } else {
      next[outcomeKey(path, index >= change.inserted! ? index + 1 : index)] = outcome;
    }
  }
  return next;
}

function fileChanged(state: AppState, action: Extract<AppAction, { type: 'fileChanged' }>): AppState {
  const entry = state.files[action.fileIndex];
  const files = state.files.map((e, i) => (i === action.fileIndex ? { ...e, file: action.file, error: undefined } : e));
  const outcomes = entry ? shiftOutcomes(state.outcomes, entry.path, action) : state.outcomes;
  let next: AppState = { ...state, files, outcomes };
  if (action.select !== undefined) {
    const rows = treeRows({ files, treeFilter: '' });
    const at = rows.findIndex(
      (r) => r.kind === 'request' && r.fileIndex === action.fileIndex && r.requestIndex === action.select,
    );
    next = { ...next, treeFilter: '', treeCursor: at === -1 ? state.treeCursor : at };
  }
  return clampTree(next, next.treeCursor);
}

function requestStateChanged(state: AppState, action: Extract<AppAction, { type: 'requestState' }>): AppState {
  const inFlight = inFlightStates.has(action.state);
  const key = state.sending;
  const outcome = key ? state.outcomes[key] : undefined;
  const base = { ...state, inFlight, sending: inFlight ? key : undefined };
  if (!key || !outcome) return base;
  const ended = inFlight
    ? {}
    : { elapsedMs: action.at !== undefined ? action.at - outcome.startedAt : outcome.elapsedMs };
  return {
    ...base,
    outcomes: { ...state.outcomes, [key]: { ...outcome, state: action.state, error: action.error, ...ended } },
  };
}

function responded(state: AppState, action: Extract<AppAction, { type: 'response' }>): AppState {
  const key = state.sending;
  const outcome = key ? state.outcomes[key] : undefined;
  const base = { ...state, viewer: initialViewerState, inFlight: false, sending: undefined };
  if (!key || !outcome) return base;
  const elapsedMs = action.at !== undefined ? action.at - outcome.startedAt : undefined;
  return {
    ...base,
    outcomes: {
      ...state.outcomes,
      [key]: { ...outcome, state: 'done', error: undefined, result: action.result, elapsedMs },
    },
  };
}

/** The workspace read (again): the same request stays selected (by file and title, else by position) when it is still there. */
function reloaded(state: AppState, action: Extract<AppAction, { type: 'loaded' }>): AppState {
  const before = selectedRequest(state);
  const next: AppState = {
    ...state,
    loaded: true,
    files: action.files,
    environments: action.environments,
    environment: action.environment,
  };
  if (!before) return clampTree(next, state.treeCursor);
  const rows = treeRows(next);
  const sameFile = (r: (typeof rows)[number]): boolean =>
    r.kind === 'request' && next.files[r.fileIndex]?.path === before.entry.path;
  const label = displayName(before.node);
  let at = rows.findIndex((r) => sameFile(r) && r.label === label);
  if (at === -1)
    at = rows.findIndex((r) => sameFile(r) && r.kind === 'request' && r.requestIndex === before.node.index);
  return at === -1 ? clampTree(next, state.treeCursor) : { ...next, treeCursor: at };
}

function selectRow(state: AppState, at: number): AppState {
  return at === -1 ? state : { ...state, treeFilter: '', treeFiltering: false, treeCursor: at };
}

/** After a key: a new tab or another selected request starts the viewer afresh (cursor, scroll, folds, filter). */
function keyStep(before: AppState, step: Step): Step {
  const after = step.state;
  const moved = after.treeCursor !== before.treeCursor || after.files !== before.files;
  if (after.tab === before.tab && !moved) return step;
  return { ...step, state: { ...after, viewer: { ...initialViewerState, input: after.viewer.input } } };
}

/** Reduces one action; keys may produce effects for the component to run. */
export function appReducer(
  state: AppState,
  action: AppAction,
  keymap: Keymap,
  describe: (a: ActionName) => string = (a) => a,
): Step {
  switch (action.type) {
    case 'key':
      return keyStep(state, handleKey(state, action.name, action.input, keymap, describe));
    case 'loaded':
      return none(reloaded(state, action));
    case 'fileChanged':
      return none(fileChanged(state, action));
    case 'sendStarted': {
      const outcome: RequestOutcome = { state: 'resolving', startedAt: action.at, sentBlock: action.sentBlock };
      return none({
        ...state,
        sending: action.key,
        inFlight: true,
        viewer: initialViewerState,
        outcomes: { ...state.outcomes, [action.key]: outcome },
      });
    }
    case 'requestState':
      return none(requestStateChanged(state, action));
    case 'response':
      return none(responded(state, action));
    case 'streamMessage': {
      const key = state.sending;
      const outcome = key ? state.outcomes[key] : undefined;
      if (!key || !outcome) return none(state);
      const messages = [...(outcome.messages ?? []), action.data];
      return none({ ...state, outcomes: { ...state.outcomes, [key]: { ...outcome, messages } } });
    }
    case 'pushScreen':
      return none({ ...state, screens: [...state.screens, action.screen] });
    case 'popScreen':
      return none(pop(state));
    case 'toast':
      return none({ ...state, toast: action.message });
    case 'setEnvironment':
      return none({ ...state, environment: action.name });
    case 'viewer':
      return none({ ...state, viewer: action.viewer });
    case 'screenRows':
      return none(state.screenRows === action.rows ? state : { ...state, screenRows: action.rows });
    case 'selectRequest': {
      const rows = treeRows({ files: state.files, treeFilter: '' });
      return none(
        selectRow(
          state,
          rows.findIndex(
            (r) => r.kind === 'request' && r.fileIndex === action.fileIndex && r.requestIndex === action.requestIndex,
          ),
        ),
      );
    }
    case 'selectPath': {
      const fileIndex = state.files.findIndex((entry) => entry.path === action.path);
      const rows = treeRows({ files: state.files, treeFilter: '' });
      return none(
        selectRow(
          state,
          rows.findIndex(
            (r) => r.kind === 'request' && r.fileIndex === fileIndex && r.requestIndex === action.requestIndex,
          ),
        ),
      );
    }
  }
}
