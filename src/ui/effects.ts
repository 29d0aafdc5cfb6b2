/**
 * The effects the reducer asks for, run outside the component: sending, prompts, files,
 * clipboard, external programs. The component gives a live context (read at each effect, so
 * nothing runs with the props or state of an old render).
 */
import { basename } from 'node:path';
import { DialError, isDialError } from '../core/errors.js';
import { redactText } from '../core/secrets.js';
import { FileChangedError } from '../core/editing/index.js';
import type { HttpFile } from '../core/httpfile/types.js';
import type { Keymap } from './keymap.js';
import type { ResponseResult, WorkbenchServices } from './services.js';
import {
  blockText,
  outcomeKey,
  selectedRequest,
  shownResult,
  type AppAction,
  type AppState,
  type Effect,
} from './state/app-state.js';
import { blockWithCopy, editRequestBlock, renamedBlock, requestLineBlock } from './state/request-edit.js';
import { bodySuffix, replaceBody } from './state/body-edit.js';
import { writtenBodyText } from '../core/httpfile/written-body.js';
import { viewerReducer } from './viewer/viewer-reducer.js';
import type { LineModel } from './viewer/line-model.js';
import { osc52 } from './clipboard.js';
import { formatBytes } from './format.js';
import { Outbox } from './outbox.js';

/** The largest body copied with OSC 52 (many terminals stop at 1 MiB of base64 or less). */
export const OSC52_LIMIT = 512 * 1024;

/** What effects need from the component, read afresh each time. */
export interface EffectContext {
  services: WorkbenchServices;
  keymap: Keymap;
  /** Writes straight to the terminal (OSC 52). */
  write: (text: string) => void;
  onExit: () => void;
  state: () => AppState;
  dispatch: (action: AppAction) => void;
  /** The response as the screen shows it (secrets masked unless revealed). */
  shown: () => ResponseResult | undefined;
  model: () => LineModel | undefined;
  viewerRows: () => number;
}

const failure = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A file change the reducer applies once the file is saved. */
interface Saved {
  file: HttpFile;
  select?: number;
  removed?: number;
  inserted?: number;
}

export class EffectRunner {
  private abort: AbortController | undefined;
  /** The open WebSocket's composer, while a WEBSOCKET request runs. */
  private outbox: Outbox | undefined;
  private pendingPrompt: { resolve: (value: string) => void; reject: (error: unknown) => void } | undefined;
  /** The last answer to each `# @prompt`, offered again at the next send. */
  private readonly promptAnswers = new Map<string, string>();
  private exited = false;

  constructor(private readonly live: () => EffectContext) {}

  /** Runs one effect; async work reports back through dispatch. */
  run(effect: Effect): void {
    switch (effect.type) {
      case 'quit':
        return this.quit();
      case 'send':
        return void this.send();
      case 'cancel':
        // An open WebSocket closes gracefully (its messages are kept); anything else is cancelled.
        if (this.outbox) return this.outbox.close();
        return this.abort?.abort();
      case 'sendMessage':
        if (this.outbox) return this.outbox.push(effect.text);
        return this.toast('the WebSocket is closed: send the request again (enter)');
      case 'promptAnswer':
        return this.answerPrompt(effect.value);
      case 'viewer':
      case 'copyBody':
      case 'copyCurl':
      case 'saveBody':
      case 'pager':
        return this.responseEffect(effect);
      case 'openHistory':
      case 'pickEnvironment':
      case 'reload':
      case 'import':
        return this.workspaceEffect(effect);
      case 'saveInline':
      case 'saveBodyText':
      case 'editBody':
      case 'editRequest':
      case 'createRequest':
      case 'rename':
      case 'duplicate':
      case 'delete':
        return this.fileEffect(effect);
    }
  }

