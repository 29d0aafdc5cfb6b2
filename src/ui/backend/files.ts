/** The workbench's file work: reading the workspace, a first `requests.http`, and imports. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, relative, resolve } from 'node:path';
import { DialError, formatError } from '../../core/errors.js';
import type { HttpFile } from '../../core/httpfile/types.js';
import { insertRequestText } from '../../core/httpfile/index.js';
import { discoverHttpFiles } from '../../core/workspace/discover.js';
import { loadHttpFile, rewriteHttpFile, writeTextFile } from '../../core/workspace-io/index.js';
import { parseHttpFile } from '../../core/httpfile/index.js';
import type { ImportResult } from '../../core/import/output.js';
import type { WorkspaceFileEntry } from '../services.js';

/** The file a first request goes to when the folder has none. */
export const FIRST_FILE = 'requests.http';

/** Every `.http` file under `dir`, parsed (a file that does not parse is listed with its error). */
export async function loadWorkspace(root: string, dir: string): Promise<WorkspaceFileEntry[]> {
  const paths = await discoverHttpFiles(root, [dir]);
  return Promise.all(
    paths.map(async (path): Promise<WorkspaceFileEntry> => {
      const relativePath = relative(root, path) || path;
      try {
        return { path, relativePath, file: await loadHttpFile(path) };
      } catch (error) {
        return { path, relativePath, error: formatError(error).replace(/^error(\[\w+\])?:?\s*/, '') };
      }
    }),
  );
}

/** Appends a block to `file`, or creates `requests.http` in `dir` holding it (never over an existing file). */
export async function createRequest(dir: string, file: HttpFile | undefined, blockText: string): Promise<HttpFile> {
  if (file) return rewriteHttpFile(file, insertRequestText(file, blockText));
  const path = join(dir, FIRST_FILE);
  if (existsSync(path)) throw new DialError('E_EXISTS', `${FIRST_FILE} already exists`, { hint: 'reload the workspace (ctrl+l) to see it' });
  const parsed = parseHttpFile(blockText, path);
  await writeTextFile(path, blockText);
  return parsed;
}

/** What a source file is: a Postman collection, or an OpenAPI (or Swagger) document. */
async function importFile(path: string, outDir: string): Promise<ImportResult> {
  if (!existsSync(path)) throw new DialError('E_NOT_FOUND', `no file ${path}`, { hint: 'give a curl command, or the path of a Postman collection or an OpenAPI file' });
  const ext = extname(path).toLowerCase();
  if (ext === '.json') {
    const text = await readFile(path, 'utf8');
    if (/"_postman_id"|schema\.getpostman\.com/.test(text)) {
      const { importPostmanFiles } = await import('../../core/import/postman.js');
      return importPostmanFiles(path, undefined, { outDir });
    }
  }
  const { importOpenApiFile } = await import('../../core/import/openapi.js');
  return importOpenApiFile(path);
}

/** Imports a curl command, or a Postman / OpenAPI file path, into `dir`; returns the `.http` files written. */
export async function importRequests(dir: string, text: string): Promise<string[]> {
  const source = text.trim();
  let result: ImportResult;
  if (/^curl\s/.test(source)) {
    const { importCurl } = await import('../../core/import/curl-import.js');
    result = importCurl(source, { cwd: dir, outDir: dir });
  } else {
    result = await importFile(resolve(dir, source), dir);
  }
  const { writeImport } = await import('../../core/import/output.js');
  return writeImport(result, { outDir: dir, force: false }).filter((path) => path.endsWith('.http'));
}
