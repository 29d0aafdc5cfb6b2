/**
 * rest.nvim's `.env` (v3, docs/http-format.md "Dialects"): on opening a `.http` file it takes the
 * first `<name>.env` (the `.http` file's name without `.http`) from the file's folder upwards, else
 * the first `.env` upwards, and loads that one file. It stops below the working folder; dial stops
 * below the workspace root (both search the file's own folder). Values are read as its parser reads
 * them, which differs from dotenv's: an unquoted value ends at the first blank or `#`, and quotes
 * are taken off only when they enclose the whole value (no escapes).
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import type { Dotenv } from './env-store.js';

/** Parses `.env` text as rest.nvim's parser/dotenv.lua does (later keys win). */
export function parseRestNvimDotenv(text: string): Map<string, string> {
  const values = new Map<string, string>();
  for (const raw of text.split('\n')) {
    if (raw === '' || /^\s*#/.test(raw)) continue;
    const line = /^export\s*([\s\S]*)$/.exec(raw)?.[1] ?? raw;
    const match = /([^#=\s]+)\s*=\s*([\s\S]*)/.exec(line);
    if (!match) continue;
    const value = match[2];
    const quoted = /^"([^"]*)"$/.exec(value) ?? /^'([^']*)'$/.exec(value);
    values.set(match[1], quoted ? quoted[1] : /^[^\s#]*/.exec(value)![0]);
  }
  return values;
}

async function readEnv(path: string): Promise<Dotenv | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  return text === undefined ? undefined : { path, values: parseRestNvimDotenv(text) };
}

/** The folders rest.nvim searches for a file at `filePath`: its own, then each parent below `root`. */
function searchedFolders(filePath: string, root: string): string[] {
  const folders = [dirname(resolve(filePath))];
  const top = resolve(root);
  for (let folder = dirname(folders[0]); ; folder = dirname(folder)) {
    if (folder === top || !folder.startsWith(top) || folders.includes(folder)) break;
    folders.push(folder);
  }
  return folders;
}

/** The `.env` rest.nvim loads for the `.http` file at `filePath`, or undefined when it finds none. */
export async function restNvimDotenv(filePath: string, root: string): Promise<Dotenv | undefined> {
  const stem = basename(filePath).replace(/\.[^.]*$/, '');
  const folders = searchedFolders(filePath, root);
  if (stem)
    for (const folder of folders) {
      const found = await readEnv(resolve(folder, `${stem}.env`));
      if (found) return found;
    }
  for (const folder of folders) {
    const found = await readEnv(resolve(folder, '.env'));
    if (found) return found;
  }
  return undefined;
}
