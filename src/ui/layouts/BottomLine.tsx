/** The bottom of the workbench: an open one-line field (prompt, input, edit, confirm), else the status bar with the focused pane's keys. */
import React from 'react';
import { Box, Text } from 'ink';
import type { ActionName, Keymap } from '../keymap.js';
import type { Theme } from '../theme.js';
import { isWelcome, type Pane, type AppState } from '../state/app-state.js';
import { StatusBar } from '../components/StatusBar.js';
import type { RequestState } from '../services.js';

/** The keys the footer lists for each pane (short labels), the edit keys included: data, like the keymap. */
export const footerKeys: Record<Pane, Array<[ActionName, string]>> = {
  tree: [
    ['send', 'send'],
    ['filterTree', 'filter'],
    ['newRequest', 'new'],
    ['editUrl', 'url'],
    ['editMethod', 'method'],
    ['editHeaders', 'headers'],
    ['editBody', 'body'],
    ['rename', 'rename'],
    ['duplicate', 'dup'],
    ['delete', 'delete'],
    ['focusNext', 'pane'],
    ['palette', 'palette'],
    ['environments', 'env'],
    ['help', 'keys'],
    ['quit', 'quit'],
  ],
  request: [
    ['send', 'send'],
    ['editMethod', 'method'],
    ['editUrl', 'url'],
    ['editHeaders', 'headers'],
    ['editBody', 'body'],
    ['editRequest', '$EDITOR'],
    ['rename', 'rename'],
    ['newRequest', 'new'],
    ['focusNext', 'pane'],
    ['palette', 'palette'],
    ['help', 'keys'],
    ['quit', 'quit'],
  ],
  response: [
    ['nextTab', 'tab'],
    ['toggleFold', 'fold'],
    ['jsonPath', 'JSONPath'],
    ['search', 'search'],
    ['copyBody', 'copy'],
    ['saveBody', 'save'],
    ['pager', '$PAGER'],
    ['send', 'send'],
    ['focusNext', 'pane'],
    ['help', 'keys'],
    ['quit', 'quit'],
  ],
};

/** The welcome screen's keys (no request yet, so nothing to send or edit). */
export const welcomeKeys: Array<[ActionName, string]> = [
  ['newRequest', 'new request'],
  ['importRequests', 'import'],
  ['palette', 'palette'],
  ['help', 'keys'],
  ['quit', 'quit'],
];

/** The footer's key hints for the focused pane (or how to cancel while a request is in flight). */
export function footerHints(state: AppState, keymap: Keymap): string {
  const k = (action: ActionName): string => keymap[action][0] ?? '?';
  if (state.inFlight) return `${k('back')}/${k('cancel')} cancel`;
  return (isWelcome(state) ? welcomeKeys : footerKeys[state.focus])
    .map(([action, label]) => `${k(action)} ${label}`)
    .join(' · ');
}

/** The text of an open one-line field, or undefined when none is open. */
export function fieldLine(state: AppState): { text: string; kind: 'field' | 'confirm' } | undefined {
  const screen = state.screens[state.screens.length - 1];
  if (screen?.kind === 'prompt')
    return {
      kind: 'field',
      text: `${screen.description ?? screen.name}: ${screen.value}▏ (enter accepts, esc cancels)`,
    };
  if (screen?.kind === 'confirm') return { kind: 'confirm', text: screen.message };
  if (screen?.kind === 'input')
    return { kind: 'field', text: `${screen.label}: ${screen.value}▏ (enter accepts, esc cancels)` };
  if (screen?.kind === 'edit') {
    const label = { headers: 'Headers (Name: value; …)', url: 'URL', query: 'Query (a=1&b=2)', method: 'Method' }[
      screen.field
    ];
    return { kind: 'field', text: `${label}: ${screen.value}▏ (enter saves, esc cancels)` };
  }
  return undefined;
}

/** Rows the bottom needs at `width`: a message wraps (up to 4 rows) instead of being cut. */
export function bottomRows(state: AppState, width: number): number {
  const rowsOf = (text: string): number => Math.max(1, Math.ceil(text.length / Math.max(1, width)));
  const field = fieldLine(state);
  // With a field open, a message (why a value was refused, a change on disk) shows above it.
  if (field) return Math.min(5, rowsOf(field.text) + (state.toast ? rowsOf(state.toast) : 0));
  return Math.min(4, rowsOf(state.toast ? `${' '.repeat(36)}${state.toast}` : ''));
}

export interface BottomLineProps {
  state: AppState;
  /** The selected request's display name. */
  request?: string;
  requestState: RequestState;
  keymap: Keymap;
  theme: Theme;
  width: number;
  rows: number;
}

export function BottomLine({
  state,
  request,
  requestState,
  keymap,
  theme,
  width,
  rows,
}: BottomLineProps): React.ReactElement {
  const field = fieldLine(state);
  if (field) {
    return (
      <Box width={width} height={rows} overflow="hidden" flexDirection="column">
        {state.toast ? (
          <Text wrap="wrap" color={theme.warn}>
            {state.toast}
          </Text>
        ) : null}
        <Text wrap="wrap" color={field.kind === 'confirm' ? theme.warn : theme.accent}>
          {field.text}
        </Text>
      </Box>
    );
  }
  return (
    <StatusBar
      environment={state.environment}
      request={request}
      requestState={requestState}
      secretsShown={state.revealSecrets}
      hints={footerHints(state, keymap)}
      toast={state.toast}
      width={width}
      rows={rows}
      theme={theme}
    />
  );
}
