/**
 * Inline edits of a request as text surgery on its block: only the request line or the
 * header lines change, every other byte of the block stays as written. The result is
 * handed to core (replaceRequestText + atomic write).
 */
import type { HttpFile, RequestNode } from '../../core/httpfile/types.js';

/** The source text of a request block. */
export function blockText(file: HttpFile, node: RequestNode): string {
  return file.text.slice(node.span.start, node.span.end);
}

// A header name (a token, or a `{{variable}}` in it) followed by its colon.
const HEADER_START = String.raw`(?:[!#$%&'*+.^_\`|~0-9A-Za-z-]|\{\{[^{}\r\n]*\}\})+[ \t]*:`;
// Headers are split at line breaks, and at a `;` only when a `Name:` follows it: a `;` inside a
// value (`Cookie: a=1; b=http://x`, `Accept: text/html;q=0.9`) is not followed by a header name
// and its colon (`=` and `/` are not name characters).
const HEADER_SPLIT = new RegExp(String.raw`\r?\n|;[ \t]*(?=${HEADER_START})`);

/** Parses `Name: value; Other: value` (the inline header editor's format), or one header per line. */
export function parseHeaderLine(value: string): Array<{ name: string; value: string }> {
  return value
    .split(HEADER_SPLIT)
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => {
      const colon = part.indexOf(':');
      if (colon <= 0) throw new Error(`header '${part}' needs the form Name: value`);
      return { name: part.slice(0, colon).trim(), value: part.slice(colon + 1).trim() };
    });
}

/** The block text after changing the method, the URL, the query or the headers. */
export function editRequestBlock(
  file: HttpFile,
  node: RequestNode,
  field: 'method' | 'url' | 'query' | 'headers',
  value: string,
): string {
  if (node.curl)
    throw new Error("a cURL request's headers and body are in its curl command: edit the whole request with 'e'");
  const block = blockText(file, node);
  const base = node.span.start;
  if (field === 'query') return editRequestBlock(file, node, 'url', withQuery(node.url, value));
  if (field === 'method' || field === 'url') {
    const method = field === 'method' ? value.trim().toUpperCase() : node.method;
    const url = field === 'url' ? value.trim() : node.url;
    if (!method || /\s/.test(method)) throw new Error('the method must be one word');
    if (!url || /\s/.test(url)) throw new Error('the URL must not be empty or contain spaces');
    const line = `${method} ${url}${node.httpVersion ? ` ${node.httpVersion}` : ''}`;
    const start = node.requestLineSpan.start - base;
    let end = node.requestLineSpan.end - base;
    // Keep the line break that ends the request line.
    while (end > start && (block[end - 1] === '\n' || block[end - 1] === '\r')) end--;
    return block.slice(0, start) + line + block.slice(end);
  }
  const headers = parseHeaderLine(value);
  const newline = block.includes('\r\n') ? '\r\n' : '\n';
  const text = headers.map((h) => `${h.name}: ${h.value}`).join(newline);
  if (node.headers.length === 0) {
    if (!text) return block;
    // Insert right after the request line.
    let at = node.requestLineSpan.end - base;
    const lineEnd = block.indexOf('\n', at - 1 < 0 ? 0 : at - 1);
    if (block[at - 1] !== '\n') at = lineEnd === -1 ? block.length : lineEnd + 1;
    const prefix = at >= block.length && !block.endsWith('\n') ? newline : '';
    return block.slice(0, at) + prefix + text + newline + block.slice(at);
  }
  const start = node.headers[0].span.start - base;
  let end = node.headers[node.headers.length - 1].span.end - base;
  while (end > start && (block[end - 1] === '\n' || block[end - 1] === '\r')) end--;
  if (!text) {
    // Drop the header lines and their line break.
    let after = end;
    if (block[after] === '\r') after++;
    if (block[after] === '\n') after++;
    return block.slice(0, start) + block.slice(after);
  }
  return block.slice(0, start) + text + block.slice(end);
}

/** A new request block appended to a file. */
export function newRequestBlock(name: string): string {
  return `### ${name}\nGET https://example.com\n`;
}

/** A copy of a request block under a new name: the `# @name x` line, else the `### title`, is renamed. */
export function duplicateBlock(file: HttpFile, node: RequestNode, newName: string): string {
  let block = blockText(file, node);
  if (node.name) {
    const renamed = block.replace(/^([ \t]*(?:#|\/\/)[ \t]*@name[ \t]+)\S+/m, `$1${newName}`);
    // No `# @name`: the name is the `###` separator's title, so the copy gets a title of its own.
    block = renamed !== block ? renamed : block.replace(/^###[^\r\n]*/, `### ${newName}`);
    // The title is what the tree shows: the copy's says it is one.
    if (renamed !== blockText(file, node) && node.title)
      block = block.replace(/^###[^\r\n]*/, `### ${node.title} copy`);
  }
  if (!/^###/.test(block)) block = `### ${newName}\n${block}`;
  return block.endsWith('\n') ? block : block + '\n';
}

/** Line breaks and blank lines ending a block (the gap before the next one). */
const TRAILING_GAP = /(?:\r?\n[ \t]*)*$/;

/**
 * The block followed by a copy of itself under a new name (duplicateBlock), to replace the block
 * with: the copy lands right after the original, and the gap between them is the original's own
 * gap, so deleting the copy gives back the file byte for byte (the copy's block owns everything
 * that was added). A block with no line break at its end (the file's last byte) gets one.
 */
export function blockWithCopy(file: HttpFile, node: RequestNode, newName: string): string {
  const block = blockText(file, node);
  const gap = TRAILING_GAP.exec(block)![0];
  const newline = block.includes('\r\n') || (!block.includes('\n') && file.text.includes('\r\n')) ? '\r\n' : '\n';
  const copy = duplicateBlock(file, node, newName).replace(TRAILING_GAP, '');
  const copyText = newline === '\r\n' ? copy.replace(/(?<!\r)\n/g, '\r\n') : copy;
  return block.slice(0, block.length - gap.length) + (gap || newline) + copyText + gap;
}

/** A new request block for `METHOD URL`, with an untitled `###` separator. */
export function requestLineBlock(method: string, url: string): string {
  return `###\n${method} ${url}\n`;
}

/** The block with its `###` title set (the separator line replaced, or one added when the block has none). */
export function renamedBlock(file: HttpFile, node: RequestNode, title: string): string {
  const block = blockText(file, node);
  const clean = title.replace(/[\r\n]+/g, ' ').trim();
  if (/^###/.test(block)) return block.replace(/^###[^\r\n]*/, `### ${clean}`);
  const newline = block.includes('\r\n') ? '\r\n' : '\n';
  return `### ${clean}${newline}${block}`;
}

/** A URL with its query replaced by `query` (`a=1&b=2`; `;` or spaces between parameters work too; empty removes it). */
export function withQuery(url: string, query: string): string {
  const at = url.indexOf('?');
  const base = at === -1 ? url : url.slice(0, at);
  const params = query
    .trim()
    .replace(/^\?/, '')
    .split(/[&;\s]+/)
    .filter(Boolean)
    .join('&');
  return params ? `${base}?${params}` : base;
}
