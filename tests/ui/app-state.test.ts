import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../src/core/httpfile/index.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { appReducer } from '../../src/ui/state/reducer.js';
import {
  initialAppState,
  selectedRequest,
  treeRows,
  type AppAction,
  type AppState,
  type Effect,
} from '../../src/ui/state/app-state.js';

const fileA = parseHttpFile(
  '### list\n# @name listUsers\nGET http://x/users\n\n### create\n# @name createUser\nPOST http://x/users\n',
  '/ws/a.http',
);
const fileB = parseHttpFile('GET http://x/health\n', '/ws/b.http');

function loaded(): AppState {
  return appReducer(
    initialAppState(),
    {
      type: 'loaded',
      files: [
        { path: '/ws/a.http', relativePath: 'a.http', file: fileA },
        { path: '/ws/b.http', relativePath: 'b.http', file: fileB },
      ],
      environments: ['dev', 'prod'],
    },
    defaultKeymap,
  ).state;
}

function keys(state: AppState, ...names: string[]): { state: AppState; effects: Effect[] } {
  let effects: Effect[] = [];
  for (const name of names) {
    const action: AppAction = { type: 'key', name, input: name.length === 1 ? name : '' };
    const step = appReducer(state, action, defaultKeymap);
    state = step.state;
    effects = [...effects, ...step.effects];
  }
  return { state, effects };
}

describe('tree', () => {
  it('lists files and requests and moves the cursor', () => {
    const state = loaded();
    // A ### title wins over # @name; with neither, METHOD and the URL's path.
    expect(treeRows(state).map((r) => r.label)).toEqual(['a.http', 'list', 'create', 'b.http', 'GET /health']);
    expect(selectedRequest(state)?.node.name).toBe('listUsers');
    const moved = keys(state, 'down', 'down').state;
    expect(selectedRequest(moved)?.node.name).toBe('createUser');
    expect(keys(state, 'end').state.treeCursor).toBe(4);
  });

  it('filters with / and keeps q as text while typing', () => {
    const { state, effects } = keys(loaded(), '/', 'q', 'backspace', 'c', 'r', 'e');
    expect(effects).toEqual([]);
    expect(state.treeFilter).toBe('cre');
    expect(treeRows(state).map((r) => r.label)).toEqual(['a.http', 'create']);
    const done = keys(state, 'enter').state;
    expect(done.treeFiltering).toBe(false);
    expect(selectedRequest(done)?.node.name).toBe('createUser');
    expect(keys(state, 'esc').state.treeFilter).toBe('');
  });
});

describe('dispatcher priorities', () => {
  it('q quits outside text fields', () => {
    expect(keys(loaded(), 'q').effects).toEqual([{ type: 'quit' }]);
  });

  it('ctrl+c quits when idle but cancels an in-flight request', () => {
    expect(keys(loaded(), 'ctrl+c').effects).toEqual([{ type: 'quit' }]);
    const sending = appReducer(loaded(), { type: 'requestState', state: 'sending' }, defaultKeymap).state;
    expect(sending.inFlight).toBe(true);
    expect(keys(sending, 'ctrl+c').effects).toEqual([{ type: 'cancel' }]);
    expect(keys(sending, 'esc').effects).toEqual([{ type: 'cancel' }]);
    expect(keys(sending, 'enter').effects).toEqual([]);
  });

  it('enter sends the selected request', () => {
    expect(keys(loaded(), 'enter').effects).toEqual([{ type: 'send' }]);
  });

  it('/ filters the tree in the tree pane but searches in the response pane', () => {
    expect(keys(loaded(), '/').state.treeFiltering).toBe(true);
    const response = keys(loaded(), 'tab', 'tab');
    expect(response.state.focus).toBe('response');
    expect(keys(response.state, '/').effects).toEqual([
      { type: 'viewer', action: { type: 'startInput', kind: 'search' } },
    ]);
    expect(keys(loaded(), 'shift+tab').state.focus).toBe('response');
  });

  it('the viewer input takes keys before global actions', () => {
    const state = {
      ...loaded(),
      focus: 'response' as const,
      viewer: { ...loaded().viewer, input: { kind: 'search' as const, value: 'a' } },
    };
    expect(keys(state, 'q').effects).toEqual([{ type: 'viewer', action: { type: 'inputChange', value: 'aq' } }]);
    expect(keys(state, 'esc').effects).toEqual([{ type: 'viewer', action: { type: 'inputCancel' } }]);
  });

  it('response keys cycle tabs and map to viewer actions', () => {
    const state = { ...loaded(), focus: 'response' as const };
    expect(keys(state, ']').state.tab).toBe('headers');
    expect(keys(state, '[').state.tab).toBe('raw');
    expect(keys(state, 'z').effects).toEqual([{ type: 'viewer', action: { type: 'toggleFold' } }]);
    expect(keys(state, 'n').effects).toEqual([{ type: 'viewer', action: { type: 'findNext', direction: 1 } }]);
  });
});

