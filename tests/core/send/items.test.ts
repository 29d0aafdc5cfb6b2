import { describe, expect, it } from 'vitest';
import { parseItem, parseKeyPath } from '../../../src/core/send/items.js';
import { expandUrl, isMethodToken, splitPositionals } from '../../../src/core/send/url.js';
import { DialError } from '../../../src/core/errors.js';

const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof DialError ? error.code : 'not a DialError';
  }
  return undefined;
};

describe('parseItem', () => {
  it('reads every separator', () => {
    expect(parseItem('X-Api:abc')).toMatchObject({ kind: 'header', name: 'X-Api', value: 'abc' });
    expect(parseItem('User-Agent:')).toMatchObject({ kind: 'header-remove', name: 'User-Agent' });
    expect(parseItem('X-Empty;')).toMatchObject({ kind: 'header-empty', name: 'X-Empty' });
    expect(parseItem('X-File:@token.txt')).toMatchObject({
      kind: 'header',
      name: 'X-File',
      value: 'token.txt',
      fromFile: true,
    });
    expect(parseItem('q==search me')).toMatchObject({ kind: 'query', name: 'q', value: 'search me' });
    expect(parseItem('q==@query.txt')).toMatchObject({ kind: 'query', name: 'q', value: 'query.txt', fromFile: true });
    expect(parseItem('name=Ann')).toMatchObject({
      kind: 'data',
      key: 'name',
      value: 'Ann',
      path: [{ kind: 'key', name: 'name' }],
    });
    expect(parseItem('bio=@bio.txt')).toMatchObject({ kind: 'data', key: 'bio', value: 'bio.txt', fromFile: true });
    expect(parseItem('age:=30')).toMatchObject({ kind: 'json', key: 'age', value: '30' });
    expect(parseItem('meta:=@meta.json')).toMatchObject({
      kind: 'json',
      key: 'meta',
      value: 'meta.json',
      fromFile: true,
    });
    expect(parseItem('avatar@img/a.png')).toMatchObject({
      kind: 'file',
      key: 'avatar',
      path: 'img/a.png',
      contentType: undefined,
    });
    expect(parseItem('avatar@a.bin;type=image/png')).toMatchObject({
      kind: 'file',
      key: 'avatar',
      path: 'a.bin',
      contentType: 'image/png',
    });
    expect(parseItem('@body.json')).toMatchObject({ kind: 'body-file', path: 'body.json' });
  });

  it('takes the earliest separator, the longest one at that place', () => {
    expect(parseItem('url==http://x/?a=b')).toMatchObject({ kind: 'query', name: 'url', value: 'http://x/?a=b' });
    expect(parseItem('Referer:http://x/a=b')).toMatchObject({ kind: 'header', name: 'Referer', value: 'http://x/a=b' });
    expect(parseItem('expr=a:=b')).toMatchObject({ kind: 'data', key: 'expr', value: 'a:=b' });
    expect(parseItem('list:=["a=b"]')).toMatchObject({ kind: 'json', key: 'list', value: '["a=b"]' });
    expect(parseItem('email=a@b.c')).toMatchObject({ kind: 'data', key: 'email', value: 'a@b.c' });
  });

  it('honours backslash escapes of separator characters', () => {
    expect(parseItem('a\\:b=c')).toMatchObject({ kind: 'data', key: 'a:b', value: 'c' });
    expect(parseItem('key\\=with\\=eq=v')).toMatchObject({ kind: 'data', key: 'key=with=eq', value: 'v' });
    expect(parseItem('email\\@host=x')).toMatchObject({ kind: 'data', key: 'email@host', value: 'x' });
    expect(parseItem('X-Weird\\:Name:v')).toMatchObject({ kind: 'header', name: 'X-Weird:Name' });
    expect(parseItem('path=C:\\dir')).toMatchObject({ kind: 'data', key: 'path', value: 'C:\\dir' });
    expect(parseItem('back\\\\slash=1')).toMatchObject({ kind: 'data', key: 'back\\slash', value: '1' });
    expect(parseItem('\\@literal=x')).toMatchObject({ kind: 'data', key: '@literal' });
  });

  it('refuses items without a separator or a name (usage errors)', () => {
    expect(codeOf(() => parseItem('justtext'))).toBe('E_USAGE');
    expect(codeOf(() => parseItem(':value'))).toBe('E_USAGE');
    expect(codeOf(() => parseItem('==x'))).toBe('E_USAGE');
    expect(codeOf(() => parseItem('@'))).toBe('E_USAGE');
  });
});

