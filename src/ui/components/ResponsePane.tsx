/** The response pane: status line, tabs (Body / Headers / Timings / Tests / Raw) and the tab's content. */
import React from 'react';
import { Box, Text } from 'ink';
import type { StreamMessage } from '../../core/http/types.js';
import { isWebSocketRequest } from '../../core/http/protocols.js';
import type { RequestNode } from '../../core/httpfile/types.js';
import type { RequestPreviewText, RequestState, ResponseResult } from '../services.js';
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
  /** How long the last send ran (for "cancelled after N ms"). */
  elapsedMs?: number;
  /** The request changed in its file since this response came. */
  stale?: boolean;
  /** For a request never sent: what it would send. */
  preview?: RequestPreviewText;
  /** Stream messages so far: server-sent events, or a WebSocket's messages both ways (a log in the Body tab, live while it is open). */
  messages?: StreamMessage[];
  spinner: string;
  tab: Tab;
  model?: LineModel;
  viewer: ViewerState;
  height: number;
  width: number;
  focused: boolean;
  theme: Theme;
}

const tabLabels: Record<Tab, string> = {
  body: 'Body',
  headers: 'Headers',
  timings: 'Timings',
  tests: 'Tests',
  raw: 'Raw',
};

/** Rows the body viewer gets inside a response pane of `height` rows. */
export function viewerHeight(height: number): number {
  return Math.max(1, height - 3);
}

