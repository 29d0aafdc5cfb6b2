/**
 * `dial send FILE.http[#name]`: the request of a .http file, resolved as `dial run` would (its
 * environment, variables, the requests it references, OAuth, scripts). ./run-send.ts loads this
 * module only for a .http target; dist/send-url.cjs, the program for URL sends, does not carry
 * it and hands such a command line over to dist/send.cjs instead (bench/HISTORY.md).
 */
import { relative, resolve } from 'node:path';
import { DialError } from '../../core/errors.js';
import type { Settings } from '../../core/settings/index.js';
import type { CurlCommandOptions } from '../../core/export/from-http.js';
import { prepareFileRequest, type PreparedFileRequest, type SendTarget } from '../../core/workspace/send-target.js';
import type { DependencyEvent } from '../../core/session/index.js';
import { Redactor } from '../../core/send/redact.js';
import { oauthHost } from '../oauth-host.js';
import type { SendCommandOptions } from './options.js';
import { workspaceCookieJar } from './saved-state.js';
import { appendToHistory, type PreparedSend, type SendIo, type Transport } from './prepared.js';

/** A request of a .http file, resolved (or, for --curl/--offline, with references kept as written). */
export async function prepareFileTarget(
  target: SendTarget,
  args: string[],
  options: SendCommandOptions,
  settings: Settings,
  transport: Transport,
  io: SendIo,
  warn: (message: string) => void,
): Promise<PreparedSend> {
  if (args.length > 1) {
    throw new DialError('E_USAGE', `request items cannot be added to a .http target (${args.slice(1).join(' ')})`, {
      hint: 'edit the request in the file, or pass values with --var NAME=VALUE',
    });
  }
  const follow = options.follow ?? settings.followRedirects ?? true;
  const jar = await workspaceCookieJar(options, io, warn);
  const common = {
    target,
    cwd: io.cwd,
    environment: options.environment,
    cliVariables: options.variables,
    pick: io.pick,
    prompt: io.prompt,
    ...(jar && { openCookieJar: jar.open }),
  };
  let prepared: Pick<
    PreparedFileRequest,
    'request' | 'file' | 'node' | 'overrides' | 'secretValues' | 'digest' | 'ntlm' | 'scripts' | 'cookieJar'
  >;
  let source: CurlCommandOptions['source'];
  let keptTexts: string[] = [];
  if (options.curl || options.offline) {
    // Printing sends nothing: requests this one references are not run (their {{…}} stays).
    const { prepareUnsent, keptReferenceWarning } = await import('../../core/export/from-http.js');
    const unsent = await prepareUnsent(common);
    for (const kept of unsent.kept) warn(keptReferenceWarning(kept));
    source = unsent;
    keptTexts = unsent.kept.map((kept) => kept.text);
    prepared = unsent;
  } else {
    const { timeoutMs, maxRedirects, tls, proxy } = transport;
    prepared = await prepareFileRequest({
      ...common,
      sendOptions: { timeoutMs, followRedirects: follow, maxRedirects, tls, proxy, onWarning: warn },
      refuseDependencies: options.refuseDependencies,
      oauth: oauthHost((text) => io.stderr.write(text)),
      ...(options.scripts && {
        loadScripts: async () => new (await import('../../core/script/sandbox.js')).ScriptRunner(),
      }),
      onDependency: announceDependency(
        options,
        settings,
        io,
        warn,
        relative(io.cwd, resolve(io.cwd, target.path)) || target.path,
      ),
    });
  }
  return {
    request: prepared.request,
    overrides: prepared.overrides,
    secretValues: prepared.secretValues,
    // A copy: credentials added later for history are not secrets to mask on screen.
    printSecrets: [...prepared.secretValues],
    keptTexts,
    workspace: io.cwd,
    requestId: `${relative(io.cwd, prepared.file.path) || prepared.file.path}#${prepared.node.name ?? prepared.node.index}`,
    // `Authorization: Digest user password` in the file: answered on the 401 challenge.
    digest: prepared.digest,
    // `Authorization: NTLM user:password` (kulala): the NTLM handshake.
    ...(prepared.ntlm && { ntlm: prepared.ntlm }),
    source,
    follow,
    ...(prepared.scripts && { scripts: prepared.scripts, file: prepared.file, node: prepared.node }),
    cookieJar: prepared.cookieJar,
    // --offline and --curl send nothing, so nothing changes: the jar is read (to show its cookies), not saved.
    ...(jar && !options.offline && !options.curl && { saveState: jar.save }),
    graphql: prepared.node.graphql,
    requestLine: { file: prepared.file.path, line: prepared.node.requestLineSpan.line },
  };
}

/**
 * What `dial send` says about a request it sends because this one references it (`{{login.
 * response.body.$.token}}`): one line on stderr before it goes (name, method, URL, environment),
 * one with its status after, and a history entry, so nothing is sent unseen.
 */
function announceDependency(
  options: SendCommandOptions,
  settings: Settings,
  io: SendIo,
  warn: (message: string) => void,
  fileLabel: string,
) {
  return (event: DependencyEvent, secretValues: string[]): void => {
    const redactor = new Redactor(options.mask ? secretValues : []);
    const env = event.environment ? ` (environment ${event.environment})` : '';
    if (event.phase === 'send') {
      io.stderr.write(
        `dial: first sending '${event.name}', which '${event.neededBy}' references: ${event.request.method} ${redactor.text(event.request.url)}${env}\n`,
      );
      return;
    }
    if (event.phase === 'failed') {
      io.stderr.write(`dial: '${event.name}' failed; '${event.neededBy}' is not sent\n`);
      return;
    }
    const { response } = event.exchange;
    io.stderr.write(
      `dial: '${event.name}' answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}\n`,
    );
    appendToHistory(settings, io, warn, event.exchange, {
      responseBody: response.body.kind === 'memory' ? response.body.bytes : undefined,
      secretValues,
      workspace: io.cwd,
      requestId: `${fileLabel}#${event.name}`,
    });
  };
}
