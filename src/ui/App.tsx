/**
 * The workbench. State lives in the pure app reducer (state/app-state.ts); this component
 * lays the panes out for the terminal size, feeds keys to the ONE dispatcher and runs the
 * effects it returns through the services port (core).
 */
import { basename } from 'node:path';
import React, { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Box, Text, useInput, useStdout } from 'ink';
import { DialError, isDialError } from '../core/errors.js';
import { actionDescriptions, keyName, splitBurst, type ActionName, type Keymap } from './keymap.js';
import type { Theme } from './theme.js';
import type { ResponseResult, WorkbenchServices } from './services.js';
import { appReducer, initialAppState, paletteItems, selectedRequest, treeRows, type AppAction, type AppState, type Effect } from './state/app-state.js';
import { blockText, blockWithCopy, editRequestBlock, newRequestBlock } from './state/request-edit.js';
import { viewerReducer } from './viewer/viewer-reducer.js';
import { buildLineModel, buildTextModel, type LineModel } from './viewer/line-model.js';
import { fuzzyFilter } from './fuzzy.js';
import { osc52 } from './clipboard.js';
import { formatBytes } from './format.js';
import { Tree } from './components/Tree.js';
import { RequestPane } from './components/RequestPane.js';
import { ResponsePane, viewerHeight } from './components/ResponsePane.js';
import { StatusBar } from './components/StatusBar.js';
import { ListScreen } from './screens/ListScreen.js';
import { HelpScreen } from './screens/HelpScreen.js';
import { HistoryScreen } from './screens/HistoryScreen.js';
import { maskHistory, maskResult } from './redact.js';
import { redactText } from '../core/secrets.js';
import { FileChangedError } from '../core/editing/index.js';

export interface AppProps {
  services: WorkbenchServices;
  keymap: Keymap;
  theme: Theme;
  environment?: string;
  /** Called once when the user quits. */
  onExit: () => void;
  /** Fixed size for tests; defaults to the terminal's. */
  size?: { columns: number; rows: number };
}

/** The largest body copied with OSC 52 (many terminals stop at 1 MiB of base64 or less). */
const OSC52_LIMIT = 512 * 1024;
const spinnerFrames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const describe = (action: ActionName): string => actionDescriptions[action];

/** Layout numbers derived from the terminal size (pure, so tests and the bench can use them). */
export function layout(columns: number, rows: number) {
  // One row short of the terminal: a frame as tall as the screen makes Ink clear it on every render.
  const height = Math.max(10, rows - 1);
  const width = Math.max(40, columns);
  const mainHeight = height - 1;
  const treeWidth = Math.min(40, Math.max(20, Math.floor(width * 0.28)));
  const rightWidth = width - treeWidth;
  const requestHeight = Math.min(12, Math.max(5, Math.floor(mainHeight * 0.3)));
  const responseHeight = mainHeight - requestHeight;
  return {
    width,
    height,
    mainHeight,
    treeWidth,
    rightWidth,
    requestHeight,
    responseHeight,
    /** Inner sizes (inside the round borders). */
    viewerWidth: rightWidth - 2,
    viewerRows: viewerHeight(responseHeight - 2),
  };
}

function useTerminalSize(fixed?: { columns: number; rows: number }): { columns: number; rows: number } {
  const { stdout } = useStdout();
  const read = (): { columns: number; rows: number } => fixed ?? { columns: stdout.columns || 100, rows: stdout.rows || 30 };
  const [size, setSize] = useState(read);
  useEffect(() => {
    if (fixed) return;
    const onResize = (): void => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout, fixed]);
  return size;
}

