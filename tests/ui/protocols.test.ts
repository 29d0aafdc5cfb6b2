/** The workbench state for streaming and GraphQL requests: live events per request in flight; a GraphQL body edited as written. */
import { describe, expect, it } from 'vitest';
import { appReducer, MAX_LIVE_MESSAGES } from '../../src/ui/state/reducer.js';
import { initialAppState } from '../../src/ui/state/app-state.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import type { ResponseResult } from '../../src/ui/services.js';

const message = (n: number) => ({ direction: 'received' as const, data: `event ${n}`, id: String(n), atMs: n });

describe('streamMessage', () => {
  it('appends to the request in flight, keeps the newest, and keeps them with the response', () => {
    let state = appReducer(
      initialAppState(),
      { type: 'sendStarted', key: 'a#0', sentBlock: 'SSE x', at: 0 },
      defaultKeymap,
    ).state;
    for (let n = 1; n <= MAX_LIVE_MESSAGES + 2; n++)
      state = appReducer(state, { type: 'streamMessage', message: message(n) }, defaultKeymap).state;
    const messages = state.outcomes['a#0'].messages!;
    expect(messages).toHaveLength(MAX_LIVE_MESSAGES);
    expect(messages[0].id).toBe('3');
    expect(messages.at(-1)!.id).toBe(String(MAX_LIVE_MESSAGES + 2));
    const result = { bodyText: '[]' } as unknown as ResponseResult;
    state = appReducer(state, { type: 'response', result, at: 10 }, defaultKeymap).state;
    expect(state.outcomes['a#0'].messages).toHaveLength(MAX_LIVE_MESSAGES);
    expect(state.outcomes['a#0'].result).toBe(result);
  });
  it('is ignored when nothing is in flight', () => {
    const state = initialAppState();
    expect(appReducer(state, { type: 'streamMessage', message: message(1) }, defaultKeymap).state).toBe(state);
  });
});

describe('editing a GraphQL body', () => {
  it('opens the query as written, not the JSON payload dial sends', async () => {
    const { parseHttpFile } = await import('../../src/core/httpfile/index.js');
    const text = 'GRAPHQL http://x/graphql\n\nquery Q($id: ID) {\n  user(id: $id) { name }\n}\n\n{"id": 1}\n';
    const file = parseHttpFile(text, '/ws/g.http');
    let state = appReducer(
      initialAppState(),
      { type: 'loaded', files: [{ path: '/ws/g.http', relativePath: 'g.http', file }], environments: [] },
      defaultKeymap,
    ).state;
    state = appReducer(state, { type: 'selectRequest', fileIndex: 0, requestIndex: 0 }, defaultKeymap).state;
    state = appReducer(state, { type: 'key', name: 'b', input: 'b' }, defaultKeymap).state;
    const screen = state.screens.at(-1);
    expect(screen?.kind).toBe('body');
    if (screen?.kind !== 'body') return;
    expect(screen.editor.lines).toEqual(['query Q($id: ID) {', '  user(id: $id) { name }', '}', '', '{"id": 1}']);
    expect(screen.json).toBe(false);
  });
});
