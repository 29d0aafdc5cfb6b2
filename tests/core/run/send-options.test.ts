import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { requestSendOptions, type ExecutorOptions } from '../../../src/core/run/execute.js';
import type { CookieJar } from '../../../src/core/http/types.js';

const node = (text: string) => parseHttpFile(text, '/w/t.http').requests[0];
// requestSendOptions reads only sendOptions, timeoutMs and followRedirects of the executor options.
const options = (extra: Partial<ExecutorOptions>): ExecutorOptions =>
  ({ sendOptions: { maxRedirects: 5 }, ...extra }) as ExecutorOptions;
const jar = {} as CookieJar;
const signal = new AbortController().signal;

describe('requestSendOptions: which setting wins for one request', () => {
  it('timeout: # @timeout, then the session override, then --timeout, then the base options, then 30 s', () => {
    const plain = node('GET http://x/\n');
    const timed = node('# @timeout 2s\nGET http://x/\n');
    expect(requestSendOptions(options({ timeoutMs: 5000 }), timed, { timeoutMs: 7000 }, jar, signal).timeoutMs).toBe(
      2000,
    );
    expect(requestSendOptions(options({ timeoutMs: 5000 }), plain, { timeoutMs: 7000 }, jar, signal).timeoutMs).toBe(
      7000,
    );
    expect(requestSendOptions(options({ timeoutMs: 5000 }), plain, undefined, jar, signal).timeoutMs).toBe(5000);
    expect(
      requestSendOptions(options({ sendOptions: { timeoutMs: 9000 } }), plain, undefined, jar, signal).timeoutMs,
    ).toBe(9000);
    expect(requestSendOptions(options({}), plain, undefined, jar, signal).timeoutMs).toBe(30_000);
  });

  it('redirects: # @no-redirect always wins; else the session override, then the run option, then follow', () => {
    const plain = node('GET http://x/\n');
    const noRedirect = node('# @no-redirect\nGET http://x/\n');
    expect(
      requestSendOptions(options({ followRedirects: true }), noRedirect, { followRedirects: true }, jar, signal)
        .followRedirects,
    ).toBe(false);
    expect(
      requestSendOptions(options({ followRedirects: true }), plain, { followRedirects: false }, jar, signal)
        .followRedirects,
    ).toBe(false);
    expect(requestSendOptions(options({ followRedirects: false }), plain, undefined, jar, signal).followRedirects).toBe(
      false,
    );
    expect(requestSendOptions(options({}), plain, undefined, jar, signal).followRedirects).toBe(true);
  });

  it('keeps the base options and overrides, adds the jar, the signal and a buffered body, and copies rather than mutates', () => {
    const base = options({});
    const result = requestSendOptions(base, node('GET http://x/\n'), { maxRedirects: 2 }, jar, signal);
    expect(result).toMatchObject({ maxRedirects: 2, cookieJar: jar, signal, bodyTarget: { kind: 'buffer' } });
    expect(base.sendOptions).toEqual({ maxRedirects: 5 });
  });
});
