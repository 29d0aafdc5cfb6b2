/** The response pane: status line, tabs (Body / Headers / Timings / Tests / Raw) and the tab's content. */
import React from 'react';
import { Box, Text } from 'ink';
import type { RequestNode } from '../../core/httpfile/types.js';
import type { RequestState, ResponseResult } from '../services.js';
import { statusColor, type Theme } from '../theme.js';
import { tabs, type Tab } from '../state/app-state.js';
import type { LineModel } from '../viewer/line-model.js';
import type { ViewerState } from '../viewer/viewer-reducer.js';
import { formatBytes, formatMs } from '../format.js';
import { ResponseViewer, viewerPosition } from './ResponseViewer.js';

export interface ResponsePaneProps {
  result?: ResponseResult;
  node?: RequestNode;
  requestState: RequestState;
  requestError?: string;
  spinner: string;
  tab: Tab;
  model?: LineModel;
  viewer: ViewerState;
  height: number;
  width: number;
  focused: boolean;
  theme: Theme;
}

const tabLabels: Record<Tab, string> = { body: 'Body', headers: 'Headers', timings: 'Timings', tests: 'Tests', raw: 'Raw' };

/** Rows the body viewer gets inside a response pane of `height` rows. */
export function viewerHeight(height: number): number {
  return Math.max(1, height - 3);
}

export function ResponsePane(props: ResponsePaneProps): React.ReactElement {
  const { result, requestState, requestError, spinner, tab, model, viewer, height, width, focused, theme } = props;
  const inFlight = requestState === 'resolving' || requestState === 'sending' || requestState === 'receiving';
  const response = result?.exchange.response;
  const head = (
    <Text wrap="truncate-end">
      {inFlight ? <Text color={theme.status.pending}>{`${spinner} ${requestState}…  `}</Text> : null}
      {response ? (
        <>
          <Text bold color={statusColor(theme, response.status)}>{`${response.status} ${response.statusText}`}</Text>
          <Text color={theme.muted}>{`  ${formatMs(result.exchange.timings.total)}  ${formatBytes(response.size)}  HTTP/${response.httpVersion}`}</Text>
        </>
      ) : !inFlight ? (
        <Text color={requestError || requestState !== 'idle' ? theme.error : theme.muted}>
          {requestError ? `${requestState}: ${requestError}` : requestState === 'idle' ? 'No response yet: press enter to send.' : `${requestState}: press enter to send again.`}
        </Text>
      ) : null}
      {response && !inFlight && requestState !== 'done' && requestState !== 'idle' ? (
        <Text color={theme.error}>{`  (${requestState}${requestError ? `: ${requestError}` : ''})`}</Text>
      ) : null}
    </Text>
  );
  const tabBar = (
    <Text wrap="truncate-end">
      {tabs.map((t) => (
        <Text key={t} bold={t === tab} inverse={t === tab} color={t === tab ? undefined : theme.muted}>
          {` ${tabLabels[t]} `}
        </Text>
      ))}
       {model && (tab === 'body' || tab === 'raw' || tab === 'headers') ? <Text color={theme.muted}>{`  ${viewerPosition(model, viewer)}${viewer.left ? `  col ${viewer.left + 1}` : ''}${viewer.jsonPath ? `  filter ${viewer.jsonPath}` : ''}`}</Text> : null}
    </Text>
  );
  const bodyHeight = viewerHeight(height);
  let content: React.ReactElement;
  if (!result) {
    content = <Box height={bodyHeight} />;
  } else if ((tab === 'body' || tab === 'raw' || tab === 'headers') && model) {
    content = <ResponseViewer base={model} state={viewer} height={bodyHeight} width={width} theme={theme} focused={focused} />;
  } else {
    content = <StaticLines lines={staticLines(tab, result, props.node, theme)} height={bodyHeight} />;
  }
  const footer = viewer.input ? (
    <Text wrap="truncate-end" color={theme.accent}>
      {`${viewer.input.kind === 'search' ? '/' : 'JSONPath: '}${viewer.input.value}▏`}
    </Text>
  ) : (
    <Text wrap="truncate-end" color={viewer.message ? theme.warn : theme.muted}>
      {viewer.message ?? (viewer.search ? `search: ${viewer.search} (n/N)` : ' ')}
    </Text>
  );
  return (
    <Box flexDirection="column" height={height} width={width} overflow="hidden">
      {head}
      {tabBar}
      {content}
      {footer}
    </Box>
  );
}

function StaticLines({ lines, height }: { lines: React.ReactElement[]; height: number }): React.ReactElement {
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {lines.slice(0, height)}
    </Box>
  );
}

function staticLines(tab: Tab, result: ResponseResult, node: RequestNode | undefined, theme: Theme): React.ReactElement[] {
  const { exchange } = result;
  if (tab === 'headers') {
    return exchange.response.headers.map(([name, value], i) => (
      <Text key={i} wrap="truncate-end">
        <Text color={theme.headerName}>{name}</Text>: {value}
      </Text>
    ));
  }
  if (tab === 'timings') {
    const t = exchange.timings;
    const rows: Array<[string, number]> = [
      ['DNS', t.dns],
      ['Connect', t.connect],
      ['TLS', t.tls],
      ['First byte', t.firstByte],
      ['Total', t.total],
    ];
    const lines = rows.map(([label, ms]) => (
      <Text key={label}>
        {label.padEnd(12)}
        {formatMs(ms).padStart(10)}
      </Text>
    ));
    if (exchange.redirects.length > 0) lines.push(<Text key="redirects" color={theme.muted}>{`${exchange.redirects.length} redirect(s) followed`}</Text>);
    if (exchange.response.remoteAddress) lines.push(<Text key="remote" color={theme.muted}>{`Remote ${exchange.response.remoteAddress}:${exchange.response.remotePort ?? ''}`}</Text>);
    return lines;
  }
  // tests
  if (result.tests) {
    if (result.tests.length === 0) return [<Text key="none" color={theme.muted}>No assertions in this request.</Text>];
    return result.tests.map((test, i) => (
      <Text key={i} wrap="truncate-end">
        {test.passed === undefined ? <Text color={theme.muted}>○ </Text> : test.passed ? <Text color={theme.status.ok}>✓ </Text> : <Text color={theme.status.failed}>✗ </Text>}
        {test.source}
        {test.message ? <Text color={theme.muted}>{`  ${test.message}`}</Text> : null}
      </Text>
    ));
  }
  const assertions = node?.assertions ?? [];
  if (assertions.length === 0) return [<Text key="none" color={theme.muted}>No assertions in this request.</Text>];
  return [
    <Text key="note" color={theme.muted}>Not evaluated here: `dial run` evaluates them.</Text>,
    ...assertions.map((a, i) => <Text key={i} wrap="truncate-end">{`○ ${a.source.trim()}`}</Text>),
  ];
}
