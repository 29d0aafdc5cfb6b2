import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseDialect, parseHttpFile, printHttpFile } from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';

function refusal(text: string, path = 'f.http'): { message: string; line?: number; hint?: string } {
  try {
    parseHttpFile(text, path);
  } catch (error) {
    if (!isDialError(error)) throw error;
    return { message: error.message, line: error.location?.line, hint: error.hint };
  }
  throw new Error('expected a refusal');
}

describe('refusals (never silently wrong)', () => {
  it('refuses protocol keywords with the protocol named', () => {
    for (const [line, protocol] of [
      ['AMQP amqp://x', 'AMQP'],
      ['MQTT tcp://x', 'MQTT'],
    ]) {
      const r = refusal(`###\n${line}\n`);
      expect(r.message).toContain(protocol);
      expect(r.line).toBe(2);
    }
  });
  it('refuses unknown methods, accepts WebDAV ones', () => {
    expect(refusal('FETCH http://x/a\n').message).toContain("unknown method 'FETCH'");
    for (const method of ['PROPFIND', 'MKCOL', 'PURGE', 'QUERY', 'M-SEARCH'])
      expect(parseHttpFile(`${method} http://x/a\n`, '').requests[0].method).toBe(method);
  });
  it('refuses bad run lines, GraphQL fragments; asterisk-form only as OPTIONS with a Host', () => {
    expect(refusal('### a\nrun login\n').message).toContain('bad run line');
    expect(refusal('fragment F on User {\n  id\n}\nPOST http://x/graphql\n').message).toContain('GraphQL');
    expect(parseHttpFile('OPTIONS *\nHost: example.com\n', '').requests[0].url).toBe('*');
    expect(refusal('GET *\nHost: example.com\n').message).toContain('only for OPTIONS');
    const noHost = refusal('OPTIONS * HTTP/1.1\n\n###\nGET http://x\n');
    expect(noHost.message).toContain('needs a `Host` header');
    expect(noHost.line).toBe(1);
  });
  it('refuses Lua and non-JS handler files; scripts that load modules parse (dial run checks them against Node access)', () => {
    expect(parseHttpFile('GET http://x\n\n> {%\nconst c = require("fs");\n%}\n', '').requests[0].handlers).toHaveLength(
      1,
    );
    expect(refusal('GET http://x\n\n> ./check.lua\n').message).toContain('Lua');
    // `# @lang=lua` makes the file rest.nvim's, whose Lua scripts run; named as another tool's, refused.
    expect(
      parseHttpFile('GET http://x\n# @lang=lua\n> {%\nlocal a = 1\n%}\n', '').requests[0].handlers[0],
    ).toMatchObject({
      lua: 'rest.nvim',
    });
    expect(refusal('# @dialect kulala\nGET http://x\n# @lang=lua\n> {%\nlocal a = 1\n%}\n').message).toContain("'lua'");
  });
  it('keeps the encoding of <@latin1 bodies, refuses unknown encodings', () => {
    expect(parseHttpFile('POST http://x\n\n<@latin1 ./body.txt\n', '').requests[0].body).toMatchObject({
      kind: 'file',
      path: './body.txt',
      substitute: true,
      encoding: 'latin1',
    });
    expect(parseHttpFile('POST http://x\n\n<@utf8 ./body.txt\n', '').requests[0].body).toEqual(
      expect.not.objectContaining({ encoding: expect.anything() }),
    );
    const r = refusal('POST http://x\n\n<@klingon ./body.txt\n');
    expect(r.message).toContain("unknown file encoding 'klingon'");
    expect(r.line).toBe(3);
  });
  it('refuses JavaScript in {{ }} and httpyac script blocks', () => {
    expect(refusal('POST http://x\n\n{"a": "{{Date.now()}}"}\n').line).toBe(3);
    // A `{{` block marks a file as httpyac's; read as JetBrains it is refused.
    expect(refusal('# @dialect jetbrains\n{{\n  exports.a = 1;\n}}\nGET http://x\n').message).toContain(
      'script blocks',
    );
    expect(parseHttpFile('{{\n  exports.a = 1;\n}}\nGET http://x\n', '').dialect).toBe('httpyac');
    // In httpyac a block after the request line runs after the response (tests/core/httpfile/httpyac.test.ts).
    expect(
      parseHttpFile('# @dialect httpyac\nGET /a\n\n{{\n  console.log(response);\n}}\n', '').requests[0]
        .httpyacPostScripts,
    ).toEqual([{ code: '\n  console.log(response);\n', line: 4 }]);
  });
  it('refuses a kulala env-from-command line without a command, and httpyac loops of no form httpyac knows', () => {
    // A whole `# @env-stdin-cmd NAME command` parses; it runs in trusted workspaces (shell-command.test.ts).
    expect(refusal('# @env-stdin-cmd token\nGET http://x\n').message).toContain('@env-stdin-cmd');
    // `# @loop for 3` and `# @loop while x < 3` run (httpyac.test.ts); `until` is no httpyac form.
    expect(parseHttpFile('# @loop while x < 3\nGET http://x\n', '').requests[0].httpyacLoop?.kind).toBe('while');
    expect(refusal('# @loop until x < 3\nGET http://x\n').message).toContain('@loop');
  });
  it('@disabled makes the request skipped', () => {
    expect(parseHttpFile('# @disabled\nGET http://x\n', '').requests[0].skip).toEqual({ reason: 'disabled' });
  });
});

