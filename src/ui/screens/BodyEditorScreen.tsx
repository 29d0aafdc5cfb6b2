/** The multi-line body editor: the lines with a cursor, whether the JSON parses, and its keys. */
import React from 'react';
import { Box, Text } from 'ink';
import type { Theme } from '../theme.js';
import { bodyEditorText, type BodyEditor } from '../state/body-editor.js';
import { jsonSyntaxProblem } from '../state/body-edit.js';
import { fit } from '../format.js';

export interface BodyEditorScreenProps {
  editor: BodyEditor;
  json: boolean;
  /** A message for the user (why it was not saved). */
  message?: string;
  width: number;
  height: number;
  theme: Theme;
}

export function BodyEditorScreen({
  editor,
  json,
  message,
  width,
  height,
  theme,
}: BodyEditorScreenProps): React.ReactElement {
  const rows = Math.max(1, height - 4 - (message ? 1 : 0));
  const inner = Math.max(1, width - 4);
  const problem = json ? jsonSyntaxProblem(bodyEditorText(editor)) : undefined;
  const shown = editor.lines.slice(editor.scroll, editor.scroll + rows);
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="round"
      borderColor={theme.borderFocused}
      paddingX={1}
    >
      <Text
        bold
        wrap="truncate-end"
      >{`Body  line ${editor.row + 1}/${editor.lines.length}, column ${editor.col + 1}`}</Text>
      <Box flexDirection="column" height={rows} overflow="hidden">
        {shown.map((line, i) => {
          const row = editor.scroll + i;
          if (row !== editor.row)
            return (
              <Text key={row} wrap="truncate-end">
                {fit(line, inner) || ' '}
              </Text>
            );
          // The cursor: the character under it shown inverse (a space at the end of the line).
          const start = Math.max(0, editor.col - inner + 1);
          const visible = line.slice(start);
          const at = editor.col - start;
          return (
            <Text key={row} wrap="truncate-end">
              {visible.slice(0, at)}
              <Text inverse>{visible[at] ?? ' '}</Text>
              {visible.slice(at + 1)}
            </Text>
          );
        })}
      </Box>
      {message ? (
        <Text wrap="truncate-end" color={theme.warn}>
          {message}
        </Text>
      ) : null}
      <Text wrap="truncate-end" color={problem ? theme.warn : theme.muted}>
        {`${json ? (problem ? `✗ ${problem}` : '✓ valid JSON') : 'text'} · ctrl+s save · esc cancel`}
      </Text>
    </Box>
  );
}
