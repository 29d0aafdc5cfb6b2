/** The workbench's file work, through core: reading the workspace, a first `requests.http`, and imports. */
import { join, relative } from 'node:path';
import { formatError } from '../../core/errors.js';
import type { HttpFile } from '../../core/httpfile/types.js';
import { insertRequestText } from '../../core/httpfile/index.js';
import { discoverHttpFiles } from '../../core/workspace/discover.js';
import { loadHttpFile, rewriteHttpFile } from '../../core/editing/index.js';
import { createHttpFile } from '../../core/editing/create-file.js';
import { importFromText } from '../../core/import/from-text.js';
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
export function createRequest(dir: string, file: HttpFile | undefined, blockText: string): Promise<HttpFile> {
  if (file) return rewriteHttpFile(file, insertRequestText(file, blockText));
  return createHttpFile(join(dir, FIRST_FILE), blockText);
}

/** Imports a curl command, or a Postman / OpenAPI file path, into `dir`; returns the `.http` files written. */
export function importRequests(dir: string, text: string): Promise<string[]> {
  return importFromText(dir, text);
}
