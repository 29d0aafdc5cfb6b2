import { describe, expect, it } from 'vitest';
import { benchParse, parseHttpFile, printHttpFile, syntheticHttpFile } from '../../../src/core/httpfile/index.js';
import { DialError } from '../../../src/core/errors.js';

function parseError(text: string): DialError {
  try {
    parseHttpFile(text, '/w/api.http');
  } catch (error) {
    expect(error).toBeInstanceOf(DialError);
    return error as DialError;
  }
  throw new Error('expected a parse error');
}

describe('parseHttpFile: requests', () => {
  it('splits on ### and names from the title or @name (which wins)', () => {
    const file = parseHttpFile(
      '### First\nGET http://a/1\n\n### Second one\n# @name second\n// @tag x\nGET http://a/2\n',
      'f.http',
    );
    expect(file.requests.map((r) => [r.name, r.title])).toEqual([
      ['First', 'First'],
      ['second', 'Second one'],
    ]);
    expect(file.requests[1].tags).toEqual(['x']);
    expect(file.requests[0].span).toMatchObject({ start: 0, line: 1 });
    expect(file.text.slice(file.requests[0].span.start, file.requests[0].span.end)).toBe(
      '### First\nGET http://a/1\n\n',
    );
  });

  it('implies GET without a method and keeps it omitted', () => {
    const [request] = parseHttpFile('https://example.com/x\n', '').requests;
    expect(request).toMatchObject({ method: 'GET', methodExplicit: false, url: 'https://example.com/x' });
  });

  it('reads custom methods and the HTTP version', () => {
    const [a, b] = parseHttpFile('PURGE http://a/x HTTP/2\n###\nGET http://a/y HTTP/1.1\n', '').requests;
    expect(a).toMatchObject({ method: 'PURGE', httpVersion: 'HTTP/2', url: 'http://a/x' });
    expect(b).toMatchObject({ method: 'GET', httpVersion: 'HTTP/1.1' });
  });

  it('reads the standard methods in lower case (REST Client), sends them upper case, prints them as written', () => {
    const text = 'post http://a/x\nContent-Type: text/plain\n\nhi\n###\ndelete http://a/y\n';
    const [a, b] = parseHttpFile(text, '').requests;
    expect(a).toMatchObject({ method: 'POST', methodExplicit: true, url: 'http://a/x' });
    expect(b).toMatchObject({ method: 'DELETE', url: 'http://a/y' });
    expect(printHttpFile(parseHttpFile(text, ''))).toBe(text);
  });

  it('joins indented ? and & continuation lines into the URL', () => {
    const file = parseHttpFile('GET http://a/w\n    ?limit=10\n    &sort=name\nAccept: */*\n', '');
    const [request] = file.requests;
    expect(request.url).toBe('http://a/w?limit=10&sort=name');
    expect(request.headers).toHaveLength(1);
    expect(file.text.slice(request.requestLineSpan.start, request.requestLineSpan.end)).toBe(
      'GET http://a/w\n    ?limit=10\n    &sort=name',
    );
  });

  it('joins ? and & lines that are not indented too, right under the request line (REST Client); ?? stays an assertion', () => {
    const file = parseHttpFile(
      'GET http://a/w\n?limit=10\n&sort=name\nAccept: */*\n\n###\nGET http://a/x\n?? status == 200\n',
      '',
    );
    const [request, second] = file.requests;
    expect(request.url).toBe('http://a/w?limit=10&sort=name');
    expect(request.headers.map((h) => h.name)).toEqual(['Accept']);
    expect(second.url).toBe('http://a/x');
    expect(second.assertions).toHaveLength(1);
    // After a header such a line is no header: refused as before.
    expect(parseError('GET http://a/w\nAccept: */*\n&sort=name\n').message).toBe('bad header line');
  });

  it('joins indented /path segments too (JetBrains), with the version on the last line', () => {
    const [request] = parseHttpFile(
      'GET http://example.com:8080\n    /api\n    /html\n    /get\n    ?id=123\n    &value=content HTTP/1.1\n',
      '',
    ).requests;
    expect(request).toMatchObject({
      url: 'http://example.com:8080/api/html/get?id=123&value=content',
      httpVersion: 'HTTP/1.1',
    });
  });

  it('reads headers until a blank line, then the body without trailing blank lines', () => {
    const text = 'POST http://a\nContent-Type: application/json\nX-A:  b c \n\n{\n  "a": 1\n}\n\n\n###\nGET http://b\n';
    const [request] = parseHttpFile(text, '').requests;
    expect(request.headers.map((h) => [h.name, h.value])).toEqual([
      ['Content-Type', 'application/json'],
      ['X-A', 'b c'],
    ]);
    expect(request.body).toMatchObject({ kind: 'inline', text: '{\n  "a": 1\n}' });
    expect(request.body!.span.line).toBe(5);
  });

  it('keeps CRLF inside bodies and round-trips CRLF files', () => {
    const text = 'POST http://a\r\nA: b\r\n\r\nline1\r\nline2\r\n\r\n### x\r\nGET http://b\r\n';
    const file = parseHttpFile(text, '');
    expect(file.requests[0].headers[0].value).toBe('b');
    expect(file.requests[0].body).toMatchObject({ text: 'line1\r\nline2' });
    expect(file.requests[1].title).toBe('x');
    expect(printHttpFile(file)).toBe(text);
  });

  it('reads < file and <@ file bodies', () => {
    const file = parseHttpFile('POST http://a\n\n< ./body.json\n###\nPOST http://a\n\n<@ ./tpl.json\n', '');
    expect(file.requests[0].body).toMatchObject({ kind: 'file', path: './body.json', substitute: false });
    expect(file.requests[1].body).toMatchObject({ kind: 'file', path: './tpl.json', substitute: true });
    expect(parseHttpFile('POST http://a\n\n<a>x</a>\n', '').requests[0].body).toMatchObject({
      kind: 'inline',
      text: '<a>x</a>',
    });
  });

  it('keeps multipart bodies with < file parts as inline text', () => {
    const body = '--B\nContent-Disposition: form-data; name="f"; filename="a.txt"\n\n< ./a.txt\n--B--';
    const [request] = parseHttpFile(
      `POST http://a\nContent-Type: multipart/form-data; boundary=B\n\n${body}\n`,
      '',
    ).requests;
    expect(request.body).toMatchObject({ kind: 'inline', text: body });
  });

  it('treats a body of only comments as comments', () => {
    const [request] = parseHttpFile('GET http://a\n\n# note for later\n// another\n\n###\nGET http://b\n', '').requests;
    expect(request.body).toBeUndefined();
  });

  it('skips comments outside and inside bodies (whole lines, as the JetBrains format and REST Client do)', () => {
    const file = parseHttpFile(
      '# top comment\n// another\nPOST http://a\n# header comment\nA: 1\n\n#!body line\n{}\n',
      '',
    );
    expect(file.requests[0].headers).toHaveLength(1);
    expect(file.requests[0].body).toMatchObject({ text: '{}' });
  });
});

