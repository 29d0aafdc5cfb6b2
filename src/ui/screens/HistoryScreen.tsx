/** `ctrl+h`: past exchanges of this workspace; enter shows a line diff against the previous one of the same request. */
import React from 'react';
import { Box, Text } from 'ink';
import type { HistoryItem } from '../services.js';
import type { Theme } from '../theme.js';
import { cachedDiff, historyDiffRows } from '../diff.js';
import { previousOf } from '../state/app-state.js';
import { ListScreen } from './ListScreen.js';

export interface HistoryScreenProps {
  items: HistoryItem[];
  cursor: number;
  diff: boolean;
  /** First diff line shown (the reducer bounds it). */
  diffScroll?: number;
  width: number;
  height: number;
  theme: Theme;
}

export function HistoryScreen({
  items,
  cursor,
  diff,
  diffScroll = 0,
  width,
  height,
  theme,
}: HistoryScreenProps): React.ReactElement {
  if (!diff) {
    return (
      <ListScreen
        title={`History (${items.length})`}
        items={items.map((item, i) => ({
          key: String(i),
          label: `${item.time}  ${item.status ?? '---'}  ${item.label}`,
          detail: item.durationMs !== undefined ? `${Math.round(item.durationMs)} ms` : undefined,
        }))}
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
  const lines = item && previous ? cachedDiff(previous, item) : [];
  const listHeight = historyDiffRows(height);
  const scroll = Math.min(Math.max(0, diffScroll), Math.max(0, lines.length - listHeight));
  let added = 0;
  let removed = 0;
  for (const line of lines) {
    if (line.kind === 'added') added++;
    else if (line.kind === 'removed') removed++;
  }
  // The summary comes first: the label (method and URL) may be long and is cut at the right edge.
  const title = !item
    ? 'Diff'
    : previous
      ? `Diff +${added} -${removed} lines · ${previous.time} → ${item.time} · ${item.label}`
      : `Diff: ${item.label} (no earlier response of this request)`;
  const shown = lines.length
    ? `lines ${scroll + 1}–${Math.min(lines.length, scroll + listHeight)} of ${lines.length} · `
    : '';
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="round"
      borderColor={theme.borderFocused}
      paddingX={1}
    >
      <Text bold wrap="truncate-end">
        {title}
      </Text>
      <Box flexDirection="column" height={listHeight} overflow="hidden">
        {lines.slice(scroll, scroll + listHeight).map((line, i) => (
          <Text
            key={scroll + i}
            wrap="truncate-end"
            color={
              line.kind === 'added' ? theme.diff.added : line.kind === 'removed' ? theme.diff.removed : theme.muted
            }
          >
            {`${line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '} ${line.text}`}
          </Text>
        ))}
      </Box>
      <Text color={theme.muted} wrap="truncate-end">{`${shown}↑/↓ pgup/pgdn scroll · esc: back to the list`}</Text>
    </Box>
  );
}
