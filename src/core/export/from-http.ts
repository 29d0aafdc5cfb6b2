/**
 * The one curl printer for requests of `.http` files: `dial export curl FILE.http#name`,
 * `dial send FILE.http#name --curl` and the TUI's copy as curl all call `curlCommand` on the
 * prepared request (resolved from the file, not the bytes that went out), which shapes it for
 * a command line: a multipart body written in the file becomes -F parts (files as `@path`,
 * not inlined bytes), file paths are shown relative to the current folder, and `-L` is added
 * when dial follows redirects for the request.
 *
 * `prepareUnsent` resolves a `.http` target as `dial send` does, except that it never sends
 * (export curl, send --curl, send --offline): references to other requests
 * (`{{login.response.body.$.token}}`) stay as written.
 */
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { HttpRequest, MultipartPart, SendOptions } from '../http/types.js';
import { isWebSocketRequest } from '../http/protocols.js';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import type { KeptReference } from '../session/index.js';
import type { PrepareFileRequestOptions, PreparedFileRequest } from '../workspace/send-target.js';
import { multipartBoundary } from '../httpfile/multipart.js';
import { defaultSettings, settingsTimeoutMs } from '../settings/index.js';
import { normaliseProxy } from '../send/url.js';
import { DialError } from '../errors.js';
import { toCurl, type ToCurlOptions } from './curl.js';
import { dispositionParam, partsInBytes } from './multipart-parts.js';

interface PartSource {
  headers: Array<[string, string]>;
  /** `< path` (sent as is) in the file; undefined for inline content or `<@ path`. */
  filePath?: string;
}

// The parts as written in the .http file (JetBrains multipart syntax).
function partsInText(text: string, boundary: string): PartSource[] {
  const parts: PartSource[] = [];
  let current: (PartSource & { content: string[]; inHeaders: boolean }) | undefined;
  const close = () => {
    if (!current) return;
    const content = current.content.join('\n').trim();
    const file = /^<\s+(.+)$/.exec(content);
    parts.push({ headers: current.headers, filePath: file && !content.includes('\n') ? file[1].trim() : undefined });
  };
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === `--${boundary}` || trimmed === `--${boundary}--`) {
      close();
      current = trimmed === `--${boundary}--` ? undefined : { headers: [], content: [], inHeaders: true };
      continue;
    }
    if (!current) continue;
    if (current.inHeaders) {
      if (trimmed === '') current.inHeaders = false;
      else if (line.includes(':'))
        current.headers.push([line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]);
    } else {
      current.content.push(line);
    }
  }
  close();
  return parts;
}

/** A path as the command shows it: relative to the current folder when inside it. */
function displayPath(path: string, cwd: string): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? `./${rel.split('\\').join('/')}` : path;
}

/** Reshapes a prepared request for curl: -F parts for multipart bodies written in the file, readable paths. */
export function requestForCurl(request: HttpRequest, file: HttpFile, node: RequestNode, cwd: string): HttpRequest {
  const out: HttpRequest = { ...request, headers: [...request.headers] };
  const typeIndex = out.headers.findIndex(([name]) => name.toLowerCase() === 'content-type');
  const boundary = multipartBoundary(typeIndex >= 0 ? out.headers[typeIndex][1] : undefined);
  if (boundary && node.body?.kind === 'inline' && request.body.kind === 'bytes') {
    const written = partsInText(node.body.text, boundary);
    const sent = partsInBytes(request.body.bytes, boundary);
    if (written.length === sent.length && sent.every((part) => dispositionParam(part.headers, 'name') !== undefined)) {
      const baseDir = file.path ? dirname(file.path) : cwd;
      const parts: MultipartPart[] = sent.map((part, index) => {
        const result: MultipartPart = { name: dispositionParam(part.headers, 'name')! };
        const contentType = part.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1];
        if (contentType) result.contentType = contentType;
        const filename = dispositionParam(part.headers, 'filename');
        const filePath = written[index].filePath;
        if (filePath !== undefined) {
          result.filePath = displayPath(resolve(baseDir, filePath), cwd);
          // curl names the part after the file unless told otherwise.
          if (filename !== undefined && filename !== filePath.split(/[\\/]/).pop()) result.filename = filename;
        } else {
          result.value = part.content.toString('utf8');
          if (filename !== undefined) result.filename = filename;
        }
        return result;
      });
      // curl writes its own boundary and Content-Type.
      out.headers.splice(typeIndex, 1);
      out.body = { kind: 'multipart', parts };
    }
  }
  if (out.body.kind === 'file') out.body = { kind: 'file', path: displayPath(out.body.path, cwd) };
  return out;
}

export interface CurlCommandOptions extends ToCurlOptions {
  /**
   * Where the request was prepared from: its multipart parts and `< file` bodies are shown as
   * written, and references it kept (prepareUnsent) stay as their `{{…}}` text in the URL.
   */
  source?: { file: HttpFile; node: RequestNode; kept?: KeptReference[] };
  /** Paths are shown relative to this folder (default process.cwd()). */
  cwd?: string;
}

