/**
 * One session and executor per environment, as `dial run` builds them: variables, cookies and
 * referenced responses belong to an environment. The request being executed now (`Current`)
 * gets its prompts, its state changes and its prepared request and exchange through here.
 */
import { DialError } from '../../core/errors.js';
import type { Exchange, SendOptions } from '../../core/http/types.js';
import type { HttpFile, RequestNode } from '../../core/httpfile/types.js';
import { createCookieJar, sendRequest } from '../../core/http/index.js';
import { createSession, type PreparedRequest, type Session } from '../../core/session/index.js';
import { createExecutor, type RunSession } from '../../core/run/index.js';
import type { EnvStore } from '../../core/env/index.js';
import type { WorkspaceJar } from '../../core/cookies/jar-file.js';
import type { ExecuteOptions } from '../services.js';
import type { ConversationOptions, WebSocketStep } from '../../core/http/websocket/index.js';

/** A request as the session prepared it, with where it came from (for copy as curl). */
export type Prepared = PreparedRequest & { file: HttpFile; node: RequestNode };

/** The request being executed now. */
export interface Current {
  node: RequestNode;
  options: ExecuteOptions;
  prepared?: Prepared;
  exchange?: Exchange;
}

export interface Runner {
  session: Session;
  run: ReturnType<typeof createExecutor>;
}

export interface RunnerContext {
  root: string;
  cliVariables: Record<string, string>;
  sendOptions: SendOptions;
  timeoutMs: number | undefined;
  followRedirects: boolean;
  envStore: EnvStore;
  /** The request being executed now, if any. */
  current: () => Current | undefined;
  /** Opens an OAuth 2.0 sign-in page in the browser (`dial open` passes the command's opener). */
  openBrowser?: (url: string) => void | Promise<void>;
  /** The OAuth 2.0 token cache (in the config folder of the environment the workbench runs with). */
  oauthCacheFile?: string;
  /** The saved cookie jar of an environment (undefined: cookies last while the workbench is open). */
  cookieJar?: (environment: string | undefined) => WorkspaceJar | undefined;
}

/**
 * The send options of a streaming request in the workbench: its messages go to the message log
 * as they come (with the secret values to mask in it until ctrl+r reveals them: they may come
 * back in a message), and a WebSocket stays open for the composer until its close key (esc), so
 * no overall time limit applies to it.
 */
function withStreams(
  sendOpts: SendOptions | undefined,
  request: { method: string },
  active: Current,
  context: RunnerContext,
  secretValues: () => Iterable<string>,
): SendOptions & Partial<ConversationOptions> {
  const { options } = active;
  const streaming: SendOptions & Partial<ConversationOptions> = {
    ...sendOpts,
    onMessage: (message) => {
      if (context.current() !== active) return;
      // A gRPC stream has no response head before its messages: the first one means receiving.
      if (message.direction === 'received') options.onState('receiving');
      options.onMessage?.(message, [...secretValues(), ...(active.prepared?.secretValues ?? [])]);
    },
  };
  if (request.method === 'WEBSOCKET' && options.composer) {
    const { messages, stop } = options.composer;
    Object.assign(streaming, { composer: composerSteps(messages), stop, keepStreaming: true, timeoutMs: 0 });
  }
  return streaming;
}

async function* composerSteps(messages: AsyncIterable<string>): AsyncGenerator<WebSocketStep> {
  for await (const data of messages) yield { kind: 'send', data };
}

/** The engine the executor sends through: the real one, telling the current request when it sends and when the head arrives. */
function engineFor(context: RunnerContext, secretValues: () => Iterable<string>) {
  return {
    sendRequest: (request: Parameters<typeof sendRequest>[0], given: Parameters<typeof sendRequest>[1]) => {
      const active = context.current();
      active?.options.onState('sending');
      const sendOpts = active ? withStreams(given, request, active, context, secretValues) : given;
      const target = sendOpts?.bodyTarget;
      if (!active || (target && (target.kind !== 'buffer' || target.maxInMemoryBytes !== undefined)))
        return sendRequest(request, sendOpts);
      // The same default buffering (a stream target that answers null buffers), plus a signal when the head arrives.
      return sendRequest(request, {
        ...sendOpts,
        bodyTarget: {
          kind: 'stream',
          open: () => {
            if (context.current() === active) active.options.onState('receiving');
            return null;
          },
        },
      });
    },
    createCookieJar,
    // Bodies stay until the next response replaces them (the viewer reads them).
    releaseBody: () => undefined,
  };
}

