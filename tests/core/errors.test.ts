import { describe, expect, it } from 'vitest';
import { DialError, ExitCode, formatError } from '../../src/core/errors.js';
import { parseDuration, formatDuration } from '../../src/core/duration.js';
import { maskHeaders, redactText } from '../../src/core/secrets.js';

describe('errors', () => {
  it('maps codes to the exit codes of DESIGN §8', () => {
    expect(new DialError('E_USAGE', 'x').exitCode).toBe(ExitCode.usage);
    expect(new DialError('E_PARSE', 'x').exitCode).toBe(3);
    expect(new DialError('E_TIMEOUT', 'x').exitCode).toBe(4);
    expect(new DialError('E_HTTP_STATUS', 'x').exitCode).toBe(1);
  });

  it('formats file:line:col, the offending line, a caret and the hint', () => {
    const error = new DialError('E_PARSE', 'expected a URL', {
      location: { file: 'a.http', line: 3, col: 5, excerpt: 'GET ' },
      hint: 'write METHOD URL',
    });
    expect(formatError(error)).toBe(
      'error[E_PARSE] a.http:3:5: expected a URL\n  | GET \n  |     ^\nhint: write METHOD URL',
    );
  });

  it('shows the cause chain only when verbose', () => {
    const error = new DialError('E_CONNREFUSED', 'refused', { cause: new Error('ECONNREFUSED 127.0.0.1:1') });
    expect(formatError(error)).not.toContain('caused by');
    expect(formatError(error, true)).toContain('caused by: Error: ECONNREFUSED 127.0.0.1:1');
  });
});

describe('durations', () => {
  it('reads ms, s, m and bare seconds', () => {
    expect(parseDuration('500ms')).toBe(500);
    expect(parseDuration('5s')).toBe(5000);
    expect(parseDuration('2m')).toBe(120_000);
    expect(parseDuration('1.5')).toBe(1500);
    expect(() => parseDuration('soon')).toThrow(/invalid duration/);
    expect(formatDuration(850)).toBe('850ms');
  });
});

describe('secrets', () => {
  it('masks sensitive headers and secret values', () => {
    expect(
      maskHeaders(
        [
          ['Authorization', 'Bearer abc.def'],
          ['X-Key', 'k-secret-1'],
          ['Accept', '*/*'],
        ],
        ['k-secret-1'],
      ),
    ).toEqual([
      ['Authorization', 'Bearer ••••'],
      ['X-Key', '••••'],
      ['Accept', '*/*'],
    ]);
    expect(redactText('token=hunter22&x=1', ['hunter22'])).toBe('token=••••&x=1');
  });

  it('masks a secret in the forms it takes once used: URL-encoded, form-encoded, JSON-escaped', () => {
    const secret = 'p@ss w/rd+"q"';
    const shown = [
      `GET /get?k=${encodeURI(secret)}`,
      `GET /get?k=${encodeURIComponent(secret)}`,
      `k=${encodeURIComponent(secret).replaceAll('%20', '+')}`,
      JSON.stringify({ 'X-K': secret }),
      `X-K: ${secret}`,
    ].join('\n');
    const masked = redactText(shown, [secret]);
    expect(masked.split('••••')).toHaveLength(6);
    for (const leak of ['p@ss', 'ss%20w', 'ss+w', 'w/rd', 'rd%2B']) expect(masked).not.toContain(leak);
  });

  it('a secret cut short before a "…" (a long token shown shortened) is masked too; short coincidences are not', () => {
    const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJqb2huZG9lIn0.c2lnbmF0dXJl';
    const shown = `"Bearer ${token.slice(0, 30)}… (${token.length + 9} chars)`;
    expect(redactText(shown, [token])).toBe(`"Bearer ••••… (${token.length + 9} chars)`);
    expect(redactText('eyJhb… and more', [token])).toBe('eyJhb… and more');
    expect(redactText(`${token} then ${token.slice(0, 12)}…`, [token])).toBe('•••• then ••••…');
  });
});
