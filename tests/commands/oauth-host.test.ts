/**
 * The browser opener of OAuth sign-ins: `$BROWSER` first (with `%s` or the URL appended), then the
 * platform's opener, and none on a Linux without a display (the printed URL is then enough). The
 * opener really runs the command: a `$BROWSER` script writes the URL it was given.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserCommand, oauthHost, openInBrowser } from '../../src/commands/oauth-host.js';
import { tempDir } from '../helpers/cli.js';

const URL_ = 'http://127.0.0.1:8080/authorize?a=1&b=2';

describe('browserCommand', () => {
  it.each([
    [{ BROWSER: 'firefox' }, 'linux', ['firefox', URL_]],
    [{ BROWSER: 'my-browser --new-tab %s --x' }, 'linux', ['my-browser', '--new-tab', URL_, '--x']],
    [{}, 'darwin', ['open', URL_]],
    [{}, 'win32', ['cmd', '/c', 'start', '""', 'http://127.0.0.1:8080/authorize?a=1^&b=2']],
    [{ DISPLAY: ':0' }, 'linux', ['xdg-open', URL_]],
    [{ WAYLAND_DISPLAY: 'wayland-0' }, 'linux', ['xdg-open', URL_]],
    [{}, 'linux', undefined],
  ] as const)('%j on %s', (env, platform, expected) => {
    expect(browserCommand(URL_, env, platform)).toEqual(expected);
  });
});

describe('openInBrowser', () => {
  it('runs $BROWSER with the URL and does not wait on it; a missing program is no error', async () => {
    const dir = tempDir();
    const out = join(dir, 'opened.txt');
    const script = join(dir, 'browser.cjs');
    writeFileSync(script, `require('node:fs').writeFileSync(${JSON.stringify(out)}, process.argv[2]);\n`);
    await openInBrowser(URL_, { BROWSER: `${process.execPath} ${script}` }, 'linux');
    for (let i = 0; i < 100; i++) {
      try {
        if (readFileSync(out, 'utf8') === URL_) break;
      } catch {
        // not written yet
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(readFileSync(out, 'utf8')).toBe(URL_);
    await expect(openInBrowser(URL_, { BROWSER: join(dir, 'no-such-browser') }, 'linux')).resolves.toBeUndefined();
  });

  it('oauthHost prints each notice as a line and reads DIAL_OAUTH_TIMEOUT', () => {
    const lines: string[] = [];
    const host = oauthHost((text) => lines.push(text), { DIAL_OAUTH_TIMEOUT: '12' });
    host.notify('dial: sign in');
    expect(lines).toEqual(['dial: sign in\n']);
    expect(host.interactionTimeoutMs).toBe(12_000);
    expect(oauthHost(() => undefined, {}).interactionTimeoutMs).toBeUndefined();
    expect(oauthHost(() => undefined, {}).interactive).toBe(true);
    expect(oauthHost(() => undefined, { CI: 'true' }).interactive).toBe(false);
    expect(oauthHost(() => undefined, { CI: 'true', BROWSER: 'signer' }).interactive).toBe(true);
  });
});
