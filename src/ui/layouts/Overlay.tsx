/** The full-screen screens that cover the workbench: palette, environment picker, history and help. */
import React from 'react';
import { Box } from 'ink';
import type { ActionName, Keymap } from '../keymap.js';
import type { Theme } from '../theme.js';
import type { HistoryItem } from '../services.js';
import { filteredPalette, type AppState, type Screen } from '../state/app-state.js';
import { ListScreen } from '../screens/ListScreen.js';
import { HelpScreen } from '../screens/HelpScreen.js';
import { HistoryScreen } from '../screens/HistoryScreen.js';
import { BodyEditorScreen } from '../screens/BodyEditorScreen.js';

export type OverlayScreen = Extract<Screen, { kind: 'palette' | 'environments' | 'history' | 'help' | 'body' }>;

/** Whether a screen covers the workbench (the others are one line at the bottom). */
export function isOverlay(screen: Screen | undefined): screen is OverlayScreen {
  return (
    screen?.kind === 'palette' ||
    screen?.kind === 'environments' ||
    screen?.kind === 'history' ||
    screen?.kind === 'help' ||
    screen?.kind === 'body'
  );
}

export interface OverlayProps {
  screen: OverlayScreen;
  state: AppState;
  keymap: Keymap;
  describe: (action: ActionName) => string;
  /** History entries as shown (secrets masked unless revealed). */
  history?: HistoryItem[];
  width: number;
  height: number;
  theme: Theme;
}

export function Overlay({
  screen,
  state,
  keymap,
  describe,
  history,
  width,
  height,
  theme,
}: OverlayProps): React.ReactElement {
  let body: React.ReactElement;
  switch (screen.kind) {
    case 'palette': {
      const items = filteredPalette(state, screen.query, keymap, describe);
      const shown = items.map((item) => ({
        key: item.id,
        label: `${item.kind === 'request' ? '→' : '⚙'} ${item.label}`,
      }));
      body = (
        <ListScreen
          title="Command palette"
          query={screen.query}
          items={shown}
          cursor={screen.cursor}
          width={width}
          height={height}
          theme={theme}
          footer="↑/↓ choose · enter run · esc close"
        />
      );
      break;
    }
    case 'environments': {
      const options = ['(none)', ...state.environments];
      const items = options.map((name, i) => ({
        key: name,
        label: `${(i === 0 ? undefined : name) === state.environment ? '●' : ' '} ${name}`,
      }));
      body = (
        <ListScreen
          title="Environment"
          items={items}
          cursor={screen.cursor}
          width={width}
          height={height}
          theme={theme}
          footer="enter: use it (remembered for this workspace) · esc: close"
        />
      );
      break;
    }
    case 'history':
      body = (
        <HistoryScreen
          items={history ?? screen.items}
          cursor={screen.cursor}
          diff={screen.diff}
          diffScroll={screen.diffScroll}
          width={width}
          height={height}
          theme={theme}
        />
      );
      break;
    case 'body':
      body = (
        <BodyEditorScreen
          editor={screen.editor}
          json={screen.json}
          message={state.toast}
          width={width}
          height={height}
          theme={theme}
        />
      );
      break;
    case 'help':
      body = <HelpScreen keymap={keymap} scroll={screen.scroll} width={width} height={height} theme={theme} />;
      break;
  }
  return (
    <Box width={width} height={height}>
      {body}
    </Box>
  );
}
