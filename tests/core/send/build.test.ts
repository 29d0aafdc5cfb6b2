import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildRequest, type BuildRequestOptions } from '../../../src/core/send/build.js';
import { parseItem } from '../../../src/core/send/items.js';
import { DialError } from '../../../src/core/errors.js';
import type { HttpRequest } from '../../../src/core/http/types.js';
import {
  contentDispositionFilename,
  downloadFileName,
  sanitizeFileName,
  uniquePath,
} from '../../../src/core/send/download.js';
import { digestAuthorization, parseDigestChallenge } from '../../../src/core/send/digest.js';
import { peekStdinBody } from '../../../src/core/send/stdin.js';

const dir = mkdtempSync(join(tmpdir(), 'dial-build-'));
writeFileSync(join(dir, 'bio.txt'), 'line one\n');
writeFileSync(join(dir, 'meta.json'), '{"z": 1.0, "a": [1]}');
writeFileSync(join(dir, 'token.txt'), 'tok-123\n');
writeFileSync(join(dir, 'body.xml'), '<a/>');
writeFileSync(join(dir, 'bad.json'), '{nope');

function build(items: string[], options: Partial<BuildRequestOptions> = {}): HttpRequest {
  return buildRequest({
    url: 'http://localhost:3000/x',
    items: items.map(parseItem),
    cwd: dir,
    userAgent: 'dial/test',
    ...options,
  });
}
const header = (request: HttpRequest, name: string) =>
  request.headers.filter(([key]) => key.toLowerCase() === name.toLowerCase()).map(([, value]) => value);
const text = (request: HttpRequest) => (request.body.kind === 'text' ? request.body.text : undefined);
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof DialError ? error.code : String(error);
  }
  return undefined;
};