describe('parseHttpFile: metadata', () => {
  it('reads every metadata key and keeps unknown ones', () => {
    const text = [
      '### t',
      '# @name n',
      '# @tag a b, c',
      '# @timeout 5s',
      '# @no-redirect',
      '// @no-cookie-jar',
      '# @skip not ready',
      '# @retry 3 500ms',
      '# @secret token, apiKey',
      '# @prompt otp Your one-time code',
      '# @prompt user',
      '# @no-log',
      'GET http://a',
      '',
    ].join('\n');
    const [r] = parseHttpFile(text, '').requests;
    expect(r).toMatchObject({
      name: 'n',
      tags: ['a', 'b', 'c'],
      timeoutMs: 5000,
      noRedirect: true,
      noCookieJar: true,
      skip: { reason: 'not ready' },
      retry: { count: 3, delayMs: 500 },
      secrets: ['token', 'apiKey'],
      prompts: [{ name: 'otp', description: 'Your one-time code' }, { name: 'user' }],
    });
    expect(r.metadata.map((m) => m.key)).toContain('no-log');
  });

  it('accepts the JetBrains `# @name = value` form', () => {
    expect(parseHttpFile('# @name = login\nGET http://a\n', '').requests[0].name).toBe('login');
  });

  it('@skip without a reason, @retry without a delay', () => {
    const [r] = parseHttpFile('# @skip\n# @retry 2\nGET http://a\n', '').requests;
    expect(r.skip).toEqual({});
    expect(r.retry).toEqual({ count: 2, delayMs: 0 });
  });

  it('rejects a bad @timeout with file:line and a hint', () => {
    const error = parseError('###\n# @timeout soon\nGET http://a\n');
    expect(error.code).toBe('E_PARSE');
    expect(error.message).toContain("@timeout 'soon'");
    expect(error.location).toMatchObject({ file: '/w/api.http', line: 2, excerpt: '# @timeout soon' });
    expect(error.hint).toMatch(/500ms/);
  });

  it('rejects a bad @retry', () => {
    expect(parseError('# @retry many\nGET http://a\n').message).toContain('@retry');
  });
});

