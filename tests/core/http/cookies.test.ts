import { describe, expect, it } from 'vitest';
import { createCookieJar } from '../../../src/core/http/index.js';

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
