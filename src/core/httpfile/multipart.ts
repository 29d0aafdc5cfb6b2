/**
 * Multipart bodies written inline in a `.http` file (JetBrains style): `--boundary` lines,
 * part headers, a blank line, then the part's content, where a `< ./file` line pulls in a
 * file's bytes (`<@ ./file` with variables substituted). Expanded at send time into the exact
 * bytes, with CRLF line breaks as RFC 7578 wants, keeping the user's boundary and part headers.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';

/** The boundary parameter of a multipart Content-Type value, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return undefined;
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]) : undefined;
}

/** A part's file could not be read: the reason and the 0-based line of the body that names it. */
export class MultipartFileError extends Error {
  constructor(
    readonly reason: NodeJS.ErrnoException,
    readonly line: number,
  ) {
    super(reason.message);
  }
}

export interface ExpandMultipartOptions {
  boundary: string;
  /** Folder that `< ./file` paths are relative to (the .http file's folder). */
  baseDir: string;
  /** Substitutes variables in a `<@ file`'s text; without it the text is sent as is. */
  substitute?: (text: string) => Promise<string>;
  /** Reads a file (default fs.readFile). */
  read?: (path: string) => Promise<Uint8Array>;
}

/** A `< ./file` (or `<@ ./file`) line inside a part's content: the path as written and where the line starts in the body. */
export interface MultipartFileLine {
  path: string;
  /** Offset of the line in the body text. */
  offset: number;
  /** 0-based line of the body text. */
  line: number;
}

/** The part-content line at `trimmed` pulls in a file: `< path` or `<@ path` (a blank after the marker). */
function fileLinePath(
  trimmed: string,
  delimiter: string,
): { path: string; substitute: boolean; closed: boolean } | undefined {
  if (!trimmed.startsWith('<') || trimmed.length < 2) return undefined;
  const substitute = trimmed.startsWith('<@');
  if (!/\s/.test(trimmed[substitute ? 2 : 1] ?? '')) return undefined;
  let path = trimmed.slice(substitute ? 2 : 1).trim();
  // `< ./input.txt --boundary--` (JetBrains' documentation writes the last part so): the file,
  // then the closing delimiter on a line of its own.
  const closed = path.endsWith(`${delimiter}--`) && /\s/.test(path[path.length - delimiter.length - 3] ?? '');
  if (closed) path = path.slice(0, -(delimiter.length + 2)).trim();
  return { path, substitute, closed };
}

/** The `< ./file` lines of an inline multipart body, in order (the files `expandMultipartBody` reads). */
export function multipartFileLines(text: string, boundary: string): MultipartFileLine[] {
  const delimiter = `--${boundary}`;
  const found: MultipartFileLine[] = [];
  let inContent = false;
  let inHeaders = false;
  let offset = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; offset += lines[i].length + 1, i++) {
    const trimmed = lines[i].trim();
    if (trimmed === delimiter || trimmed === `${delimiter}--`) {
      inHeaders = trimmed === delimiter;
      inContent = false;
    } else if (inHeaders && trimmed === '') {
      inHeaders = false;
      inContent = true;
    } else if (inContent) {
      const ref = fileLinePath(trimmed, delimiter);
      if (ref) {
        found.push({ path: ref.path, offset, line: i });
        if (ref.closed) inContent = false;
      }
    }
  }
  return found;
}

/** Turns an inline multipart body into the bytes to send (files read, CRLF line breaks). */
export async function expandMultipartBody(text: string, options: ExpandMultipartOptions): Promise<Uint8Array> {
  const read = options.read ?? ((path: string) => readFile(path));
  const delimiter = `--${options.boundary}`;
  const lines = text.split(/\r?\n/);
  const chunks: Uint8Array[] = [];
  const crlf = Buffer.from('\r\n');
  let inContent = false;
  let inHeaders = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (i > 0) chunks.push(crlf);
    const trimmed = line.trim();
    if (trimmed === delimiter || trimmed === `${delimiter}--`) {
      inHeaders = trimmed === delimiter;
      inContent = false;
      chunks.push(Buffer.from(trimmed));
      continue;
    }
    if (inHeaders && trimmed === '') {
      inHeaders = false;
      inContent = true;
      continue;
    }
    const ref = inContent ? fileLinePath(trimmed, delimiter) : undefined;
    if (ref) {
      const { substitute, closed } = ref;
      const path = resolve(options.baseDir, ref.path);
      let bytes: Uint8Array;
      try {
        bytes = await read(path);
      } catch (error) {
        throw new MultipartFileError(error as NodeJS.ErrnoException, i);
      }
      chunks.push(
        substitute && options.substitute
          ? Buffer.from(await options.substitute(Buffer.from(bytes).toString('utf8')))
          : bytes,
      );
      if (closed) {
        chunks.push(crlf, Buffer.from(`${delimiter}--`));
        if (i === lines.length - 1) chunks.push(crlf);
        inContent = false;
      }
      continue;
    }
    chunks.push(Buffer.from(line));
  }
  if (lines[lines.length - 1]?.trim() === `${delimiter}--`) chunks.push(crlf);
  return Buffer.concat(chunks);
}