/**
 * With a saved jar: each file's cookies start from it, and it is saved after every exchange (the
 * workbench may be closed any way at all).
 */
function withSavedJar(engine: ReturnType<typeof engineFor>, savedJar: WorkspaceJar | undefined) {
  if (!savedJar) return engine;
  return {
    ...engine,
    sendRequest: async (...args: Parameters<typeof sendRequest>) => {
      try {
        return await engine.sendRequest(...args);
      } finally {
        saveQuietly(savedJar);
      }
    },
    createCookieJar: () => savedJar.fork(),
  };
}

/** Saves the jar; a failure to write it must not fail the request the user sent (the next save tries again). */
function saveQuietly(savedJar: WorkspaceJar): void {
  try {
    savedJar.save();
  } catch {
    // The cookies stay in memory and go with the next requests; only keeping them across sessions failed.
  }
}

/**
 * The session wrapped so the current request's prepared request and exchange are kept. A request
 * with `run` lines shows the last exchange it ran (its own, or for a block of only `run` lines,
 * the last request they ran).
 */
function recordingSession(session: Session, context: RunnerContext): RunSession {
  const isCurrent = (node: RequestNode): boolean => {
    const current = context.current();
    return current !== undefined && (node === current.node || current.node.runs !== undefined);
  };
  return {
    globals: session.globals,
    globalHeadersOf: (file) => session.globalHeadersOf(file),
    prepare: async (file, node, extra) => {
      const prepared = await session.prepare(file, node, extra);
      const current = context.current();
      if (current && isCurrent(node)) current.prepared = { ...prepared, file, node };
      return prepared;
    },
    record: (file, node, request, exchange) => {
      session.record(file, node, request, exchange);
      const current = context.current();
      if (current && isCurrent(node)) current.exchange = exchange;
    },
    resolveTemplate: (text, file, node, variables) => session.resolveTemplate(text, file, node, variables),
    secretValues: () => session.secretValues(),
    loadFile: (path) => session.loadFile(path),
  };
}

/** Returns the runner of an environment, building it on first use. */
export function createRunners(context: RunnerContext): (environment: string | undefined) => Runner {
  const runners = new Map<string, Runner>();
  return (environment) => {
    const key = environment ?? '';
    const existing = runners.get(key);
    if (existing) return existing;
    const session = createSession({
      workspaceRoot: context.root,
      environment,
      cliVariables: context.cliVariables,
      sendOptions: context.sendOptions,
      prompt: (name, description) => {
        const current = context.current();
        if (!current) throw new DialError('E_VAR_UNDEFINED', `no value for @prompt variable '${name}'`);
        return current.options.prompt(name, description);
      },
      // The executor is made just below; the session calls back only once a request runs.
      runReference: (file, node) => executor.runReference(file, node),
      // A sign-in URL or device code goes to the status bar of the request being sent.
      oauth: {
        notify: (message) => context.current()?.options.onNotice?.(message),
        signal: () => context.current()?.options.signal,
        ...(context.openBrowser && { openBrowser: context.openBrowser }),
        ...(context.oauthCacheFile && { cacheFile: context.oauthCacheFile }),
      },
    });
    const executor = createExecutor({
      session: recordingSession(session, context),
      engine: withSavedJar(
        engineFor(context, () => session.secretValues()),
        context.cookieJar?.(environment),
      ),
      sendOptions: context.sendOptions,
      timeoutMs: context.timeoutMs,
      followRedirects: context.followRedirects,
      // `request.environment.get(name)` in scripts: the selected environment's values, with --var on top (as `dial run`).
      environmentValues: async (dir) =>
        new Map([
          ...(await context.envStore.resolve(dir, environment)).values,
          ...Object.entries(context.cliVariables),
        ]),
    });
    const runner = { session, run: executor };
    runners.set(key, runner);
    return runner;
  };
}
