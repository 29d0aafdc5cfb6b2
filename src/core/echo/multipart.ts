/** A small multipart/form-data parser for the echo server (whole body in memory). */

export interface ParsedPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The boundary parameter of a multipart Content-Type, if any. */
export function boundaryOf(contentType: string): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2]).trim() : undefined;
}

function param(header: string, name: string): string | undefined {
  const match =
    new RegExp(`(?:^|;)\\s*${name}="((?:[^"\\\\]|\\\\.)*)"`, 'i').exec(header) ??
    new RegExp(`(?:^|;)\\s*${name}=([^;]*)`, 'i').exec(header);
  if (!match) return undefined;
  return match[1].replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}

/** Splits a multipart body into its parts; malformed parts are skipped. */
export function parseMultipart(body: Buffer, boundary: string): ParsedPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: ParsedPart[] = [];
  let position = body.indexOf(delimiter);
  while (position !== -1) {
    let start = position + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    // The part ends with CRLF before the next delimiter.
    let end = next;
    if (body[end - 2] === 0x0d && body[end - 1] === 0x0a) end -= 2;
    const part = body.subarray(start, end);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) {
      const headers = part.subarray(0, headerEnd).toString('utf8').split('\r\n');
      const data = part.subarray(headerEnd + 4);
      let name: string | undefined;
      let filename: string | undefined;
      let contentType: string | undefined;
      for (const line of headers) {
        const colon = line.indexOf(':');
        if (colon === -1) continue;
        const key = line.slice(0, colon).trim().toLowerCase();
        const value = line.slice(colon + 1).trim();
        if (key === 'content-disposition') {
          name = param(value, 'name');
          filename = param(value, 'filename');
        } else if (key === 'content-type') {
          contentType = value;
        }
      }
      if (name !== undefined) parts.push({ name, filename, contentType, data: Buffer.from(data) });
    }
    position = next;
  }
  return parts;
}
