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

// Ninth held-out sweep: a REST Client file (a Vue project's server/api.http) wrote its queries
// under request lines that end in `HTTP/1.1`, and its Content-Type as `{{json}}`.
describe('REST Client lines read once every {{…}} is in place', () => {
  function refusal(text: string, path: string): { line?: number; message: string } {
    try {
      parseHttpFile(text, path);
    } catch (error) {
      if (isDialError(error)) return { line: error.location?.line, message: error.message };
    }
    return { message: 'not refused' };
  }

  it('a ?/& line under a request line ending in HTTP/1.1 is cut off with the version, with a warning', () => {
    const file = parseHttpFile('GET http://x/talks HTTP/1.1\n    ?userId=1\n&page=2\nAccept: a\n', 'api.rest');
    expect(file.requests[0].url).toBe('http://x/talks');
    expect(file.requests[0].headers.map((header) => [header.name, header.value])).toEqual([['Accept', 'a']]);
    expect(file.warnings?.map((warning) => warning.line)).toEqual([2, 3]);
    expect(file.warnings?.[0].message).toContain('`?userId=1` is not sent');
  });

  it('is refused where the file is JetBrains’, and stays a bad header after a header', () => {
    const jetbrains = refusal('# @dialect jetbrains\nGET http://x/talks HTTP/1.1\n?userId=1\n', 'a.http');
    expect(jetbrains.line).toBe(3);
    expect(jetbrains.message).toContain('a query line under a request line that ends in HTTP/1.1');
    expect(refusal('GET http://x/talks HTTP/1.1\nAccept: a\n?userId=1\n', 'a.rest')).toEqual({
      line: 3,
      message: 'bad header line',
    });
  });

  it('a line that is only {{name}}, @name holding `Header: value`, is that header', () => {
    const text =
      '@json=Content-Type: application/json\n@url = http://x\n\nPOST {{url}}/login HTTP/1.1\n{{json}}\n\n{"a": 1}\n';
    const rest = parseHttpFile(text, 'api.rest');
    expect(rest.requests[0].headers.map((header) => [header.name, header.value])).toEqual([
      ['Content-Type', 'application/json'],
    ]);
    expect(rest.requests[0].body).toMatchObject({ kind: 'inline', text: '{"a": 1}' });
    expect(rest.warnings).toBeUndefined();
    // A file that names no dialect is read the same way (JetBrains reads no such line), with a warning.
    const unnamed = parseHttpFile(text, 'api.http');
    expect(unnamed.requests[0].headers).toHaveLength(1);
    expect(unnamed.warnings?.map((warning) => warning.line)).toEqual([5]);
    // A URL in the variable is no header: the line starts the body, as before.
    const url = parseHttpFile('@u = http://x/y\nPOST http://x/\n{{u}}\n', 'api.rest');
    expect(url.requests[0].headers).toEqual([]);
  });
});

// Sixteenth held-out sweep: a REST Client file (`requests.rest`) wrote its first request as
// `Get http://…`. REST Client's request-line pattern is case-insensitive and its HTTP client sends
// the method upper-cased.
describe('a standard method in mixed case', () => {
  it.each(['Get', 'gET', 'Post', 'DeLeTe'])('%s is that method, sent upper-cased', (method) => {
    const [request] = parseHttpFile(`${method} http://x/task/todo\n`, 'requests.rest').requests;
    expect(request.method).toBe(method.toUpperCase());
    expect(request.url).toBe('http://x/task/todo');
  });

  it('a word that is no method is still refused at the line (that request: REST Client fails it too)', () => {
    const file = parseHttpFile('Fetch http://x/\n', 'requests.rest');
    expect(file.requests[0].refused).toMatchObject({ line: 1, col: 6 });
  });
});

