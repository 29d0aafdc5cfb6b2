/**
 * The virtualized body viewer: only rows [scroll, scroll + height) are turned into elements,
 * so the cost of a frame does not depend on the size of the body.
 */
import React from 'react';
import { Box, Text } from 'ink';
import type { Theme } from '../theme.js';
import {
  buildView,
  isCaseSensitive,
  rowSegments,
  type LineModel,
  type Segment,
  type TokenKind,
} from '../viewer/line-model.js';
import { viewerModel, type ViewerState } from '../viewer/viewer-reducer.js';

export interface ResponseViewerProps {
  base: LineModel;
  state: ViewerState;
  height: number;
  width: number;
  theme: Theme;
  focused: boolean;
}

function colorOf(theme: Theme, kind: TokenKind): string | undefined {
  if (kind === 'text') return undefined;
  return theme.syntax[kind];
}

/** Splits segments so occurrences of `query` can be highlighted. */
function highlight(segments: Segment[], query: string | undefined): Array<Segment & { match?: boolean }> {
  if (!query) return segments;
  const sensitive = isCaseSensitive(query);
  const needle = sensitive ? query : query.toLowerCase();
  const out: Array<Segment & { match?: boolean }> = [];
  for (const segment of segments) {
    const hay = sensitive ? segment.text : segment.text.toLowerCase();
    let at = 0;
    for (;;) {
      const found = hay.indexOf(needle, at);
      if (found === -1) break;
      if (found > at) out.push({ text: segment.text.slice(at, found), kind: segment.kind });
      out.push({ text: segment.text.slice(found, found + needle.length), kind: segment.kind, match: true });
      at = found + needle.length;
    }
    if (at < segment.text.length) out.push({ text: segment.text.slice(at), kind: segment.kind });
  }
  return out;
}

// Control bytes (a binary body, a stray ESC) would move the cursor or change colours: show them as '·'.
const controls = /[\x00-\x08\x0a-\x1f\x7f-\x9f]/g;

/** Makes text safe to print: tabs become a space and control characters a middle dot. */
export function printable(text: string): string {
  return text.replace(/\t/g, ' ').replace(controls, '·');
}

/** Cuts a row's segments to the pane width (Ink would otherwise wrap or lay out the whole line). */
function cut(segments: Segment[], width: number, skip = 0): Segment[] {
  const out: Segment[] = [];
  let left = width;
  let toSkip = skip;
  for (const whole of segments) {
    if (left <= 0) break;
    if (toSkip >= whole.text.length) {
      toSkip -= whole.text.length;
      continue;
    }
    const segment = toSkip > 0 ? { ...whole, text: whole.text.slice(toSkip) } : whole;
    toSkip = 0;
    const text = printable(segment.text.length > left ? segment.text.slice(0, left) : segment.text);
    out.push({ ...segment, text });
    left -= text.length;
  }
  return out;
}

export function ResponseViewer({
  base,
  state,
  height,
  width,
  theme,
  focused,
}: ResponseViewerProps): React.ReactElement {
  const model = viewerModel(base, state.jsonPath);
  const view = buildView(model, state.folded);
  const rows: React.ReactElement[] = [];
  const end = Math.min(view.count, state.scroll + height);
  for (let row = state.scroll; row < end; row++) {
    const segments = highlight(cut(rowSegments(view, row, state.folded), width, state.left ?? 0), state.search);
    const isCursor = focused && row === state.cursor;
    rows.push(
      <Text key={row} wrap="truncate-end" inverse={isCursor}>
        {segments.length === 0 ? ' ' : null}
        {segments.map((segment, i) =>
          'match' in segment && segment.match ? (
            <Text key={i} color={theme.match.color} backgroundColor={theme.match.background} inverse={!theme.enabled}>
              {segment.text}
            </Text>
          ) : (
            <Text key={i} color={colorOf(theme, segment.kind)}>
              {segment.text}
            </Text>
          ),
        )}
      </Text>,
    );
  }
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {rows}
    </Box>
  );
}

/** The position indicator shown under the viewer: `row 12/3400`. */
export function viewerPosition(base: LineModel, state: ViewerState): string {
  const view = buildView(viewerModel(base, state.jsonPath), state.folded);
  return `${view.count === 0 ? 0 : state.cursor + 1}/${view.count}`;
}