describe('buildRequest', () => {
  it('GET without data, POST with data, explicit method kept', () => {
    expect(build([]).method).toBe('GET');
    expect(build(['a=1']).method).toBe('POST');
    expect(build(['a=1'], { method: 'PUT' }).method).toBe('PUT');
    expect(build(['X:1', 'q==1']).method).toBe('GET');
  });

  it('sends JSON by default, keeping item order and number literals', () => {
    const request = build([
      'name=Ann',
      'age:=30',
      'ratio:=1.50',
      'big:=12345678901234567890',
      'ok:=true',
      'meta:=@meta.json',
      'bio=@bio.txt',
    ]);
    expect(text(request)).toBe(
      '{"name":"Ann","age":30,"ratio":1.50,"big":12345678901234567890,"ok":true,"meta":{"z": 1.0, "a": [1]},"bio":"line one\\n"}'.replace(
        '{"z": 1.0, "a": [1]}',
        '{"z":1.0,"a":[1]}',
      ),
    );
    expect(header(request, 'content-type')).toEqual(['application/json']);
    expect(header(request, 'accept')).toEqual(['application/json, */*;q=0.5']);
  });

  it('builds nested JSON (HTTPie 3 rules)', () => {
    expect(text(build(['a[b][0]=x', 'a[b][2]=z', 'a[c]:=1', 'tags[]=p', 'tags[]=q']))).toBe(
      '{"a":{"b":["x",null,"z"],"c":1},"tags":["p","q"]}',
    );
    expect(text(build(['[]:=1', '[]:=2']))).toBe('[1,2]');
    expect(text(build(['[0][type]=platform', '[1][type]=desktop']))).toBe('[{"type":"platform"},{"type":"desktop"}]');
    // Last one wins, in the first place.
    expect(text(build(['a=1', 'b=2', 'a=3']))).toBe('{"a":"3","b":"2"}');
    // A raw object can be extended.
    expect(text(build(['user:={"id":1}', 'user[name]=Ann']))).toBe('{"user":{"id":1,"name":"Ann"}}');
  });

  it('refuses type conflicts and invalid JSON in items as usage errors (exit 2); a file an item names is input (exit 3)', () => {
    expect(codeOf(() => build(['a=1', 'a[b]=2']))).toBe('E_USAGE');
    expect(codeOf(() => build(['a=1', '[]:=2']))).toBe('E_USAGE');
    expect(codeOf(() => build(['[]:=1', 'a=1']))).toBe('E_USAGE');
    expect(codeOf(() => build(['bad:=[1,']))).toBe('E_USAGE');
    expect(codeOf(() => build(['a:=notjson']))).toBe('E_USAGE');
    expect(codeOf(() => build(['bad:=@bad.json']))).toBe('E_INPUT');
    expect(codeOf(() => build(['x=@missing.txt']))).toBe('E_NOT_FOUND');
  });

  it('adds query items to the URL without re-encoding what is there', () => {
    const request = build(['q==a b', 'tag==x&y', 'f==@token.txt'], { url: 'http://h/p?keep=%2F' });
    expect(request.url).toBe('http://h/p?keep=%2F&q=a%20b&tag=x%26y&f=tok-123%0A');
  });

  it('headers: set, replace defaults, remove, empty, from a file', () => {
    const request = build([
      'Accept:text/plain',
      'User-Agent:',
      'X-Empty;',
      'X-Token:@token.txt',
      'X-Multi:1',
      'X-Multi:2',
    ]);
    expect(header(request, 'accept')).toEqual(['text/plain']);
    expect(header(request, 'user-agent')).toEqual([]);
    expect(header(request, 'x-empty')).toEqual(['']);
    expect(header(request, 'x-token')).toEqual(['tok-123']);
    expect(header(request, 'x-multi')).toEqual(['1', '2']);
    // The engine is asked not to add its own default either.
    expect(request.omitHeaders).toEqual(['user-agent']);
    expect(codeOf(() => build(['Bad Name:x']))).toBe('E_USAGE');
  });

  it('--form sends urlencoded fields and refuses raw JSON', () => {
    const request = build(['a=1 2', 'b=@bio.txt'], { mode: 'form' });
    expect(text(request)).toBe('a=1+2&b=line+one%0A');
    expect(header(request, 'content-type')).toEqual(['application/x-www-form-urlencoded; charset=utf-8']);
    expect(codeOf(() => build(['a:=1'], { mode: 'form' }))).toBe('E_USAGE');
  });

  it('multipart: --multipart, or implied by a file upload', () => {
    const request = build(['name=Ann', 'avatar@bio.txt;type=text/x-bio', 'doc@meta.json']);
    expect(request.body.kind).toBe('multipart');
    if (request.body.kind !== 'multipart') return;
    expect(request.body.parts).toEqual([
      { name: 'name', value: 'Ann' },
      { name: 'avatar', filePath: join(dir, 'bio.txt'), filename: 'bio.txt', contentType: 'text/x-bio' },
      { name: 'doc', filePath: join(dir, 'meta.json'), filename: 'meta.json', contentType: 'application/json' },
    ]);
    expect(header(request, 'content-type')).toEqual([]);
    expect(codeOf(() => build(['f@nope.bin']))).toBe('E_NOT_FOUND');
  });

  it('@file is the whole body, typed by extension; stdin bodies are JSON unless --form', () => {
    const request = build(['@body.xml']);
    expect(request.body).toEqual({ kind: 'file', path: join(dir, 'body.xml') });
    expect(header(request, 'content-type')).toEqual(['application/xml']);
    expect(request.method).toBe('POST');
    const stream = { kind: 'stream' as const, stream: (async function* () {})() };
    expect(header(build([], { stdinBody: stream }), 'content-type')).toEqual(['application/json']);
    expect(codeOf(() => build(['a=1'], { stdinBody: stream }))).toBe('E_USAGE');
    expect(codeOf(() => build(['@body.xml', 'a=1']))).toBe('E_USAGE');
  });
});