  /** A request or env file changed on disk: reload and keep the selection, unless an edit is open (its save then meets the conflict). */
  changedOnDisk(kind: 'http' | 'env'): void {
    const { services, state, dispatch } = this.live();
    const open = state().screens.find(
      (screen) =>
        screen.kind === 'edit' || screen.kind === 'body' || (screen.kind === 'input' && screen.purpose === 'rename'),
    );
    if (open) {
      this.toast(
        `files changed on disk while you edit: your edit stays open; saving checks it against the file, and keeps your version if they conflict`,
      );
      return;
    }
    const environments = kind === 'env' ? services.environments() : Promise.resolve(state().environments);
    Promise.all([services.loadWorkspace(), environments]).then(
      ([files, names]) => {
        const now = state();
        // Our own saves are seen too: nothing to do when the files are as the workbench has them.
        const same =
          files.length === now.files.length &&
          files.every(
            (entry, i) =>
              entry.path === now.files[i].path &&
              entry.file?.text === now.files[i].file?.text &&
              entry.error === now.files[i].error,
          );
        if (kind === 'http' && same) return;
        dispatch({ type: 'loaded', files, environments: names, environment: now.environment });
        this.toast(kind === 'env' ? 'env files changed on disk: reloaded' : 'request files changed on disk: reloaded');
      },
      (error: unknown) => this.toast(`cannot reload the workspace: ${failure(error)}`),
    );
  }

  /** Aborts whatever is in flight (on unmount). */
  dispose(): void {
    this.abort?.abort();
  }

  private toast(message: string): void {
    this.live().dispatch({ type: 'toast', message });
  }

  private quit(): void {
    if (this.exited) return;
    this.exited = true;
    this.abort?.abort();
    this.live().onExit();
  }

  private answerPrompt(value: string | undefined): void {
    const pending = this.pendingPrompt;
    this.pendingPrompt = undefined;
    if (!pending) return;
    if (value === undefined) pending.reject(new DialError('E_CANCELLED', 'prompt cancelled'));
    else pending.resolve(value);
  }

