/** `?`: every action with the keys bound to it in the LIVE keymap (overrides included). */
import React from 'react';
import { Box, Text } from 'ink';
import { actionDescriptions, actionNames, type Keymap } from '../keymap.js';
import type { Theme } from '../theme.js';

export interface HelpScreenProps {
  keymap: Keymap;
  scroll: number;
  width: number;
  height: number;
  theme: Theme;
}

export function HelpScreen({ keymap, scroll, width, height, theme }: HelpScreenProps): React.ReactElement {
  const rows = actionNames.map((action) => ({
    action,
    keys: keymap[action].join(', '),
    text: actionDescriptions[action],
  }));
  const listHeight = Math.max(1, height - 4);
  const start = Math.min(scroll, Math.max(0, rows.length - listHeight));
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="round"
      borderColor={theme.borderFocused}
      paddingX={1}
    >
      <Text bold>Keys (esc closes)</Text>
      <Box flexDirection="column" height={listHeight} overflow="hidden">
        {rows.slice(start, start + listHeight).map((row) => (
          <Text key={row.action} wrap="truncate-end">
            <Text color={theme.accent}>{row.keys.padEnd(22)}</Text>
            {row.text}
            <Text color={theme.muted}>{`  (${row.action})`}</Text>
          </Text>
        ))}
      </Box>
      <Text color={theme.muted}>
        Text fields: enter accepts, esc cancels, ctrl+u clears. Override keys in settings `keymap`.
      </Text>
    </Box>
  );
}
