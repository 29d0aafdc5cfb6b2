/** Reading multipart/form-data bytes back into parts (for printing them as curl -F flags). */

/** The parts of multipart body bytes, in order: their headers and content. */
export function partsInBytes(
  bytes: Uint8Array,
  boundary: string,
): Array<{ headers: Array<[string, string]>; content: Buffer }> {
  const buffer = Buffer.from(bytes);
  const delimiter = Buffer.from(`--${boundary}`);
  const out: Array<{ headers: Array<[string, string]>; content: Buffer }> = [];
  let at = buffer.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (buffer.subarray(start, start + 2).toString() === '--') break;
    const next = buffer.indexOf(delimiter, start);
    if (next < 0) break;
    const segment = buffer.subarray(start + 2, next - 2); // drop the CRLF after the delimiter and before the next
    const split = segment.indexOf('\r\n\r\n');
    const head = split >= 0 ? segment.subarray(0, split).toString('utf8') : '';
    const headers = head
      .split('\r\n')
      .filter((line) => line.includes(':'))
      .map((line): [string, string] => [
        line.slice(0, line.indexOf(':')).trim(),
        line.slice(line.indexOf(':') + 1).trim(),
      ]);
    out.push({ headers, content: split >= 0 ? segment.subarray(split + 4) : Buffer.alloc(0) });
    at = next;
  }
  return out;
}

/** A parameter of a part's Content-Disposition (name, filename), decoded as browsers encode it. */
export function dispositionParam(headers: Array<[string, string]>, param: string): string | undefined {
  const disposition = headers.find(([name]) => name.toLowerCase() === 'content-disposition')?.[1] ?? '';
  const match =
    new RegExp(`;\\s*${param}="([^"]*)"`, 'i').exec(disposition) ??
    new RegExp(`;\\s*${param}=([^;\\s]+)`, 'i').exec(disposition);
  return match ? match[1].replace(/%22/g, '"').replace(/%0D/g, '\r').replace(/%0A/g, '\n') : undefined;
}
