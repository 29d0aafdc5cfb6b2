import { describe, expect, it } from 'vitest';
import { buildJsonModel, buildTextModel } from '../../src/ui/viewer/line-model.js';
import {
  initialViewerState,
  viewerReducer,
  type ViewerAction,
  type ViewerState,
} from '../../src/ui/viewer/viewer-reducer.js';

const base = buildJsonModel({ headers: { host: 'x', accept: '*/*' }, items: Array.from({ length: 50 }, (_, i) => i) });
const run = (actions: ViewerAction[], context = { base, height: 10 }): ViewerState =>
  actions.reduce((state, action) => viewerReducer(state, action, context), initialViewerState);

describe('viewerReducer', () => {
  it('moves the cursor and keeps it in the window', () => {
    const state = run([{ type: 'move', by: 15 }]);
    expect(state.cursor).toBe(15);
    expect(state.scroll).toBe(6);
    expect(run([{ type: 'move', by: -5 }]).cursor).toBe(0);
    const bottom = run([{ type: 'bottom' }]);
    expect(bottom.cursor).toBe(base.lines.length - 1);
    expect(bottom.scroll).toBe(base.lines.length - 10);
    expect(run([{ type: 'page', direction: 1 }]).cursor).toBe(9);
  });

  it('folds the node under the cursor and unfolds all', () => {
    const folded = run([{ type: 'move', by: 2 }, { type: 'toggleFold' }]);
    expect([...folded.folded]).toEqual([1]);
    expect(folded.cursor).toBe(1);
    expect(run([{ type: 'foldAll' }]).folded.size).toBe(2);
    expect(run([{ type: 'foldAll' }, { type: 'unfoldAll' }]).folded.size).toBe(0);
  });

  it('applies a JSONPath filter typed in the input and clears it', () => {
    const state = run([
      { type: 'startInput', kind: 'jsonPath' },
      { type: 'inputChange', value: '$.headers' },
      { type: 'inputSubmit' },
    ]);
    expect(state.jsonPath).toBe('$.headers');
    expect(state.message).toBe('1 match for $.headers');
    expect(state.input).toBeUndefined();
    expect(viewerReducer(state, { type: 'clearFilter' }, { base, height: 10 }).jsonPath).toBeUndefined();
  });

  it('reports an invalid JSONPath instead of throwing', () => {
    const state = run([
      { type: 'startInput', kind: 'jsonPath' },
      { type: 'inputChange', value: '$[?(@.a ==' },
      { type: 'inputSubmit' },
    ]);
    expect(state.jsonPath).toBeUndefined();
    expect(state.message).toMatch(/invalid JSONPath/);
  });

  it('searches with n / N', () => {
    const state = run([
      { type: 'startInput', kind: 'search' },
      { type: 'inputChange', value: 'accept' },
      { type: 'inputSubmit' },
    ]);
    expect(state.search).toBe('accept');
    expect(state.cursor).toBe(3);
    const next = viewerReducer(state, { type: 'findNext', direction: 1 }, { base, height: 10 });
    expect(next.cursor).toBe(3);
    const missing = run([
      { type: 'startInput', kind: 'search' },
      { type: 'inputChange', value: 'zzz' },
      { type: 'inputSubmit' },
    ]);
    expect(missing.message).toBe('no match for zzz');
  });

  it('scrolls long lines sideways, never left of column 0', () => {
    expect(
      run([
        { type: 'scrollX', by: 20 },
        { type: 'scrollX', by: 20 },
      ]).left,
    ).toBe(40);
    expect(
      run([
        { type: 'scrollX', by: 20 },
        { type: 'scrollX', by: -50 },
      ]).left,
    ).toBe(0);
  });

  it('refuses folds and JSONPath on raw text', () => {
    const text = buildTextModel('a\nb', 80);
    expect(viewerReducer(initialViewerState, { type: 'toggleFold' }, { base: text, height: 5 }).message).toMatch(
      /JSON/,
    );
    expect(
      viewerReducer(initialViewerState, { type: 'startInput', kind: 'jsonPath' }, { base: text, height: 5 }).input,
    ).toBeUndefined();
  });
});

describe('the JSONPath prompt', () => {
  it('starts empty and reads $.a, .a and a.b from the root', async () => {
    const { normaliseJsonPath, viewerReducer, initialViewerState } =
      await import('../../src/ui/viewer/viewer-reducer.js');
    const { buildLineModel } = await import('../../src/ui/viewer/line-model.js');
    expect(normaliseJsonPath('$.a')).toBe('$.a');
    expect(normaliseJsonPath('.a')).toBe('$.a');
    expect(normaliseJsonPath('a.b')).toBe('$.a.b');
    expect(normaliseJsonPath('[0]')).toBe('$[0]');
    const base = buildLineModel(JSON.stringify({ a: { b: 7 } }), { width: 80, contentType: 'application/json' });
    const context = { base, height: 10 };
    const opened = viewerReducer(initialViewerState, { type: 'startInput', kind: 'jsonPath' }, context);
    expect(opened.input).toEqual({ kind: 'jsonPath', value: '' });
    for (const typed of ['$.a.b', '.a.b', 'a.b']) {
      const withText = viewerReducer(opened, { type: 'inputChange', value: typed }, context);
      const done = viewerReducer(withText, { type: 'inputSubmit' }, context);
      expect(done.jsonPath).toBe('$.a.b');
      expect(done.message).toBe('1 match for $.a.b');
    }
  });
});
