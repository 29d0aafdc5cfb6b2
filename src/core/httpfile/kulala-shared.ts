/**
 * kulala's shared blocks (docs/http-format.md): when the first block of a file is titled
 * `### Shared` or `### Shared each`, what it declares applies to every request after it.
 *
 * - Its target `NOP` (no request): its headers (unless a request sets the same one), scripts,
 *   `run` lines, metadata limits and `# @grpc-*` / `# @curl-*` lines are given to every request;
 *   the block itself is not a request.
 * - `### Shared each` with a real request: that request runs before every other request (as a
 *   `run` line would run it) and is not run on its own.
 * - `### Shared` with a real request: it runs once, first, which is where it already stands.
 */
import { DialError } from '../errors.js';
import type { RequestNode } from './types.js';

const SHARED_TITLE_RE = /^shared(\s+each)?$/i;

/**
 * The requests of a file with a leading shared block applied (the array is returned as is when
 * there is none). A `NOP` target anywhere else is E_PARSE at its line: it would go out as a host.
 */
export function applySharedBlock(requests: RequestNode[], file: string): RequestNode[] {
  const applied = applyLeadingBlock(requests);
  const stray = applied.find((request) => isNop(request));
  if (stray) {
    throw new DialError('E_PARSE', '`NOP` (kulala) is only a target in a leading `### Shared` block', {
      location: { file, line: stray.requestLineSpan.line, col: 1 },
      hint: 'title the first block `### Shared` to share its headers, or write a URL',
    });
  }
  return applied;
}

function isNop(request: RequestNode): boolean {
  return !request.runOnly && !request.methodExplicit && request.url === 'NOP';
}

function applyLeadingBlock(requests: RequestNode[]): RequestNode[] {
  const shared = requests[0];
  const title = shared?.title?.trim() ?? '';
  const match = SHARED_TITLE_RE.exec(title);
  if (!match) return requests;
  const rest = requests.slice(1);
  if (isNop(shared)) {
    for (const request of rest) shareInto(shared, request);
    rest.forEach((request, index) => (request.index = index));
    return rest;
  }
  if (match[1] && rest.length > 0) {
    // Shared each: the shared request runs before each request, not on its own.
    const line = { name: title, variables: [], span: shared.requestLineSpan };
    for (const request of rest) request.runs = [line, ...(request.runs ?? [])];
    shared.skip = { reason: 'kulala `### Shared each` block: runs before each request' };
  }
  return requests;
}

function shareInto(shared: RequestNode, request: RequestNode): void {
  const own = new Set(request.headers.map((header) => header.name.toLowerCase()));
  request.headers = [...shared.headers.filter((header) => !own.has(header.name.toLowerCase())), ...request.headers];
  request.preScripts = [...shared.preScripts, ...request.preScripts];
  request.handlers = [...request.handlers, ...shared.handlers];
  if (shared.runs) request.runs = [...shared.runs, ...(request.runs ?? [])];
  request.timeoutMs ??= shared.timeoutMs;
  request.connectTimeoutMs ??= shared.connectTimeoutMs;
  request.noRedirect ||= shared.noRedirect;
  request.noCookieJar ||= shared.noCookieJar;
  // kulala-core merges the shared block's operators into each request's (the request's own win):
  // dial shares the ones it reads at send time, `# @grpc-*` and `# @curl-*` (`@curl-insecure`).
  const ownKeys = new Set(request.metadata.map((meta) => meta.key));
  const inherited = shared.metadata.filter((meta) => /^(?:grpc|curl)-/.test(meta.key) && !ownKeys.has(meta.key));
  if (inherited.length > 0) request.metadata = [...inherited, ...request.metadata];
}
