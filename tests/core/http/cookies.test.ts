import { describe, expect, it } from 'vitest';
import { createCookieJar } from '../../../src/core/http/index.js';
import { applyCookieChanges } from '../../../src/core/http/cookies.js';

describe('cookie jar', () => {
  it('host-only cookies go back to the same host only', () => {
    const jar = createCookieJar();
    jar.store('http://api.example.com/login', ['sid=1; Path=/']);
    expect(jar.cookieHeaderFor('http://api.example.com/x')).toBe('sid=1');
    expect(jar.cookieHeaderFor('http://sub.api.example.com/x')).toBeUndefined();
    expect(jar.cookieHeaderFor('http://example.com/x')).toBeUndefined();
  });

  it('Domain cookies go to subdomains; foreign domains are refused', () => {
    const jar = createCookieJar();
    jar.store('http://api.example.com/', ['a=1; Domain=.example.com', 'evil=1; Domain=other.com']);
    expect(jar.cookieHeaderFor('http://www.example.com/')).toBe('a=1');
    expect(jar.cookieHeaderFor('http://example.com/')).toBe('a=1');
    expect(jar.cookieHeaderFor('http://other.com/')).toBeUndefined();
  });

  it('matches paths (default path is the directory of the request)', () => {
    const jar = createCookieJar();
    jar.store('http://h.test/api/v1/login', ['dir=1', 'root=2; Path=/', 'deep=3; Path=/api/v1/users']);
    expect(jar.cookieHeaderFor('http://h.test/api/v1/x')).toBe('dir=1; root=2');
    expect(jar.cookieHeaderFor('http://h.test/api/v1/users/7')).toBe('deep=3; dir=1; root=2');
    expect(jar.cookieHeaderFor('http://h.test/api/v10')).toBe('root=2');
    expect(jar.cookieHeaderFor('http://h.test/')).toBe('root=2');
  });

  it('Secure cookies only over https', () => {
    const jar = createCookieJar();
    jar.store('https://h.test/', ['s=1; Secure; HttpOnly; SameSite=Lax']);
    expect(jar.cookieHeaderFor('https://h.test/')).toBe('s=1');
    expect(jar.cookieHeaderFor('http://h.test/')).toBeUndefined();
  });

  it('expiry: Max-Age, Expires, deletion and replacement', () => {
    const jar = createCookieJar();
    jar.store('http://h.test/', [
      'a=1',
      'b=2; Max-Age=3600',
      'c=3; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'd=4; Expires=Wed, 01 Jan 2celebrated',
    ]);
    expect(jar.cookieHeaderFor('http://h.test/')).toBe('a=1; b=2; d=4');
    jar.store('http://h.test/', ['a=changed', 'b=; Max-Age=0']);
    expect(jar.cookieHeaderFor('http://h.test/')).toBe('a=changed; d=4');
  });

  it('IP hosts keep cookies host-only; ports do not matter (RFC 6265)', () => {
    const jar = createCookieJar();
    jar.store('http://127.0.0.1:8080/', ['x=1; Domain=127.0.0.1']);
    expect(jar.cookieHeaderFor('http://127.0.0.1:9090/')).toBe('x=1');
    expect(jar.cookieHeaderFor('http://localhost:8080/')).toBeUndefined();
  });

  it('ignores malformed values and URLs', () => {
    const jar = createCookieJar();
    jar.store('http://h.test/', ['novalue', '=empty', 'ok=1']);
    jar.store('not a url', ['x=1']);
    expect(jar.cookieHeaderFor('http://h.test/')).toBe('ok=1');
    expect(jar.cookieHeaderFor('not a url')).toBeUndefined();
  });
});

describe('cookie jar: attributes and client-side rules (RFC 6265bis)', () => {
  it('keeps HttpOnly and SameSite, and lists cookies in send order', () => {
    const jar = createCookieJar();
    jar.store('https://h.test/a/b', ['s=1; Secure; HttpOnly; SameSite=strict; Path=/', 'deep=2; Path=/a']);
    expect(jar.list().map((c) => [c.name, c.httpOnly, c.sameSite, c.secure])).toEqual([
      ['deep', false, undefined, false],
      ['s', true, 'Strict', true],
    ]);
  });

  it('takes a Secure cookie only from https or a loopback host', () => {
    const jar = createCookieJar();
    jar.store('http://h.test/', ['s=1; Secure']);
    jar.store('http://localhost:8080/', ['l=1; Secure']);
    expect(jar.list().map((c) => c.name)).toEqual(['l']);
  });

  it('an http origin cannot overwrite a Secure cookie', () => {
    const jar = createCookieJar();
    jar.store('https://h.test/', ['sid=good; Secure; Path=/']);
    jar.store('http://h.test/', ['sid=evil; Path=/']);
    expect(jar.cookieHeaderFor('https://h.test/')).toBe('sid=good');
  });

  it('checks the __Secure- and __Host- prefixes', () => {
    const jar = createCookieJar();
    jar.store('https://a.h.test/x', [
      '__Secure-ok=1; Secure',
      '__Secure-bad=1',
      '__Host-ok=1; Secure; Path=/',
      '__Host-domain=1; Secure; Path=/; Domain=h.test',
      '__Host-path=1; Secure; Path=/x',
    ]);
    expect(jar.list().map((c) => c.name)).toEqual(['__Secure-ok', '__Host-ok']);
  });

  it('refuses a Domain of a single label (a public suffix) unless it is the host', () => {
    const jar = createCookieJar();
    jar.store('http://api.example.com/', ['tld=1; Domain=com', 'ok=1; Domain=example.com']);
    jar.store('http://localhost/', ['local=1; Domain=localhost']);
    expect(jar.list().map((c) => `${c.name}@${c.domain}`)).toEqual(['ok@example.com', 'local@localhost']);
    expect(jar.cookieHeaderFor('http://other.com/')).toBeUndefined();
  });

  it('starts from saved cookies (expired ones dropped) and records only what changed', () => {
    const now = Date.now();
    const saved = { domain: 'h.test', hostOnly: true, path: '/', secure: false, httpOnly: false, created: now };
    const jar = createCookieJar([
      { ...saved, name: 'kept', value: '1' },
      { ...saved, name: 'old', value: '1', expires: now - 1000 },
      { ...saved, name: 'gone', value: '1' },
    ]);
    expect(jar.cookieHeaderFor('http://h.test/')).toBe('kept=1; gone=1');
    jar.store('http://h.test/', ['new=2; Path=/', 'gone=; Max-Age=0; Path=/']);
    expect([...jar.changes()].map(([key, c]) => [key.split('\t')[0], c?.value ?? null])).toEqual([
      ['new', '2'],
      ['gone', null],
    ]);
    // Applied to the file as another process left it: its own cookie stays.
    const merged = applyCookieChanges(
      [
        { ...saved, name: 'gone', value: '1' },
        { ...saved, name: 'other', value: '3' },
      ],
      jar.changes(),
    );
    expect(merged.map((c) => c.name).sort()).toEqual(['new', 'other']);
  });

  it('Max-Age wins over Expires whichever comes first', () => {
    const jar = createCookieJar();
    jar.store('http://h.test/', [
      'a=1; Max-Age=3600; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      'b=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=3600',
    ]);
    expect(jar.cookieHeaderFor('http://h.test/')).toBe('a=1; b=1');
  });
});