describe('corner cases of the request line', () => {
  it('encodes spaces in a target after an explicit method', () => {
    expect(parseHttpFile('GET http://x/a b?q=c d HTTP/1.1\n', '').requests[0].url).toBe('http://x/a%20b?q=c%20d');
  });
  it('joins indented continuation lines and keeps headers apart', () => {
    const node = parseHttpFile('GET http://x/api\n    /items\n    ?a=1\n    &b=2\nAccept: */*\n', '').requests[0];
    expect(node.url).toBe('http://x/api/items?a=1&b=2');
    expect(node.headers).toHaveLength(1);
  });
  it('leaves an origin-form target for the Host header to complete (also in httpyac)', () => {
    expect(parseHttpFile('GET /path?a=1\nHost: example.com:8080\n', '').requests[0].url).toBe('/path?a=1');
    expect(parseHttpFile('# @dialect httpyac\nGET /path\nHost: example.com\n', '').requests[0].url).toBe('/path');
  });
});

describe('bodies the tools rewrite', () => {
  it('REST Client GraphQL: query + variables become a JSON payload without the marker header', () => {
    const node = parseHttpFile(
      'POST http://x/graphql\nX-REQUEST-TYPE: GraphQL\n\nquery Repo($n: String!) {\n  repo(name: $n) { id }\n}\n\n{"n": "{{name}}"}\n',
      '',
    ).requests[0];
    expect(node.headers).toEqual([]);
    const text = node.body?.kind === 'inline' ? node.body.text : '';
    expect(JSON.parse(text.replace('{{name}}', 'dial'))).toEqual({
      query: 'query Repo($n: String!) {\n  repo(name: $n) { id }\n}',
      operationName: 'Repo',
      variables: { n: 'dial' },
    });
  });
  it('httpyac GraphQL: query up to the blank line plus spread fragments, then variables', () => {
    const text =
      '# @dialect httpyac\nfragment Parts on Repo {\n  name\n}\n\nPOST https://x/graphql\nContent-Type: application/json\n\nquery test($n: String!) {\n  repo(name: $n) { ...Parts }\n}\n\n{"n": "{{name}}"}\n\nPOST https://x/graphql\n\nmutation {\n  go\n}\n';
    const [first, second] = parseHttpFile(text, '').requests;
    const body = (node: typeof first) =>
      JSON.parse((node.body?.kind === 'inline' ? node.body.text : '').replace('{{name}}', 'dial'));
    expect(body(first)).toEqual({
      query: 'query test($n: String!) {\n  repo(name: $n) { ...Parts }\n}\nfragment Parts on Repo {\n  name\n}',
      operationName: 'test',
      variables: { n: 'dial' },
    });
    expect(body(second)).toEqual({ query: 'mutation {\n  go\n}' });
    // `gql q < ./q.gql` reads the query from a file (tests/core/httpfile/httpyac.test.ts).
    expect(
      parseHttpFile('# @dialect httpyac\nPOST https://x/graphql\n\ngql q < ./q.gql\n', '').requests[0]
        .httpyacGraphqlFile,
    ).toMatchObject({ path: './q.gql' });
  });
  it('form bodies: lines starting with & continue the previous one', () => {
    const node = parseHttpFile(
      'POST http://x\nContent-Type: application/x-www-form-urlencoded\n\nname=foo\n&password=bar\n',
      '',
    ).requests[0];
    expect(node.body).toMatchObject({ kind: 'inline', text: 'name=foo&password=bar' });
  });
});

