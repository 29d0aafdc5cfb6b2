/**
 * What a parsed file asks to send, without positions: two files with equal signatures send the
 * same requests with the same variables, scripts and checks (fmt's safety net and its tests).
 */
import type { HttpFile, RequestNode } from '../httpfile/types.js';

/** A request as plain data, spans left out. */
function requestSignature(node: RequestNode): unknown {
  return {
    name: node.name,
    title: node.title,
    method: node.method,
    methodExplicit: node.methodExplicit,
    url: node.url,
    httpVersion: node.httpVersion,
    headers: node.headers.map((h) => [h.name, h.value]),
    body:
      node.body &&
      (node.body.kind === 'inline' ? ['inline', node.body.text] : ['file', node.body.path, node.body.substitute]),
    metadata: node.metadata.map((m) => [m.key, m.value]),
    tags: node.tags,
    timeoutMs: node.timeoutMs,
    connectTimeoutMs: node.connectTimeoutMs,
    noRedirect: node.noRedirect,
    noCookieJar: node.noCookieJar,
    skip: node.skip,
    retry: node.retry,
    secrets: node.secrets,
    prompts: node.prompts,
    preScripts: node.preScripts.map((s) => (s.kind === 'inline' ? ['inline', s.code] : ['file', s.path])),
    handlers: node.handlers.map((s) => (s.kind === 'inline' ? ['inline', s.code] : ['file', s.path])),
    assertions: node.assertions.map((a) => [
      a.source,
      a.query,
      a.argument,
      a.not,
      a.predicate,
      a.lengthOperator,
      a.expected,
      a.ignore,
    ]),
    outputRedirect: node.outputRedirect && [node.outputRedirect.path, node.outputRedirect.overwrite],
    variables: node.variables.map((v) => [v.name, v.value]),
  };
}

/** The file's requests and variables as plain data, for comparing two versions of a file. */
export function fileSignature(file: HttpFile): unknown {
  return {
    variables: file.variables.map((v) => [v.name, v.value]),
    requests: file.requests.map(requestSignature),
  };
}

/** Deep equality of two signatures (plain JSON-like data). */
export function sameSignature(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
