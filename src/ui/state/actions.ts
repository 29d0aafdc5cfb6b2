/** Named actions (from a key or the palette) as pure steps: a new state and the effects to run. */
import type { ActionName } from '../keymap.js';
import type { RequestNode } from '../../core/httpfile/types.js';
import { openBodyEditor } from './body-editor.js';
import { isJsonBody } from './body-edit.js';
import { writtenBodyText } from '../../core/httpfile/written-body.js';
import type { ViewerAction } from '../viewer/viewer-reducer.js';
import {
  clampTree,
  none,
  outcomeKey,
  panes,
  push,
  requestLabel,
  selectedRequest,
  shownResult,
  tabs,
  type AppState,
  type EditField,
  type Effect,
  type Step,
} from './app-state.js';

const effect = (state: AppState, e: Effect): Step => ({ state, effects: [e] });
const viewer = (state: AppState, action: ViewerAction): Step => ({ state, effects: [{ type: 'viewer', action }] });
const toast = (state: AppState, message: string): Step => none({ ...state, toast: message });

const editFields = { editMethod: 'method', editUrl: 'url', editQuery: 'query', editHeaders: 'headers' } as const;

/** A field's current text in its inline editor. */
export function fieldValue(node: RequestNode, field: EditField): string {
  switch (field) {
    case 'method':
      return node.method;
    case 'url':
      return node.url;
    case 'query': {
      const at = node.url.indexOf('?');
      return at === -1 ? '' : node.url.slice(at + 1);
    }
    case 'headers':
      return node.headers.map((h) => `${h.name}: ${h.value}`).join('; ');
  }
}

/** Opening screens and moving between panes. */
function screenAction(state: AppState, action: ActionName): Step | undefined {
  switch (action) {
    case 'quit':
      return effect(state, { type: 'quit' });
    case 'cancel':
      return effect(state, { type: state.inFlight ? 'cancel' : 'quit' });
    case 'back':
      if (state.inFlight) return effect(state, { type: 'cancel' });
      if (state.viewer.jsonPath) return viewer(state, { type: 'clearFilter' });
      if (state.treeFilter) return none({ ...state, treeFilter: '', treeCursor: 0 });
      return none(state);
    case 'palette':
      return none(push(state, { kind: 'palette', query: '', cursor: 0 }));
    case 'environments':
      return none(
        push(state, {
          kind: 'environments',
          cursor: state.environment ? state.environments.indexOf(state.environment) + 1 : 0,
        }),
      );
    case 'history':
      return effect(state, { type: 'openHistory' });
    case 'reload':
      return effect(state, { type: 'reload' });
    case 'help':
      return none(push(state, { kind: 'help', scroll: 0 }));
    case 'focusNext':
    case 'focusPrev': {
      const at = panes.indexOf(state.focus);
      return none({ ...state, focus: panes[(at + (action === 'focusNext' ? 1 : panes.length - 1)) % panes.length] });
    }
    case 'toggleSecrets':
      return none({ ...state, revealSecrets: !state.revealSecrets });
    default:
      return undefined;
  }
}

/** Moving in the tree, or in the response viewer when it has the focus. */
function moveAction(state: AppState, action: ActionName): Step | undefined {
  switch (action) {
    case 'up':
    case 'down':
    case 'pageUp':
    case 'pageDown':
    case 'top':
    case 'bottom': {
      if (state.focus === 'response') {
        if (action === 'up' || action === 'down') return viewer(state, { type: 'move', by: action === 'up' ? -1 : 1 });
        if (action === 'pageUp' || action === 'pageDown')
          return viewer(state, { type: 'page', direction: action === 'pageUp' ? -1 : 1 });
        return viewer(state, { type: action === 'top' ? 'top' : 'bottom' });
      }
      const delta = { up: -1, down: 1, pageUp: -10, pageDown: 10, top: -1e9, bottom: 1e9 }[action];
      return none(clampTree(state, state.treeCursor + delta));
    }
    case 'filterTree':
      return none({ ...state, treeFiltering: true, focus: 'tree' });
    default:
      return undefined;
  }
}

