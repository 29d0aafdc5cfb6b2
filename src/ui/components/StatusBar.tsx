/** The bottom line: environment, request state, whether secrets are masked, key hints. */
import React from 'react';
import { Box, Text } from 'ink';
import type { RequestState } from '../services.js';
import type { Theme } from '../theme.js';

export interface StatusBarProps {
  environment?: string;
  /** The selected request's display name. */
  request?: string;
  requestState: RequestState;
  /** Secret values revealed (ctrl+r) rather than masked. */
  secretsShown?: boolean;
  hints: string;
  toast?: string;
  width: number;
  /** Rows it may take: a message wraps onto them instead of being cut. */
  rows?: number;
  theme: Theme;
}

function stateColor(theme: Theme, state: RequestState): string | undefined {
  if (state === 'done') return theme.status.ok;
  if (state === 'failed' || state === 'timed-out') return theme.status.failed;
  if (state === 'cancelled') return theme.warn;
  if (state === 'idle') return theme.muted;
  return theme.status.pending;
}

export function StatusBar({
  environment,
  request,
  requestState,
  secretsShown = false,
  hints,
  toast,
  width,
  rows = 1,
  theme,
}: StatusBarProps): React.ReactElement {
  return (
    <Box width={width} height={rows} overflow="hidden">
      <Text wrap={toast ? 'wrap' : 'truncate-end'}>
        <Text inverse>{` env: ${environment ?? '(none)'} `}</Text>{' '}
        {request ? <Text bold>{`${request.length > 32 ? `${request.slice(0, 31)}…` : request} `}</Text> : null}
        <Text color={stateColor(theme, requestState)}>{requestState}</Text>
        {'  '}
        {secretsShown ? (
          <Text color={theme.warn} bold>
            secrets SHOWN
          </Text>
        ) : (
          <Text color={theme.muted}>secrets hidden</Text>
        )}
        {'  '}
        {toast ? <Text color={theme.warn}>{toast}</Text> : <Text color={theme.muted}>{hints}</Text>}
      </Text>
    </Box>
  );
}
