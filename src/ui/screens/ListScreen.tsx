/** A bordered full-screen list with a title, used by the palette, the environment picker and history. */
import React from 'react';
import { Box, Text } from 'ink';
import type { Theme } from '../theme.js';
import { fit } from '../format.js';

export interface ListScreenProps {
  title: string;
  query?: string;
  items: Array<{ key: string; label: string; detail?: string }>;
  cursor: number;
  width: number;
  height: number;
  theme: Theme;
  footer?: string;
}

export function ListScreen({
  title,
  query,
  items,
  cursor,
  width,
  height,
  theme,
  footer,
}: ListScreenProps): React.ReactElement {
  const listHeight = Math.max(1, height - 2 - (query === undefined ? 1 : 2) - (footer ? 1 : 0));
  const scroll = Math.min(Math.max(0, cursor - listHeight + 1), Math.max(0, items.length - listHeight));
  const inner = Math.max(1, width - 4);
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="round"
      borderColor={theme.borderFocused}
      paddingX={1}
    >
      <Text bold>{title}</Text>
      {query !== undefined ? <Text color={theme.accent}>{`> ${query}▏`}</Text> : null}
      <Box flexDirection="column" height={listHeight} overflow="hidden">
        {items.length === 0 ? <Text color={theme.muted}>nothing matches</Text> : null}
        {items.slice(scroll, scroll + listHeight).map((item, i) => (
          <Text key={item.key} wrap="truncate-end" inverse={scroll + i === cursor}>
            {fit(item.label, inner)}
            {item.detail ? <Text color={theme.muted}>{`  ${item.detail}`}</Text> : null}
          </Text>
        ))}
      </Box>
      {footer ? <Text color={theme.muted}>{footer}</Text> : null}
    </Box>
  );
}