export function ResponsePane(props: ResponsePaneProps): React.ReactElement {
  const { result, requestState, tab, model, viewer, height, width, focused, theme } = props;
  const inFlight = requestState === 'resolving' || requestState === 'sending' || requestState === 'receiving';
  const head = <HeadLine {...props} inFlight={inFlight} />;
  const tabBar = (
    <Text wrap="truncate-end">
      {tabs.map((t) => (
        <Text key={t} bold={t === tab} inverse={t === tab} color={t === tab ? undefined : theme.muted}>
          {` ${tabLabels[t]} `}
        </Text>
      ))}
      {model && (tab === 'body' || tab === 'raw' || tab === 'headers') ? (
        <Text
          color={theme.muted}
        >{`  ${viewerPosition(model, viewer)}${viewer.left ? `  col ${viewer.left + 1}` : ''}${viewer.jsonPath ? `  filter ${viewer.jsonPath}` : ''}`}</Text>
      ) : null}
    </Text>
  );
  const bodyHeight = viewerHeight(height);
  let content: React.ReactElement;
  // A WebSocket's log stays in the Body tab (its messages both ways); other streams show live until the response is in.
  if (props.messages && tab === 'body' && (!result || props.node?.method === 'WEBSOCKET')) {
    // Server-sent events print as `data: …` even without `event:`/`id:`; only a WebSocket's are → / ←.
    const node = props.node;
    const webSocket = node !== undefined && isWebSocketRequest(node);
    const eventStream = !webSocket && node?.method !== 'GRPC';
    content = <StaticLines lines={messageLines(props.messages, bodyHeight, theme, eventStream)} height={bodyHeight} />;
  } else if (!result) {
    content = (
      <StaticLines
        lines={requestState === 'idle' && props.preview ? previewLines(props.preview, theme) : []}
        height={bodyHeight}
      />
    );
  } else if ((tab === 'body' || tab === 'raw' || tab === 'headers') && model) {
    content = (
      <ResponseViewer base={model} state={viewer} height={bodyHeight} width={width} theme={theme} focused={focused} />
    );
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

/** The first line: the state of the send, the status and size of the response, or "not sent yet". */
function HeadLine(props: ResponsePaneProps & { inFlight: boolean }): React.ReactElement {
  const { result, requestState, requestError, spinner, theme, inFlight, elapsedMs, stale } = props;
  const response = result?.exchange.response;
  if (inFlight && props.messages && props.node?.method === 'WEBSOCKET')
    return (
      <Text wrap="truncate-end" color={theme.status.pending}>
        {`${spinner} WebSocket open, ${props.messages.length} message${props.messages.length === 1 ? '' : 's'}: w writes one, esc closes`}
      </Text>
    );
  const events = props.messages?.length ?? 0;
  const unit = props.node?.method === 'GRPC' ? 'message' : 'event';
  if (inFlight)
    return (
      <Text wrap="truncate-end" color={theme.status.pending}>
        {`${spinner} ${requestState}…${events > 0 ? `  ${events} ${unit}${events === 1 ? '' : 's'} so far` : ''}`}
      </Text>
    );
  if (requestState === 'cancelled')
    return (
      <Text
        wrap="truncate-end"
        color={theme.warn}
      >{`cancelled after ${formatMs(elapsedMs ?? 0)}: press enter to send again.`}</Text>
    );
  if (!response) {
    if (requestState === 'idle')
      return (
        <Text wrap="truncate-end" color={theme.muted}>
          Not sent yet: press enter to send. What it would send:
        </Text>
      );
    return (
      <Text
        wrap="truncate-end"
        color={theme.error}
      >{`${requestState}${requestError ? `: ${requestError}` : ''}: press enter to send again.`}</Text>
    );
  }
  return (
    <Text wrap="truncate-end">
      <Text bold color={statusColor(theme, response.status)}>{`${response.status} ${response.statusText}`}</Text>
      <Text
        color={theme.muted}
      >{`  ${formatMs(result.exchange.timings.total)}  ${formatBytes(response.size)}  HTTP/${response.httpVersion}`}</Text>
      {stale ? <Text color={theme.warn}>{'  (stale: the request changed since)'}</Text> : null}
      {requestState !== 'done' ? (
        <Text color={theme.error}>{`  (${requestState}${requestError ? `: ${requestError}` : ''})`}</Text>
      ) : null}
    </Text>
  );
}

/** An unsent request's preview: request line, headers, body; why it cannot be resolved yet, if so. */
function previewLines(preview: RequestPreviewText, theme: Theme): React.ReactElement[] {
  const lines = preview.lines.map((line, i) => (
    <Text key={i} wrap="truncate-end" color={i === 0 ? theme.url : undefined}>
      {line || ' '}
    </Text>
  ));
  if (preview.problem)
    lines.unshift(
      <Text key="problem" wrap="truncate-end" color={theme.warn}>{`cannot resolve it yet: ${preview.problem}`}</Text>,
    );
  return lines;
}

/**
 * The message log: the last messages that fit, each on one line. A server-sent event shows
 * `event:` and `id:` when it has them, then `data:`; a WebSocket or gRPC message starts with
 * → (sent) or ← (received).
 */
function messageLines(
  messages: StreamMessage[],
  height: number,
  theme: Theme,
  eventStream: boolean,
): React.ReactElement[] {
  if (messages.length === 0)
    return [
      <Text key="none" color={theme.muted}>
        {'no messages yet'}
      </Text>,
    ];
  const shown = messages.slice(-height);
  return shown.map((message, k) =>
    eventStream || message.event !== undefined || message.id !== undefined ? (
      <Text key={messages.length - shown.length + k} wrap="truncate-end">
        {message.event !== undefined ? <Text color={theme.muted}>{'event: '}</Text> : null}
        {message.event !== undefined ? `${message.event}  ` : ''}
        {message.id !== undefined ? <Text color={theme.muted}>{'id: '}</Text> : null}
        {message.id !== undefined ? `${message.id}  ` : ''}
        <Text color={theme.muted}>{'data: '}</Text>
        {message.data.replace(/\r?\n/g, ' ⏎ ')}
      </Text>
    ) : (
      <Text key={messages.length - shown.length + k} wrap="truncate-end">
        <Text color={message.direction === 'sent' ? theme.accent : theme.muted}>
          {message.direction === 'sent' ? '→ ' : '← '}
        </Text>
        {message.data.replace(/\r?\n/g, ' ')}
      </Text>
    ),
  );
}

function StaticLines({ lines, height }: { lines: React.ReactElement[]; height: number }): React.ReactElement {
  return (
    <Box flexDirection="column" height={height} overflow="hidden">
      {lines.slice(0, height)}
    </Box>
  );
}

/** Each phase of the exchange (download = what is left of the total), the redirects followed and the cookies set. */
export function timingRows(exchange: ResponseResult['exchange']): Array<[string, number]> {
  const t = exchange.timings;
  const download = Math.max(0, t.total - t.dns - t.connect - t.tls - t.firstByte);
  return [
    ['DNS', t.dns],
    ['Connect', t.connect],
    ['TLS', t.tls],
    ['First byte', t.firstByte],
    ['Download', download],
    ['Total', t.total],
  ];
}

function timingLines(exchange: ResponseResult['exchange'], theme: Theme): React.ReactElement[] {
  const total = Math.max(1, exchange.timings.total);
  const lines = timingRows(exchange).map(([label, ms]) => (
    <Text key={label} wrap="truncate-end">
      {label.padEnd(12)}
      {formatMs(ms).padStart(10)}
      <Text color={theme.accent}>{`  ${'█'.repeat(label === 'Total' ? 0 : Math.round((ms / total) * 30))}`}</Text>
    </Text>
  ));
  if (exchange.redirects.length > 0) {
    lines.push(<Text key="redirects" bold>{`Redirects (${exchange.redirects.length})`}</Text>);
    exchange.redirects.forEach((hop, i) =>
      lines.push(
        <Text key={`r${i}`} wrap="truncate-end">{`  ${hop.status} ${hop.method} ${hop.from} → ${hop.to}`}</Text>,
      ),
    );
  }
  const cookies = exchange.response.headers
    .filter(([name]) => name.toLowerCase() === 'set-cookie')
    .map(([, value]) => value);
  if (cookies.length > 0) {
    lines.push(<Text key="cookies" bold>{`Cookies set (${cookies.length})`}</Text>);
    cookies.forEach((cookie, i) => lines.push(<Text key={`c${i}`} wrap="truncate-end">{`  ${cookie}`}</Text>));
  }
  if (exchange.response.remoteAddress)
    lines.push(
      <Text
        key="remote"
        color={theme.muted}
      >{`Remote ${exchange.response.remoteAddress}:${exchange.response.remotePort ?? ''}`}</Text>,
    );
  return lines;
}

function staticLines(
  tab: Tab,
  result: ResponseResult,
  node: RequestNode | undefined,
  theme: Theme,
): React.ReactElement[] {
  const { exchange } = result;
  if (tab === 'headers') {
    return exchange.response.headers.map(([name, value], i) => (
      <Text key={i} wrap="truncate-end">
        <Text color={theme.headerName}>{name}</Text>: {value}
      </Text>
    ));
  }
  if (tab === 'timings') return timingLines(exchange, theme);
  // tests
  if (result.tests) {
    if (result.tests.length === 0)
      return [
        <Text key="none" color={theme.muted}>
          No assertions in this request.
        </Text>,
      ];
    return result.tests.map((test, i) => (
      <Text key={i} wrap="truncate-end">
        {test.passed === undefined ? (
          <Text color={theme.muted}>○ </Text>
        ) : test.passed ? (
          <Text color={theme.status.ok}>✓ </Text>
        ) : (
          <Text color={theme.status.failed}>✗ </Text>
        )}
        {test.source}
        {test.message ? <Text color={theme.muted}>{`  ${test.message}`}</Text> : null}
      </Text>
    ));
  }
  const assertions = node?.assertions ?? [];
  if (assertions.length === 0)
    return [
      <Text key="none" color={theme.muted}>
        No assertions in this request.
      </Text>,
    ];
  return [
    <Text key="note" color={theme.muted}>
      Not evaluated here: `dial run` evaluates them.
    </Text>,
    ...assertions.map((a, i) => <Text key={i} wrap="truncate-end">{`○ ${a.source.trim()}`}</Text>),
  ];
}
