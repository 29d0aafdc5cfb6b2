/**
 * The real WorkbenchServices: the TUI's only road to core. Everything here delegates to
 * src/core (httpfile, editing, http, export, session, run); the pieces live in ui/backend/.
 */
import { join, relative } from 'node:path';
import { configDir } from '../core/settings/paths.js';
import { openWorkspaceJar } from '../core/cookies/jar-file.js';
import type { Exchange, SendOptions } from '../core/http/types.js';
import type { HttpFile, RequestNode } from '../core/httpfile/types.js';
import { insertRequestText, removeRequestText, replaceRequestText } from '../core/httpfile/index.js';
import { curlCommand, curlOptions, followsRedirects } from '../core/export/from-http.js';
import {
  historyPath,
  rememberEnvironment,
  rememberLastRequest,
  settingsTimeoutMs,
  type Settings,
} from '../core/settings/index.js';
import { readHistory } from '../core/history/index.js';
import { EnvStore } from '../core/env/index.js';
import { externalCommand, rewriteHttpFile, runExternal, saveBodyTo } from '../core/editing/index.js';
import type { HistoryItem, ResponseResult, WorkbenchServices } from './services.js';
import { createRunners, type Current, type Prepared } from './backend/runner.js';
import { createExecute } from './backend/execute.js';
import { createPreview } from './backend/preview.js';
import { createRequest, importRequests, loadWorkspace } from './backend/files.js';
import { watchWorkspace } from '../core/workspace/watch.js';

export { ExecuteError, bodyTextOf } from './backend/execute.js';

export interface CoreServicesOptions {
  /** The workspace root (env files, settings and history are keyed by it). */
  root: string;
  /** The folder opened (its request files fill the tree); default the root. */
  dir?: string;
  environment?: string;
  cliVariables: Record<string, string>;
  suspend: (run: () => void) => void;
  env?: Record<string, string | undefined>;
  settings: Settings;
  /** Opens an OAuth 2.0 sign-in page in the browser. */
  openBrowser?: (url: string) => void | Promise<void>;
  /** `--cookie-jar FILE` (a path) or `--no-cookie-jar` (false); default the workspace's saved jar. */
  cookieJar?: string | false;
}

/** The history of this workspace, newest first, as the history screen lists it. */
function historyItems(root: string, env: Record<string, string | undefined>): HistoryItem[] {
  return readHistory({ path: historyPath(env) })
    .filter((entry) => entry.workspace === root)
    .map((entry) => ({
      time: entry.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
      requestKey: entry.requestId ?? `${entry.exchange.request.method} ${entry.exchange.request.url}`,
      label: `${entry.requestId ?? ''}  ${entry.exchange.request.method} ${entry.exchange.request.url}`.trim(),
      requestLine: `${entry.exchange.request.method} ${entry.exchange.request.url}`,
      status: entry.exchange.response.status,
      durationMs: entry.exchange.timings.total,
      body: entry.exchange.response.bodyEncoding === 'base64' ? '(binary body)' : (entry.exchange.response.body ?? ''),
    }));
}

/** Copy as curl: the same command as `dial export curl`, from the request as the file resolved it when there is one. */
function curlFor(result: ResponseResult, prepared: Prepared | undefined, settings: Settings): string {
  // The settings that change what is sent (TLS, proxy, timeouts, redirects), as for export.
  const options = { multiline: false, ...curlOptions(settings, prepared?.overrides) };
  if (!prepared) {
    // Not executed here (nothing to prepare from): the request as sent, body as far as it was kept.
    const sent = result.exchange.request;
    const body =
      sent.bodyPreview !== undefined ? { kind: 'text' as const, text: sent.bodyPreview } : { kind: 'none' as const };
    return curlCommand({ method: sent.method, url: sent.url, headers: sent.headers, body }, options);
  }
  return curlCommand(prepared.request, {
    ...options,
    source: prepared,
    cwd: process.cwd(),
    digest: prepared.digest,
    ntlm: prepared.ntlm,
    followRedirects: followsRedirects(settings, prepared.overrides),
  });
}

