import { describe, expect, it } from 'vitest';
import { parseHttpFile, removeRequestText, replaceRequestText } from '../../src/core/httpfile/index.js';
import {
  blockText,
  blockWithCopy,
  duplicateBlock,
  editRequestBlock,
  parseHeaderLine,
} from '../../src/ui/state/request-edit.js';
import { replaceBody } from '../../src/ui/state/body-edit.js';

const text =
  '@host = http://x\n\n### one\n# @name one\nGET {{host}}/a HTTP/1.1\nAccept: */*\nX-A: 1\n\n{"a": 1}\n\n### two\nPOST {{host}}/b\n\nbody\n';
const file = parseHttpFile(text, '/ws/a.http');

function apply(index: number, block: string): string {
  return replaceRequestText(file, index, block);
}

describe('request edits', () => {
  it('changes only the request line for method and URL', () => {
    const node = file.requests[0];
    const edited = apply(0, editRequestBlock(file, node, 'method', 'put'));
    expect(edited).toBe(text.replace('GET {{host}}/a HTTP/1.1', 'PUT {{host}}/a HTTP/1.1'));
    const url = apply(0, editRequestBlock(file, node, 'url', '{{host}}/z'));
    expect(url).toBe(text.replace('GET {{host}}/a', 'GET {{host}}/z'));
    expect(() => editRequestBlock(file, node, 'url', 'has space')).toThrow();
  });

  it('rewrites the header lines and nothing else', () => {
    const node = file.requests[0];
    const edited = apply(0, editRequestBlock(file, node, 'headers', 'Accept: application/json; X-B: 2'));
    expect(edited).toBe(text.replace('Accept: */*\nX-A: 1', 'Accept: application/json\nX-B: 2'));
    const removed = apply(0, editRequestBlock(file, node, 'headers', ''));
    expect(removed).toBe(text.replace('Accept: */*\nX-A: 1\n', ''));
  });

  it('adds headers to a request without any', () => {
    const node = file.requests[1];
    const edited = apply(1, editRequestBlock(file, node, 'headers', 'A: 1'));
    expect(edited).toBe(text.replace('POST {{host}}/b\n', 'POST {{host}}/b\nA: 1\n'));
    expect(parseHttpFile(edited, '/ws/a.http').requests[1].headers).toEqual([
      expect.objectContaining({ name: 'A', value: '1' }),
    ]);
  });

  it('parses the inline header format', () => {
    expect(parseHeaderLine('A: 1; B: x;y')).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: 'x;y' },
    ]);
    expect(() => parseHeaderLine('nonsense')).toThrow();
  });

  it('a ; inside a value does not split the header (only a ; followed by a header name and its colon does)', () => {
    expect(parseHeaderLine('Cookie: a=1; b=http://x')).toEqual([{ name: 'Cookie', value: 'a=1; b=http://x' }]);
    expect(parseHeaderLine('Cookie: a=1; b=http://x; Accept: */*')).toEqual([
      { name: 'Cookie', value: 'a=1; b=http://x' },
      { name: 'Accept', value: '*/*' },
    ]);
    expect(parseHeaderLine('Accept: text/html;q=0.9, */*;q=0.8; X-Trace: on')).toEqual([
      { name: 'Accept', value: 'text/html;q=0.9, */*;q=0.8' },
      { name: 'X-Trace', value: 'on' },
    ]);
    expect(parseHeaderLine('Link: <http://x/a>; rel="next"')).toEqual([
      { name: 'Link', value: '<http://x/a>; rel="next"' },
    ]);
    expect(parseHeaderLine('A: 1;{{name}}: 2')).toEqual([
      { name: 'A', value: '1' },
      { name: '{{name}}', value: '2' },
    ]);
    // Line breaks always separate headers.
    expect(parseHeaderLine('Cookie: a=1; b=2\nX-B: 3\r\nX-C: 4')).toEqual([
      { name: 'Cookie', value: 'a=1; b=2' },
      { name: 'X-B', value: '3' },
      { name: 'X-C', value: '4' },
    ]);
  });

  it('an inline header edit keeps a Cookie header with a URL in it whole in the file', () => {
    const node = file.requests[0];
    const edited = apply(0, editRequestBlock(file, node, 'headers', 'Cookie: a=1; b=http://x; X-A: 1'));
    expect(edited).toBe(text.replace('Accept: */*\nX-A: 1', 'Cookie: a=1; b=http://x\nX-A: 1'));
    expect(parseHttpFile(edited, '/ws/a.http').requests[0].headers.map((h) => [h.name, h.value])).toEqual([
      ['Cookie', 'a=1; b=http://x'],
      ['X-A', '1'],
    ]);
  });

  it('duplicates a block under a new name', () => {
    const node = file.requests[0];
    const copy = duplicateBlock(file, node, 'one-copy');
    expect(copy).toContain('# @name one-copy');
    expect(blockText(file, node)).toContain('# @name one\n');
  });
});

describe('duplicate then delete', () => {
  const cases: Record<string, string> = {
    'last request, one newline at the end': '### a\n# @name a\nGET http://x/a\n',
    'last request, a blank line at the end': '### a\n# @name a\nGET http://x/a\n\n',
    'first of two, no ### line': '# @name a\nGET http://x/a\n\n### b\nGET http://x/b\n',
    'a middle request with a body':
      '### a\nGET http://x/a\n\n### b\n# @name b\nPOST http://x/b\nContent-Type: application/json\n\n{"b": 1}\n\n\n### c\nGET http://x/c\n',
    'CRLF file': '### a\r\n# @name a\r\nGET http://x/a\r\nAccept: */*\r\n\r\n### b\r\nGET http://x/b\r\n',
    'unnamed request': '### only\nGET http://x/only\n',
    'last request, no line break at the end': '### a\nGET http://x/a\n\n### b\n# @name b\nGET http://x/b',
    'CRLF file, no line break at the end': '### a\r\nGET http://x/a\r\n\r\n### b\r\nGET http://x/b',
  };
  for (const [what, text] of Object.entries(cases)) {
    it(`leaves the file byte-identical: ${what}`, () => {
      const file = parseHttpFile(text, '/ws/d.http');
      for (const node of file.requests) {
        const duplicated = replaceRequestText(
          file,
          node.index,
          blockWithCopy(file, node, `${node.name ?? 'request'}-copy`),
        );
        const withCopy = parseHttpFile(duplicated, '/ws/d.http');
        // The copy is the next request, the same request under the new name; the others are as they were.
        expect(withCopy.requests).toHaveLength(file.requests.length + 1);
        const copy = withCopy.requests[node.index + 1];
        const bodyOf = (n: typeof node) => (n.body?.kind === 'inline' ? n.body.text : undefined);
        expect([copy.method, copy.url, bodyOf(copy)]).toEqual([node.method, node.url, bodyOf(node)]);
        expect(copy.name ?? copy.title).toMatch(/-copy$/);
        if (text.includes('\r\n')) expect(duplicated.replace(/\r\n/g, '')).not.toContain('\n');
        expect(removeRequestText(withCopy, node.index + 1)).toBe(text);
      }
    });
  }
});

describe('a cURL request (REST Client)', () => {
  it('is not edited field by field: its headers and body are inside the command', () => {
    const curl = parseHttpFile("### c\ncurl -X POST http://x/a -H 'A: 1' -d b=1\n", '/ws/c.http');
    const node = curl.requests[0];
    for (const field of ['method', 'url', 'headers'] as const)
      expect(() => editRequestBlock(curl, node, field, 'X')).toThrow(/curl command/);
    expect(() => replaceBody(curl, node, 'x')).toThrow(/curl command/);
  });
});
