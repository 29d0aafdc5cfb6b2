/** `dial import curl`: one curl command to a `.http` file with one request. */
import { isAbsolute, relative, resolve } from 'node:path';
import { parseCurlCommands, type ParsedCurl } from '../curl/curl.js';
import { renderHttpFile, slugify, uniqueName, type DraftBody, type ImportDraft } from './http-writer.js';
import type { ImportResult } from './import-result.js';
import { processEnvNames, splitProcessEnvReferences } from '../curl/shell-words.js';

export interface ImportCurlOptions {
  /** Folder the command's relative `@file` paths belong to. */
  cwd: string;
  /** Folder the `.http` file is written to (file paths are made relative to it). */
  outDir: string;
}

const ID_SEGMENT = /^(\d+|[0-9a-f]{8,}|[0-9a-f-]{36}|\{\{.*\}\})$/i;

/** A request name from the URL path: its last segment that is not an id (`/users/42` → `users`). */
export function nameFromUrl(url: string): string {
  let path = '';
  let host = '';
  try {
    const parsed = new URL(url);
    path = parsed.pathname;
    host = parsed.hostname;
  } catch {
    path = url.replace(/^[a-z]+:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
  }
  const segments = path
    .split('/')
    .filter((segment) => segment !== '')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
  const named = [...segments].reverse().find((segment) => !ID_SEGMENT.test(segment));
  return slugify(named ?? host.split('.').find((label) => label !== 'www' && label !== 'api') ?? 'request', 'request');
}

/** True when text has `{{` other than the `{{$processEnv NAME}}` references written for shell variables. */
function otherBraces(text: string): boolean {
  return splitProcessEnvReferences(text).some((piece, index) => index % 2 === 0 && piece.includes('{{'));
}

function durationText(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

function toDraft(parsed: ParsedCurl, options: ImportCurlOptions, used: Set<string>, warnings: string[]): ImportDraft {
  const { request } = parsed;
  // Paths in the command are relative to where it ran; in the .http file, to the file.
  const rebase = (path: string): string => {
    // A path that starts with a variable ($HOME/a.png) is whatever the variable holds.
    if (isAbsolute(path) || path.startsWith('{{')) return path;
    const rel = relative(resolve(options.outDir), resolve(options.cwd, path)).split('\\').join('/');
    return rel.startsWith('.') ? rel : `./${rel}`;
  };
  let body: DraftBody;
  switch (request.body.kind) {
    case 'text': {
      // Shell variables became {{$processEnv NAME}}: the body is then read with variables,
      // and any other {{…}} in it would be read as a variable too.
      const variables = processEnvNames(request.body.text).length > 0;
      if (variables && otherBraces(request.body.text)) {
        warnings.push(
          'the body has shell variables and other {{…}} text, which dial will read as variables too; edit the body before sending',
        );
      }
      body = { kind: 'text', text: request.body.text, substitute: variables };
      break;
    }
    case 'file':
      body = { kind: 'file', path: rebase(request.body.path) };
      break;
    case 'multipart':
      body = {
        kind: 'multipart',
        parts: request.body.parts.map((part) =>
          part.filePath === undefined ? { ...part } : { ...part, filePath: rebase(part.filePath) },
        ),
      };
      break;
    default:
      body = { kind: 'none' };
  }
  if (otherBraces(request.url) || request.headers.some(([key, value]) => otherBraces(`${key}${value}`))) {
    warnings.push('the URL or a header contains {{…}}, which dial reads as a variable; define it or edit the file');
  }
  const comments: string[] = [];
  const metadata: ImportDraft['metadata'] = [];
  if (parsed.insecure) {
    comments.push('curl -k: TLS verification was off; pass --insecure to dial send/run to do the same');
    warnings.push('-k/--insecure: a .http file cannot turn TLS verification off; pass --insecure to dial send/run');
  }
  if (parsed.timeoutMs !== undefined) metadata.push({ key: 'timeout', value: durationText(parsed.timeoutMs) });
  if (parsed.retry !== undefined && parsed.retry > 0) metadata.push({ key: 'retry', value: String(parsed.retry) });
  // curl stops at a redirect unless -L; a .http request follows them unless told not to.
  if (!parsed.followRedirects) metadata.push({ key: 'no-redirect' });
  let path = request.url;
  try {
    path = new URL(request.url).pathname;
  } catch {
    // Not a URL yet (it starts with a variable): the title is the URL without its query.
    path = request.url.replace(/[?#].*$/, '');
  }
  return {
    title: `${request.method.toUpperCase()} ${path}`,
    name: uniqueName(nameFromUrl(request.url), used),
    comments,
    metadata,
    method: request.method,
    url: request.url,
    httpVersion: request.httpVersion === '2' ? '2' : undefined,
    headers: request.headers.map(([headerName, value]) => ({ name: headerName, value })),
    body,
  };
}

/** Converts curl commands (text, or words split by the shell) to one `.http` file, a request per command. */
export function importCurl(input: string | string[], options: ImportCurlOptions): ImportResult {
  const all = parseCurlCommands(input, { cwd: options.cwd });
  const warnings: string[] = [];
  const used = new Set<string>();
  const drafts = all.map((parsed) => {
    warnings.push(...parsed.warnings);
    return toDraft(parsed, options, used, warnings);
  });
  const filePath = `${drafts[0].name}.http`;
  const { text, sideFiles } = renderHttpFile(drafts, { filePath });
  const description = `${drafts.length} request${drafts.length === 1 ? '' : 's'}`;
  return { files: [{ path: filePath, content: text, description }, ...sideFiles], warnings: [...new Set(warnings)] };
}