  /** Asked on every send (as JetBrains does), with the last answer ready; never prefilled for a `# @secret` variable. */
  private prompt(file: HttpFile, name: string, description: string | undefined): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const secret = file.requests.some((request) => request.secrets.includes(name));
      this.pendingPrompt = {
        resolve: (value) => {
          if (!secret) this.promptAnswers.set(name, value);
          resolve(value);
        },
        reject,
      };
      const value = secret ? '' : (this.promptAnswers.get(name) ?? '');
      this.live().dispatch({ type: 'pushScreen', screen: { kind: 'prompt', name, description, value } });
    });
  }

  private async send(): Promise<void> {
    const { services, state, dispatch } = this.live();
    const selected = selectedRequest(state());
    const file = selected?.entry.file;
    if (!selected || !file) return;
    const controller = new AbortController();
    this.abort = controller;
    const outbox = selected.node.method === 'WEBSOCKET' ? new Outbox() : undefined;
    this.outbox = outbox;
    services.rememberRequest(services.requestKey(file, selected.node)).catch(() => undefined);
    dispatch({
      type: 'sendStarted',
      key: outcomeKey(selected.entry.path, selected.node.index),
      sentBlock: blockText(file, selected.node),
      at: Date.now(),
    });
    try {
      const response = await services.execute(file, selected.node, {
        environment: state().environment,
        signal: controller.signal,
        prompt: (name, description) => this.prompt(file, name, description),
        onState: (requestState) => {
          if (!controller.signal.aborted) dispatch({ type: 'requestState', state: requestState });
        },
        onNotice: (message) => this.toast(message),
        onMessage: (message, secrets) => {
          if (!controller.signal.aborted) dispatch({ type: 'streamMessage', message, secrets });
        },
        composer: outbox,
      });
      if (this.abort !== controller) return;
      dispatch({ type: 'response', result: response, at: Date.now() });
      if (response.error)
        dispatch({
          type: 'requestState',
          state: 'failed',
          error: `${response.error.code}: ${response.error.message}`,
          at: Date.now(),
        });
    } catch (error) {
      const code = isDialError(error) ? error.code : (error as { code?: unknown })?.code;
      const cancelled = controller.signal.aborted || code === 'E_CANCELLED';
      const requestState = cancelled ? 'cancelled' : code === 'E_TIMEOUT' ? 'timed-out' : 'failed';
      dispatch({
        type: 'requestState',
        state: requestState,
        error: cancelled ? undefined : failure(error),
        at: Date.now(),
      });
    } finally {
      if (this.abort === controller) this.abort = undefined;
      if (this.outbox === outbox) this.outbox = undefined;
      outbox?.close();
    }
  }

  private responseEffect(
    effect: Extract<Effect, { type: 'viewer' | 'copyBody' | 'copyCurl' | 'saveBody' | 'pager' }>,
  ): void {
    const { services, keymap, write, state, dispatch, shown, model, viewerRows } = this.live();
    const result = shownResult(state());
    switch (effect.type) {
      case 'viewer': {
        const base = model();
        if (!base) {
          if (effect.action.type === 'startInput' || effect.action.type === 'inputSubmit')
            this.toast('no response yet');
          return;
        }
        const current = state();
        dispatch({
          type: 'viewer',
          viewer: viewerReducer(current.viewer, effect.action, { base, height: viewerRows() }),
        });
        return;
      }
      case 'copyBody':
        if (!result) return;
        // Terminals and tmux cap OSC 52 payloads; past the cap the copy would silently fail.
        if (result.bodyText.length > OSC52_LIMIT)
          return this.toast(
            `body too big for the clipboard (${formatBytes(result.bodyText.length)}): press ${keymap.saveBody[0] ?? 's'} to save it`,
          );
        // The real body (see redact.ts): the user asked for the body, not for its masked display.
        write(osc52(result.bodyText));
        return this.toast(
          `body copied to the clipboard (OSC 52)${shown()?.bodyText !== result.bodyText ? ', with the real secret values' : ''}`,
        );
      case 'copyCurl': {
        if (!result) return;
        // A runnable command needs the real values. A WebSocket has no curl form: say so.
        let curl: string;
        try {
          curl = services.curl(result);
        } catch (error) {
          return this.toast(`not copied: ${failure(error)}`);
        }
        write(osc52(curl));
        return this.toast(
          `request copied as curl (OSC 52)${redactText(curl, result.secrets ?? []) !== curl ? ', with the real secret values' : ''}`,
        );
      }
      case 'saveBody':
        if (!result) return;
        services.saveBody(result, effect.path).then(
          () => this.toast(`body saved to ${effect.path}`),
          (error: unknown) => this.toast(`not saved: ${failure(error)}`),
        );
        return;
      case 'pager': {
        // The pager is a display: it shows what the viewer shows (masked unless revealed).
        const text = shown()?.bodyText;
        if (text !== undefined)
          services.external('pager', text, '.txt').catch((error: unknown) => this.toast(failure(error)));
        return;
      }
    }
  }

  private reload(message?: (count: number) => string, then?: () => void): void {
    const { services, state, dispatch } = this.live();
    services.loadWorkspace().then(
      (files) => {
        dispatch({ type: 'loaded', files, environments: state().environments, environment: state().environment });
        this.toast(
          message ? message(files.length) : `reloaded ${files.length} file${files.length === 1 ? '' : 's'} from disk`,
        );
        then?.();
      },
      (error: unknown) => this.toast(`cannot reload the workspace: ${failure(error)}`),
    );
  }

  private workspaceEffect(
    effect: Extract<Effect, { type: 'openHistory' | 'pickEnvironment' | 'reload' | 'import' }>,
  ): void {
    const { services, dispatch } = this.live();
    switch (effect.type) {
      case 'reload':
        return this.reload();
      case 'openHistory':
        services.history().then(
          (items) => dispatch({ type: 'pushScreen', screen: { kind: 'history', items, cursor: 0, diff: false } }),
          (error: unknown) => this.toast(`history: ${failure(error)}`),
        );
        return;
      case 'pickEnvironment':
        services.rememberEnvironment(effect.name).catch(() => undefined);
        return this.toast(`environment: ${effect.name ?? '(none)'}`);
      case 'import':
        services.importRequests(effect.text).then(
          (paths) =>
            this.reload(
              () => `imported into ${paths.map((path) => basename(path)).join(', ') || 'nothing'}`,
              () => paths[0] && dispatch({ type: 'selectPath', path: paths[0], requestIndex: 0 }),
            ),
          (error: unknown) => this.toast(`not imported: ${failure(error)}`),
        );
        return;
    }
  }

  /** Saves a file change, then shows it (or says why it was not saved, and how to get back in sync). */
  private async save(fileIndex: number, work: () => Promise<Saved>): Promise<void> {
    const { keymap, state, dispatch } = this.live();
    try {
      const saved = await work();
      dispatch({ type: 'fileChanged', fileIndex, ...saved });
      this.toast(`saved ${state().files[fileIndex]?.relativePath ?? ''}`);
    } catch (error) {
      if (error instanceof FileChangedError) {
        const kept = error.keptAt ? `; your version is in ${error.keptAt}` : '';
        return this.toast(
          `not saved: ${basename(error.path)} ${error.removed ? 'was removed' : 'changed on disk'} since it was loaded; reload it (press ${keymap.reload[0] ?? 'ctrl+l'}) and edit again${kept}`,
        );
      }
      this.toast(`not saved: ${failure(error)}`);
    }
  }

  /** A new `METHOD URL` request: at the end of the selected (or first) file, or in a new `requests.http`. */
  private createRequest(method: string, url: string): void {
    const { services, state, dispatch } = this.live();
    const current = state();
    const fileIndex = selectedRequest(current)?.fileIndex ?? current.files.findIndex((f) => f.file);
    const file = current.files[fileIndex]?.file;
    const block = requestLineBlock(method, url);
    if (file) {
      void this.save(fileIndex, async () => {
        const saved = await services.createRequest(file, block);
        return { file: saved, select: saved.requests.length - 1 };
      });
      return;
    }
    services.createRequest(undefined, block).then(
      (created) =>
        this.reload(
          () => `created ${basename(created.path)}`,
          () => dispatch({ type: 'selectPath', path: created.path, requestIndex: created.requests.length - 1 }),
        ),
      (error: unknown) => this.toast(`not created: ${failure(error)}`),
    );
  }

  private fileEffect(
    effect: Extract<
      Effect,
      {
        type:
          | 'saveInline'
          | 'saveBodyText'
          | 'editBody'
          | 'editRequest'
          | 'createRequest'
          | 'rename'
          | 'duplicate'
          | 'delete';
      }
    >,
  ): void {
    const { services, state } = this.live();
    if (effect.type === 'createRequest') return this.createRequest(effect.method, effect.url);
    const selected = selectedRequest(state());
    const file = selected?.entry.file;
    if (!selected || !file) return;
    const node = selected.node;
    const replace = async (text: string): Promise<Saved> => ({
      file: await services.saveRequest(file, node.index, text),
      select: node.index,
    });
    switch (effect.type) {
      case 'saveInline':
        return void this.save(selected.fileIndex, () =>
          replace(editRequestBlock(file, node, effect.field, effect.value)),
        );
      case 'rename':
        return void this.save(selected.fileIndex, () => replace(renamedBlock(file, node, effect.title)));
      case 'saveBodyText':
        return void this.save(selected.fileIndex, () => replace(replaceBody(file, node, effect.text)));
      case 'editRequest':
        return void this.save(selected.fileIndex, async () =>
          replace(await services.external('editor', blockText(file, node), '.http')),
        );
      case 'editBody':
        return void this.save(selected.fileIndex, async () => {
          if (node.curl)
            throw new Error("a cURL request's body is in its curl command: edit the whole request with 'e'");
          if (node.body?.kind === 'file')
            throw new Error(`the body comes from ${node.body.path}: edit that file, or the whole request with 'e'`);
          const edited = await services.external('editor', writtenBodyText(file, node), bodySuffix(node.headers));
          return replace(replaceBody(file, node, edited));
        });
      case 'duplicate':
        // The copy goes right after the original, in the original's place in the file: deleting it gives the file back byte for byte.
        return void this.save(selected.fileIndex, async () => ({
          ...(await replace(blockWithCopy(file, node, `${node.name ?? 'request'}-copy`))),
          select: node.index + 1,
          inserted: node.index + 1,
        }));
      case 'delete':
        return void this.save(selected.fileIndex, async () => ({
          file: await services.deleteRequest(file, node.index),
          removed: node.index,
        }));
    }
  }
}
