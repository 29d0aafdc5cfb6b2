/**
 * Importing from one line of text, as the workbench asks for it: a curl command, or the path of
 * a Postman collection or an OpenAPI (or Swagger) document, told apart by their content.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { DialError } from '../errors.js';
import type { ImportResult } from './output.js';

/** What a source file holds: a Postman collection, else an OpenAPI document. */
async function importFile(path: string, outDir: string): Promise<ImportResult> {
  if (!existsSync(path))
    throw new DialError('E_NOT_FOUND', `no file ${path}`, {
      hint: 'give a curl command, or the path of a Postman collection or an OpenAPI file',
    });
  if (extname(path).toLowerCase() === '.json') {
    const text = await readFile(path, 'utf8');
    if (/"_postman_id"|schema\.getpostman\.com/.test(text)) {
      const { importPostmanFiles } = await import('./postman.js');
      return importPostmanFiles(path, undefined, { outDir });
    }
  }
  const { importOpenApiFile } = await import('./openapi.js');
  return importOpenApiFile(path);
}

/** Imports a curl command, or a Postman / OpenAPI file (relative to `dir`), into `dir`; returns the `.http` files written. */
export async function importFromText(dir: string, text: string): Promise<string[]> {
  const source = text.trim();
  let result: ImportResult;
  if (/^curl\s/.test(source)) {
    const { importCurl } = await import('./curl-import.js');
    result = importCurl(source, { cwd: dir, outDir: dir });
  } else {
    result = await importFile(resolve(dir, source), dir);
  }
  const { writeImport } = await import('./output.js');
  return writeImport(result, { outDir: dir, force: false }).filter((path) => path.endsWith('.http'));
}