describe('dialects', () => {
  const twoRequests = 'POST /a\nContent-Type: text/plain\n\nhello\n\n# @name second\nGET /b\n';
  it('httpyac starts a request at every request line and prefixes {{host}}', () => {
    const file = parseHttpFile(`# @dialect httpyac\n${twoRequests}`, '');
    expect(file.requests.map((r) => [r.method, r.url, r.name])).toEqual([
      ['POST', '{{host}}/a', undefined],
      ['GET', '{{host}}/b', 'second'],
    ]);
    expect(file.requests[0].body).toMatchObject({ kind: 'inline', text: 'hello' });
    expect(printHttpFile(file)).toBe(`# @dialect httpyac\n${twoRequests}`);
  });
  it('in a file that names no tool it starts a request too, with a warning naming its line', () => {
    const file = parseHttpFile(`POST http://x/a\n\nhello\nGET http://x/b\n`, 'f.http');
    expect(file.requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', 'http://x/a'],
      ['GET', 'http://x/b'],
    ]);
    expect(file.requests[0].body).toMatchObject({ kind: 'inline', text: 'hello' });
    expect(file.warnings).toEqual([
      expect.objectContaining({ line: 4, file: 'f.http', message: expect.stringContaining('no `###` is above it') }),
    ]);
  });
  it('in a file that names JetBrains or REST Client such a line is body, with a warning naming its line', () => {
    for (const [text, path] of [
      ['# @dialect jetbrains\nPOST http://x/a\n\nhello\nGET http://x/b\n', 'f.http'],
      ['POST http://x/a\n\nhello\nGET http://x/b\n', 'f.rest'],
    ]) {
      const file = parseHttpFile(text, path);
      expect(file.requests).toHaveLength(1);
      expect(file.requests[0].body).toMatchObject({ kind: 'inline', text: 'hello\nGET http://x/b' });
      expect(file.warnings?.[0]).toMatchObject({ message: expect.stringContaining('looks like a request line') });
    }
  });
  it('detects httpyac from its workspace and from its constructs; the file line wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dial-dialect-'));
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'env'));
    writeFileSync(join(dir, 'env', 'dev.env'), 'host=http://x\n');
    mkdirSync(join(dir, 'api'));
    expect(chooseDialect('GET /a\n', join(dir, 'api', 'a.http'))).toEqual({ dialect: 'httpyac', source: 'workspace' });
    expect(chooseDialect('# @ref login\nGET /a\n', '')).toEqual({ dialect: 'httpyac', source: 'constructs' });
    expect(chooseDialect('# @dialect jetbrains\n# @ref login\nGET /a\n', join(dir, 'a.http'))).toEqual({
      dialect: 'jetbrains',
      source: 'file',
    });
    expect(chooseDialect('GET http://x\n', '')).toEqual({ dialect: 'jetbrains', source: 'default' });
    const guessed = parseHttpFile('GET /a\n\nGET /b\n', join(dir, 'api', 'g.http'));
    expect(guessed.requests.map((r) => r.url)).toEqual(['{{host}}/a', '{{host}}/b']);
    expect(guessed.warnings).toHaveLength(1);
    expect(guessed.warnings?.[0].message).toContain('read as httpyac');
    expect(parseHttpFile('# @dialect httpyac\nGET /a\n', join(dir, 'api', 'h.http')).warnings).toBeUndefined();
    expect(refusal('# @dialect nope\nGET http://x\n').message).toContain("unknown dialect 'nope'");
  });
});

describe('rest.nvim 0.x: a request line ends the request above it (request/init.lua end_request at ffcb016)', () => {
  const legacy = [
    'POST http://x/users',
    'Content-Type: application/json',
    '',
    '{"a": 1}',
    '',
    '{%',
    'local body = context.json_decode(context.result.body)',
    '%}',
    '',
    '# the second one',
    'GET http://x/users?page=2',
    '',
  ].join('\n');
  it('splits a file marked 0.x by its context script, with one warning at the new request line', () => {
    const file = parseHttpFile(legacy, 'legacy.http');
    expect(file.dialect).toBe('rest.nvim');
    expect(file.requests.map((r) => [r.method, r.url])).toEqual([
      ['POST', 'http://x/users'],
      ['GET', 'http://x/users?page=2'],
    ]);
    expect(file.requests[0].body).toMatchObject({ kind: 'inline', text: '{"a": 1}' });
    expect(file.warnings).toHaveLength(1);
    expect(file.warnings?.[0]).toMatchObject({ line: 11 });
    expect(file.warnings?.[0].message).toContain('rest.nvim 0.x');
  });
  it('a rest.nvim file without a 0.x mark keeps v3 reading: body text, with a warning', () => {
    const v3 = '# @dialect rest.nvim\nPOST http://x/a\n\nhello\nGET http://x/b\n';
    const file = parseHttpFile(v3, 'v3.http');
    expect(file.requests).toHaveLength(1);
    expect(file.warnings?.[0]).toMatchObject({ line: 5 });
  });
});