/** Builds the services over the real core. */
export function createCoreServices(options: CoreServicesOptions): WorkbenchServices {
  const env = options.env ?? process.env;
  const { settings, root } = options;
  const dir = options.dir ?? root;
  const timeoutMs = settingsTimeoutMs(settings);
  const sendOptions: SendOptions = {
    timeoutMs,
    maxRedirects: settings.maxRedirects,
    tls: { verify: settings.verifyTls },
    ...(settings.proxy ? { proxy: settings.proxy } : {}),
  };
  // The request being executed now: its prompt dialog, its state callback, its prepared request and its exchange once recorded.
  let current: Current | undefined;
  const preparedOf = new WeakMap<Exchange, Prepared>();
  // Env files of the workspace, read once (as `dial run` does) and again when they change on disk:
  // script environments and private values to mask; sessions (variables, cookies) start afresh then.
  const build = () => {
    const envStore = new EnvStore(root);
    return {
      envStore,
      runnerFor: createRunners({
        root,
        cliVariables: options.cliVariables,
        sendOptions,
        timeoutMs,
        followRedirects: settings.followRedirects ?? true,
        envStore,
        current: () => current,
        ...(options.openBrowser && { openBrowser: options.openBrowser }),
        oauthCacheFile: join(configDir(env), 'oauth-tokens.json'),
        // The workspace's saved cookie jar per environment, as `dial send FILE` and `dial run` use it.
        cookieJar: (environment) =>
          options.cookieJar === false
            ? undefined
            : openWorkspaceJar({
                root,
                environment,
                env,
                ...(options.cookieJar !== undefined && { path: options.cookieJar }),
              }),
      }),
    };
  };
  let live = build();
  const envStore = () => live.envStore;
  const runnerFor = (environment: string | undefined) => live.runnerFor(environment);
  const requestId = (file: HttpFile, node: RequestNode): string =>
    `${relative(root, file.path).split('\\').join('/')}#${node.name ?? node.index + 1}`;
  const execute = createExecute({
    root,
    env,
    settings,
    envStore,
    runnerFor,
    setCurrent: (next) => (current = next),
    preparedOf,
    requestId,
  });
  return {
    root,
    loadWorkspace: () => loadWorkspace(root, dir),
    environments: () => runnerFor(options.environment).session.environments(),
    execute,
    preview: createPreview({ root, cliVariables: options.cliVariables, sendOptions, envStore }),
    saveRequest: (file, index, blockText) => rewriteHttpFile(file, replaceRequestText(file, index, blockText)),
    appendRequest: (file, blockText) => rewriteHttpFile(file, insertRequestText(file, blockText)),
    createRequest: (file, blockText) => createRequest(dir, file, blockText),
    importRequests: (text) => importRequests(dir, text),
    deleteRequest: (file, index) => rewriteHttpFile(file, removeRequestText(file, index)),
    history: async () => historyItems(root, env),
    watch: (onChange) =>
      watchWorkspace(dir, (kind) => {
        if (kind === 'env') live = build();
        onChange(kind);
      }),
    rememberEnvironment: (name) => rememberEnvironment(root, name, env),
    curl: (result) => curlFor(result, preparedOf.get(result.exchange), settings),
    saveBody: (result, path) => saveBodyTo(result.exchange.response.body, path),
    external: (kind, text, suffix) =>
      runExternal(
        externalCommand(kind, env, kind === 'editor' ? settings.editor : settings.pager),
        text,
        suffix,
        options.suspend,
      ),
    requestKey: requestId,
    lastRequest: settings.lastRequest[root],
    async rememberRequest(key) {
      if (settings.lastRequest[root] === key) return;
      settings.lastRequest = { ...settings.lastRequest, [root]: key };
      await rememberLastRequest(root, key, env);
    },
  };
}
