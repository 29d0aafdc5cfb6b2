/**
 * Writing files without destroying what is there. A regular file (or a new one) is replaced
 * atomically: a temp file in the same folder, then a rename, so a crash never leaves half a
 * file. A symlink is followed and its target written (the link stays a link). A device, FIFO or
 * `/dev/stdout` is written in place: renaming over it would replace the node with a plain file.
 * Every failure is a DialError E_IO naming the path.
 */
import {
  chmodSync,
  createWriteStream,
  lstatSync,
  mkdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
  type WriteStream,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { DialError } from './errors.js';

/** Where a write lands, once symlinks are followed. */
export type WriteTarget =
  | { kind: 'new'; path: string }
  | { kind: 'regular'; path: string; mode: number }
  | { kind: 'in-place'; path: string }
  | { kind: 'directory'; path: string };

const MAX_LINKS = 40;

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

function targetOfStats(path: string, info: Stats): WriteTarget {
  if (info.isFile()) return { kind: 'regular', path, mode: info.mode & 0o7777 };
  if (info.isDirectory()) return { kind: 'directory', path };
  return { kind: 'in-place', path };
}

/** Follows symlinks from `path` to what a write would change. Throws the fs error (ELOOP after 40 links). */
export function resolveWriteTarget(path: string): WriteTarget {
  let current = resolve(path);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    let info: Stats;
    try {
      info = lstatSync(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'new', path: current };
      throw error;
    }
    if (!info.isSymbolicLink()) return targetOfStats(current, info);
    let followed: Stats | undefined;
    try {
      followed = statSync(current);
    } catch {
      // A dangling link: write the file it names.
      current = resolve(dirname(current), readlinkSync(current));
      continue;
    }
    if (!followed.isFile()) return targetOfStats(current, followed);
    try {
      return { kind: 'regular', path: realpathSync(current), mode: followed.mode & 0o7777 };
    } catch {
      // e.g. /proc/self/fd/N names a file that has no path any more: write through the link.
      return { kind: 'in-place', path: current };
    }
  }
  throw errno('ELOOP', 'too many symbolic links');
}

const REASONS: Record<string, [reason: string, hint: string]> = {
  ENOSPC: ['no space left on the device', 'free some space or write somewhere else'],
  EDQUOT: ['disk quota exceeded', 'free some space or write somewhere else'],
  EACCES: ['permission denied', 'give a path in a folder you can write to'],
  EPERM: ['operation not permitted', 'give a path in a folder you can write to'],
  EROFS: ['read-only file system', 'give a path on a writable file system'],
  EISDIR: ['it is a folder', 'give a file name, not a folder'],
  ENOTDIR: ['a part of the path is not a folder', 'check the path'],
  ELOOP: ['too many symbolic links', 'check where the symlinks point'],
  ENAMETOOLONG: ['the name is too long', 'use a shorter path'],
  EEXIST: ['the file already exists', 'give another name'],
};

/** The E_IO error for a failed write of `path` (a DialError passes through). */
export function writeError(path: string, error: unknown, what = 'file'): DialError {
  if (error instanceof DialError) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const [reason, hint] = (code && REASONS[code]) ?? [
    code ?? (error instanceof Error ? error.message : String(error)),
    'check the path and the disk',
  ];
  return new DialError('E_IO', `cannot write the ${what} ${path}: ${reason}`, { hint, cause: error });
}

function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
}

/**
 * Writes a file safely (see the file comment). `mode` sets the file's mode (e.g. 0o600 for
 * history); without it a replaced regular file keeps its mode. Throws DialError E_IO.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, mode?: number, what = 'file'): void {
  let temp: string | undefined;
  try {
    const target = resolveWriteTarget(path);
    switch (target.kind) {
      case 'directory':
        throw errno('EISDIR', 'is a directory');
      case 'in-place':
        writeFileSync(target.path, data);
        return;
      case 'new':
      case 'regular': {
        mkdirSync(dirname(target.path), { recursive: true });
        temp = tempPathFor(target.path);
        const fileMode = mode ?? (target.kind === 'regular' ? target.mode : undefined);
        writeFileSync(temp, data, fileMode === undefined ? { flag: 'wx' } : { flag: 'wx', mode: fileMode });
        // A replaced file keeps its mode exactly (the umask applied to the temp file).
        if (target.kind === 'regular' && mode === undefined) chmodSync(temp, target.mode);
        renameSync(temp, target.path);
        temp = undefined;
        return;
      }
    }
  } catch (error) {
    if (temp) rmSync(temp, { force: true });
    throw writeError(path, error, what);
  }
}

/** A file being written as a stream (e.g. `send -o`): `finish` makes it visible, `abort` leaves the old one untouched. */
export interface OutputFile {
  /** Where the bytes go (a temp file for a regular target). */
  stream: WriteStream;
  /** The file that changes. */
  path: string;
  /** Waits for the stream to close and puts the file in place. Throws DialError E_IO. */
  finish(): Promise<void>;
  /** Drops what was written (a replaced file stays as it was). */
  abort(): void;
}

/**
 * Opens `path` for a streamed write with the same rules as writeFileAtomic. `exclusive` refuses
 * an existing file (E_IO, EEXIST). Errors of the stream itself are turned into E_IO by `finish`.
 */
export function openOutputFile(
  path: string,
  options: { exclusive?: boolean; mode?: number; what?: string } = {},
): OutputFile {
  let target: WriteTarget;
  try {
    target = resolveWriteTarget(path);
    if (target.kind === 'directory') throw errno('EISDIR', 'is a directory');
    if (options.exclusive && target.kind !== 'new') throw errno('EEXIST', 'file exists');
    if (target.kind !== 'in-place') mkdirSync(dirname(target.path), { recursive: true });
  } catch (error) {
    throw writeError(path, error, options.what);
  }
  const finalTarget = target;
  const temp = finalTarget.kind === 'in-place' ? undefined : tempPathFor(finalTarget.path);
  const stream = createWriteStream(temp ?? finalTarget.path, {
    flags: temp ? 'wx' : 'w',
    mode: finalTarget.kind === 'regular' ? finalTarget.mode : (options.mode ?? 0o666),
  });
  let failure: unknown;
  stream.on('error', (error) => {
    failure ??= error;
  });
  const closed = new Promise<void>((resolveClosed) => stream.once('close', () => resolveClosed()));
  return {
    stream,
    path: finalTarget.path,
    async finish() {
      if (!stream.writableFinished && !stream.destroyed) stream.end();
      await closed;
      try {
        if (failure) throw failure;
        if (temp) {
          if (options.exclusive && resolveWriteTarget(finalTarget.path).kind !== 'new')
            throw errno('EEXIST', 'file exists');
          renameSync(temp, finalTarget.path);
        }
      } catch (error) {
        if (temp) rmSync(temp, { force: true });
        throw writeError(path, error, options.what);
      }
    },
    abort() {
      stream.destroy();
      if (!temp) return;
      rmSync(temp, { force: true });
      // The file is opened asynchronously: an open still under way creates it after the line
      // above (a body that fails within a few ms of its head, on a busy machine). The stream
      // closes once that open is done, so remove it again then.
      stream.once('close', () => rmSync(temp, { force: true }));
    },
  };
}
