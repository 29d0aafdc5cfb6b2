/**
 * The workbench. State lives in the pure app reducer (state/reducer.ts); this component only
 * chooses a layout for the terminal size, feeds keys to the ONE dispatcher and hands the effects
 * it returns to the effect runner (effects.ts).
 */
import { basename } from 'node:path';
import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box, useInput, useStdout } from 'ink';
import { actionDescriptions, keyName, splitBurst, type ActionName, type Keymap } from './keymap.js';
import type { Theme } from './theme.js';
import type { StreamMessage } from '../core/http/types.js';
import type { HistoryItem, ResponseResult, WorkbenchServices } from './services.js';
import {
  blockText,
  initialAppState,
  isWelcome,
  selectedOutcome,
  selectedRequest,
  top,
  type AppAction,
  type AppState,
  type RequestOutcome,
} from './state/app-state.js';
import { appReducer } from './state/reducer.js';
import { buildLineModel, buildTextModel, type LineModel } from './viewer/line-model.js';
import { maskHistory, maskMessages, maskResult } from './redact.js';
import { displayName } from '../core/request-name.js';
import { rawText } from './raw-text.js';
import { EffectRunner, type EffectContext } from './effects.js';
import {
  usePreview,
  useSpinner,
  useTerminalSize,
  useWorkspaceLoad,
  workspaceLoadedActions,
  type LoadedWorkspace,
} from './hooks.js';
import { layout } from './layouts/layout.js';
import { Overlay, isOverlay } from './layouts/Overlay.js';
import { Welcome } from './layouts/Welcome.js';
import { Workbench } from './layouts/Workbench.js';
import { BottomLine, bottomRows } from './layouts/BottomLine.js';

export { layout } from './layouts/layout.js';
export { rawText } from './raw-text.js';

export interface AppProps {
  services: WorkbenchServices;
  keymap: Keymap;
  theme: Theme;
  environment?: string;
  /** Called once when the user quits. */
  onExit: () => void;
  /** Fixed size for tests; defaults to the terminal's. */
  size?: { columns: number; rows: number };
  /** The workspace, read before the first frame; without it the App reads it after. */
  workspace?: LoadedWorkspace;
}

const spinnerFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const describe = (action: ActionName): string => actionDescriptions[action];

/** The body viewer's line model for a response and tab: one pass over the body per response, tab and width. */
function useLineModel(result: ResponseResult | undefined, tab: AppState['tab'], width: number): LineModel | undefined {
  const kind = tab === 'raw' || tab === 'headers' ? tab : 'body';
  return useMemo(() => {
    if (!result) return undefined;
    if (kind === 'raw') return buildTextModel(rawText(result), width);
    // Headers scroll and search like the body.
    if (kind === 'headers')
      return buildTextModel(result.exchange.response.headers.map(([n, v]) => `${n}: ${v}`).join('\n'), width);
    return buildLineModel(result.bodyText, { width, contentType: result.contentType });
  }, [result, kind, width]);
}

/** History entries under their requests' display names, with every secret seen in this session masked (unless revealed). */
function useShownHistory(
  state: AppState,
  knownSecrets: Set<string>,
  services: WorkbenchServices,
): HistoryItem[] | undefined {
  const historyScreen = state.screens.filter((s) => s.kind === 'history').pop();
  const items = historyScreen?.kind === 'history' ? historyScreen.items : undefined;
  const files = state.files;
  return useMemo(() => {
    if (!items) return undefined;
    const names = new Map<string, string>();
    for (const entry of files)
      for (const node of entry.file?.requests ?? [])
        if (entry.file) names.set(services.requestKey(entry.file, node), displayName(node));
    const named = items.map((item) => {
      const name = names.get(item.requestKey);
      return name && item.requestLine ? { ...item, label: `${name}  ${item.requestLine}` } : item;
    });
    return maskHistory(named, knownSecrets, state.revealSecrets);
  }, [items, files, services, knownSecrets, state.revealSecrets]);
}

/** A WebSocket's message log as shown: its request's secrets and every secret seen so far masked, unless revealed. */
function useShownMessages(
  outcome: RequestOutcome | undefined,
  knownSecrets: Set<string>,
  reveal: boolean,
): StreamMessage[] | undefined {
  return useMemo(
    () =>
      outcome?.messages &&
      maskMessages(
        outcome.messages,
        [...(outcome.messageSecrets ?? []), ...(outcome.result?.secrets ?? []), ...knownSecrets],
        reveal,
      ),
    [outcome?.messages, outcome?.messageSecrets, outcome?.result, knownSecrets, reveal],
  );
}

