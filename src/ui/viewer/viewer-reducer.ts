/**
 * The response viewer's state as a pure reducer: cursor and scroll over visible rows,
 * folded nodes, the JSONPath filter, search and its text input. The models (the heavy
 * part) are built outside and passed in the context, memoised per body.
 */
import {
  allFoldable,
  applyJsonPath,
  buildJsonModel,
  buildView,
  findRow,
  foldTarget,
  type LineModel,
} from './line-model.js';

export interface ViewerInput {
  kind: 'search' | 'jsonPath';
  value: string;
}

export interface ViewerState {
  cursor: number;
  scroll: number;
  /** Columns scrolled to the right (long lines are cut at the pane width, not wrapped). */
  left?: number;
  folded: ReadonlySet<number>;
  /** The JSONPath filter in force. */
  jsonPath?: string;
  search?: string;
  input?: ViewerInput;
  message?: string;
}

export type ViewerAction =
  | { type: 'move'; by: number }
  | { type: 'page'; direction: 1 | -1 }
  | { type: 'top' }
  | { type: 'bottom' }
  | { type: 'scrollX'; by: number }
  | { type: 'toggleFold' }
  | { type: 'foldAll' }
  | { type: 'unfoldAll' }
  | { type: 'startInput'; kind: ViewerInput['kind'] }
  | { type: 'inputChange'; value: string }
  | { type: 'inputCancel' }
  | { type: 'inputSubmit' }
  | { type: 'findNext'; direction: 1 | -1 }
  | { type: 'clearFilter' }
  | { type: 'reset' };

export interface ViewerContext {
  /** The body's own model (JSONPath runs against it). */
  base: LineModel;
  /** Visible height in rows. */
  height: number;
}

const emptyFolds: ReadonlySet<number> = new Set();

export const initialViewerState: ViewerState = { cursor: 0, scroll: 0, folded: emptyFolds };

/** A JSONPath as people type it: `$.a`, `.a`, `a.b` and `[0]` all start at the root (`$`). */
export function normaliseJsonPath(text: string): string {
  const path = text.trim();
  if (path.startsWith('$')) return path;
  if (path.startsWith('.') || path.startsWith('[')) return `$${path}`;
  return `$.${path}`;
}

/** The model the viewer shows: the base, or the JSONPath matches as a JSON array (memoised). */
export function viewerModel(base: LineModel, jsonPath: string | undefined): LineModel {
  if (!jsonPath || base.kind !== 'json') return base;
  let perBase = filterCache.get(base);
  if (!perBase) filterCache.set(base, (perBase = new Map()));
  let model = perBase.get(jsonPath);
  if (!model) {
    model = buildJsonModel(applyJsonPath(base.value, jsonPath));
    perBase.set(jsonPath, model);
  }
  return model;
}
const filterCache = new WeakMap<LineModel, Map<string, LineModel>>();

function clampTo(state: ViewerState, cursor: number, count: number, height: number): ViewerState {
  const max = Math.max(0, count - 1);
  const next = Math.min(Math.max(0, cursor), max);
  let scroll = state.scroll;
  const h = Math.max(1, height);
  if (next < scroll) scroll = next;
  if (next >= scroll + h) scroll = next - h + 1;
  scroll = Math.min(Math.max(0, scroll), Math.max(0, count - h));
  return { ...state, cursor: next, scroll };
}

/** Applies one action; pure. */
export function viewerReducer(state: ViewerState, action: ViewerAction, context: ViewerContext): ViewerState {
  const model = viewerModel(context.base, state.jsonPath);
  const view = buildView(model, state.folded);
  const height = context.height;
  switch (action.type) {
    case 'move':
      return clampTo({ ...state, message: undefined }, state.cursor + action.by, view.count, height);
    case 'page':
      return clampTo(
        { ...state, scroll: state.scroll + action.direction * Math.max(1, height - 1) },
        state.cursor + action.direction * Math.max(1, height - 1),
        view.count,
        height,
      );
    case 'scrollX':
      return { ...state, left: Math.max(0, (state.left ?? 0) + action.by) };
    case 'top':
      return clampTo(state, 0, view.count, height);
    case 'bottom':
      return clampTo(state, view.count - 1, view.count, height);
    case 'toggleFold': {
      const target = foldTarget(view, state.cursor);
      if (target === undefined)
        return {
          ...state,
          message: model.kind === 'json' ? 'nothing to fold here' : 'folding needs a JSON body up to 2 MiB',
        };
      const folded = new Set(state.folded);
      if (folded.has(target)) folded.delete(target);
      else folded.add(target);
      const next = buildView(model, folded);
      return clampTo({ ...state, folded, message: undefined }, next.rowOf(target), next.count, height);
    }
    case 'foldAll': {
      if (model.kind !== 'json') return { ...state, message: 'folding needs a JSON body up to 2 MiB' };
      const folded = allFoldable(model);
      const line = view.lineAt(state.cursor);
      const next = buildView(model, folded);
      return clampTo({ ...state, folded, message: undefined }, next.rowOf(line), next.count, height);
    }
    case 'unfoldAll': {
      const line = view.lineAt(state.cursor);
      const next = buildView(model, emptyFolds);
      return clampTo({ ...state, folded: emptyFolds, message: undefined }, next.rowOf(line), next.count, height);
    }
    case 'startInput':
      if (action.kind === 'jsonPath' && context.base.kind !== 'json') {
        return { ...state, message: 'JSONPath filters need a JSON body up to 2 MiB' };
      }
      return {
        ...state,
        input: { kind: action.kind, value: action.kind === 'jsonPath' ? (state.jsonPath ?? '') : '' },
        message: undefined,
      };
    case 'inputChange':
      return state.input ? { ...state, input: { ...state.input, value: action.value } } : state;
    case 'inputCancel':
      return { ...state, input: undefined };
    case 'inputSubmit': {
      if (!state.input) return state;
      const value = state.input.value.trim();
      if (state.input.kind === 'search') {
        if (!value) return { ...state, input: undefined, search: undefined };
        const found = findRow(view, state.folded, value, state.cursor - 1, 1);
        const next = {
          ...state,
          input: undefined,
          search: value,
          message: found === -1 ? `no match for ${value}` : undefined,
        };
        return found === -1 ? next : clampTo(next, found, view.count, height);
      }
      if (!value || value === '$')
        return {
          ...state,
          input: undefined,
          jsonPath: undefined,
          folded: emptyFolds,
          cursor: 0,
          scroll: 0,
          message: undefined,
        };
      try {
        const path = normaliseJsonPath(value);
        const filtered = viewerModel(context.base, path);
        const matches = filtered.kind === 'json' && Array.isArray(filtered.value) ? filtered.value.length : 0;
        return {
          ...state,
          input: undefined,
          jsonPath: path,
          folded: emptyFolds,
          cursor: 0,
          scroll: 0,
          message: `${matches} ${matches === 1 ? 'match' : 'matches'} for ${path}`,
        };
      } catch (error) {
        return {
          ...state,
          input: undefined,
          message: `invalid JSONPath: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
    }
    case 'findNext': {
      if (!state.search) return { ...state, message: 'no search: press / first' };
      const found = findRow(view, state.folded, state.search, state.cursor, action.direction);
      if (found === -1) return { ...state, message: `no match for ${state.search}` };
      return clampTo({ ...state, message: undefined }, found, view.count, height);
    }
    case 'clearFilter':
      return { ...state, jsonPath: undefined, folded: emptyFolds, cursor: 0, scroll: 0, left: 0 };
    case 'reset':
      return initialViewerState;
  }
}