describe('parseHttpFile: variables and scripts', () => {
  it('reads file variables at the top and inside blocks', () => {
    const file = parseHttpFile(
      '@host = http://a\n@token={{login.response.body.$.t}}\n\n### one\n@id = 7\nGET {{host}}/{{id}}\n\n@after = x\n###\nGET http://b\n',
      '',
    );
    expect(file.variables.map((v) => [v.name, v.value])).toEqual([
      ['host', 'http://a'],
      ['token', '{{login.response.body.$.t}}'],
      ['id', '7'],
      ['after', 'x'],
    ]);
    // a "body" of only variables declares variables between requests
    expect(file.requests[0].body).toBeUndefined();
    expect(file.requests[0].variables.map((v) => v.name)).toEqual(['id', 'after']);
    // ...but variable-like lines in a real body stay body text
    expect(parseHttpFile('POST http://a\n\n@a = 1\ntext\n', '').requests[0].body).toMatchObject({
      text: '@a = 1\ntext',
    });
  });

  it('reads pre-request scripts (inline and file) and response handlers', () => {
    const text =
      '< {% request.variables.set("a", "1") %}\n< ./pre.js\nGET http://a\n\n> {%\n  client.log(1);\n%}\n> ./after.js\n';
    const [r] = parseHttpFile(text, '').requests;
    expect(r.preScripts).toEqual([
      { kind: 'inline', code: ' request.variables.set("a", "1") ', span: expect.anything() },
      { kind: 'file', path: './pre.js', span: expect.anything() },
    ]);
    expect(r.handlers).toMatchObject([
      { kind: 'inline', code: '\n  client.log(1);\n' },
      { kind: 'file', path: './after.js' },
    ]);
    expect(r.handlers[0].span.line).toBe(5);
  });

  it('a handler script may contain ### and > lines', () => {
    const [r, s] = parseHttpFile(
      'GET http://a\n\n> {%\n// ### not a separator\nconst a = 1 > 0;\n%}\n###\nGET http://b\n',
      '',
    ).requests;
    expect(r.handlers[0]).toMatchObject({ code: '\n// ### not a separator\nconst a = 1 > 0;\n' });
    expect(s.url).toBe('http://b');
  });

  it('inside a body, > starts a handler only with {% or a .js path', () => {
    const [r] = parseHttpFile('POST http://a\n\n> quoted line\nmore\n> ./h.js\n', '').requests;
    expect(r.body).toMatchObject({ text: '> quoted line\nmore' });
    expect(r.handlers).toMatchObject([{ path: './h.js' }]);
  });

  it('ignores JetBrains response references (<> file) after the body', () => {
    const text =
      'POST http://a\nContent-Type: application/json\n\n{"id": {{$random.integer()}}}\n\n<> 2021-04-21T185502.200.json\n<> 2021-04-21T185400.200.json\n###\nGET http://b\n<> ./x.json\n';
    const [a, b] = parseHttpFile(text, '').requests;
    expect(a.body).toMatchObject({ text: '{"id": {{$random.integer()}}}' });
    expect(b.headers).toEqual([]);
  });

  it('reads >> and >>! output redirects', () => {
    const [a, b] = parseHttpFile('GET http://a\n\n>> ./out.json\n###\nGET http://b\n>>! ./o.json\n', '').requests;
    expect(a.outputRedirect).toMatchObject({ path: './out.json', overwrite: false });
    expect(b.outputRedirect).toMatchObject({ path: './o.json', overwrite: true });
  });

  it('fails on an unterminated {% with its line and column', () => {
    const error = parseError('GET http://a\n\n> {%\nclient.log(1)\n');
    expect(error.message).toMatch(/unterminated/);
    expect(error.location).toMatchObject({ line: 3, col: 3 });
    expect(error.hint).toContain('%}');
  });
});

