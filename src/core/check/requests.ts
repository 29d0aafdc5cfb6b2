/**
 * Per-file checks that need no environment: metadata keys, duplicate names, references to
 * requests, JSON bodies, files the requests read.
 */
import { GRPC_METADATA_KEYS } from '../http/grpc/target.js';
import { COMMAND_KEYS } from '../httpfile/metadata.js';
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { lineColAt } from '../env/json-file.js';
import { jsonErrorOffset } from '../json-locate.js';
import { multipartBoundary, multipartFileLines } from '../httpfile/multipart.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import type { Finding } from './types.js';

/**
 * Metadata keys dial reads, and those the JetBrains client, REST Client and httpyac define (dial
 * ignores most of these, but files shared with those tools use them: they are not typos).
 */
export const KNOWN_METADATA = new Set([
  'name',
  'tag',
  'tags',
  'timeout',
  'connection-timeout',
  'no-redirect',
  'no-cookie-jar',
  'skip',
  'retry',
  'secret',
  'prompt',
  'ref',
  'forceRef',
  'no-log',
  'no-auto-encoding',
  'use-os-credentials',
  'note',
  'title',
  'description',
  'disabled',
  'import',
  'sleep',
  'loop',
  'save',
  'jwt',
  'debug',
  'verbose',
  'keepStreaming',
  'noRejectUnauthorized',
  // httpyac's camel-case spellings and its other keys (dial reads the first four; the others change nothing sent).
  'noRedirect',
  'noCookieJar',
  'noProxy',
  'no-proxy',
  'noClientCert',
  'injectVariables',
  'proxy',
  'ratelimit',
  'rateLimit',
  'openWith',
  'extension',
  'noLog',
  'noStreamingLog',
  'noResponseView',
  // Read by the parser (core/httpfile/metadata.ts): kulala's GraphQL marker, stream limits, script language.
  'graphql',
  'sse-count',
  'sse-timeout',
  'lang',
  // kulala's variables from the JSON response and its headers, and its wait before sending (run/execute.ts).
  'env-json-key',
  'env-header-key',
  'delay',
  // kulala's display-only keys (a jq filter of the shown response, a streamed view, its OpenAPI
  // explorer): what is sent is the same, so dial sends the request and shows the whole response.
  'jq',
  'accept',
  'kulala-openapi-explorer',
  'kulala-openapi-json',
  'kulala-openapi-no-cache',
  // dial's own: which tool's meaning the file is read with (core/httpfile/dialect.ts).
  'dialect',
]);

/** True when `a` becomes `b` by one edit: a letter changed, added, removed, or two neighbours swapped. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true;
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/** The known metadata key an unknown one is a typo of (keys of four letters or more), if any. */
function nearKnownKey(key: string): string | undefined {
  if (key.length < 4) return undefined;
  for (const known of KNOWN_METADATA) if (known.length >= 4 && oneEditApart(key, known)) return known;
  return undefined;
}

/** kulala's `# @curl-…` lines: the parser already refused those it does not ignore or map. */
const isAcceptedCurlFlag = (key: string): boolean => key.startsWith('curl-');

type Report = (offset: number, rule: Finding['rule'], message: string, severity?: Finding['severity']) => void;

/** A reporter bound to one file: offsets become line:col. */
export function reporterFor(file: HttpFile, shown: string, findings: Finding[]): Report {
  return (offset, rule, message, severity = 'error') => {
    const { line, col } = lineColAt(file.text, offset);
    findings.push({ file: shown, line, col, severity, rule, message });
  };
}

function checkMetadata(node: RequestNode, report: Report, requestNames: Set<string>): void {
  for (const meta of node.metadata) {
    const known =
      KNOWN_METADATA.has(meta.key) ||
      GRPC_METADATA_KEYS.has(meta.key) ||
      COMMAND_KEYS.has(meta.key) ||
      isAcceptedCurlFlag(meta.key);
    if (!known) {
      // Every tool reads an unknown `# @word` as a comment (`# @mq`, a commented-out `#@host= …`):
      // a warning; one letter off a known key (`@nmae`) is a typo that changes what runs: an error.
      const meant = nearKnownKey(meta.key);
      report(
        meta.span.start,
        'unknown-metadata',
        meant ? `unknown metadata '@${meta.key}' (did you mean '@${meant}'?)` : `unknown metadata '@${meta.key}'`,
        meant ? 'error' : 'warning',
      );
      continue;
    }
    if (meta.key !== 'ref' && meta.key !== 'forceRef') continue;
    for (const name of meta.value.split(/[\s,]+/)) {
      if (name && !requestNames.has(name))
        report(
          meta.span.start,
          'missing-request',
          `@${meta.key} names request '${name}', which no .http file of the workspace defines`,
        );
    }
  }
}

const namedByMetadata = (node: RequestNode): boolean => node.metadata.some((meta) => meta.key === 'name');

