/** The three panes: the tree of requests, the selected request, and its response (or what it would send). */
import React from 'react';
import { Box } from 'ink';
import type { Theme } from '../theme.js';
import type { StreamMessage } from '../../core/http/types.js';
import type { RequestPreviewText, ResponseResult } from '../services.js';
import { selectedRequest, treeRows, type AppState, type RequestOutcome } from '../state/app-state.js';
import type { LineModel } from '../viewer/line-model.js';
import { Tree } from '../components/Tree.js';
import { RequestPane } from '../components/RequestPane.js';
import { ResponsePane } from '../components/ResponsePane.js';
import type { Layout } from './layout.js';

export interface WorkbenchProps {
  state: AppState;
  dims: Layout;
  /** The selected request's own outcome (never another request's). */
  outcome?: RequestOutcome & { stale: boolean };
  /** Its response as shown (secrets masked unless revealed). */
  result?: ResponseResult;
  /** Its WebSocket message log as shown (secrets masked unless revealed). */
  messages?: StreamMessage[];
  preview?: RequestPreviewText;
  model?: LineModel;
  spinner: string;
  theme: Theme;
}

export function Workbench({
  state,
  dims,
  outcome,
  result,
  messages,
  preview,
  model,
  spinner,
  theme,
}: WorkbenchProps): React.ReactElement {
  const rows = treeRows(state);
  const selected = selectedRequest(state);
  const cursorRow = rows[state.treeCursor];
  const errorEntry = !selected && cursorRow ? state.files[cursorRow.fileIndex] : undefined;
  const border = (pane: AppState['focus']): string | undefined =>
    state.focus === pane ? theme.borderFocused : theme.border;
  return (
    <Box flexDirection="row" height={dims.mainHeight}>
      <Box
        borderStyle="round"
        borderColor={border('tree')}
        width={dims.treeWidth}
        height={dims.mainHeight}
        flexDirection="column"
      >
        <Tree
          rows={rows}
          cursor={state.treeCursor}
          height={dims.mainHeight - 2}
          width={dims.treeWidth - 2}
          filter={state.treeFilter}
          filtering={state.treeFiltering}
          focused={state.focus === 'tree'}
          theme={theme}
          loaded={state.loaded}
        />
      </Box>
      <Box flexDirection="column" width={dims.rightWidth} height={dims.mainHeight}>
        <Box borderStyle="round" borderColor={border('request')} height={dims.requestHeight} width={dims.rightWidth}>
          <RequestPane
            node={selected?.node}
            file={selected?.entry.file}
            fileLabel={selected?.entry.relativePath ?? errorEntry?.relativePath}
            error={errorEntry?.error}
            height={dims.requestHeight - 2}
            width={dims.rightWidth - 2}
            theme={theme}
          />
        </Box>
        <Box borderStyle="round" borderColor={border('response')} height={dims.responseHeight} width={dims.rightWidth}>
          <ResponsePane
            result={result}
            node={selected?.node}
            requestState={outcome?.state ?? 'idle'}
            requestError={outcome?.error}
            elapsedMs={outcome?.elapsedMs}
            stale={outcome?.stale}
            preview={preview}
            messages={messages}
            spinner={spinner}
            tab={state.tab}
            model={model}
            viewer={state.viewer}
            height={dims.responseHeight - 2}
            width={dims.viewerWidth}
            focused={state.focus === 'response'}
            theme={theme}
          />
        </Box>
      </Box>
    </Box>
  );
}