describe('parseKeyPath', () => {
  it('splits nested keys', () => {
    expect(parseKeyPath('a[b][0][]')).toEqual([
      { kind: 'key', name: 'a' },
      { kind: 'key', name: 'b' },
      { kind: 'index', index: 0 },
      { kind: 'append' },
    ]);
    expect(parseKeyPath('[]')).toEqual([{ kind: 'append' }]);
    expect(parseKeyPath('[2][name]')).toEqual([
      { kind: 'index', index: 2 },
      { kind: 'key', name: 'name' },
    ]);
    expect(parseKeyPath('plain')).toEqual([{ kind: 'key', name: 'plain' }]);
  });

  it('treats escaped brackets as text', () => {
    expect(parseKeyPath('a\\[b\\]')).toEqual([{ kind: 'key', name: 'a[b]' }]);
    expect(parseKeyPath('a[\\1]')).toEqual([
      { kind: 'key', name: 'a' },
      { kind: 'key', name: '1' },
    ]);
    expect(parseItem('x\\[0\\]=v')).toMatchObject({ path: [{ kind: 'key', name: 'x[0]' }] });
  });

  it('refuses broken brackets', () => {
    expect(codeOf(() => parseKeyPath('a[b'))).toBe('E_USAGE');
    expect(codeOf(() => parseKeyPath('a[b]c'))).toBe('E_USAGE');
    expect(codeOf(() => parseKeyPath('a]'))).toBe('E_USAGE');
  });
});

describe('method inference and URL shorthand', () => {
  it('knows methods but never takes a host for one', () => {
    // Any spelling of a method the .http parser knows (one list: src/core/httpfile/methods.ts).
    for (const token of [
      'GET',
      'POST',
      'PROPFIND',
      'PURGE',
      'get',
      'Delete',
      'patch',
      'm-search',
      'notify',
      'Checkout',
    ])
      expect(isMethodToken(token)).toBe(true);
    for (const token of ['localhost', 'example.com', ':3000', 'api', 'Localhost'])
      expect(isMethodToken(token)).toBe(false);
  });

  it('splits positionals: a method only when a URL follows', () => {
    expect(splitPositionals(['localhost', 'a=1'])).toEqual({ url: 'localhost', items: ['a=1'] });
    expect(splitPositionals(['put', ':3000/x', 'a=1'])).toEqual({ method: 'PUT', url: ':3000/x', items: ['a=1'] });
    expect(splitPositionals(['PROPFIND', 'example.com'])).toEqual({
      method: 'PROPFIND',
      url: 'example.com',
      items: [],
    });
    expect(splitPositionals(['GET'])).toEqual({ url: 'GET', items: [] });
    expect(codeOf(() => splitPositionals([]))).toBe('E_USAGE');
  });

  it('expands shorthand', () => {
    expect(expandUrl(':3000/x')).toBe('http://localhost:3000/x');
    expect(expandUrl(':/x?a=1')).toBe('http://localhost/x?a=1');
    expect(expandUrl(':')).toBe('http://localhost/');
    expect(expandUrl('localhost:3000')).toBe('http://localhost:3000/');
    expect(expandUrl('example.com/a b')).toBe('http://example.com/a%20b');
    expect(expandUrl('https://example.com')).toBe('https://example.com/');
    expect(expandUrl('127.0.0.1:8080/p', 'https')).toBe('https://127.0.0.1:8080/p');
    expect(codeOf(() => expandUrl('ftp://x'))).toBe('E_USAGE');
    expect(codeOf(() => expandUrl('http://a b'))).toBe('E_USAGE');
    expect(codeOf(() => expandUrl('x\r\nHost: evil'))).toBe('E_HEADER_INJECTION');
  });
});
