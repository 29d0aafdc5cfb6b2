/** `dial list`: the requests of a workspace's `.http` files. */
import { relative } from 'node:path';
import { readFile } from 'node:fs/promises';
import { parseHttpFile } from '../httpfile/parse.js';
import { DialError } from '../errors.js';
import { discoverHttpFiles } from './discover.js';

export interface ListedRequest {
  /** Path relative to the folder the command runs in. */
  file: string;
  /** 1-based line of the request line. */
  line: number;
  name?: string;
  method: string;
  /** URL template as written (continuation lines joined). */
  url: string;
  tags: string[];
  skip?: string | true;
}

export interface RequestListing {
  requests: ListedRequest[];
  /** Files that failed to parse (the others are still listed). */
  errors: DialError[];
}

/** Parses every request file under `paths` (default: the workspace root) and lists its requests. */
export async function listRequests(root: string, cwd: string, paths?: string[]): Promise<RequestListing> {
  const files = await discoverHttpFiles(root, paths && paths.length ? paths : [root]);
  const parsed = await Promise.all(
    files.map(async (path) => {
      try {
        return parseHttpFile(await readFile(path, 'utf8'), path);
      } catch (error) {
        return error instanceof DialError
          ? error
          : new DialError('E_NOT_FOUND', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
      }
    }),
  );
  const requests: ListedRequest[] = [];
  const errors: DialError[] = [];
  for (const file of parsed) {
    if (file instanceof DialError) {
      errors.push(file);
      continue;
    }
    const label = relative(cwd, file.path) || file.path;
    for (const node of file.requests) {
      requests.push({
        file: label,
        line: node.requestLineSpan.line,
        name: node.name,
        method: node.method,
        url: node.url,
        tags: node.tags,
        ...(node.skip ? { skip: node.skip.reason ?? true } : {}),
      });
    }
  }
  return { requests, errors };
}
