/**
 * `dial send FILE.http[#name|:line]`: find a request in a file and resolve it with the
 * workspace's variables, through a session (core/session), so `send` resolves exactly as
 * `run` and the TUI do. The environment defaults to the one last used in the workspace
 * (settings.defaultEnvironment); choosing one with -e remembers it.
 */
import type { OAuthHost } from '../oauth/index.js';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { CookieJar, HttpRequest, SendOptions } from '../http/types.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import type { DependencyEvent, KeptReference } from '../session/index.js';
import type { ScriptRunner, ScriptOutcome } from '../script/sandbox.js';
import { scriptRequest, trySubstitute, type ScriptEnvironment } from '../script/api.js';
import type { Session } from '../session/index.js';
import { DialError } from '../errors.js';
import { scriptEnvironment } from '../vars/kulala-environment.js';
import { listPasses } from '../httpfile/list-iteration.js';
import { COMMAND_KEYS, commandVariable } from '../httpfile/metadata.js';
import type { SendTarget } from './target-name.js';

export { parseSendTarget, type SendTarget } from './target-name.js';

export interface PrepareFileRequestOptions {
  target: SendTarget;
  cwd: string;
  /** Environment name (-e); undefined = the remembered or none. */
  environment?: string;
  /** --var k=v pairs. */
  cliVariables: Record<string, string>;
  /** Engine options for requests that references must run first (unused with keepReferences). */
  sendOptions?: SendOptions;
  /**
   * Run nothing: references to other requests (`{{login.response.body.$.token}}`, `# @ref`)
   * stay as their `{{…}}` text and are returned in `kept` (export curl, send --curl/--offline).
   */
  keepReferences?: boolean;
  /** Asked when the file holds several requests and none is named (a TTY picker); undefined = error. */
  pick?: (requests: RequestNode[]) => Promise<RequestNode>;
  /** Asked for `# @prompt` variables; undefined = error unless --var gives them. */
  prompt?: (name: string, description?: string) => Promise<string>;
  /** Told before and after each referenced request runs, with the secrets known then (to mask what is shown). */
  onDependency?: (event: DependencyEvent, secretValues: string[]) => void;
  /** A reference to a request that has not run is an E_INPUT instead (`send --no-deps`). */
  refuseDependencies?: boolean;
  /** OAuth 2.0 sign-in (`{{$auth.token("name")}}`): what the user is told, the browser. */
  oauth?: OAuthHost;
  /**
   * Runs the request's scripts as `dial run` does (`dial send`): loaded only when the request has
   * scripts; their modules are checked first, and pre-request scripts run before its variables
   * resolve. The handlers are left to the caller (PreparedFileRequest.scripts), once a response is in.
   */
  loadScripts?: () => Promise<ScriptRunner>;
  /**
   * The cookie jar of the workspace and environment the request runs in, once they are known
   * (the saved jar of `dial send`); it goes with the referenced requests and is returned for
   * the request itself. Undefined = no cookies kept.
   */
  openCookieJar?: (root: string, environment: string | undefined) => CookieJar | undefined;
}

/** The scripts of a prepared request and what they share (`client.global`, `request.variables`). */
export interface RequestScripts {
  runner: ScriptRunner;
  /** The environment the handlers see (`request.environment.get`), as `dial run` gives it. */
  environment: ScriptEnvironment['environment'];
  globals: Map<string, unknown>;
  requestVariables: Map<string, string>;
  /** What the pre-request scripts logged and tested. */
  outcomes: ScriptOutcome[];
}

export interface PreparedFileRequest {
  request: HttpRequest;
  file: HttpFile;
  node: RequestNode;
  /** Send options the request's metadata sets (@timeout, @no-redirect, …), to merge over the CLI's. */
  overrides: Partial<SendOptions>;
  /** Values to mask wherever the exchange is printed or recorded. */
  secretValues: string[];
  environment?: string;
  /** `Authorization: Digest user password` in the file: answer the 401 challenge with these (the header is removed). */
  digest?: { username: string; password: string };
  /** `Authorization: NTLM user:password` (kulala): the NTLM handshake answers the server (core/send/ntlm.ts). */
  ntlm?: { username: string; password: string };
  /** With keepReferences: the references left as written, each once (for a warning). */
  kept?: KeptReference[];
  /** With loadScripts, when the request has scripts: for running its response handlers. */
  scripts?: RequestScripts;
  /** From openCookieJar: the jar the request is sent with (unless it says `# @no-cookie-jar`). */
  cookieJar?: CookieJar;
}

