/** `ctrl+h`: past exchanges of this workspace; enter shows a line diff against the previous one of the same request. */
import React from 'react';
import { Box, Text } from 'ink';
import type { HistoryItem } from '../services.js';
import type { Theme } from '../theme.js';
import { diffLines } from '../diff.js';
import { ListScreen } from './ListScreen.js';

export interface HistoryScreenProps {
  items: HistoryItem[];
  cursor: number;
  diff: boolean;
  width: number;
  height: number;
  theme: Theme;
}

/** The entry before `index` (older) for the same request, if any; items are newest first. */
export function previousOf(items: HistoryItem[], index: number): HistoryItem | undefined {
  const item = items[index];
  if (!item) return undefined;
  return items.slice(index + 1).find((other) => other.requestKey === item.requestKey);
}

export function HistoryScreen({ items, cursor, diff, width, height, theme }: HistoryScreenProps): React.ReactElement {
  if (!diff) {
    return (
      <ListScreen
        title={`History (${items.length})`}
        items={items.map((item, i) => ({ key: String(i), label: `${item.time}  ${item.status ?? '---'}  ${item.label}`, detail: item.durationMs !== undefined ? `${Math.round(item.durationMs)} ms` : undefined }))}
        cursor={cursor}
        width={width}
        height={height}
        theme={theme}
        footer="enter: diff against the previous response of the same request · esc: close"
      />
    );
  }
  const item = items[cursor];
  const previous = previousOf(items, cursor);
  const lines = item && previous ? diffLines(previous.body, item.body) : [];
  const listHeight = Math.max(1, height - 4);
  const added = lines.filter((l) => l.kind === 'added').length;
  const removed = lines.filter((l) => l.kind === 'removed').length;
  return (
    <Box flexDirection="column" width={width} height={height} borderStyle="round" borderColor={theme.borderFocused} paddingX={1}>
      <Text bold wrap="truncate-end">{item ? `Diff: ${item.label} (${previous ? `${previous.time} → ${item.time}: +${added} -${removed} lines` : 'no earlier response of this request'})` : 'Diff'}</Text>
      <Box flexDirection="column" height={listHeight} overflow="hidden">
        {lines.slice(0, listHeight).map((line, i) => (
          <Text key={i} wrap="truncate-end" color={line.kind === 'added' ? theme.diff.added : line.kind === 'removed' ? theme.diff.removed : theme.muted}>
            {`${line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '} ${line.text}`}
          </Text>
        ))}
      </Box>
      <Text color={theme.muted}>esc: back to the list</Text>
    </Box>
  );
}