/**
 * The curl command for a prepared request (see the file comment). `followRedirects` is what
 * dial does for this request (the caller applies `# @no-redirect` and its flags); `-L` follows.
 */
export function curlCommand(request: HttpRequest, options: CurlCommandOptions = {}): string {
  const { source, cwd = process.cwd(), ...curlOptions } = options;
  // curl can neither hold a WebSocket conversation nor call gRPC: refused, as `export k6` refuses
  // what it cannot translate, rather than printed with a made-up method.
  const refuse = (message: string, hint: string): never => {
    const location = source?.file.path
      ? { file: displayPath(source.file.path, cwd), line: source.node.requestLineSpan.line }
      : undefined;
    throw new DialError('E_INPUT', message, { hint, ...(location && { location }) });
  };
  if (isWebSocketRequest(request))
    refuse(
      `a WebSocket request (${request.url}) has no curl form`,
      'send it with dial send FILE#name, or run it with dial run',
    );
  if (request.method === 'GRPC')
    refuse(
      'a gRPC request has no curl form',
      'send it with dial send (or call it with grpcurl: -d with the body, -H per metadata header)',
    );
  for (const key of ['caFile', 'certFile', 'keyFile'] as const) {
    const path = curlOptions[key];
    if (path !== undefined) curlOptions[key] = displayPath(resolve(cwd, path), cwd);
  }
  if (!source) return toCurl(request, curlOptions);
  const keepInUrl = [...(curlOptions.keepInUrl ?? []), ...(source.kept ?? []).map((kept) => kept.text)];
  return toCurl(requestForCurl(request, source.file, source.node, cwd), { ...curlOptions, keepInUrl });
}

/** What of settings and a request's metadata `curlOptions` reads. */
export interface CurlSettings {
  timeout: string | number;
  maxRedirects: number;
  verifyTls: boolean;
  proxy?: string;
}

/** Whether dial follows redirects for a `.http` request: yes unless `# @no-redirect` or the setting says no. */
export function followsRedirects(settings: { followRedirects?: boolean }, overrides: Partial<SendOptions>): boolean {
  return overrides.followRedirects ?? settings.followRedirects ?? true;
}

/**
 * The settings (and a request's metadata overrides: `# @timeout`, `# @connection-timeout`)
 * that make curl behave as dial, as curl options: `-k` when verifyTls is off, `-x` for the
 * proxy setting, `--max-time` and `--max-redirs` when they were set to something other than
 * dial's built-in defaults (30 s, 10) — those are not spelled out in every command — and
 * only where curl's own behaviour differs (no limit, 50 redirects).
 */
export function curlOptions(
  settings: CurlSettings,
  overrides: Partial<SendOptions> = {},
): Pick<ToCurlOptions, 'insecure' | 'proxy' | 'timeoutMs' | 'connectTimeoutMs' | 'maxRedirects'> {
  const defaults = defaultSettings();
  const out: ReturnType<typeof curlOptions> = {};
  if (!settings.verifyTls) out.insecure = true;
  if (settings.proxy) out.proxy = normaliseProxy(settings.proxy, 'proxy setting');
  const timeoutMs = settingsTimeoutMs(settings);
  if (overrides.timeoutMs !== undefined) out.timeoutMs = overrides.timeoutMs;
  else if (timeoutMs !== settingsTimeoutMs(defaults)) out.timeoutMs = timeoutMs;
  if (overrides.connectTimeoutMs !== undefined) out.connectTimeoutMs = overrides.connectTimeoutMs;
  const maxRedirects = overrides.maxRedirects ?? settings.maxRedirects;
  if (maxRedirects !== defaults.maxRedirects) out.maxRedirects = maxRedirects;
  return out;
}

export type PrepareUnsentOptions = Omit<PrepareFileRequestOptions, 'sendOptions' | 'keepReferences'>;

export interface PreparedUnsent extends PreparedFileRequest {
  /** References left as written (each once), for a warning. */
  kept: KeptReference[];
}

/**
 * Resolves a `.http` target to print it (a curl command, `send --offline`): `prepareFileRequest`
 * (core/workspace) as `dial send` uses it — same workspace root, remembered environment and
 * request selection — with references kept instead of running the requests they need.
 */
export async function prepareUnsent(options: PrepareUnsentOptions): Promise<PreparedUnsent> {
  const { prepareFileRequest } = await import('../workspace/send-target.js');
  const prepared = await prepareFileRequest({ ...options, keepReferences: true });
  return { ...prepared, kept: prepared.kept ?? [] };
}

/** The warning for a reference left as written. */
export function keptReferenceWarning(kept: KeptReference): string {
  return `${kept.text} needs request '${kept.request}' to run first; left as is`;
}