// Sixteenth held-out sweep: `GET http:localhost:3000/flights`. Node's URL parser (REST Client's
// HTTP client) reads `http:host` as `http://host`; dial read it as a host named `http` and failed
// only at send time, with no line, while `dial check` passed the file. It is refused at its line now.
describe('a scheme without `//`', () => {
  it.each([
    ['GET http:localhost:3000/flights', 'http://localhost:3000/flights', 5],
    ['https:/example.com/a', 'https://example.com/a', 1],
  ])('%s is refused at its line and column, the hint giving the URL with `//`', (line, fixed, col) => {
    let error: unknown;
    try {
      parseHttpFile(`### one\n${line}\n`, 'requests.http');
    } catch (caught) {
      error = caught;
    }
    expect(isDialError(error) && error.location).toMatchObject({ line: 2, col });
    expect(isDialError(error) && error.hint).toBe(`write ${fixed}`);
  });

  it('a URL with `//`, a {{variable}} origin or `http:` later in the target is not touched', () => {
    for (const url of ['http://localhost:3000/a', '{{host}}/a', 'localhost:3000/http:x']) {
      expect(parseHttpFile(`GET ${url}\n`, 'a.http').requests[0].url).toBe(url);
    }
  });
});

// Twentieth held-out sweep: `http://127.0.0.1:1880/pesquisarcontatos/nome/anderson motta`, a
// method-less request line with a space in its path. REST Client and httpyac take such a line whole
// as the URL and send the space percent-encoded; dial refused the whole file.
describe('a space in a method-less target', () => {
  function refusal(text: string): { line?: number; col?: number; message: string } {
    try {
      parseHttpFile(text, 'test.http');
    } catch (error) {
      if (isDialError(error)) return { line: error.location?.line, col: error.location?.col, message: error.message };
    }
    throw new Error('expected a refusal');
  }

  it('after http:// or https:// is sent as %20, as after a method', () => {
    const requests = parseHttpFile(
      'http://127.0.0.1:1880/contatos\n\n###\n\nhttp://127.0.0.1:1880/nome/anderson motta\n\n###\nHTTPS://h/a b?q=c d HTTP/1.1\n',
      'test.http',
    ).requests;
    expect(requests.map((request) => [request.method, request.url])).toEqual([
      ['GET', 'http://127.0.0.1:1880/contatos'],
      ['GET', 'http://127.0.0.1:1880/nome/anderson%20motta'],
      ['GET', 'HTTPS://h/a%20b?q=c%20d'],
    ]);
  });

  it('is still refused at its column when the line starts otherwise', () => {
    // A first word that cannot start a URL: that request alone is refused (sweep 19), the file's others run.
    expect(parseHttpFile('GET http://a\n###\nfetch http://a/x\n', 'a.http').requests[1].refused).toMatchObject({
      line: 3,
      col: 6,
    });
    expect(refusal('GET http://a\n###\nlocalhost:3000/a b\n')).toMatchObject({ line: 3, col: 17 });
    expect(refusal('GET http://a\n###\n{{base}}/a b\n')).toMatchObject({ line: 3, col: 11 });
    // A scheme with nothing after `//` is no URL to encode.
    expect(refusal('http:// x\n').message).toContain('unexpected space');
  });
});

// Twenty-first held-out sweep: `GET http:localhost//` in a `.rest` file. REST Client's HTTP client
// (got) parses the URL with Node's URL parser, which reads `http:host` as `http://host`; in a file
// that names REST Client dial now sends the same, with a warning; elsewhere it is still refused.
describe('a scheme without `//` in a file that names REST Client', () => {
  it.each([
    ['GET http:localhost//', 'http://localhost//'],
    ['GET http:localhost:3000/flights', 'http://localhost:3000/flights'],
    ['POST https:/example.com/a?b=1', 'https://example.com/a?b=1'],
  ])('%s is sent to %s, warned at its line', (line, url) => {
    const file = parseHttpFile(`###\n${line}\n`, 'requests.rest');
    expect(file.requests[0].url).toBe(url);
    expect(file.requests[0].refused).toBeUndefined();
    expect(file.warnings).toHaveLength(1);
    expect(file.warnings?.[0]).toMatchObject({ line: 2 });
    expect(file.warnings?.[0]?.message).toContain(`sent to ${url}`);
  });

  it('as `# @dialect rest-client` says too; without it a .http file still refuses it at the line', () => {
    expect(parseHttpFile('# @dialect rest-client\nGET http:localhost/a\n', 'a.http').requests[0].url).toBe(
      'http://localhost/a',
    );
    expect(() => parseHttpFile('GET http:localhost/a\n', 'a.http')).toThrow(/not followed by `\/\/`/);
  });
});