describe('a kulala workspace (kulala.nvim tests/functional/fixtures/export, MIT)', () => {
  const form = 'POST http://x/post\nContent-Type: application/x-www-form-urlencoded\n\nuser=foo&\npassword=bar\n';
  function workspace(envText: string, envName = 'http-client.env.json'): string {
    const dir = mkdtempSync(join(tmpdir(), 'dial-kulala-ws-'));
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'api'));
    writeFileSync(join(dir, 'api', envName), envText);
    return join(dir, 'api', 'a.http');
  }
  const kulalaSchema =
    '{\n  "$schema": "https://raw.githubusercontent.com/mistweaverco/kulala.nvim/main/schemas/http-client.env.schema.json",\n  "dev": {}\n}\n';
  it("an env file whose $schema is kulala's marks the folder as kulala's: form lines are joined, no warning", () => {
    const file = workspace(kulalaSchema);
    expect(chooseDialect(form, file)).toEqual({ dialect: 'kulala', source: 'workspace' });
    const parsed = parseHttpFile(form, file);
    expect(parsed.requests[0].body).toMatchObject({ kind: 'inline', text: 'user=foo&password=bar' });
    expect(parsed.warnings).toBeUndefined();
  });
  it('the private env file marks it too; the file line and the flag still win', () => {
    const file = workspace(kulalaSchema, 'http-client.private.env.json');
    expect(chooseDialect(form, file)).toEqual({ dialect: 'kulala', source: 'workspace' });
    expect(chooseDialect(`# @dialect jetbrains\n${form}`, file)).toEqual({ dialect: 'jetbrains', source: 'file' });
    expect(chooseDialect(form, file, 'rest.nvim')).toEqual({ dialect: 'rest.nvim', source: 'flag' });
  });
  it('an env file with another $schema, or none, marks nothing: the form keeps its lines, with a warning', () => {
    for (const text of [
      '{"$schema": "https://example.com/http-client.env.schema.json", "dev": {}}',
      '{"dev": {"kulala": 1}}',
    ]) {
      const file = workspace(text);
      expect(chooseDialect(form, file)).toEqual({ dialect: 'jetbrains', source: 'default' });
      const parsed = parseHttpFile(form, file);
      expect(parsed.requests[0].body).toMatchObject({ kind: 'inline', text: 'user=foo&\npassword=bar' });
      expect(parsed.warnings?.[0]).toMatchObject({ line: 4 });
    }
  });
});

describe('a `# @name` above a second request line in one `###` block (MatiasSolisBello/booking_api)', () => {
  const text = [
    '### Crear usuario',
    'POST http://x/auth/users/ HTTP/1.1',
    'Content-Type: application/json',
    '',
    '{"username": "c"}',
    '',
    '# @name login',
    'POST http://x/auth/jwt/create/ HTTP/1.1',
    'Content-Type: application/json',
    '',
    '{"username": "c"}',
    '',
    '### Refrescar',
    'POST http://x/auth/jwt/refresh/',
    '',
    '{"refresh": "{{login.response.body.access}}"}',
    '',
  ].join('\n');

  it('means httpyac, which reads a second named request there', () => {
    expect(chooseDialect(text, '')).toEqual({ dialect: 'httpyac', source: 'constructs' });
    const file = parseHttpFile(text, 'customer.http');
    expect(file.requests.map((r) => r.name)).toEqual(['Crear usuario', 'login', 'Refrescar']);
    expect(file.requests[0].body).toMatchObject({ text: '{"username": "c"}' });
  });

  it('a `# @name` after `###`, or a second request line without one, keeps the common reading', () => {
    expect(chooseDialect('GET http://x/a\n\n###\n# @name b\nGET http://x/b\n', '')).toEqual({
      dialect: 'jetbrains',
      source: 'default',
    });
    expect(chooseDialect('GET http://x/a\n\nGET http://x/b\n', '')).toEqual({
      dialect: 'jetbrains',
      source: 'default',
    });
    // A kulala-only key wins over this weaker sign.
    expect(chooseDialect(`# @env-json-key ID json.id\n${text}`, '').dialect).toBe('kulala');
  });
});