describe('screen stack', () => {
  it('the palette jumps to a request; esc pops', () => {
    const opened = keys(loaded(), 'ctrl+p');
    expect(opened.state.screens.map((s) => s.kind)).toEqual(['palette']);
    const picked = keys(opened.state, 'h', 'e', 'a', 'l', 't', 'h', 'enter').state;
    expect(picked.screens).toEqual([]);
    expect(selectedRequest(picked)?.node.url).toBe('http://x/health');
    expect(keys(opened.state, 'esc').state.screens).toEqual([]);
  });

  it('the palette runs actions', () => {
    const { effects } = keys(loaded(), 'ctrl+p', 'Q', 'u', 'i', 't', 'enter');
    expect(effects).toEqual([{ type: 'quit' }]);
  });

  it('the environment picker sets and remembers the environment', () => {
    const { state, effects } = keys(loaded(), 'ctrl+e', 'down', 'down', 'enter');
    expect(state.environment).toBe('prod');
    expect(effects).toEqual([{ type: 'pickEnvironment', name: 'prod' }]);
    expect(keys(state, 'ctrl+e').state.screens[0]).toEqual({ kind: 'environments', cursor: 2 });
  });

  it('delete asks for confirmation', () => {
    const asked = keys(loaded(), 'x');
    expect(asked.state.screens[0]?.kind).toBe('confirm');
    expect(keys(asked.state, 'n').effects).toEqual([]);
    expect(keys(asked.state, 'y').effects).toEqual([{ type: 'delete' }]);
  });

  it('a prompt answers the pending variable or cancels', () => {
    const state = appReducer(
      loaded(),
      { type: 'pushScreen', screen: { kind: 'prompt', name: 'token', value: '' } },
      defaultKeymap,
    ).state;
    expect(keys(state, 'a', 'b', 'enter').effects).toEqual([{ type: 'promptAnswer', value: 'ab' }]);
    expect(keys(state, 'esc').effects).toEqual([{ type: 'promptAnswer', value: undefined }]);
  });

  it('inline edits start from the current value', () => {
    const state = keys(loaded(), 'u').state;
    expect(state.screens[0]).toEqual({ kind: 'edit', field: 'url', value: 'http://x/users' });
    const { effects } = keys(state, 'ctrl+u', 'h', 'enter');
    expect(effects).toEqual([{ type: 'saveInline', field: 'url', value: 'h' }]);
  });

  it('help opens with ? and closes with esc', () => {
    const state = keys(loaded(), '?').state;
    expect(state.screens[0]?.kind).toBe('help');
    expect(keys(state, 'esc').state.screens).toEqual([]);
  });
});

describe('history diff scrolling', () => {
  const body = (n: number) =>
    ['{', ...Array.from({ length: 80 }, (_, i) => `  "line${i}": ${i === 60 ? n : i},`), '}'].join('\n');
  const items = [
    { time: 't2', requestKey: 'a', label: 'GET /a', body: body(2) },
    { time: 't1', requestKey: 'b', label: 'GET /b', body: 'b' },
    { time: 't0', requestKey: 'a', label: 'GET /a', body: body(1) },
  ];
  const opened = (): AppState => {
    let state = appReducer(loaded(), { type: 'screenRows', rows: 29 }, defaultKeymap).state;
    state = appReducer(
      state,
      { type: 'pushScreen', screen: { kind: 'history', items, cursor: 0, diff: false } },
      defaultKeymap,
    ).state;
    return keys(state, 'enter').state;
  };
  const history = (state: AppState) =>
    state.screens[state.screens.length - 1] as Extract<AppState['screens'][number], { kind: 'history' }>;

  it('up/down/pgup/pgdn/home/end scroll the open diff within its 83 lines, not the entry list', () => {
    let state = opened();
    expect(history(state)).toMatchObject({ diff: true, diffScroll: 0, cursor: 0 });
    state = keys(state, 'down', 'down').state;
    expect(history(state)).toMatchObject({ diffScroll: 2, cursor: 0 });
    // 29 rows -> 25 diff rows a page; 83 lines -> at most 58.
    state = keys(state, 'pagedown').state;
    expect(history(state).diffScroll).toBe(27);
    state = keys(state, 'pagedown', 'pagedown').state;
    expect(history(state).diffScroll).toBe(58);
    state = keys(state, 'pageup', 'up').state;
    expect(history(state).diffScroll).toBe(32);
    state = keys(state, 'home').state;
    expect(history(state).diffScroll).toBe(0);
    state = keys(state, 'up').state;
    expect(history(state).diffScroll).toBe(0);
    state = keys(state, 'end').state;
    expect(history(state).diffScroll).toBe(58);
    // Esc closes the diff; down moves in the list again, and a diff opens at its top.
    state = keys(state, 'esc', 'down').state;
    expect(history(state)).toMatchObject({ diff: false, cursor: 1 });
    state = keys(state, 'up', 'enter').state;
    expect(history(state)).toMatchObject({ diff: true, diffScroll: 0, cursor: 0 });
  });

  it('a taller screen pages further; an entry with no earlier response does not scroll', () => {
    let state = appReducer(opened(), { type: 'screenRows', rows: 49 }, defaultKeymap).state;
    state = keys(state, 'pagedown').state;
    expect(history(state).diffScroll).toBe(38);
    state = keys(state, 'esc', 'down', 'enter', 'down', 'pagedown').state;
    expect(history(state)).toMatchObject({ diff: true, cursor: 1, diffScroll: 0 });
  });
});
