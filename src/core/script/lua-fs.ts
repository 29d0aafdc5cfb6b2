/**
 * kulala's `require("kulala.utils.fs")` in dial's Lua sandbox: read_file, read_json, file_exists,
 * write_file and write_json, confined to the .http file's own folder and the folders below it.
 *
 * The Lua state still has no file access. Files the script reads are named by string literals
 * (`fs.read_json("http-client.env.json")`): dial reads them before the script runs and hands their
 * text in with the rest of its data. What the script writes comes out with its outcome and dial
 * writes it after the script ends, atomically (a temp file in the same folder, then a rename).
 * A path is refused (E_SCRIPT at the script's line) when, symlinks followed, it leaves the .http
 * file's folder, goes through a `.git` folder, or names a folder; a read path must be a literal.
 */
import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { DialError } from '../errors.js';

/** The kulala.utils.fs functions dial gives; the rest of kulala's module is refused. */
export const LUA_FS_FUNCTIONS = new Set(['read_file', 'read_json', 'file_exists', 'write_file', 'write_json']);
const READS = new Set(['read_file', 'read_json', 'file_exists']);
/** Larger files are not handed to a script (the Lua heap is 128 MiB). */
const MAX_READ_BYTES = 16 * 1024 * 1024;

export interface LuaFsCall {
  fn: string;
  /** The path when written as a string literal. */
  path?: string;
  /** Offset in the code. */
  index: number;
}

/** Calls of the fs functions by name (`fs.read_json(…)`, `require("kulala.utils.fs").write_file(…)`). */
export function luaFsCalls(code: string): LuaFsCall[] {
  if (!/kulala\.utils\.fs/.test(code)) return [];
  const calls: LuaFsCall[] = [];
  for (const match of code.matchAll(/[.:]\s*([a-z_]+)\s*\(\s*(?:(["'])((?:[^"'\\\n]|\\.)*?)\2)?/g)) {
    if (!LUA_FS_FUNCTIONS.has(match[1]) && !KULALA_FS_OTHERS.has(match[1])) continue;
    calls.push({ fn: match[1], ...(match[2] ? { path: match[3] } : {}), index: match.index });
  }
  return calls;
}

/** kulala.utils.fs functions dial does not give (refused before anything is sent). */
export const KULALA_FS_OTHERS = new Set([
  'delete_file',
  'copy_file',
  'copy_dir',
  'copy_dir_contents',
  'ensure_dir_exists',
  'delete_files_in_directory',
  'make_executable',
  'get_temp_file',
  'get_binary_temp_file',
  'read_file_lines',
  'include_file',
  'dir_exists',
  'delete_cached_files',
]);

function inside(folder: string, path: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

/** The real path of `path`: its deepest existing folder resolved, the rest appended. */
function realTarget(path: string): string {
  let existing = path;
  const rest: string[] = [];
  for (;;) {
    try {
      return join(realpathSync(existing), ...rest);
    } catch {
      const parent = dirname(existing);
      if (parent === existing) return path;
      rest.unshift(basename(existing));
      existing = parent;
    }
  }
}

/**
 * Where `written` (relative to the .http file's folder, as kulala reads it, or absolute) is, or why
 * a script may not touch it.
 */
export function luaFsPath(httpFile: string, written: string): { path: string } | { refusal: string } {
  const base = resolve(dirname(httpFile));
  const folder = realTarget(base);
  const path = realTarget(isAbsolute(written) ? resolve(written) : resolve(base, written));
  if (!inside(folder, path))
    return {
      refusal: `'${written}' is outside the .http file's folder (${folder}), where Lua scripts may read and write`,
    };
  if (relative(folder, path).split(sep).includes('.git')) return { refusal: `'${written}' is inside a .git folder` };
  try {
    if (lstatSync(path).isDirectory()) return { refusal: `'${written}' is a folder` };
  } catch {
    // a new file
  }
  return { path };
}

function fsRefusal(message: string, location: { file: string; line: number }): DialError {
  return new DialError('E_SCRIPT', `kulala.utils.fs: ${message}; nothing was written`, {
    location,
    hint: "Lua scripts may read and write files in the .http file's folder and below it (docs/security.md); a file read is named by a string literal",
  });
}

/**
 * Before anything is sent: every fs call the sandbox gives, a read named by a literal, every literal
 * path inside the allowed folder (E_SCRIPT at the line of the first that is not).
 */
export function refuseLuaFileAccess(code: string, filename: string, firstLine: number, httpFile: string): void {
  for (const call of luaFsCalls(code)) {
    const line = firstLine + (code.slice(0, call.index).match(/\n/g)?.length ?? 0);
    const location = { file: filename, line };
    if (KULALA_FS_OTHERS.has(call.fn))
      throw new DialError(
        'E_SCRIPT',
        `the Lua script uses kulala.utils.fs.${call.fn}, which dial's Lua sandbox does not give; nothing was sent`,
        {
          location,
          hint: 'dial gives kulala.utils.fs.read_file, read_json, file_exists, write_file and write_json',
        },
      );
    if (call.path === undefined) {
      if (READS.has(call.fn))
        throw new DialError(
          'E_SCRIPT',
          `kulala.utils.fs.${call.fn}: dial reads only a file named by a string literal; nothing was sent`,
          {
            location,
            hint: 'write the path in quotes: fs.read_json("http-client.env.json")',
          },
        );
      continue;
    }
    const target = luaFsPath(httpFile, call.path);
    if ('refusal' in target) throw fsRefusal(target.refusal, location);
  }
}

/** The files the script reads, by the path as written: their text, or false where there is none. */
export function readLuaFiles(
  code: string,
  httpFile: string,
  location: { file: string; line: number },
): Record<string, string | false> {
  const files: Record<string, string | false> = {};
  for (const call of luaFsCalls(code)) {
    if (!READS.has(call.fn) || call.path === undefined || call.path in files) continue;
    const target = luaFsPath(httpFile, call.path);
    if ('refusal' in target) throw fsRefusal(target.refusal, location);
    try {
      if (statSync(target.path).size > MAX_READ_BYTES)
        throw fsRefusal(`'${call.path}' is larger than ${MAX_READ_BYTES / 1048576} MiB`, location);
      files[call.path] = readFileSync(target.path, 'utf8');
    } catch (error) {
      if (error instanceof DialError) throw error;
      files[call.path] = false;
    }
  }
  return files;
}

/** A write the script asked for (`append` adds to the file; `json` with `pretty` is laid out with 2 spaces). */
export interface LuaFileWrite {
  path: string;
  content: string;
  append?: boolean;
  pretty?: boolean;
}

/** Writes what the script wrote, in order, each atomically; a path not allowed is E_SCRIPT at `location`. */
export function applyLuaWrites(
  writes: LuaFileWrite[],
  httpFile: string,
  location: { file: string; line: number },
): void {
  for (const write of writes) {
    const target = luaFsPath(httpFile, write.path);
    if ('refusal' in target) throw fsRefusal(target.refusal, location);
    let content = write.content;
    if (write.pretty) content = JSON.stringify(JSON.parse(content), null, 2);
    if (write.append) {
      let before = '';
      try {
        before = readFileSync(target.path, 'utf8');
      } catch {
        // a new file
      }
      content = before + content;
    }
    writeFileAtomic(target.path, content);
  }
}
