/**
 * The real WorkbenchServices: the TUI's only road to core. Everything here delegates to
 * src/core (httpfile, workspace-io, http, export, and the session once it lands).
 */
import { relative } from 'node:path';
import { DialError } from '../core/errors.js';
import type { HttpRequest } from '../core/http/types.js';
import { insertRequestText, removeRequestText, replaceRequestText } from '../core/httpfile/index.js';
import { toCurl } from '../core/export/curl.js';
import { historyPath, rememberEnvironment } from '../core/settings/index.js';
import { appendHistory, readHistory, toHistoryEntry } from '../core/history/index.js';
import { discoverHttpFiles } from '../core/workspace/discover.js';
import { externalCommand, loadHttpFile, readTextFile, rewriteHttpFile, runExternal, writeTextFile } from '../core/workspace-io/index.js';
import type { ResponseResult, WorkbenchServices, WorkspaceFileEntry } from './services.js';

export interface CoreServicesOptions {
  /** The workspace root (env files, settings and history are keyed by it). */
  root: string;
  /** The folder opened (its request files fill the tree); default the root. */
  dir?: string;
  environment?: string;
  cliVariables: Record<string, string>;
  suspend: (run: () => void) => void;
  env?: Record<string, string | undefined>;
  editor?: string;
  pager?: string;
  /** settings.historyLimit: 0 keeps no history. */
  historyLimit: number;
}

/** Reads a response body as text, from memory or from the temp file it spilled to. */
export async function bodyTextOf(body: ResponseResult['exchange']['response']['body']): Promise<string> {
  if (body.kind === 'memory') return body.bytes.toString('utf8');
  if (body.kind === 'file') return readTextFile(body.path);
  return '';
}

/** Builds the services over the real core. */
export function createCoreServices(options: CoreServicesOptions): WorkbenchServices {
  const env = options.env ?? process.env;
  return {
    root: options.root,
    async loadWorkspace() {
      const paths = await discoverHttpFiles(options.root, [options.dir ?? options.root]);
      return Promise.all(
        paths.map(async (path): Promise<WorkspaceFileEntry> => {
          const relativePath = relative(options.root, path) || path;
          try {
            return { path, relativePath, file: await loadHttpFile(path) };
          } catch (error) {
            return { path, relativePath, error: error instanceof Error ? error.message : String(error) };
          }
        }),
      );
    },
    async environments() {
      return [];
    },
    async execute() {
      throw new DialError('E_USAGE', 'sending from the workbench needs the session core, which has not landed yet');
    },
    async saveRequest(file, index, blockText) {
      return rewriteHttpFile(file, replaceRequestText(file, index, blockText));
    },
    async appendRequest(file, blockText) {
      return rewriteHttpFile(file, insertRequestText(file, blockText));
    },
    async deleteRequest(file, index) {
      return rewriteHttpFile(file, removeRequestText(file, index));
    },
    async history() {
      return readHistory({ path: historyPath(env) })
        .filter((entry) => entry.workspace === options.root)
        .map((entry) => ({
          time: entry.time.replace('T', ' ').replace(/\.\d+Z$/, 'Z'),
          requestKey: entry.requestId ?? `${entry.exchange.request.method} ${entry.exchange.request.url}`,
          label: `${entry.requestId ?? ''}  ${entry.exchange.request.method} ${entry.exchange.request.url}`.trim(),
          status: entry.exchange.response.status,
          durationMs: entry.exchange.timings.total,
          body: entry.exchange.response.bodyEncoding === 'base64' ? '(binary body)' : (entry.exchange.response.body ?? ''),
        }));
    },
    async rememberEnvironment(name) {
      await rememberEnvironment(options.root, name, env);
    },
    curl(result) {
      const sent = result.exchange.request;
      const request: HttpRequest = {
        method: sent.method,
        url: sent.url,
        headers: sent.headers,
        body: sent.bodyPreview !== undefined ? { kind: 'text', text: sent.bodyPreview } : { kind: 'none' },
      };
      return toCurl(request, { multiline: false });
    },
    writeFile: (path, text) => writeTextFile(path, text),
    external(kind, text, suffix) {
      return runExternal(externalCommand(kind, env, kind === 'editor' ? options.editor : options.pager), text, suffix, options.suspend);
    },
    requestKey(file, node) {
      return `${relative(options.root, file.path)}#${node.name ?? node.index}`;
    },
  };
}
