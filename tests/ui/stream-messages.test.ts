/** The reducer keeps a streaming response's events per request while it is in flight, and drops them once the body holds them. */
import { describe, expect, it } from 'vitest';
import { appReducer, MAX_LIVE_MESSAGES } from '../../src/ui/state/reducer.js';
import { initialAppState } from '../../src/ui/state/app-state.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import type { ResponseResult } from '../../src/ui/services.js';

const message = (n: number) => ({ direction: 'received' as const, data: `event ${n}`, id: String(n), atMs: n });

describe('streamMessage', () => {
  it('appends to the request in flight, keeps the newest, and clears them when the response is in', () => {
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
    expect(state.outcomes['a#0'].messages).toBeUndefined();
    expect(state.outcomes['a#0'].result).toBe(result);
  });
  it('is ignored when nothing is in flight', () => {
    const state = initialAppState();
    expect(appReducer(state, { type: 'streamMessage', message: message(1) }, defaultKeymap).state).toBe(state);
  });
});
