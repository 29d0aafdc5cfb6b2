// Request-line corners from JetBrains files: `HTTP/2 (Prior Knowledge)` is a version, never URL
// text; over plain http:// (h2c, which dial does not speak) it is refused at its line.
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';

describe('HTTP/2 (Prior Knowledge)', () => {
  it('is read as the version, the target left clean', () => {
    const [request] = parseHttpFile('GET https://example.com/a?b=1 HTTP/2 (Prior Knowledge)\n', '').requests;
    expect(request.url).toBe('https://example.com/a?b=1');
    expect(request.httpVersion).toBe('HTTP/2 (Prior Knowledge)');
  });

  it('over plain http:// is refused at its line', () => {
    let error: unknown;
    try {
      parseHttpFile('GET https://example.com/\n\n###\nGET http://example.com/ HTTP/2 (Prior Knowledge)\n', 'p.http');
    } catch (caught) {
      error = caught;
    }
    expect(isDialError(error) && error.location?.line).toBe(4);
    expect(isDialError(error) && error.message).toContain('h2c');
  });
});

describe('indented continuation lines', () => {
  it('a line starting with {{…}} continues the target; {{name}}: value is a header', () => {
    const [request] = parseHttpFile('GET http://x/api\n    {{query}}\n    &b=2\n    {{h}}: v\n', '').requests;
    expect(request.url).toBe('http://x/api{{query}}&b=2');
    expect(request.headers.map((header) => [header.name, header.value])).toEqual([['{{h}}', 'v']]);
  });
});
