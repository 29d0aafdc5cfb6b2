/**
 * rest.nvim's `.env` (v3, docs/http-format.md "Dialects"): on opening a `.http` file it takes the
 * first `<name>.env` (the `.http` file's name without `.http`) from the file's folder upwards, else
 * the first `.env` upwards, and loads that one file. It stops below the working folder; dial stops
 * below the workspace root (both search the file's own folder). Values are read as its parser reads
 * them, which differs from dotenv's: an unquoted value ends at the first blank or `#`, and quotes
 * are taken off only when they enclose the whole value (no escapes).
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, relative, resolve } from 'node:path';
import { reportParseWarnings } from '../httpfile/warnings.js';
import { parseDotenv } from './dotenv.js';
import type { Dotenv } from './env-store.js';

/** An unquoted value rest.nvim cuts short where dotenv (and rest.nvim 0.x) read it whole. */
export interface CutValue {
  /** 1-based line in the `.env` file. */
  line: number;
  name: string;
  value: string;
  whole: string;
}

/**
 * Parses `.env` text as rest.nvim's parser/dotenv.lua does (later keys win). `cut` collects the
 * values it reads shorter than dotenv would (`A=one two` is `one`), for a warning.
 */
export function parseRestNvimDotenv(text: string, cut?: CutValue[]): Map<string, string> {
  const values = new Map<string, string>();
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index];
    if (raw === '' || /^\s*#/.test(raw)) continue;
    const line = /^export\s*([\s\S]*)$/.exec(raw)?.[1] ?? raw;
    const match = /([^#=\s]+)\s*=\s*([\s\S]*)/.exec(line);
    if (!match) continue;
    const value = match[2];
    const quoted = /^"([^"]*)"$/.exec(value) ?? /^'([^']*)'$/.exec(value);
    const read = quoted ? quoted[1] : /^[^\s#]*/.exec(value)![0];
    values.set(match[1], read);
    if (cut && !quoted) {
      const whole = parseDotenv(raw).get(match[1]);
      if (whole !== undefined && whole !== read) cut.push({ line: index + 1, name: match[1], value: read, whole });
    }
  }
  return values;
}

async function readEnv(path: string, label: string): Promise<Dotenv | undefined> {
  const text = await readFile(path, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  const cut: CutValue[] = [];
  const values = parseRestNvimDotenv(text, cut);
  reportParseWarnings(
    cut.map((value) => ({
      message: `rest.nvim reads ${value.name} as '${value.value}' (its .env parser ends an unquoted value at a blank or \`#\`); dotenv and rest.nvim 0.x read '${value.whole}'. dial sends '${value.value}' in the rest.nvim dialect`,
      hint: `quote the value (${value.name}="${value.whole}") to send it whole`,
      file: label,
      line: value.line,
    })),
  );
  return { path, values };
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
  const label = (path: string) => relative(root, path) || path;
  const stem = basename(filePath).replace(/\.[^.]*$/, '');
  const folders = searchedFolders(filePath, root);
  if (stem)
    for (const folder of folders) {
      const path = resolve(folder, `${stem}.env`);
      const found = await readEnv(path, label(path));
      if (found) return found;
    }
  for (const folder of folders) {
    const path = resolve(folder, '.env');
    const found = await readEnv(path, label(path));
    if (found) return found;
  }
  return undefined;
}