describe('stdin peeking', () => {
  it('an empty pipe is no body; a non-empty one streams every byte', async () => {
    expect(await peekStdinBody((async function* () {})())).toBeUndefined();
    const body = await peekStdinBody(
      (async function* () {
        yield Buffer.from('ab');
        yield Buffer.from('cd');
      })(),
    );
    expect(body?.kind).toBe('stream');
    if (body?.kind !== 'stream') return;
    const chunks: Buffer[] = [];
    for await (const chunk of body.stream) chunks.push(Buffer.from(chunk));
    expect(Buffer.concat(chunks).toString()).toBe('abcd');
  });
});

describe('download names', () => {
  it('reads Content-Disposition (filename* wins) and never leaves the folder', () => {
    expect(contentDispositionFilename('attachment; filename="report.pdf"')).toBe('report.pdf');
    expect(contentDispositionFilename("attachment; filename=x.txt; filename*=UTF-8''na%C3%AFve%20file.txt")).toBe(
      'naïve file.txt',
    );
    expect(downloadFileName('http://h/a/b', 'attachment; filename="../../etc/passwd"', undefined)).toBe('passwd');
    expect(downloadFileName('http://h/a/b', 'attachment; filename="..\\..\\win.ini"', undefined)).toBe('win.ini');
    expect(downloadFileName('http://h/a/b', 'attachment; filename=".."', undefined)).toBe('b');
    expect(sanitizeFileName('.hidden')).toBe('hidden');
    expect(sanitizeFileName('a\u0000b')).toBe('a_b');
    expect(sanitizeFileName('/')).toBeUndefined();
  });

  it('falls back to the URL, then index, adding an extension from the type', () => {
    expect(downloadFileName('http://h/files/data.csv?x=1', undefined, 'text/csv')).toBe('data.csv');
    expect(downloadFileName('http://h/', undefined, 'application/json')).toBe('index.json');
    expect(downloadFileName('http://h/api/users', undefined, 'application/json; charset=utf-8')).toBe('users.json');
    expect(downloadFileName('http://h/%2E%2E%2Fescape', undefined, undefined)).toBe('escape');
  });

  it('does not overwrite: name, name-1, name-2', () => {
    const taken = new Set([join('/d', 'f.txt'), join('/d', 'f.txt-1')]);
    expect(uniquePath('/d', 'f.txt', (p) => taken.has(p))).toBe(join('/d', 'f.txt-2'));
  });
});

describe('digest auth (RFC 7616 §3.9.1 vectors)', () => {
  const challengeHeader = (algorithm: string) =>
    `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${algorithm}, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`;
  const cnonce = 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ';
  const credentials = { username: 'Mufasa', password: 'Circle of Life' };

  it('prefers SHA-256 and computes the RFC response', () => {
    const challenge = parseDigestChallenge([
      ['WWW-Authenticate', challengeHeader('MD5')],
      ['WWW-Authenticate', challengeHeader('SHA-256')],
    ]);
    expect(challenge?.algorithm).toBe('SHA-256');
    const value = digestAuthorization(challenge!, credentials, 'GET', 'http://www.example.org/dir/index.html', cnonce);
    expect(value).toContain('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"');
    expect(value).toContain('qop=auth, nc=00000001');
    expect(value).toContain('uri="/dir/index.html"');
    expect(value).toContain('opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"');
  });

  it('computes the MD5 response', () => {
    const challenge = parseDigestChallenge([['www-authenticate', challengeHeader('MD5')]]);
    expect(
      digestAuthorization(challenge!, credentials, 'GET', 'http://www.example.org/dir/index.html', cnonce),
    ).toContain('response="8ca523f5e9506fed4657c9700eebdbec"');
  });

  it('ignores Basic challenges and unsupported algorithms', () => {
    expect(parseDigestChallenge([['WWW-Authenticate', 'Basic realm="x"']])).toBeUndefined();
    expect(
      parseDigestChallenge([['WWW-Authenticate', 'Digest realm="x", nonce="n", algorithm=SHA-512-256']]),
    ).toBeUndefined();
  });
});
