/** The left pane: files and their requests, filtered with `/`. */
import React from 'react';
import { Box, Text } from 'ink';
import type { Theme } from '../theme.js';
import type { TreeRow } from '../state/app-state.js';
import { fit, fitStart } from '../format.js';

export interface TreeProps {
  rows: TreeRow[];
  cursor: number;
  height: number;
  width: number;
  filter: string;
  filtering: boolean;
  focused: boolean;
  theme: Theme;
  /** False until the workspace has been read: the tree is then not empty, only not known yet. */
  loaded: boolean;
}

export function Tree({
  rows,
  cursor,
  height,
  width,
  filter,
  filtering,
  focused,
  theme,
  loaded,
}: TreeProps): React.ReactElement {
  const listHeight = Math.max(1, height - 1);
  const scroll = Math.min(Math.max(0, cursor - listHeight + 1), Math.max(0, rows.length - listHeight));
  const shown = rows.slice(scroll, scroll + listHeight);
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      <Text wrap="truncate-end" color={filtering ? theme.accent : theme.muted}>
        {filtering || filter
          ? `/${filter}${filtering ? '▏' : ''}`
          : rows.length === 0
            ? loaded
              ? 'no .http files'
              : 'reading files…'
            : '/ to filter'}
      </Text>
      {shown.map((row, i) => {
        const index = scroll + i;
        const selected = index === cursor;
        if (row.kind === 'file') {
          return (
            <Text key={`f${row.fileIndex}`} bold wrap="truncate-end" inverse={selected && focused}>
              {fitStart(row.label, width)}
            </Text>
          );
        }
        return (
          <Text
            key={`r${row.fileIndex}:${row.requestIndex}`}
            wrap="truncate-end"
            inverse={selected && focused}
            underline={selected && !focused}
          >
            {'  '}
            <Text color={theme.method}>{row.method.padEnd(6)}</Text> {fit(row.label, Math.max(1, width - 9))}
          </Text>
        );
      })}
    </Box>
  );
}