/** The response viewer: tabs, folds, filters, search, and what to do with the body. */
function responseAction(state: AppState, action: ActionName): Step | undefined {
  switch (action) {
    case 'nextTab':
    case 'prevTab': {
      const at = tabs.indexOf(state.tab);
      return none({ ...state, tab: tabs[(at + (action === 'nextTab' ? 1 : tabs.length - 1)) % tabs.length] });
    }
    case 'scrollLeft':
    case 'scrollRight':
      return viewer(state, { type: 'scrollX', by: action === 'scrollLeft' ? -20 : 20 });
    case 'toggleFold':
    case 'foldAll':
    case 'unfoldAll':
      return viewer(state, { type: action });
    case 'jsonPath':
    case 'search':
      return {
        state: { ...state, focus: 'response', tab: 'body' },
        effects: [{ type: 'viewer', action: { type: 'startInput', kind: action } }],
      };
    case 'searchNext':
    case 'searchPrev':
      return viewer(state, { type: 'findNext', direction: action === 'searchNext' ? 1 : -1 });
    case 'copyBody':
    case 'copyCurl':
    case 'pager':
      return shownResult(state) ? effect(state, { type: action }) : toast(state, 'no response yet');
    case 'saveBody':
      if (!shownResult(state)) return toast(state, 'no response yet');
      return none(push(state, { kind: 'input', purpose: 'saveBody', label: 'Save body to', value: '' }));
    default:
      return undefined;
  }
}

/** Sending and changing requests (and their files). */
function requestAction(state: AppState, action: ActionName): Step | undefined {
  const selected = selectedRequest(state);
  const needsRequest = (step: () => Step): Step => (selected ? step() : toast(state, 'no request selected'));
  switch (action) {
    case 'send':
      if (state.inFlight) return toast(state, 'a request is already in flight (esc cancels it)');
      return needsRequest(() => effect(state, { type: 'send' }));
    case 'editMethod':
    case 'editUrl':
    case 'editQuery':
    case 'editHeaders':
      return needsRequest(() => {
        const field = editFields[action];
        return none(push(state, { kind: 'edit', field, value: fieldValue(selected!.node, field) }));
      });
    case 'editBody':
      return needsRequest(() => {
        const node = selected!.node;
        if (node.body?.kind === 'file')
          return toast(state, `the body comes from ${node.body.path}: edit that file, or the whole request with e`);
        return none(
          push(state, {
            kind: 'body',
            editor: openBodyEditor(writtenBodyText(selected!.entry.file, node)),
            json: isJsonBody(node.headers) && !node.graphql,
          }),
        );
      });
    case 'editBodyExternal':
      return needsRequest(() => effect(state, { type: 'editBody' }));
    case 'editRequest':
    case 'duplicate':
      return needsRequest(() => effect(state, { type: action }));
    case 'rename':
      return needsRequest(() =>
        none(push(state, { kind: 'input', purpose: 'rename', label: 'Title', value: requestLabel(selected!.node) })),
      );
    case 'delete':
      return needsRequest(() =>
        none(
          push(state, {
            kind: 'confirm',
            message: `Delete ${requestLabel(selected!.node)}? (y/n)`,
            effect: { type: 'delete' },
          }),
        ),
      );
    case 'newRequest':
      return none(push(state, { kind: 'input', purpose: 'newRequest', label: 'New request (METHOD URL)', value: '' }));
    case 'composeMessage':
      // Only while a WebSocket of the selected request is open (a conversation runs until esc closes it).
      if (
        !state.inFlight ||
        !selected ||
        selected.node.method !== 'WEBSOCKET' ||
        state.sending !== outcomeKey(selected.entry.path, selected.node.index)
      )
        return toast(state, 'no WebSocket open: send a WEBSOCKET request first (enter)');
      return none(push(state, { kind: 'input', purpose: 'message', label: 'Message (enter sends)', value: '' }));
    case 'importRequests':
      return none(
        push(state, {
          kind: 'input',
          purpose: 'import',
          label: 'Import (a curl command, or a Postman / OpenAPI file path)',
          value: '',
        }),
      );
    default:
      return undefined;
  }
}

/** Runs one named action (from a key or the palette). */
export function runAction(state: AppState, action: ActionName): Step {
  return (
    screenAction(state, action) ??
    moveAction(state, action) ??
    responseAction(state, action) ??
    requestAction(state, action) ??
    none(state)
  );
}
