/** A new `.http` file, written atomically, never over an existing one. */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { DialError } from '../errors.js';
import { parseHttpFile } from '../httpfile/index.js';
import type { HttpFile } from '../httpfile/types.js';
import { writeTextFile } from './index.js';

/** Creates `path` holding `text` (parsed first: a broken text never reaches the disk); refuses when the file exists. */
export async function createHttpFile(path: string, text: string): Promise<HttpFile> {
  if (existsSync(path))
    throw new DialError('E_EXISTS', `${basename(path)} already exists`, {
      hint: 'reload the workspace to see it, or add the request to it',
    });
  const parsed = parseHttpFile(text, path);
  await writeTextFile(path, text);
  return parsed;
}
