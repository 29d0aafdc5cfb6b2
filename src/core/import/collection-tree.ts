/**
 * The shape Insomnia and Bruno imports share: a tree of folders and requests, rendered as one
 * `.http` file per folder (a folder's subfolders go in a folder of the same name), with the
 * things that could not be translated listed in the report.
 */
import { renderHttpFile, slugify, uniqueName, type ImportDraft } from './http-writer.js';
import { EnvFiles } from './env-writer.js';
import type { ImportedFile, ImportResult } from './output.js';
import { DialError } from '../errors.js';
import { lineColAt } from '../env/json-file.js';
import { jsonErrorOffset } from '../json-locate.js';

/** A folder of an imported collection. */
export interface TreeFolder {
  name: string;
  description?: string;
  requests: ImportDraft[];
  folders: TreeFolder[];
}

/** Flattens nested environment values to dotted names (`{"db": {"host": "x"}}` → `db.host`). */
export function flattenValues(data: unknown, prefix = ''): Array<[string, string]> {
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    return prefix ? [[prefix, typeof data === 'string' ? data : JSON.stringify(data)]] : [];
  return Object.entries(data as Record<string, unknown>).flatMap(([key, value]) =>
    flattenValues(value, prefix ? `${prefix}.${key}` : key),
  );
}

/** Renders the tree: `<collection>.http` for the top requests, `<folder>.http` and `<folder>/` below. */
export function renderTree(root: TreeFolder, env: EnvFiles, warnings: string[]): ImportResult {
  const files: ImportedFile[] = [];
  let requestCount = 0;
  const usedNames = new Map<string, Set<string>>();
  const fileName = (dir: string, name: string): string => {
    if (!usedNames.has(dir)) usedNames.set(dir, new Set());
    return uniqueName(slugify(name, 'folder'), usedNames.get(dir)!);
  };
  const emit = (folder: TreeFolder, path: string): void => {
    if (folder.requests.length === 0) return;
    const preamble = [folder.name, ...(folder.description ? folder.description.split(/\r?\n/) : [])];
    const { text, sideFiles } = renderHttpFile(folder.requests, { filePath: path, preamble });
    requestCount += folder.requests.length;
    files.push(
      {
        path,
        content: text,
        description: `${folder.requests.length} request${folder.requests.length === 1 ? '' : 's'}`,
      },
      ...sideFiles,
    );
  };
  const walk = (folder: TreeFolder, dir: string): void => {
    const slug = fileName(dir, folder.name);
    emit(folder, `${dir}${slug}.http`);
    for (const sub of folder.folders) walk(sub, `${dir}${slug}/`);
  };
  emit(root, `${fileName('', root.name)}.http`);
  for (const folder of root.folders) walk(folder, '');
  files.push(...env.files());
  const httpFiles = files.filter((f) => f.path.endsWith('.http')).length;
  const notes = [
    `${requestCount} request${requestCount === 1 ? '' : 's'} in ${httpFiles} file${httpFiles === 1 ? '' : 's'}`,
  ];
  if (warnings.length > 0)
    notes.push(
      `${warnings.length} thing${warnings.length === 1 ? '' : 's'} could not be translated (listed above as warnings)`,
    );
  return { files, warnings, notes };
}

/** Appends enabled query parameters to a URL. */
export function withQuery(url: string, params: Array<{ name: string; value: string }>): string {
  if (params.length === 0) return url;
  const query = params.map((p) => (p.value === '' ? p.name : `${p.name}=${p.value}`)).join('&');
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}

/** A unique request name within a file. */
export function requestName(name: string, used: Set<string>): string {
  return uniqueName(slugify(name, 'request'), used);
}

/** Parses an import source's JSON; a syntax error names file:line:col even when Node gives no position. */
export function parseJsonLocated(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message
      .replace(/ in JSON at position \d+.*$/, '')
      .replace(/, ".*" is not valid JSON$/s, '');
    const offset = jsonErrorOffset(text) ?? 0;
    const { line, col } = lineColAt(text, offset);
    throw new DialError('E_IMPORT', `${what} is not valid JSON: ${message}`, {
      location: { file, line, col, excerpt: text.split(/\r?\n/)[line - 1] },
      hint: `export the ${what} again, or fix the JSON at that place`,
      cause: error,
    });
  }
}