export function App({ services, keymap, theme, environment, onExit, size: fixedSize }: AppProps): React.ReactElement {
  const { stdout } = useStdout();
  const size = useTerminalSize(fixedSize);
  const dims = layout(size.columns, size.rows);
  const [state, setState] = useState<AppState>(() => ({ ...initialAppState(), environment }));
  const stateRef = useRef(state);
  const abortRef = useRef<AbortController | undefined>(undefined);
  const promptRef = useRef<{ resolve: (value: string) => void; reject: (error: unknown) => void } | undefined>(undefined);
  const exitedRef = useRef(false);
  // The last answer to each `# @prompt`, offered again at the next send.
  const promptAnswers = useRef(new Map<string, string>());
  const [spin, setSpin] = useState(0);

  // What the screen shows: secrets masked once per response and reveal toggle, before any line splitting.
  const result = useMemo(() => (state.result ? maskResult(state.result, state.revealSecrets) : undefined), [state.result, state.revealSecrets]);
  // Every secret seen in this session, to mask history entries too.
  const knownSecrets = useRef(new Set<string>());
  for (const secret of state.result?.secrets ?? []) knownSecrets.current.add(secret);
  const tab = state.tab;
  // The heavy part, memoised: one pass over the body per response, tab and width.
  const model: LineModel | undefined = useMemo(() => {
    if (!result) return undefined;
    if (tab === 'raw') return buildTextModel(rawText(result), dims.viewerWidth);
    // Headers scroll and search like the body.
    if (tab === 'headers') return buildTextModel(result.exchange.response.headers.map(([n, v]) => `${n}: ${v}`).join('\n'), dims.viewerWidth);
    return buildLineModel(result.bodyText, { width: dims.viewerWidth, contentType: result.contentType });
  }, [result, tab === 'raw' || tab === 'headers' ? tab : 'body', dims.viewerWidth]);
  const shownRef = useRef(result);
  shownRef.current = result;
  const historyScreen = state.screens.filter((s) => s.kind === 'history').pop();
  const historyItems = historyScreen?.kind === 'history' ? historyScreen.items : undefined;
  const shownHistory = useMemo(
    () => (historyItems ? maskHistory(historyItems, knownSecrets.current, state.revealSecrets) : undefined),
    [historyItems, state.revealSecrets],
  );
  const modelRef = useRef(model);
  modelRef.current = model;
  const dimsRef = useRef(dims);
  dimsRef.current = dims;

  const dispatch = useCallback((action: AppAction): void => {
    const before = stateRef.current;
    const step = appReducer(before, action, keymap, describe);
    let next = step.state;
    if (next.tab !== before.tab) next = { ...next, viewer: { ...next.viewer, cursor: 0, scroll: 0, left: 0, folded: new Set(), jsonPath: undefined } };
    stateRef.current = next;
    setState(next);
    for (const effect of step.effects) runEffect(effect);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keymap]);

  const update = (change: (s: AppState) => AppState): void => {
    stateRef.current = change(stateRef.current);
    setState(stateRef.current);
  };
  const toast = (message: string): void => update((s) => ({ ...s, toast: message }));
  const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error));

  const send = async (): Promise<void> => {
    const selected = selectedRequest(stateRef.current);
    if (!selected?.entry.file) return;
    const controller = new AbortController();
    abortRef.current = controller;
    services.rememberRequest(services.requestKey(selected.entry.file, selected.node)).catch(() => undefined);
    dispatch({ type: 'requestState', state: 'resolving' });
    try {
      const response = await services.execute(selected.entry.file, selected.node, {
        environment: stateRef.current.environment,
        signal: controller.signal,
        // Asked on every send (as JetBrains does), with the last answer ready to accept or change;
        // never prefilled for a variable marked `# @secret`, which would show it on screen.
        prompt: (name, description) =>
          new Promise<string>((resolve, reject) => {
            const secret = selected.entry.file?.requests.some((request) => request.secrets.includes(name)) ?? false;
            promptRef.current = {
              resolve: (value) => {
                if (!secret) promptAnswers.current.set(name, value);
                resolve(value);
              },
              reject,
            };
            dispatch({ type: 'pushScreen', screen: { kind: 'prompt', name, description, value: secret ? '' : (promptAnswers.current.get(name) ?? '') } });
          }),
        onState: (requestState) => {
          if (!controller.signal.aborted) dispatch({ type: 'requestState', state: requestState });
        },
      });
      if (abortRef.current === controller) {
        dispatch({ type: 'response', result: response });
        if (response.error) dispatch({ type: 'requestState', state: 'failed', error: `${response.error.code}: ${response.error.message}` });
      }
    } catch (error) {
      const code = isDialError(error) ? error.code : (error as { code?: unknown })?.code;
      const cancelled = controller.signal.aborted || code === 'E_CANCELLED';
      dispatch({ type: 'requestState', state: cancelled ? 'cancelled' : code === 'E_TIMEOUT' ? 'timed-out' : 'failed', error: cancelled ? undefined : failure(error) });
    } finally {
      if (abortRef.current === controller) abortRef.current = undefined;
    }
  };

  const saveBlock = async (fileIndex: number, work: () => Promise<{ file: NonNullable<AppState['files'][number]['file']>; select?: number }>): Promise<void> => {
    try {
      const { file, select } = await work();
      dispatch({ type: 'fileChanged', fileIndex, file, select });
      toast(`saved ${stateRef.current.files[fileIndex]?.relativePath ?? ''}`);
    } catch (error) {
      if (error instanceof FileChangedError) {
        // The file on disk is not the one this edit was made from: say so, and how to get it back in sync.
        const kept = error.keptAt ? `; your version is in ${error.keptAt}` : '';
        toast(`not saved: ${basename(error.path)} ${error.removed ? 'was removed' : 'changed on disk'} since it was loaded; reload it (press ${keymap.reload[0] ?? 'ctrl+l'}) and edit again${kept}`);
        return;
      }
      toast(`not saved: ${failure(error)}`);
    }
  };

  const reload = (): void => {
    services.loadWorkspace().then(
      (files) => {
        dispatch({ type: 'loaded', files, environments: stateRef.current.environments, environment: stateRef.current.environment });
        toast(`reloaded ${files.length} file${files.length === 1 ? '' : 's'} from disk`);
      },
      (error: unknown) => toast(`cannot reload the workspace: ${failure(error)}`),
    );
  };

  const runEffect = (effect: Effect): void => {
    const current = stateRef.current;
    const selected = selectedRequest(current);
    switch (effect.type) {
      case 'quit':
        if (exitedRef.current) return;
        exitedRef.current = true;
        abortRef.current?.abort();
        onExit();
        return;
      case 'send':
        void send();
        return;
      case 'cancel':
        abortRef.current?.abort();
        return;
      case 'viewer': {
        const base = modelRef.current;
        if (!base) {
          if (effect.action.type === 'startInput' || effect.action.type === 'inputSubmit') toast('no response yet');
          return;
        }
        update((s) => ({ ...s, viewer: viewerReducer(s.viewer, effect.action, { base, height: dimsRef.current.viewerRows }) }));
        return;
      }
      case 'copyBody':
        if (current.result) {
          // Terminals and tmux cap OSC 52 payloads; past the cap the copy would silently fail.
          if (current.result.bodyText.length > OSC52_LIMIT) {
            toast(`body too big for the clipboard (${formatBytes(current.result.bodyText.length)}): press ${keymap.saveBody[0] ?? 's'} to save it`);
            return;
          }
          // The real body (see redact.ts): the user asked for the body, not for its masked display.
          stdout.write(osc52(current.result.bodyText));
          const masked = shownRef.current !== undefined && shownRef.current.bodyText !== current.result.bodyText;
          toast(`body copied to the clipboard (OSC 52)${masked ? ', with the real secret values' : ''}`);
        }
        return;
      case 'copyCurl':
        if (current.result) {
          // A runnable command needs the real values.
          const curl = services.curl(current.result);
          stdout.write(osc52(curl));
          toast(`request copied as curl (OSC 52)${redactText(curl, current.result.secrets ?? []) !== curl ? ', with the real secret values' : ''}`);
        }
        return;
      case 'saveBody':
        if (current.result) {
          services.saveBody(current.result, effect.path).then(
            () => toast(`body saved to ${effect.path}`),
            (error: unknown) => toast(`not saved: ${failure(error)}`),
          );
        }
        return;
      case 'pager':
        // The pager is a display: it shows what the viewer shows (masked unless revealed).
        if (shownRef.current) services.external('pager', shownRef.current.bodyText, '.txt').catch((error: unknown) => toast(failure(error)));
        return;
      case 'reload':
        reload();
        return;
      case 'openHistory':
        services.history().then(
          (items) => dispatch({ type: 'pushScreen', screen: { kind: 'history', items, cursor: 0, diff: false } }),
          (error: unknown) => toast(`history: ${failure(error)}`),
        );
        return;
      case 'pickEnvironment':
        services.rememberEnvironment(effect.name).catch(() => undefined);
        toast(`environment: ${effect.name ?? '(none)'}`);
        return;
      case 'promptAnswer': {
        const pending = promptRef.current;
        promptRef.current = undefined;
        if (!pending) return;
        if (effect.value === undefined) pending.reject(new DialError('E_CANCELLED', 'prompt cancelled'));
        else pending.resolve(effect.value);
        return;
      }
      case 'saveInline':
        if (!selected?.entry.file) return;
        {
          const file = selected.entry.file;
          const node = selected.node;
          void saveBlock(selected.fileIndex, async () => ({
            file: await services.saveRequest(file, node.index, editRequestBlock(file, node, effect.field, effect.value)),
            select: node.index,
          }));
        }
        return;
      case 'editBody':
      case 'editRequest':
        if (!selected?.entry.file) return;
        {
          const file = selected.entry.file;
          const node = selected.node;
          void saveBlock(selected.fileIndex, async () => {
            if (effect.type === 'editRequest') {
              const edited = await services.external('editor', blockText(file, node), '.http');
              return { file: await services.saveRequest(file, node.index, edited), select: node.index };
            }
            if (node.body?.kind === 'file') throw new Error(`the body comes from ${node.body.path}: edit that file, or the whole request with 'e'`);
            const before = node.body?.text ?? '';
            const edited = await services.external('editor', before, bodySuffix(node.headers));
            return { file: await services.saveRequest(file, node.index, replaceBody(file, node, edited)), select: node.index };
          });
        }
        return;
      case 'newRequest': {
        const fileIndex = selected?.fileIndex ?? current.files.findIndex((f) => f.file);
        const file = current.files[fileIndex]?.file;
        if (!file) return;
        void saveBlock(fileIndex, async () => {
          const saved = await services.appendRequest(file, newRequestBlock(`request-${file.requests.length + 1}`));
          return { file: saved, select: saved.requests.length - 1 };
        });
        return;
      }
      case 'duplicate':
        if (!selected?.entry.file) return;
        {
          const file = selected.entry.file;
          const node = selected.node;
          // The copy goes right after the original, in the original's place in the file: deleting it gives the file back byte for byte.
          void saveBlock(selected.fileIndex, async () => ({
            file: await services.saveRequest(file, node.index, blockWithCopy(file, node, `${node.name ?? 'request'}-copy`)),
            select: node.index + 1,
          }));
        }
        return;
      case 'delete':
        if (!selected?.entry.file) return;
        {
          const file = selected.entry.file;
          const node = selected.node;
          void saveBlock(selected.fileIndex, async () => ({ file: await services.deleteRequest(file, node.index) }));
        }
        return;
    }
  };

  // Load the workspace once.
  useEffect(() => {
    let live = true;
    Promise.all([services.loadWorkspace(), services.environments()]).then(
      ([files, environments]) => {
        if (!live) return;
        dispatch({ type: 'loaded', files, environments, environment: stateRef.current.environment });
        // Start where the user left off: the request last sent in this workspace.
        if (services.lastRequest) {
          files.forEach((entry, fileIndex) =>
            entry.file?.requests.forEach((node) => {
              if (entry.file && services.requestKey(entry.file, node) === services.lastRequest) dispatch({ type: 'selectRequest', fileIndex, requestIndex: node.index });
            }),
          );
        }
      },
      (error: unknown) => live && toast(`cannot load the workspace: ${failure(error)}`),
    );
    return () => {
      live = false;
    };
  }, [services]);

  // The reducer pages and bounds scrolling by the rows the screens get.
  useEffect(() => {
    dispatch({ type: 'screenRows', rows: dims.height });
  }, [dims.height, dispatch]);

  // The spinner ticks only while a request is in flight.
  useEffect(() => {
    if (!state.inFlight) return;
    const timer = setInterval(() => setSpin((n) => (n + 1) % spinnerFrames.length), 80);
    return () => clearInterval(timer);
  }, [state.inFlight]);

  useInput(
    (input, key) => {
      const name = keyName(input, key);
      if (name === undefined && input.length > 1) {
        for (const one of splitBurst(input)) dispatch({ type: 'key', name: one.name, input: one.input });
        return;
      }
      dispatch({ type: 'key', name, input });
    },
    { isActive: true },
  );

  const screen = state.screens[state.screens.length - 1];
  if (screen && (screen.kind === 'palette' || screen.kind === 'environments' || screen.kind === 'history' || screen.kind === 'help')) {
    let body: React.ReactElement;
    if (screen.kind === 'palette') {
      const items = fuzzyFilter(paletteItems(state, keymap, describe), screen.query, (i) => i.label);
      body = (
        <ListScreen
          title="Command palette"
          query={screen.query}
          items={items.map((item) => ({ key: item.id, label: `${item.kind === 'request' ? '→' : '⚙'} ${item.label}` }))}
          cursor={screen.cursor}
          width={dims.width}
          height={dims.height}
          theme={theme}
          footer="↑/↓ choose · enter run · esc close"
        />
      );
    } else if (screen.kind === 'environments') {
      const options = ['(none)', ...state.environments];
      body = (
        <ListScreen
          title="Environment"
          items={options.map((name, i) => ({ key: name, label: `${(i === 0 ? undefined : name) === state.environment ? '●' : ' '} ${name}` }))}
          cursor={screen.cursor}
          width={dims.width}
          height={dims.height}
          theme={theme}
          footer="enter: use it (remembered for this workspace) · esc: close"
        />
      );
    } else if (screen.kind === 'history') {
      body = <HistoryScreen items={shownHistory ?? screen.items} cursor={screen.cursor} diff={screen.diff} diffScroll={screen.diffScroll} width={dims.width} height={dims.height} theme={theme} />;
    } else {
      body = <HelpScreen keymap={keymap} scroll={screen.scroll} width={dims.width} height={dims.height} theme={theme} />;
    }
    return <Box width={dims.width} height={dims.height}>{body}</Box>;
  }

  const rows = treeRows(state);
  const selected = selectedRequest(state);
  const cursorRow = rows[state.treeCursor];
  const errorEntry = !selected && cursorRow ? state.files[cursorRow.fileIndex] : undefined;
  const border = (pane: AppState['focus']): string | undefined => (state.focus === pane ? theme.borderFocused : theme.border);
  return (
    <Box flexDirection="column" width={dims.width} height={dims.height}>
      <Box flexDirection="row" height={dims.mainHeight}>
        <Box borderStyle="round" borderColor={border('tree')} width={dims.treeWidth} height={dims.mainHeight} flexDirection="column">
          <Tree
            rows={rows}
            cursor={state.treeCursor}
            height={dims.mainHeight - 2}
            width={dims.treeWidth - 2}
            filter={state.treeFilter}
            filtering={state.treeFiltering}
            focused={state.focus === 'tree'}
            theme={theme}
          />
        </Box>
        <Box flexDirection="column" width={dims.rightWidth} height={dims.mainHeight}>
          <Box borderStyle="round" borderColor={border('request')} height={dims.requestHeight} width={dims.rightWidth}>
            <RequestPane node={selected?.node} fileLabel={selected?.entry.relativePath ?? errorEntry?.relativePath} error={errorEntry?.error} height={dims.requestHeight - 2} width={dims.rightWidth - 2} theme={theme} />
          </Box>
          <Box borderStyle="round" borderColor={border('response')} height={dims.responseHeight} width={dims.rightWidth}>
            <ResponsePane
              result={result}
              node={selected?.node}
              requestState={state.requestState}
              requestError={state.requestError}
              spinner={spinnerFrames[spin]}
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
      <BottomLine state={state} keymap={keymap} theme={theme} width={dims.width} />
    </Box>
  );
}