/** A short label of a request for lists and messages: its name, or `#n METHOD URL`. */
export function requestLabel(node: RequestNode): string {
  return node.name ?? `#${node.index + 1} ${node.method} ${node.url}`;
}

/** Picks the request a target names: `#name` (or `#n`, 1-based), `:line`, the only one, or asks. */
export async function selectRequest(
  file: HttpFile,
  target: SendTarget,
  pick?: (requests: RequestNode[]) => Promise<RequestNode>,
): Promise<RequestNode> {
  const node = await chooseRequest(file, target, pick);
  // httpyac/kulala `# @disabled`: such a request is never sent, not even when asked for by name.
  const disabled = node.metadata.find((meta) => meta.key === 'disabled' && meta.value !== 'false');
  if (disabled) {
    throw new DialError('E_INPUT', `request '${requestLabel(node)}' is marked # @disabled`, {
      hint: 'remove the `# @disabled` line to send it',
      location: { file: file.path || '<text>', line: disabled.span.line },
    });
  }
  return node;
}

async function chooseRequest(
  file: HttpFile,
  target: SendTarget,
  pick?: (requests: RequestNode[]) => Promise<RequestNode>,
): Promise<RequestNode> {
  const requests = file.requests;
  const where = target.path;
  const listing = () => requests.map(requestLabel).join(', ');
  if (requests.length === 0)
    throw new DialError('E_NOT_FOUND', `no requests in ${where}`, {
      hint: 'a request is a line like `GET https://example.com`',
    });
  if (target.name !== undefined) {
    const named = requests.filter((request) => request.name === target.name);
    if (named.length > 1) {
      throw new DialError(
        'E_PARSE',
        `${named.length} requests are named '${target.name}' (lines ${named.map((r) => r.span.line).join(', ')}); which one is meant is unclear`,
        {
          location: { file: where, line: named[1].span.line },
          hint: 'give each request its own `# @name`',
        },
      );
    }
    if (named.length === 1) return named[0];
    if (/^\d+$/.test(target.name) && requests[Number(target.name) - 1]) return requests[Number(target.name) - 1];
    throw new DialError('E_NOT_FOUND', `no request named '${target.name}' in ${where}`, {
      hint: `requests: ${listing()}`,
    });
  }
  if (target.line !== undefined) {
    const lineCount = file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0);
    if (target.line > lineCount)
      throw new DialError('E_NOT_FOUND', `${where} has ${lineCount} lines; there is no line ${target.line}`, {
        hint: `requests: ${requests.map((r) => `${requestLabel(r)} (line ${r.span.line})`).join(', ')}`,
      });
    const found = requests.filter((request) => request.span.line <= target.line!).at(-1);
    if (!found)
      throw new DialError('E_NOT_FOUND', `no request at line ${target.line} of ${where}`, {
        hint: `the first request starts at line ${requests[0].span.line}`,
      });
    return found;
  }
  if (requests.length === 1) return requests[0];
  if (pick) return pick(requests);
  throw new DialError('E_USAGE', `${where} holds ${requests.length} requests; name one`, {
    hint: `dial send ${where}#NAME (requests: ${listing()})`,
  });
}