/** The state of the first render: with the workspace in it when it was read before. */
function startingState(
  environment: string | undefined,
  workspace: LoadedWorkspace | undefined,
  services: WorkbenchServices,
  keymap: Keymap,
): AppState {
  const initial: AppState = { ...initialAppState(), environment };
  if (!workspace) return initial;
  return workspaceLoadedActions(workspace, services, environment).reduce<AppState>(
    (current, action) => appReducer(current, action, keymap, describe).state,
    initial,
  );
}

export function App(props: AppProps): React.ReactElement {
  const { services, keymap, theme, environment, onExit, size: fixedSize, workspace } = props;
  const { stdout } = useStdout();
  const size = useTerminalSize(fixedSize);
  const [state, setState] = useState(() => startingState(environment, workspace, services, keymap));
  const stateRef = useRef(state);
  const dims = layout(size.columns, size.rows, bottomRows(state, Math.max(40, size.columns)));

  const outcome = selectedOutcome(state);
  // What the screen shows: secrets masked once per response and reveal toggle, before any line splitting.
  const result = useMemo(
    () => (outcome?.result ? maskResult(outcome.result, state.revealSecrets) : undefined),
    [outcome?.result, state.revealSecrets],
  );
  // Every secret seen in this session, to mask history entries too.
  const knownSecrets = useRef(new Set<string>()).current;
  for (const item of Object.values(state.outcomes))
    for (const secret of item.result?.secrets ?? []) knownSecrets.add(secret);
  const model = useLineModel(result, state.tab, dims.viewerWidth);
  const messages = useShownMessages(outcome, knownSecrets, state.revealSecrets);
  const shownHistory = useShownHistory(state, knownSecrets, services);
  const selected = selectedRequest(state);
  const previewTarget =
    selected?.entry.file && !outcome
      ? { file: selected.entry.file, node: selected.node, block: blockText(selected.entry.file, selected.node) }
      : undefined;
  const preview = usePreview(services, previewTarget, state.environment);

  // Effects read the props and state of the latest render, never those of the render that made the dispatcher.
  const live = useRef<EffectContext | undefined>(undefined);
  const [runner] = useState(() => new EffectRunner(() => live.current!));
  const dispatch = useCallback(
    (action: AppAction): void => {
      const step = appReducer(stateRef.current, action, keymap, describe);
      stateRef.current = step.state;
      setState(step.state);
      for (const effect of step.effects) runner.run(effect);
    },
    [keymap, runner],
  );
  live.current = {
    services,
    keymap,
    write: (text) => stdout.write(text),
    onExit,
    state: () => stateRef.current,
    dispatch,
    shown: () => result,
    model: () => model,
    viewerRows: () => dims.viewerRows,
  };
  const currentState = useCallback(() => stateRef.current, []);
  useWorkspaceLoad(services, dispatch, currentState, workspace !== undefined);
  useEffect(() => () => runner.dispose(), [runner]);
  // Files changed by an editor or git show as they are on disk.
  useEffect(() => services.watch?.((kind) => runner.changedOnDisk(kind)), [services, runner]);
  // The reducer pages and bounds scrolling by the rows the screens get.
  useEffect(() => dispatch({ type: 'screenRows', rows: dims.height }), [dims.height, dispatch]);
  const spin = useSpinner(state.inFlight, spinnerFrames.length);

  useInput((input, key) => {
    const name = keyName(input, key);
    if (name === undefined && input.length > 1) {
      for (const one of splitBurst(input)) dispatch({ type: 'key', name: one.name, input: one.input });
      return;
    }
    dispatch({ type: 'key', name, input });
  });

  const screen = top(state);
  if (isOverlay(screen)) {
    return (
      <Overlay
        screen={screen}
        state={state}
        keymap={keymap}
        describe={describe}
        history={shownHistory}
        width={dims.width}
        height={dims.height}
        theme={theme}
      />
    );
  }
  const bottom = (
    <BottomLine
      state={state}
      request={selected ? displayName(selected.node) : undefined}
      requestState={outcome?.state ?? 'idle'}
      keymap={keymap}
      theme={theme}
      width={dims.width}
      rows={dims.height - dims.mainHeight}
    />
  );
  if (isWelcome(state)) {
    return (
      <Box flexDirection="column" width={dims.width} height={dims.height}>
        <Welcome
          folder={basename(services.root) || services.root}
          keymap={keymap}
          width={dims.width}
          height={dims.mainHeight}
          theme={theme}
        />
        {bottom}
      </Box>
    );
  }
  return (
    <Box flexDirection="column" width={dims.width} height={dims.height}>
      <Workbench
        state={state}
        dims={dims}
        outcome={outcome}
        result={result}
        messages={messages}
        preview={preview}
        model={model}
        spinner={spinnerFrames[spin]}
        theme={theme}
      />
      {bottom}
    </Box>
  );
}
