/** The request pane: method, URL, headers, body preview and assertions of the selected request. */
import React from 'react';
import { Box, Text } from 'ink';
import type { HttpFile, RequestNode } from '../../core/httpfile/types.js';
import { writtenBodyText } from '../../core/httpfile/written-body.js';
import type { Theme } from '../theme.js';
import { fit } from '../format.js';

export interface RequestPaneProps {
  node?: RequestNode;
  /** The node's file: a GraphQL body is shown as written there (its parsed body is the JSON payload). */
  file?: HttpFile;
  fileLabel?: string;
  /** Why the selected file could not be read or parsed. */
  error?: string;
  height: number;
  width: number;
  theme: Theme;
}

export function RequestPane({
  node,
  file,
  fileLabel,
  error,
  height,
  width,
  theme,
}: RequestPaneProps): React.ReactElement {
  if (error) {
    return (
      <Box height={height} width={width} flexDirection="column" overflow="hidden">
        <Text color={theme.error}>{`${fileLabel ?? ''}: ${error}`}</Text>
        <Text color={theme.muted}>Fix the file, then reopen dial.</Text>
      </Box>
    );
  }
  if (!node) {
    return (
      <Box height={height} width={width} overflow="hidden">
        <Text color={theme.muted}>Select a request on the left (↑/↓), then press enter to send it.</Text>
      </Box>
    );
  }
  const lines: React.ReactElement[] = [];
  lines.push(
    <Text key="line" wrap="truncate-end">
      <Text bold color={theme.method}>
        {node.method}
      </Text>{' '}
      <Text color={theme.url}>{node.url}</Text>
      {node.httpVersion ? <Text color={theme.muted}> {node.httpVersion}</Text> : null}
      <Text
        color={theme.muted}
      >{`  ${node.title ? `### ${node.title}  ` : ''}${node.name && node.name !== node.title ? `@${node.name}  ` : ''}${fileLabel ?? ''}`}</Text>
    </Text>,
  );
  for (const [i, header] of node.headers.entries()) {
    lines.push(
      <Text key={`h${i}`} wrap="truncate-end">
        <Text color={theme.headerName}>{header.name}</Text>: {header.value}
      </Text>,
    );
  }
  if (node.body) {
    const bodyLines =
      node.body.kind === 'inline'
        ? writtenBodyText(file, node).split(/\r?\n/)
        : [`< ${node.body.path}${node.body.substitute ? ' (with variables)' : ''}`];
    lines.push(<Text key="sep"> </Text>);
    bodyLines.forEach((text, i) =>
      lines.push(
        <Text key={`b${i}`} wrap="truncate-end">
          {fit(text, width) || ' '}
        </Text>,
      ),
    );
  }
  if (node.assertions.length > 0) {
    lines.push(
      <Text key="tests" color={theme.muted}>
        {`${node.assertions.length} assertion${node.assertions.length === 1 ? '' : 's'}: ${node.assertions.map((a) => a.source.trim()).join(' · ')}`}
      </Text>,
    );
  }
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {lines.slice(0, height)}
    </Box>
  );
}
