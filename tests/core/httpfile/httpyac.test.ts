/**
 * httpyac constructs as the parser reads them (httpyac dialect): `{{ }}` script blocks by where
 * they stand and their event, `# @import`, `gql name < ./file`.
 */
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/parse.js';
import { DialError } from '../../../src/core/errors.js';

const HY = '# @dialect httpyac\n';

function refusal(text: string): { message: string; line?: number } {
  try {
    parseHttpFile(text, 'x.http');
  } catch (error) {
    if (error instanceof DialError) return { message: error.message, line: error.location?.line };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('httpyac {{ }} script blocks', () => {
  it('a block above the request line runs before it, one below after the response', () => {
    const file = parseHttpFile(
      `${HY}{{\n  exports.a = 1;\n}}\nGET /a\nX: 1\n\n{\n  "b": 2\n}\n\n{{\n  test.status(200);\n}}\n\nGET /b\n`,
      '',
    );
    expect(file.requests).toHaveLength(2);
    const [a, b] = file.requests;
    expect(a.httpyacScripts).toEqual([{ code: '\n  exports.a = 1;\n', line: 2 }]);
    expect(a.httpyacPostScripts).toEqual([{ code: '\n  test.status(200);\n', line: 12 }]);
    // The block ends the body: it is never sent as body text.
    expect(a.body).toMatchObject({ kind: 'inline', text: '{\n  "b": 2\n}' });
    expect(b.url).toBe('{{host}}/b');
    expect(b.httpyacScripts).toBeUndefined();
    expect(b.httpyacPostScripts).toBeUndefined();
  });

  it('a block right after the headers (no blank line) is a post-response block too', () => {
    const [request] = parseHttpFile(
      `${HY}GET /a\nAccept: */*\n{{\n  console.log(response.statusCode);\n}}\n`,
      '',
    ).requests;
    expect(request.headers).toHaveLength(1);
    expect(request.body).toBeUndefined();
    expect(request.httpyacPostScripts).toHaveLength(1);
  });

  it('global regions run once; {{+ }} before every request; {{@response}} there after every response', () => {
    const file = parseHttpFile(
      `${HY}{{\n  exports.once = 1;\n}}\n{{@response\n  exports.last = response.statusCode;\n}}\n###\nGET /a\n\n###\n{{+\n  exports.each = 1;\n}}\nGET /b\n`,
      '',
    );
    expect(file.httpyacFileScripts).toEqual([{ code: '\n  exports.once = 1;\n', line: 2 }]);
    for (const request of file.requests) {
      expect(request.httpyacScripts?.map((s) => s.line)).toEqual([12]);
      expect(request.httpyacPostScripts?.map((s) => s.line)).toEqual([5]);
    }
  });

  it('{{@response}} above the request line still runs after the response; {{response}} and {{@after}} too', () => {
    const [request] = parseHttpFile(
      `${HY}{{@response\n  exports.s = response.statusCode;\n}}\n{{\n  exports.t = 1;\n}}\nGET /a\n\n{{@after\n  exports.u = 1;\n}}\n{{response\n  exports.v = 1;\n}}\n`,
      '',
    ).requests;
    expect(request.httpyacScripts?.map((s) => s.line)).toEqual([5]);
    expect(request.httpyacPostScripts?.map((s) => s.line)).toEqual([2, 10, 13]);
  });

  it('keeps {{@request}} blocks (any place in the region) and {{+request}} ones (every request) for the final request', () => {
    const [a, b] = parseHttpFile(
      `${HY}{{@request\n  request.headers.x = 1;\n}}\nGET http://x/\n\n###\nGET http://y/\n\n{{+request\n  1;\n}}\n`,
      '',
    ).requests;
    expect(a.httpyacRequestScripts?.map((s) => s.line)).toEqual([10, 2]);
    expect(b.httpyacRequestScripts?.map((s) => s.line)).toEqual([10]);
    expect(a.httpyacScripts).toBeUndefined();
  });

  it('refuses the events dial does not run, and an unterminated block, at their line', () => {
    // A {{@request}} block in a region without a request: which requests it is for is not pinned down.
    expect(refusal(`${HY}{{@request\n  request.headers.x = 1;\n}}\n\n###\nGET http://x/\n`)).toMatchObject({ line: 2 });
    expect(refusal(`${HY}GET http://x/\n\n{{streaming\n  1;\n}}\n`).message).toContain('streaming');
    expect(refusal(`${HY}GET http://x/\n\n{{\n  exports.a = 1;\n`)).toMatchObject({ line: 4 });
  });

  it('a line that only starts with {{ is body text, as httpyac reads it', () => {
    const [request] = parseHttpFile(`${HY}POST /a\n\n{{payload}}\n`, '').requests;
    expect(request.body).toMatchObject({ kind: 'inline', text: '{{payload}}' });
    expect(request.httpyacPostScripts).toBeUndefined();
  });
});

describe('httpyac # @import and gql files', () => {
  it('collects # @import lines wherever they stand; elsewhere @import stays refused', () => {
    const file = parseHttpFile(`${HY}# @import ./auth.http\n###\n// @import ./more.http\n# @ref login\nGET /a\n`, '');
    expect(file.httpyacImports).toEqual([
      { path: './auth.http', line: 2 },
      { path: './more.http', line: 4 },
    ]);
    expect(refusal('# @dialect jetbrains\n# @import ./a.http\nGET http://x/\n').message).toContain('@import');
    expect(refusal(`${HY}# @import ./{{dir}}/a.http\nGET http://x/\n`)).toMatchObject({ line: 2 });
  });

  it('gql name < ./file: the query file, the variables after it, and the fragments known so far', () => {
    const file = parseHttpFile(
      `${HY}fragment F on T {\n  a\n}\n\nPOST /graphql\n\ngql one < ./q.gql\n\n{"id": 1}\n\nPOST /graphql\n\ngql < ./other.gql\n`,
      '',
    );
    const [one, other] = file.requests;
    expect(one.httpyacGraphqlFile).toEqual({
      path: './q.gql',
      line: 8,
      operationName: 'one',
      fragments: { F: 'fragment F on T {\n  a\n}' },
    });
    expect(one.name).toBe('one');
    expect(one.body).toMatchObject({ kind: 'inline', text: '{"id": 1}' });
    // httpyac names the operation after the file when the line names none.
    expect(other.httpyacGraphqlFile?.operationName).toBe('./other.gql');
    expect(other.body).toBeUndefined();
  });
});

describe('httpyac metadata and the lines after the request line', () => {
  it('# @loop for N, for x of list and while condition are read; other forms refused at their line; other dialects refuse @loop', () => {
    const [count, forOf, whileLoop] = parseHttpFile(
      `${HY}# @loop for 3\nGET /a?i={{$index}}\n\n###\n# @loop for item of data.items\nGET /b?i={{item}}\n\n###\n# @loop while x.i < 3 \nGET /c\n`,
      '',
    ).requests;
    expect(count.httpyacLoop).toEqual({ kind: 'for', count: 3, line: 2 });
    expect(forOf.httpyacLoop).toEqual({ kind: 'forOf', variable: 'item', iterable: 'data.items', line: 6 });
    expect(whileLoop.httpyacLoop).toEqual({ kind: 'while', condition: 'x.i < 3', line: 10 });
    const bad = refusal(`${HY}# @loop until x.i < 3\nGET /a\n`);
    expect(bad).toMatchObject({ line: 2 });
    expect(bad.message).toContain("@loop 'until x.i < 3'");
    expect(refusal('# @dialect jetbrains\n# @loop for 3\nGET http://x/\n').message).toContain('@loop');
  });

  it('# @disabled condition is kept for the run to evaluate (not a skip); @disabled and @disabled true skip', () => {
    const [cond, plain, yes, no] = parseHttpFile(
      `${HY}# @disabled !callRequest\nGET /a\n\n###\n# @disabled\nGET /b\n\n###\n# @disabled true\nGET /c\n\n###\n# @disabled false\nGET /d\n`,
      '',
    ).requests;
    expect(cond.httpyacDisabled).toEqual({ condition: '!callRequest', line: 2 });
    expect(cond.skip).toBeUndefined();
    expect([plain.skip, yes.skip, no.skip]).toEqual([{ reason: 'disabled' }, { reason: 'disabled' }, undefined]);
  });

  it('@x := value is a lazy variable; @x = "value" warns that httpyac drops only the opening quote', () => {
    const file = parseHttpFile(`${HY}@bar = bar\n@foo:=foo{{bar}}\n@q = "quoted"\nGET http://x/?f={{foo}}\n`, 'v.http');
    expect(file.variables.map((v) => [v.name, v.value, v.lazy ?? false])).toEqual([
      ['bar', 'bar', false],
      ['foo', 'foo{{bar}}', true],
      ['q', '"quoted"', false],
    ]);
    expect(file.requests).toHaveLength(1);
    const warning = file.warnings?.find((w) => w.message.includes('opening quote'));
    expect(warning).toMatchObject({ line: 4 });
    expect(warning?.message).toContain('"quoted\\""');
  });

  it('a request line whose {{ }} holds spaces after a body starts a new httpyac request', () => {
    const file = parseHttpFile(
      `${HY}GET http://x/a\n\nGET /b?q={{$randomInt 100 200}}\n\nGET /c?q={{$datetime 'DD.MM.YYYY' 3 d}}\n`,
      '',
    );
    expect(file.requests.map((r) => [r.requestLineSpan.line, r.body])).toEqual([
      [2, undefined],
      [4, undefined],
      [6, undefined],
    ]);
  });

  it('a line among the headers that is no header starts the body; ?a=1 and /seg lines continue the URL', () => {
    const [jwt, url] = parseHttpFile(
      `${HY}# @jwt token\nPOST /anything\neyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig\n\nGET /items\n?page=2\n&size={{size}}\nAccept: */*\n/extra\n`,
      '',
    ).requests;
    expect(jwt.body).toMatchObject({ kind: 'inline', text: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig' });
    expect(url.url).toBe('{{host}}/items?page=2&size={{size}}/extra');
    expect(url.headers.map((h) => h.name)).toEqual(['Accept']);
    expect(refusal('GET http://x/\nnot a header\n').message).toContain('bad header line');
    // Elsewhere a JSON body right after the headers is the body too (with a warning); other text is refused.
    const json = parseHttpFile(
      'POST http://x/\nContent-Type: application/json\n{\n  "a": 1\n}\n?? status == 201\n',
      '',
    );
    expect(json.requests[0].body).toMatchObject({ kind: 'inline', text: '{\n  "a": 1\n}' });
    expect(json.requests[0].assertions).toHaveLength(1);
    expect(json.warnings?.[0]).toMatchObject({ line: 3 });
  });
});

describe('httpyac assertions', () => {
  it('?? body form exists: a property path of the parsed body', () => {
    const [request] = parseHttpFile(
      'GET http://x/\n\n?? body form exists\n?? body items[0].id == 3\n?? body contains x\n',
      '',
    ).requests;
    expect(request.assertions.map((a) => [a.argument, a.predicate])).toEqual([
      ['$.form', 'exists'],
      ['$.items[0].id', '=='],
      [undefined, 'contains'],
    ]);
  });
});

describe('httpyac metadata values', () => {
  it('# @timeout 30000 is milliseconds in httpyac, seconds elsewhere', () => {
    expect(parseHttpFile(`${HY}# @timeout 30000\nGET /a\n`, '').requests[0].timeoutMs).toBe(30000);
    expect(parseHttpFile('# @timeout 3\nGET http://x/\n', '').requests[0].timeoutMs).toBe(3000);
  });
});

describe('httpyac authorization schemes', () => {
  it('refuses a malformed AWS line at the header line, and leaves oauth2 to the session (it signs in)', () => {
    expect(
      parseHttpFile(`${HY}GET http://x/\nAuthorization: oauth2 client_credentials\n`, '').requests[0].headers,
    ).toHaveLength(1);
    expect(refusal(`${HY}GET http://x/\nAuthorization: AWS {{key}} {{secret}} region: eu-west-1\n`).message).toContain(
      'AWS',
    );
    // A single-token AWS header (v2 `AWS key:signature`) is an ordinary header.
    expect(parseHttpFile('GET http://x/\nAuthorization: AWS AKID:sig\n', '').requests[0].headers).toHaveLength(1);
  });
});

describe('authorization schemes computed by another tool, in every dialect', () => {
  it('refuses NTLM without a password and Negotiate at the header line; NTLM user:password and AWS signing are kept for the session', () => {
    for (const value of [
      'NTLM {{u}} {{p}}',
      'Negotiate {{u}}:{{p}}',
      'NTLM',
      'Negotiate',
      'AWS {{key}} {{secret}} zone:eu-west-1',
    ]) {
      const error = refusal(`GET http://x/\nAuthorization: ${value}\n`);
      expect(error.line).toBe(2);
      expect(error.message).toMatch(/NTLM|Negotiate|AWS/);
    }
    // NTLM user:password is answered by the NTLM handshake (send/ntlm.ts), not refused.
    expect(parseHttpFile('GET http://x/\nAuthorization: NTLM {{u}}:{{p}}\n', '').requests[0].headers).toHaveLength(1);
    // A well-formed AWS line is signed when the request is sent (session/aws-auth.ts), not refused.
    expect(
      parseHttpFile(
        'GET http://x/\nAuthorization: AWS {{key}} {{secret}} token:{{t}} region:eu-west-1 service:s3\n',
        '',
      ).requests[0].headers,
    ).toHaveLength(1);
    // A real NTLM / Negotiate token (one base64 word) is an ordinary header.
    for (const value of ['NTLM TlRMTVNTUAABAAAAB4IIog==', 'Negotiate YIIGhgYGKwYBBQUCoIIGejCCBnag'])
      expect(parseHttpFile(`GET http://x/\nAuthorization: ${value}\n`, '').requests[0].headers).toHaveLength(1);
  });
});

describe("rest.nvim's # @lang=lua above a handler after a blank line", () => {
  it("is the handler's language: a rest.nvim Lua handler (never run as JavaScript)", () => {
    const text = '### a\nGET http://x/posts/3\n\n# @lang=lua\n> {%\nlocal body = vim.json.decode(response.body)\n%}\n';
    const [request] = parseHttpFile(text, '').requests;
    expect(request.handlers).toEqual([
      expect.objectContaining({ lua: 'rest.nvim', span: expect.objectContaining({ line: 5 }) }),
    ]);
    // Named as JetBrains', the Lua handler is refused at its line.
    const error = refusal(`# @dialect jetbrains\n${text}`);
    expect(error.line).toBe(6);
    expect(error.message).toContain("'lua'");
    // A JavaScript handler under the same kind of comment still parses.
    expect(
      parseHttpFile('GET http://x/\n\n# @lang=javascript\n> {%\nclient.log(1)\n%}\n', '').requests[0].handlers,
    ).toHaveLength(1);
  });
});

describe('rest.nvim dialect bodies', () => {
  const RN = '# @dialect rest.nvim\n';
  it('reads < ./file with its variables filled in and <@ ./file as it is (the other way round from REST Client)', () => {
    const [plain, raw] = parseHttpFile(
      `${RN}POST http://x/a\n\n< ./in.json\n\n###\nPOST http://x/b\n\n<@ ./in.json\n`,
      '',
    ).requests;
    expect(plain.body).toMatchObject({ kind: 'file', substitute: true });
    expect(raw.body).toMatchObject({ kind: 'file', substitute: false });
    const [jetbrains] = parseHttpFile('POST http://x/a\n\n< ./in.json\n', '').requests;
    expect(jetbrains.body).toMatchObject({ kind: 'file', substitute: false });
  });

  it('sends a form body with the blanks around each pair removed', () => {
    const text =
      'POST http://x/post\nContent-Type: application/x-www-form-urlencoded\n\nkey1 = value1 &\nkey2 = {{v}} &\nkey3\n';
    expect(parseHttpFile(`${RN}${text}`, '').requests[0].body).toMatchObject({ text: 'key1=value1&key2={{v}}&key3=' });
    expect(parseHttpFile(text, '').requests[0].body).toMatchObject({ text: 'key1 = value1 &\nkey2 = {{v}} &\nkey3' });
  });
});

describe('kulala form bodies', () => {
  // kulala.nvim tests/functional/fixtures/export/export_1.http (tenth held-out sweep): kulala's
  // parser/request.lua removes the line breaks of an x-www-form-urlencoded body.
  const text =
    'POST http://x/post\nContent-Type: application/x-www-form-urlencoded\n\nusername=foo&\npassword=bar&\nskill=run\n';
  it('joins the lines in the kulala dialect', () => {
    const file = parseHttpFile(`# @dialect kulala\n${text}`, '');
    expect(file.requests[0].body).toMatchObject({ text: 'username=foo&password=bar&skill=run' });
  });

  it('sends them as written elsewhere, with a warning at the body when the file names no dialect', () => {
    const file = parseHttpFile(text, '');
    expect(file.requests[0].body).toMatchObject({ text: 'username=foo&\npassword=bar&\nskill=run' });
    expect(file.warnings?.map((w) => [w.line, w.message])).toEqual([
      [
        4,
        expect.stringMatching(
          /spans several lines: dial sends the line breaks .* kulala and rest\.nvim join the lines/,
        ),
      ],
    ]);
    expect(parseHttpFile(`# @dialect jetbrains\n${text}`, '').warnings ?? []).toEqual([]);
    const continued =
      'POST http://x/post\nContent-Type: application/x-www-form-urlencoded\n\nusername=foo\n&password=bar\n';
    expect(parseHttpFile(continued, '').warnings ?? []).toEqual([]);
  });
});

describe('httpyac # @injectVariables', () => {
  it('fills in the variables of a < ./file body, as <@ does', () => {
    const [inject, plain] = parseHttpFile(
      `${HY}# @injectVariables\nPOST /a\n\n< ./body.json\n\n###\nPOST /b\n\n< ./body.json\n`,
      '',
    ).requests;
    expect(inject.body).toMatchObject({ kind: 'file', substitute: true });
    expect(plain.body).toMatchObject({ kind: 'file', substitute: false });
  });
});