describe('parseHttpFile: errors', () => {
  it("refuses JetBrains' Faker variables at their place; the $random.* dial generates pass", () => {
    const error = parseError('GET http://a/?n={{$random.name.firstName}}\n');
    expect(error.message).toContain('Faker variable {{$random.name.firstName}}');
    expect(error.location).toMatchObject({ line: 1, col: 17 });
    const ok = parseHttpFile(
      'POST http://a/?u={{$random.uuid}}&i={{$random.integer(1, 5)}}\n\n{"e": "{{$random.email}}", "h": "{{$random.hexadecimal(8)}}"}\n',
      '',
    );
    expect(ok.requests).toHaveLength(1);
  });

  it('names a bad header line', () => {
    const error = parseError('GET http://a\nnot a header\n');
    expect(error.message).toBe('bad header line');
    expect(error.location).toMatchObject({ line: 2, col: 1, excerpt: 'not a header' });
    expect(error.hint).toMatch(/blank line/);
  });

  it('refuses a space in the URL (an unknown first word is not taken as part of the URL)', () => {
    // REST Client reads the line as the URL of a GET and fails that request only: refused there.
    const refused = parseHttpFile('GET http://a\n###\nfetch http://a/x\n', '').requests[1].refused;
    expect(refused?.message).toContain('unexpected space');
    expect(refused).toMatchObject({ line: 3, col: 6, excerpt: 'fetch http://a/x' });
    // A method-less URL starting with a scheme is taken whole, its space sent as %20 (sweep 20).
    expect(parseHttpFile('http://a/x y\n', '').requests[0].url).toBe('http://a/x%20y');
    expect(parseError('localhost:3000/a b\n').location).toMatchObject({ line: 1, col: 17 });
    // Spaces inside {{ }} are part of a variable, not of the URL.
    expect(parseHttpFile('GET {{ host }}/x?q={{ $random.uuid }}\n', '').requests[0].url).toBe(
      '{{ host }}/x?q={{ $random.uuid }}',
    );
  });

  it('names text after the assertions', () => {
    expect(parseError('GET http://a\n\n?? status == 200\nstray\n').location!.line).toBe(4);
  });

  it('is a DialError that exits 3', () => {
    expect(parseError('GET http://a\n\n?? status nearly == 200\n').exitCode).toBe(3);
  });
});

describe('parseHttpFile: speed', () => {
  it('parses 10,000 requests (the bench shape) into 10,000 nodes', () => {
    const file = parseHttpFile(syntheticHttpFile(10_000), 'big.http');
    expect(file.requests).toHaveLength(10_000);
    expect(file.requests[9999]).toMatchObject({ name: 'r9999', url: '{{host}}/widgets/9999?page=1' });
    expect(file.requests[9999].assertions[1]).toMatchObject({ argument: '$.id', expected: '9999' });
  });

  it('benchParse reports the count and a time (numbers for the lead, not asserted as a budget)', () => {
    const result = benchParse(100, 2);
    expect(result.requests).toBe(100);
    expect(result.bestMs).toBeGreaterThan(0);
  });
});