function BottomLine({ state, keymap, theme, width }: { state: AppState; keymap: Keymap; theme: Theme; width: number }): React.ReactElement {
  const screen = state.screens[state.screens.length - 1];
  if (screen?.kind === 'prompt') {
    return <Text wrap="truncate-end" color={theme.accent}>{`${screen.description ?? screen.name}: ${screen.value}▏ (enter accepts, esc cancels)`}</Text>;
  }
  if (screen?.kind === 'confirm') return <Text wrap="truncate-end" color={theme.warn}>{screen.message}</Text>;
  if (screen?.kind === 'input') return <Text wrap="truncate-end" color={theme.accent}>{`${screen.label}: ${screen.value}▏`}</Text>;
  if (screen?.kind === 'edit') {
    const label = screen.field === 'headers' ? 'Headers (Name: value; …)' : screen.field === 'url' ? 'URL' : 'Method';
    return <Text wrap="truncate-end" color={theme.accent}>{`${label}: ${screen.value}▏`}</Text>;
  }
  const k = (action: ActionName): string => keymap[action][0] ?? '?';
  const hints =
    state.inFlight
      ? `${k('back')}/${k('cancel')} cancel`
      : state.focus === 'response'
        ? `${k('nextTab')} tab · ${k('toggleFold')} fold · ${k('jsonPath')} JSONPath · ${k('search')} search · ${k('copyBody')} copy · ${k('help')} help · ${k('quit')} quit`
        : `${k('send')} send · ${k('filterTree')} filter · ${k('focusNext')} focus · ${k('palette')} palette · ${k('environments')} env · ${k('help')} help · ${k('quit')} quit`;
  return <StatusBar environment={state.environment} requestState={state.requestState} secretsShown={state.revealSecrets} hints={hints} toast={state.toast} width={width} theme={theme} />;
}

