/**
 * What `dial send`, `dial run` and the workbench give core/oauth: sign-in instructions on stderr
 * and a browser opener. The opener is `$BROWSER` when set (the command, with `%s` replaced by the
 * URL or the URL appended: the convention of xdg-open and Python's webbrowser), else the
 * platform's (`open` on macOS, `start` on Windows, `xdg-open` on Linux with a display). It is
 * started and let go: a missing browser never fails or blocks a sign-in, the printed URL is
 * enough. `DIAL_OAUTH_TIMEOUT` (seconds) bounds the wait for the user (default 300).
 */
import type { OAuthHost } from '../core/oauth/index.js';

type Env = Record<string, string | undefined>;

/** The command that opens a URL here, or undefined where there is no browser to open. */
export function browserCommand(url: string, env: Env, platform: NodeJS.Platform): string[] | undefined {
  const browser = env.BROWSER?.trim();
  if (browser) {
    const words = browser.split(/\s+/);
    return words.some((word) => word.includes('%s'))
      ? words.map((word) => word.replaceAll('%s', url))
      : [...words, url];
  }
  if (platform === 'darwin') return ['open', url];
  if (platform === 'win32') return ['cmd', '/c', 'start', '""', url.replace(/&/g, '^&')];
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return ['xdg-open', url];
  return undefined;
}

/** Starts the browser on a URL without waiting for it; failures are ignored (the URL is printed). */
export async function openInBrowser(url: string, env: Env = process.env, platform = process.platform): Promise<void> {
  const command = browserCommand(url, env, platform);
  if (!command) return;
  // Loaded here: only a sign-in needs it, and dial's start-up does not pay for it.
  const { spawn } = await import('node:child_process');
  try {
    const child = spawn(command[0], command.slice(1), {
      stdio: 'ignore',
      detached: true,
      env: env as NodeJS.ProcessEnv,
    });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No such program: the printed URL is enough.
  }
}

/** The OAuth host for a command: `write` prints a line (stderr). */
export function oauthHost(write: (text: string) => void, env: Env = process.env): OAuthHost {
  const seconds = Number(env.DIAL_OAUTH_TIMEOUT);
  return {
    notify: (message) => write(`${message}\n`),
    openBrowser: (url) => openInBrowser(url, env),
    // In CI nobody signs in, unless $BROWSER is a program that does.
    interactive: !env.CI || !!env.BROWSER,
    ...(Number.isFinite(seconds) && seconds > 0 ? { interactionTimeoutMs: seconds * 1000 } : {}),
  };
}