describe('`#@key` with no blank after the comment mark (twelfth sweep)', () => {
  const text = '#@name login\nGET http://x/a\n\n###\n# @name b\n//@no-redirect\nGET http://x/b\n';
  it('is a comment in the httpyac and kulala dialects, with a warning at its line', () => {
    for (const dialect of ['httpyac', 'kulala'] as const) {
      const file = parseHttpFile(text, 'f.http', { dialect });
      expect(file.requests[0].name).toBeUndefined();
      expect(file.warnings?.[0].message).toContain(`'#@name' is a comment in ${dialect}`);
    }
    const file = parseHttpFile(text, 'f.http', { dialect: 'httpyac' });
    expect(file.requests[0].name).toBeUndefined();
    expect(file.requests[1].name).toBe('b');
    expect(file.requests[1].metadata.map((m) => m.key)).toEqual(['name']);
    expect(file.warnings?.map((w) => w.line)).toEqual([1, 6]);
    expect(file.warnings?.[0].message).toContain("'#@name' is a comment in httpyac");
    expect(file.warnings?.[0].hint).toContain('`# @name`');
    expect(file.warnings?.[1].hint).toContain('`// @no-redirect`');
  });
  it('is metadata for REST Client and JetBrains, without a warning', () => {
    for (const dialect of ['rest-client', 'jetbrains'] as const) {
      const file = parseHttpFile(text, 'f.http', { dialect });
      expect(file.requests[0].name).toBe('login');
      expect(file.requests[1].metadata.map((m) => m.key)).toEqual(['name', 'no-redirect']);
      expect(file.warnings).toBeUndefined();
    }
  });
  it('is metadata in a file that names no tool, with a warning naming the tools that differ', () => {
    const file = parseHttpFile(text, 'f.http');
    expect(file.requests[0].name).toBe('login');
    expect(file.warnings?.map((w) => w.line)).toEqual([1, 6]);
    expect(file.warnings?.[0].message).toContain('httpyac');
    expect(file.warnings?.[0].hint).toContain('# @dialect httpyac');
  });
  it('kulala reads only a line starting `# @` as metadata: `## @name` and `// @name` are comments there', () => {
    const file = parseHttpFile(
      '# @name a\nGET http://x/a\n\n###\n## @name b\nGET http://x/b\n\n###\n// @no-redirect\nGET http://x/c\n',
      'f.http',
      { dialect: 'kulala' },
    );
    expect(file.requests.map((r) => r.name)).toEqual(['a', undefined, undefined]);
    expect(file.requests[2].metadata).toEqual([]);
    expect(file.warnings?.map((w) => [w.line, w.hint])).toEqual([
      [5, 'write `# @name` for @name to act'],
      [9, 'write `# @no-redirect` for @no-redirect to act'],
    ]);
  });
  it('a key no tool acts on (a commented-out `#@id = …` variable) is a comment without a warning', () => {
    for (const dialect of ['httpyac', 'rest-client', undefined] as const) {
      const file = parseHttpFile('#@id = 1\n#@id = 2\nGET http://x/a\n', 'f.http', dialect ? { dialect } : {});
      expect(file.warnings).toBeUndefined();
      expect(file.requests[0].metadata.filter((m) => m.key === 'id').length).toBe(dialect === 'httpyac' ? 0 : 2);
    }
  });
  it('`# @name`, `## @name` and `// @name` stay metadata for httpyac, REST Client and the common reading', () => {
    for (const dialect of ['httpyac', 'rest-client', undefined] as const) {
      const file = parseHttpFile(
        '# @name a\nGET http://x/a\n\n###\n## @name b\nGET http://x/b\n\n###\n// @name c\nGET http://x/c\n',
        'f.http',
        dialect ? { dialect } : {},
      );
      expect(file.requests.map((r) => r.name)).toEqual(['a', 'b', 'c']);
      expect(file.warnings).toBeUndefined();
    }
  });
});
