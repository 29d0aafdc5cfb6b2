/**
 * The BUILT binary in a real pseudo-terminal (tmux): a password from http-client.private.env.json,
 * reflected by `dial echo`, never reaches the screen until ctrl+r reveals it; a handler script reads
 * the environment; an unknown `theme` setting stops `dial open` with E_CONFIG. Needs a fresh build.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';

const BIN = process.env.DIAL_TUI_BIN ?? DIAL_BIN;
const PASSWORD = 'hunter2-pty-secret';
const socket = `dial-secrets-${process.pid}`;
const tmux = (...args: string[]): string => execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
const hasTmux = (() => {
  try {
    execFileSync('tmux', ['-V']);
    return true;
  } catch {
    return false;
  }
})();

const capture = (): string => tmux('capture-pane', '-p', '-t', 'tui');
const keys = (...k: string[]): void => {
  tmux('send-keys', '-t', 'tui', ...k);
};

/** Polls the pane until `predicate` holds; every screen seen is kept so a flash of the secret is caught too. */
const seen: string[] = [];
async function waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = capture();
    seen.push(screen);
    if (predicate(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${screen}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const waitForText = (...texts: string[]): Promise<string> => waitFor((s) => texts.every((t) => s.includes(t)), JSON.stringify(texts));

describe.skipIf(!hasTmux)('dial open: secrets and settings in a real terminal', () => {
  let echo: EchoServer;
  let workspace: string;

  const start = (configDir: string): void => {
    const command = `env -u CI -u NO_COLOR DIAL_CONFIG_DIR='${configDir}' TERM=xterm-256color '${process.execPath}' '${BIN}' open '${workspace}' -e local; echo "dial exited with $?"; exec sleep 600`;
    tmux('respawn-pane', '-k', '-t', 'tui', command);
  };

  beforeAll(async () => {
    echo = await startEchoServer();
    workspace = tempDir('dial-tui-secrets-');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'http-client.env.json'), JSON.stringify({ local: { baseUrl: echo.url, user: 'ada' } }));
    writeFileSync(join(workspace, 'http-client.private.env.json'), JSON.stringify({ local: { password: PASSWORD } }));
    writeFileSync(
      join(workspace, 'login.http'),
      [
        '# @name login',
        'POST {{baseUrl}}/anything/login',
        'Content-Type: application/json',
        'X-Password: {{password}}',
        '',
        '{"user": "{{user}}", "password": "{{password}}"}',
        '',
        '> {%',
        '  client.test("env user is ada", function () {',
        '    client.assert(request.environment.get("user") === "ada", "user was " + request.environment.get("user"));',
        '  });',
        '%}',
        '',
      ].join('\n'),
    );
    tmux('new-session', '-d', '-x', '120', '-y', '45', '-s', 'tui', 'sleep 600');
  });

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
    await echo?.close();
  });

  it('masks the reflected private password until ctrl+r, and the handler sees the environment', async () => {
    const configDir = tempDir('dial-tui-config-');
    start(configDir);
    await waitForText('login', 'env: local', 'secrets hidden');
    keys('Enter');
    let screen = await waitForText('200 OK', '"X-Password": "••••"');
    expect(screen).toContain('\\"password\\": \\"••••\\"');
    keys('Tab', 'Tab', ']', ']', ']');
    await waitForText('✓ env user is ada');
    keys(']');
    screen = await waitForText('X-Password: ••••', 'HTTP/1.1 200 OK');
    expect(seen.some((s) => s.includes(PASSWORD))).toBe(false);

    keys('C-r');
    screen = await waitForText('secrets SHOWN', `X-Password: ${PASSWORD}`);
    keys('C-r');
    await waitFor((s) => s.includes('secrets hidden') && !s.includes(PASSWORD), 'the secret masked again');

    keys('q');
    const exited = await waitFor((s) => /dial exited with \d+/.test(s), 'dial to exit');
    expect(/dial exited with (\d+)/.exec(exited)![1]).toBe('0');
    // History on disk never held the password either.
    const history = readFileSync(join(configDir, 'history.jsonl'), 'utf8');
    expect(history).toContain('login');
    expect(history).not.toContain(PASSWORD);
  });

  it('an unknown theme setting stops `dial open` with E_CONFIG naming it', async () => {
    const configDir = tempDir('dial-tui-config-');
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ theme: 'neon' }));
    start(configDir);
    const screen = await waitFor((s) => /dial exited with \d+/.test(s), 'dial to exit');
    expect(screen).toContain("unknown theme 'neon'");
    expect(screen).toContain('E_CONFIG');
    expect(/dial exited with (\d+)/.exec(screen)![1]).toBe('3');
  });
});
