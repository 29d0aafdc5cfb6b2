import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  clearSessions,
  listSessions,
  locateSession,
  openSession,
  readSession,
  sessionHeaders,
} from '../../../src/core/cookies/send-session.js';
import { tempDir } from '../../helpers/cli.js';

describe('send --session files', () => {
  it('a named session lives per host in the config folder; a path is a file for any host', () => {
    const env = { DIAL_CONFIG_DIR: '/cfg' };
    expect(locateSession('ann', new URL('http://localhost:3000/x'), '/work', env)).toEqual({
      path: '/cfg/sessions/localhost_3000/ann.json',
      host: 'localhost_3000',
      name: 'ann',
    });
    expect(locateSession('ann', new URL('https://api.example.com/'), '/work', env).path).toBe(
      '/cfg/sessions/api.example.com/ann.json',
    );
    expect(locateSession('./s.json', new URL('http://h/'), '/work', env)).toEqual({
      path: '/work/s.json',
      name: './s.json',
    });
    expect(() => locateSession('../evil', new URL('http://h/'), '/work', env)).not.toThrow();
    expect(() => locateSession('a b', new URL('http://h/'), '/work', env)).toThrow(/not a session name/);
  });

  it('keeps headers (not Content-*, If-*, Cookie), credentials and cookies; writes 0600', () => {
    const env = { DIAL_CONFIG_DIR: tempDir('dial-session-') };
    const url = new URL('http://127.0.0.1:9/login');
    const location = locateSession('ann', url, '/', env);
    const session = openSession(location);
    session.update(
      {
        headers: [
          ['X-Team', 'blue'],
          ['Content-Type', 'text/plain'],
          ['If-None-Match', '"x"'],
          ['Cookie', 'hand=1; other=2'],
        ],
        auth: { type: 'basic', credentials: 'ann:pw-secret' },
      },
      url,
    );
    session.jar.store(url.href, ['sid=server; Path=/']);
    session.save();
    expect(statSync(location.path).mode & 0o777).toBe(0o600);
    const data = readSession(location.path);
    expect(data.headers).toEqual([['X-Team', 'blue']]);
    expect(data.auth).toEqual({ type: 'basic', credentials: 'ann:pw-secret' });
    expect(data.cookies.map((c) => c.name).sort()).toEqual(['hand', 'other', 'sid']);

    // The next send: its own X-Team wins, `Name:` (null) removes a header from the session.
    const next = openSession(location);
    expect(sessionHeaders(next.data, new Set(['x-team']))).toEqual([]);
    expect(next.jar.cookieHeaderFor('http://127.0.0.1:9/me')).toBe('hand=1; other=2; sid=server');
    next.update({ headers: [['X-Team', null]] }, url);
    next.save();
    expect(readSession(location.path).headers).toEqual([]);
    expect(readFileSync(location.path, 'utf8')).toContain('pw-secret');

    expect(listSessions(env).map((s) => [s.host, s.name])).toEqual([['127.0.0.1_9', 'ann']]);
    expect(clearSessions({ name: 'bob' }, env)).toEqual([]);
    expect(clearSessions({ host: '127.0.0.1_9' }, env).map((s) => s.name)).toEqual(['ann']);
    expect(listSessions(env)).toEqual([]);
    expect(() => statSync(join(env.DIAL_CONFIG_DIR, 'sessions', '127.0.0.1_9', 'ann.json'))).toThrow();
  });
});