function checkDuplicates(file: HttpFile, report: Report): void {
  const seen = new Map<string, RequestNode>();
  for (const node of file.requests) {
    if (node.name === undefined) continue;
    const first = seen.get(node.name);
    if (!first) seen.set(node.name, node);
    // httpyac accepts a `# @name` used twice: `{{name}}` holds the latest response of that name and
    // `# @ref name` runs the first such request (findHttpRegionInContext takes the first); a warning there.
    else if (file.dialect === 'httpyac' && (namedByMetadata(first) || namedByMetadata(node)))
      report(
        node.span.start,
        'duplicate-name',
        `a request named '${node.name}' is already defined at line ${first.span.line}; httpyac allows it (\`{{${node.name}}}\` is the latest response, \`# @ref ${node.name}\` runs the first)`,
        'warning',
      );
    else if (namedByMetadata(first) || namedByMetadata(node))
      report(
        node.span.start,
        'duplicate-name',
        `a request named '${node.name}' is already defined at line ${first.span.line}`,
      );
    // Two `###` titles alike are common (JetBrains and REST Client show them as labels only); only a
    // reference by that name is ambiguous, so this is a warning.
    else
      report(
        node.span.start,
        'duplicate-name',
        `the request at line ${first.span.line} has the same title '${node.name}'; a reference to it by name is ambiguous`,
        'warning',
      );
  }
}

/** Placeholders replaced by as many characters that keep JSON valid in and out of strings. */
function blankPlaceholders(text: string): string {
  return text.replace(/\{\{[^{}]*\}\}/g, (match) => `0${' '.repeat(match.length - 1)}`);
}

function checkJsonBody(node: RequestNode, report: Report): void {
  if (node.body?.kind !== 'inline') return;
  const type = node.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value ?? '';
  if (!/json/i.test(type)) return;
  // A WebSocket body is messages between `===` lines (JetBrains): each message is JSON on its own.
  const parts = node.method === 'WEBSOCKET' ? websocketMessages(node.body.text) : [{ text: node.body.text, at: 0 }];
  for (const part of parts) {
    const blanked = blankPlaceholders(part.text);
    if (parts.length > 1 && blanked.trim() === '') continue;
    try {
      JSON.parse(blanked);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const position = /at position (\d+)/.exec(message);
      const at = position ? Number(position[1]) : (jsonErrorOffset(blanked) ?? 0);
      const reason = message.replace(/ in JSON at position \d+.*$/, '').replace(/^JSON\.parse: /, '');
      const what = parts.length > 1 ? 'invalid JSON WebSocket message' : 'invalid JSON body';
      report(node.body.span.start + part.at + at, 'invalid-json', `${what}: ${reason}`);
    }
  }
}

/** A WebSocket body's messages (the text between `===` lines) with their offsets in the body. */
function websocketMessages(text: string): Array<{ text: string; at: number }> {
  const parts: Array<{ text: string; at: number }> = [];
  let start = 0;
  for (let at = 0; at <= text.length;) {
    const end = text.indexOf('\n', at) < 0 ? text.length : text.indexOf('\n', at);
    if (/^===(?:[ \t].*)?\r?$/.test(text.slice(at, end))) {
      parts.push({ text: text.slice(start, at), at: start });
      start = end + 1;
    }
    at = end + 1;
  }
  parts.push({ text: text.slice(start), at: start });
  return parts;
}

function checkFiles(file: HttpFile, node: RequestNode, report: Report): void {
  const dir = dirname(file.path);
  const wanted: Array<{ path: string; offset: number; what: string }> = [];
  if (node.body?.kind === 'file')
    wanted.push({ path: node.body.path, offset: node.body.span.start, what: 'body file' });
  // The `< ./file` lines of a multipart body written in the file (read when the request is sent).
  if (node.body?.kind === 'inline') {
    const contentType = node.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
    const boundary = multipartBoundary(contentType);
    if (boundary)
      for (const ref of multipartFileLines(node.body.text, boundary))
        wanted.push({ path: ref.path, offset: node.body.span.start + ref.offset, what: 'multipart file' });
  }
  for (const script of [...node.preScripts, ...node.handlers])
    if (script.kind === 'file') wanted.push({ path: script.path, offset: script.span.start, what: 'script file' });
  for (const { path, offset, what } of wanted) {
    if (path.includes('{{')) continue;
    const full = isAbsolute(path) ? path : resolve(dir, path);
    if (!existsSync(full)) report(offset, 'missing-file', `${what} not found: ${path}`);
  }
}

/** The environment-free checks of one parsed file. */
export function checkRequests(file: HttpFile, report: Report, requestNames: Set<string>): void {
  checkDuplicates(file, report);
  // httpyac regions with no request may be named for `# @ref` (see HttpFile.httpyacNamedRegions).
  const names = file.httpyacNamedRegions ? new Set([...requestNames, ...file.httpyacNamedRegions]) : requestNames;
  for (const node of file.requests) {
    checkMetadata(node, report, names);
    checkJsonBody(node, report);
    checkFiles(file, node, report);
  }
}