/** The whole exchange as text: the request as sent (line, headers, body preview), then the response (status line, headers, blank line, body). */
export function rawText(result: ResponseResult): string {
  const q = result.exchange.request;
  const r = result.exchange.response;
  const sent = `${q.method} ${q.url}\n${q.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}${q.headers.length ? '\n' : ''}${q.bodyPreview ? `\n${q.bodyPreview}\n` : ''}`;
  return `${sent}\nHTTP/${r.httpVersion} ${r.status} ${r.statusText}\n${r.headers.map(([n, v]) => `${n}: ${v}`).join('\n')}\n\n${result.bodyText}`;
}

function bodySuffix(headers: Array<{ name: string; value: string }>): string {
  const type = headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  if (/json/i.test(type)) return '.json';
  if (/xml/i.test(type)) return '.xml';
  return '.txt';
}

/** The block with its inline body replaced (or a body added after the headers). */
function replaceBody(file: NonNullable<AppState['files'][number]['file']>, node: Parameters<typeof blockText>[1], body: string): string {
  const block = blockText(file, node);
  const base = node.span.start;
  const text = body.replace(/\n+$/, '');
  if (node.body?.kind === 'inline') {
    return block.slice(0, node.body.span.start - base) + text + block.slice(node.body.span.end - base);
  }
  const lastHeader = node.headers[node.headers.length - 1];
  const after = (lastHeader ? lastHeader.span.end : node.requestLineSpan.end) - base;
  const lineEnd = block.indexOf('\n', Math.max(0, after - 1));
  const at = block[after - 1] === '\n' ? after : lineEnd === -1 ? block.length : lineEnd + 1;
  const prefix = at >= block.length && !block.endsWith('\n') ? '\n' : '';
  return `${block.slice(0, at)}${prefix}\n${text}\n${block.slice(at)}`;
}