/** Parses the file, picks the request and resolves its variables (running referenced requests first). */
export async function prepareFileRequest(options: PrepareFileRequestOptions): Promise<PreparedFileRequest> {
  // Loaded here, not at the top: `dial send URL` imports this module for parseSendTarget only.
  const [{ createSession }, { EnvStore, readsVscodeUserSettings }, { findWorkspaceRoot }, settings] = await Promise.all(
    [import('../session/index.js'), import('../env/index.js'), import('./discover.js'), import('../settings/index.js')],
  );
  const path = resolve(options.cwd, options.target.path);
  // The workspace is the one the command runs in when the file is inside it (so a nested folder
  // with its own env file still sees the root's env files); else the file's own.
  const cwdRoot = findWorkspaceRoot(options.cwd);
  const inside = !relative(cwdRoot, path).startsWith('..') && !isAbsolute(relative(cwdRoot, path));
  const root = inside ? cwdRoot : findWorkspaceRoot(dirname(path));
  let environment = options.environment;
  if (environment === undefined) {
    const remembered = (await settings.loadSettings()).defaultEnvironment[root];
    // A remembered environment that no longer exists is forgotten quietly, never an error.
    if (remembered !== undefined && (await new EnvStore(root).names(dirname(path))).includes(remembered))
      environment = remembered;
  }
  const kept = new Map<string, KeptReference>();
  const cookieJar = options.openCookieJar?.(root, environment);
  const session = createSession({
    workspaceRoot: root,
    environment,
    cliVariables: options.cliVariables,
    prompt: options.prompt,
    ...(options.keepReferences
      ? {
          keepReference: (reference: KeptReference) => {
            if (!kept.has(reference.text)) kept.set(reference.text, reference);
          },
        }
      : { sendOptions: cookieJar ? { ...options.sendOptions, cookieJar } : options.sendOptions }),
    ...(options.onDependency && {
      onDependency: (event: DependencyEvent) => options.onDependency!(event, [...session.secretValues()]),
    }),
    refuseDependencies: options.refuseDependencies,
    ...(options.oauth && { oauth: options.oauth }),
  });
  const shown = relative(options.cwd, path) || path;
  const loaded = await session.loadFile(path);
  const selected = {
    file: loaded,
    node: await selectRequest(loaded, { ...options.target, path: shown }, options.pick),
  };
  // A block of one `run #name` line sends that request; more than one request is `dial run`'s work.
  const { file, node, runVariables } = await followRunLine(session, selected.file, selected.node, shown);
  if (node.httpyacDisabled) {
    // Sending it without evaluating the condition could send what httpyac would not.
    throw new DialError('E_INPUT', 'this request has an httpyac `# @disabled condition`: `dial run` evaluates it', {
      location: { file: file.path, line: node.httpyacDisabled.line },
      hint: `run it with \`dial run ${relative(options.cwd, path) || path}\` (add --name to run this request only)`,
    });
  }
  if (node.httpyacLoop) {
    // One send would be one pass of the loop: silently not what the file means.
    throw new DialError('E_INPUT', 'this request has an httpyac `# @loop`: it is sent once per pass by `dial run`', {
      location: { file: file.path, line: node.httpyacLoop.line },
      hint: `run it with \`dial run ${relative(options.cwd, path) || path}\` (add --name to run this request only)`,
    });
  }
  const scripts =
    options.loadScripts &&
    (node.preScripts.length > 0 || node.handlers.length > 0 || node.metadata.some((m) => COMMAND_KEYS.has(m.key)))
      ? await runPreRequestScripts(
          await options.loadScripts(),
          file,
          node,
          session,
          // Made once the file's scripts are checked: a kulala file variable may be filled in for them.
          async () =>
            scriptEnvironment(
              file,
              node,
              environmentLookup(
                new Map([
                  ...(
                    await new EnvStore(root).resolve(dirname(path), environment, {
                      vscodeUser: readsVscodeUserSettings(file),
                    })
                  ).values,
                  ...Object.entries(options.cliVariables),
                ]),
              ),
              (template) => session.resolveTemplate(template, file, node),
            ),
        )
      : undefined;
  if (runVariables) for (const [name, value] of runVariables) scripts?.requestVariables.set(name, value);
  const requestVariables = scripts?.requestVariables ?? runVariables;
  const prepared = await session.prepare(file, node, requestVariables ? { requestVariables } : undefined);
  if (options.environment !== undefined) {
    const current = (await settings.loadSettings()).defaultEnvironment[root];
    if (current !== options.environment) await settings.rememberEnvironment(root, options.environment);
  }
  return {
    request: prepared.request,
    file,
    node,
    overrides: prepared.overrides,
    // Secrets of referenced requests too: their values may be echoed back in this response.
    secretValues: [...new Set([...prepared.secretValues, ...session.secretValues()])],
    environment,
    ...(prepared.digest ? { digest: prepared.digest } : {}),
    ...(prepared.ntlm ? { ntlm: prepared.ntlm } : {}),
    ...(options.keepReferences ? { kept: [...kept.values()] } : {}),
    ...(scripts ? { scripts } : {}),
    ...(cookieJar ? { cookieJar } : {}),
  };
}

