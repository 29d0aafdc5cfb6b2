/**
 * File and process I/O the TUI needs, so src/ui never touches the file system itself:
 * reading/writing `.http` files and bodies, and running $EDITOR / $PAGER on a temp file.
 */
import { spawnSync } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { DialError } from '../errors.js';
import type { HttpFile } from '../httpfile/types.js';
import type { ResponseBody } from '../http/types.js';
import { parseHttpFile } from '../httpfile/index.js';

/** Reads a UTF-8 text file (a spilled response body, a `.http` file). */
export async function readTextFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new DialError('E_IO', `cannot read ${path}`, { cause: error });
  }
}

/** Writes text or bytes to a file atomically (temp + rename). */
export async function writeTextFile(path: string, text: string | Uint8Array): Promise<void> {
  try {
    writeFileAtomic(resolve(path), text);
  } catch (error) {
    throw new DialError('E_IO', `cannot write ${path}`, {
      cause: error,
      hint: 'check the folder exists and is writable',
    });
  }
}

/** Saves a response body (in memory or spilled to a temp file) to `path`, byte for byte. */
export async function saveBodyTo(body: ResponseBody, path: string): Promise<void> {
  if (body.kind === 'memory') return writeTextFile(path, body.bytes);
  if (body.kind === 'file') {
    try {
      // Copy next to the target, then rename: the same atomic guarantee as writeFileAtomic.
      const target = resolve(path);
      const temp = join(dirname(target), `.${basename(target)}.${process.pid}.tmp`);
      await copyFile(body.path, temp);
      await rename(temp, target);
      return;
    } catch (error) {
      throw new DialError('E_IO', `cannot write ${path}`, {
        cause: error,
        hint: 'check the folder exists and is writable',
      });
    }
  }
  throw new DialError('E_IO', 'this response body was streamed elsewhere and is not kept');
}

/** rewriteHttpFile refused: the file on disk is not the text the edit was made from. */
export class FileChangedError extends DialError {
  constructor(
    readonly path: string,
    readonly removed: boolean,
    /** Where the refused text was kept, so the edit is not lost. */
    readonly keptAt?: string,
  ) {
    const name = basename(path);
    super(
      'E_IO',
      `${name} ${removed ? 'was removed' : 'changed on disk'} since it was loaded; nothing was written${keptAt ? `; your version is kept in ${keptAt}` : ''}`,
      {
        hint: `reload ${name} and make the edit again`,
      },
    );
  }
}

/**
 * Keeps the text of an edit that could not be saved in a private temp file and returns its path
 * (undefined if even that fails): a refused save must not lose what was typed in $EDITOR.
 */
async function keepUnsaved(path: string, text: string): Promise<string | undefined> {
  try {
    const dir = await mkdtemp(join(tmpdir(), 'dial-unsaved-'));
    const kept = join(dir, basename(path));
    await writeFile(kept, text, { mode: 0o600 });
    return kept;
  } catch {
    return undefined;
  }
}

/**
 * Replaces a `.http` file's text on disk (atomic) and returns the re-parsed file. `file.text` is
 * the text the edit was made from: when the file on disk no longer holds it (another program
 * changed or removed it since it was loaded), nothing is written and the error says so, since
 * writing `newText` would silently undo that change.
 */
export async function rewriteHttpFile(file: HttpFile, newText: string): Promise<HttpFile> {
  // Parse first: a broken edit must not reach the disk (but is kept, not lost).
  let parsed: HttpFile;
  try {
    parsed = parseHttpFile(newText, file.path);
  } catch (error) {
    // Only a parse error is the edit's fault; anything else is a bug, reported as it is.
    if (!(error instanceof DialError)) throw error;
    const keptAt = await keepUnsaved(file.path, newText);
    if (!keptAt) throw error;
    throw new DialError(error.code, `${error.message}; your version is kept in ${keptAt}`, {
      location: error.location,
      hint: error.hint,
      cause: error,
    });
  }
  let onDisk: string | undefined;
  try {
    onDisk = await readFile(file.path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new DialError('E_IO', `cannot read ${file.path}`, { cause: error });
  }
  if (onDisk !== file.text)
    throw new FileChangedError(file.path, onDisk === undefined, await keepUnsaved(file.path, newText));
  await writeTextFile(file.path, newText);
  return parsed;
}

/** Loads and parses a `.http` file. */
export async function loadHttpFile(path: string): Promise<HttpFile> {
  return parseHttpFile(await readTextFile(path), path);
}

/** The command to run for an editor or pager: settings, then $VISUAL/$EDITOR or $PAGER, then a default. */
export function externalCommand(
  kind: 'editor' | 'pager',
  env: Record<string, string | undefined>,
  configured?: string,
): string {
  if (configured) return configured;
  if (kind === 'editor') return env.VISUAL || env.EDITOR || 'vi';
  return env.PAGER || 'less -R';
}

/**
 * Writes `text` to a temp file, runs `command file` with the terminal (stdio inherited,
 * synchronously, so nothing else reads the keyboard meanwhile), and returns the file's text
 * afterwards. `suspend` wraps the run so the caller can leave and restore its screen.
 */
export async function runExternal(
  command: string,
  text: string,
  suffix: string,
  suspend: (run: () => void) => void,
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'dial-edit-'));
  const path = join(dir, `dial${suffix}`);
  try {
    await writeFile(path, text, { mode: 0o600 });
    let status: number | null = 0;
    let failure: Error | undefined;
    suspend(() => {
      // A shell runs the command so settings like `code --wait` or `less -R` work.
      const result = spawnSync(`${command} "${path.replace(/"/g, '\\"')}"`, { stdio: 'inherit', shell: true });
      status = result.status;
      failure = result.error;
    });
    if (failure)
      throw new DialError('E_IO', `cannot run ${command}`, {
        cause: failure,
        hint: 'set $EDITOR / $PAGER or `dial config set editor …`',
      });
    if (status !== 0)
      throw new DialError('E_IO', `${command} exited with status ${status}`, { hint: 'the change was not saved' });
    return await readFile(path, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
