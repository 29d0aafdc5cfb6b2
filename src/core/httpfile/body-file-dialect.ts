/**
 * `< ./file` and `<@ ./file` bodies mean opposite things in rest.nvim and in the other tools:
 * JetBrains and REST Client send `< file` as it is and fill the `{{variables}}` of `<@ file` in;
 * rest.nvim fills them into `< file` and sends `<@ file` as it is (its parser's external_body).
 * The readings differ only when the file holds a `{{`, so a file that names no dialect is looked
 * at for that (once, at parse time, the first MiB) to warn before anything is sent.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';

const LOOKED_AT = 1 << 20;

/** True when the body file exists and its first MiB holds a `{{` (false when it cannot be read). */
export function bodyFileHasPlaceholder(httpPath: string, bodyPath: string): boolean {
  if (!httpPath || bodyPath.includes('{{')) return false;
  const full = isAbsolute(bodyPath) ? bodyPath : resolve(dirname(httpPath), bodyPath);
  let fd: number | undefined;
  try {
    fd = openSync(full, 'r');
    const buffer = Buffer.allocUnsafe(Math.min(fstatSync(fd).size, LOOKED_AT));
    const read = buffer.length > 0 ? readSync(fd, buffer, 0, buffer.length, 0) : 0;
    return buffer.subarray(0, read).includes('{{');
  } catch {
    return false; // missing or unreadable: `dial check` and the send report that themselves
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