/**
 * The request `dial send` sends for a node: itself, or for a block of `run` lines that runs
 * exactly one request, that request (with the line's variables). Anything else is E_USAGE
 * pointing at `dial run`, which runs them all.
 */
async function followRunLine(
  session: { loadFile(path: string): Promise<HttpFile> },
  file: HttpFile,
  node: RequestNode,
  shown: string,
): Promise<{ file: HttpFile; node: RequestNode; runVariables?: Map<string, string> }> {
  if (!node.runs) return { file, node };
  const { resolveRunTargets } = await import('./run-lines.js');
  const targets = await resolveRunTargets(file, node, (path) => session.loadFile(path));
  if (node.runOnly && targets.length === 1)
    return { file: targets[0].file, node: targets[0].node, runVariables: targets[0].variables };
  const count = targets.length + (node.runOnly ? 0 : 1);
  throw new DialError(
    'E_USAGE',
    `request '${requestLabel(node)}' runs ${count} requests (\`run\` lines); dial send sends one`,
    {
      location: { file: file.path || '<text>', line: node.requestLineSpan.line },
      hint: `run them all with: dial run ${shown}:${node.requestLineSpan.line}`,
    },
  );
}

/**
 * kulala's `# @env-stdin-cmd-pre NAME command` (and `# @stdin-cmd-pre`): run before the request, as
 * `dial run` runs them (checkModules has refused them already where the workspace may not run code).
 * The commands after the response are `dial run`'s: their variables would outlive nothing here.
 */
async function runPreCommands(
  runner: ScriptRunner,
  file: HttpFile,
  node: RequestNode,
  globals: Map<string, unknown>,
): Promise<void> {
  const pre = node.metadata.filter((meta) => COMMAND_KEYS.has(meta.key) && meta.key.endsWith('-pre'));
  if (pre.length === 0) return;
  for (const meta of pre) {
    const output = await runner.runCommand(meta, file, { timeoutMs: node.timeoutMs ?? 30_000 });
    const name = commandVariable(meta);
    if (name) globals.set(name, output);
  }
}

function environmentLookup(values: Map<string, string>): ScriptEnvironment['environment'] {
  return (name) => values.get(name);
}

/** Checks a request's scripts' modules (before anything is sent) and runs its pre-request scripts. */
async function runPreRequestScripts(
  runner: ScriptRunner,
  file: HttpFile,
  node: RequestNode,
  session: Pick<Session, 'globals' | 'globalHeadersOf' | 'resolveTemplate'>,
  environment: () => Promise<ScriptEnvironment['environment']>,
): Promise<RequestScripts> {
  const { globals } = session;
  await runner.checkModules(file);
  const scripts: RequestScripts = {
    runner,
    // As `dial run`: the selected environment's values with --var on top (and a kulala file's variables).
    environment: await environment(),
    globals,
    requestVariables: new Map(),
    outcomes: [],
  };
  await runPreCommands(runner, file, node, globals);
  const requestLists = new Map<string, unknown[]>();
  for (const script of node.preScripts) {
    scripts.outcomes.push(
      await runner.run(script, file, {
        globals,
        requestVariables: scripts.requestVariables,
        requestLists,
        environment: scripts.environment,
        globalHeaders: session.globalHeadersOf(file),
        request: scriptRequest(node, (text, variables) =>
          trySubstitute(text, (template) => session.resolveTemplate(template, file, node, variables)),
        ),
      }),
    );
  }
  // JetBrains sends a request that reads a list once per item: several sends, `dial run`'s work.
  const passes = requestLists.size > 0 ? listPasses(file, node, requestLists) : undefined;
  if (passes)
    throw new DialError(
      'E_INPUT',
      `this request is sent once per item of a list (${passes.length} sends); dial send sends one`,
      {
        location: { file: file.path || '<text>', line: node.requestLineSpan.line },
        hint: 'dial run sends it once per item (add --name to run this request only)',
      },
    );
  return scripts;
}
