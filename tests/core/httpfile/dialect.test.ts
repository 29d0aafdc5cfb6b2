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
    for (const [line, protocol] of [['GRAPHQL http://x/q', 'GraphQL'], ['WS ws://x/s', 'WebSocket'], ['GRPC localhost:50051/a.B/C', 'gRPC'], ['SSE http://x/e', 'server-sent'], ['MQTT tcp://x', 'MQTT']]) {
      const r = refusal(`###\n${line}\n`);
      expect(r.message).toContain(protocol);
      expect(r.line).toBe(2);
    }
  });
  it('refuses unknown methods, accepts WebDAV ones', () => {
    expect(refusal('FETCH http://x/a\n').message).toContain("unknown method 'FETCH'");
    for (const method of ['PROPFIND', 'MKCOL', 'PURGE', 'QUERY', 'M-SEARCH']) expect(parseHttpFile(`${method} http://x/a\n`, '').requests[0].method).toBe(method);
  });
  it('refuses run and import lines, GraphQL fragments, asterisk-form', () => {
    expect(refusal('### a\nrun #login\n').message).toContain('`run`');
    expect(refusal('import ./other.http\n').message).toContain('`import`');
    expect(refusal('fragment F on User {\n  id\n}\nPOST http://x/graphql\n').message).toContain('GraphQL');
    expect(refusal('OPTIONS *\nHost: example.com\n').message).toContain('asterisk');
  });
  it('refuses scripts that load modules, Lua, and non-JS handler files', () => {
    expect(refusal('GET http://x\n\n> {%\nconst c = require("crypto");\n%}\n').message).toContain("module 'crypto'");
    expect(refusal('GET http://x\n\n> ./check.lua\n').message).toContain('Lua');
    expect(refusal('GET http://x\n# @lang=lua\n> {%\nlocal a = 1\n%}\n').message).toContain("'lua'");
  });
  it('refuses <@latin1 bodies, accepts <@utf8', () => {
    const r = refusal('POST http://x\n\n<@latin1 ./body.txt\n');
    expect(r.message).toContain('latin1');
    expect(r.line).toBe(3);
    expect(parseHttpFile('POST http://x\n\n<@utf8 ./body.txt\n', '').requests[0].body).toMatchObject({ kind: 'file', path: './body.txt', substitute: true });
  });
  it('refuses kulala env-from-command metadata and httpyac loops', () => {
    expect(refusal('# @env-stdin-cmd token echo 1\nGET http://x\n').message).toContain('@env-stdin-cmd');
    expect(refusal('# @loop for 3\nGET http://x\n').message).toContain('@loop');
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
  it('completes an origin-form target from the Host header', () => {
    expect(parseHttpFile('GET /path?a=1\nHost: example.com:8080\n', '').requests[0].url).toBe('http://example.com:8080/path?a=1');
  });
});

describe('dialects', () => {
  const twoRequests = 'POST /a\nContent-Type: text/plain\n\nhello\n\n# @name second\nGET /b\n';
  it('httpyac starts a request at every request line and prefixes {{host}}', () => {
    const file = parseHttpFile(`# @dialect httpyac\n${twoRequests}`, '');
    expect(file.requests.map((r) => [r.method, r.url, r.name])).toEqual([['POST', '{{host}}/a', undefined], ['GET', '{{host}}/b', 'second']]);
    expect(file.requests[0].body).toMatchObject({ kind: 'inline', text: 'hello' });
    expect(printHttpFile(file)).toBe(`# @dialect httpyac\n${twoRequests}`);
  });
  it('elsewhere such a line is body, with a warning naming its line', () => {
    const file = parseHttpFile(`POST http://x/a\n\nhello\nGET http://x/b\n`, 'f.http');
    expect(file.requests).toHaveLength(1);
    expect(file.warnings?.[0]).toMatchObject({ line: 4, file: 'f.http' });
  });
  it('detects httpyac from its workspace and from its constructs; the file line wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dial-dialect-'));
    mkdirSync(join(dir, '.git'));
    mkdirSync(join(dir, 'env'));
    writeFileSync(join(dir, 'env', 'dev.env'), 'host=http://x\n');
    mkdirSync(join(dir, 'api'));
    expect(chooseDialect('GET /a\n', join(dir, 'api', 'a.http'))).toEqual({ dialect: 'httpyac', source: 'workspace' });
    expect(chooseDialect('# @ref login\nGET /a\n', '')).toEqual({ dialect: 'httpyac', source: 'constructs' });
    expect(chooseDialect('# @dialect jetbrains\n# @ref login\nGET /a\n', join(dir, 'a.http'))).toEqual({ dialect: 'jetbrains', source: 'file' });
    expect(chooseDialect('GET http://x\n', '')).toEqual({ dialect: 'jetbrains', source: 'default' });
    expect(refusal('# @dialect nope\nGET http://x\n').message).toContain("unknown dialect 'nope'");
  });
});
