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

export interface ExpandMultipartOptions {
  boundary: string;
  /** Folder that `< ./file` paths are relative to (the .http file's folder). */
  baseDir: string;
  /** Substitutes variables in a `<@ file`'s text; without it the text is sent as is. */
  substitute?: (text: string) => Promise<string>;
  /** Reads a file (default fs.readFile). */
  read?: (path: string) => Promise<Uint8Array>;
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
    if (
      inContent &&
      trimmed.startsWith('<') &&
      trimmed.length > 1 &&
      /\s/.test(trimmed[trimmed.startsWith('<@') ? 2 : 1] ?? '')
    ) {
      const substitute = trimmed.startsWith('<@');
      let written = trimmed.slice(substitute ? 2 : 1).trim();
      // `< ./input.txt --boundary--` (JetBrains' documentation writes the last part so): the file,
      // then the closing delimiter on a line of its own.
      const closed =
        written.endsWith(`${delimiter}--`) && /\s/.test(written[written.length - delimiter.length - 3] ?? '');
      if (closed) written = written.slice(0, -(delimiter.length + 2)).trim();
      const path = resolve(options.baseDir, written);
      const bytes = await read(path);
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
