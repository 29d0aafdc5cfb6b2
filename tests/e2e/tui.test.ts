/**
 * Drives the BUILT binary in a real pseudo-terminal (tmux): open a workspace, filter, send to
 * `dial echo` (in-process), fold, filter with JSONPath, quit; the process exits 0 and leaves
 * the alternate screen. Needs a fresh build (`node scripts/build.mjs`) and tmux.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';

// DIAL_TUI_BIN lets a developer point the test at another build of the CLI.
const BIN = process.env.DIAL_TUI_BIN ?? DIAL_BIN;
const socket = `dial-test-${process.pid}`;
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
const paneInfo = (format: string): string => tmux('display-message', '-p', '-t', 'tui', format).trim();

/** Polls until the pane shows `text` (or `predicate` holds); bounded, no fixed sleeps. */
async function waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const screen = capture();
    if (predicate(screen)) return screen;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; screen:\n${screen}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
/** Waits for the shell's `dial exited with N` line and returns N. */
async function waitForExit(): Promise<number> {
  const screen = await waitFor((s) => /dial exited with \d+/.test(s), 'dial to exit');
  return Number(/dial exited with (\d+)/.exec(screen)![1]);
}
/** The pid of dial: the pane's shell's child. */
function dialPid(): number {
  const shell = paneInfo('#{pane_pid}');
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', shell], { encoding: 'utf8' }).trim().split(/\s+/);
  return Number(children[0]);
}
const waitForText = (text: string): Promise<string> => waitFor((s) => s.includes(text), JSON.stringify(text));
const keys = (...k: string[]): void => {
  tmux('send-keys', '-t', 'tui', ...k);
};
/** Types literal text one key at a time. */
const type = (text: string): void => {
  tmux('send-keys', '-t', 'tui', '-l', text);
};

describe.skipIf(!hasTmux)('dial open in a real terminal', () => {
  let echo: EchoServer;
  let workspace: string;

  let configDir: string;
  const start = (): void => {
    // The shell prints dial's exit status on the normal screen once dial has gone (tmux 3.3 does not
    // always reap a dead pane's process, so #{pane_dead_status} cannot be relied on).
    const command = `env -u CI -u NO_COLOR DIAL_CONFIG_DIR='${configDir}' TERM=xterm-256color '${process.execPath}' '${BIN}' open '${workspace}' -e local; echo "dial exited with $?"; exec sleep 600`;
    tmux('respawn-pane', '-k', '-t', 'tui', command);
  };

  beforeAll(async () => {
    echo = await startEchoServer();
    workspace = tempDir('dial-tui-');
    cpSync(resolve(import.meta.dirname, '../fixtures/tui/workspace'), workspace, { recursive: true });
    writeFileSync(join(workspace, 'http-client.env.json'), JSON.stringify({ local: { baseUrl: echo.url } }));
    configDir = tempDir('dial-tui-config-');
    // A shell-less pane kept after exit, so the exit status and the normal screen can be read.
    tmux('new-session', '-d', '-x', '120', '-y', '40', '-s', 'tui', 'sleep 600');
  });

  afterAll(async () => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
    await echo?.close();
  });

  it('opens, sends, folds, filters with JSONPath and quits cleanly', async () => {
    start();
    await waitForText('listUsers');
    expect(paneInfo('#{alternate_on}')).toBe('1');
    await waitForText('env: local');

    keys('/');
    type('create');
    await waitFor((s) => s.includes('/create') && !s.includes('listUsers'), 'the filtered tree');
    keys('Enter');
    await waitForText('POST {{host}}/post');

    keys('Enter');
    let screen = await waitForText('200 OK');
    expect(screen).toContain('"json": {');
    expect(screen).toContain('"name": "ada"');

    keys('Tab');
    keys('Tab');
    keys('Z');
    screen = await waitForText('"json": { … } 1 item');

    keys('$');
    await waitForText('JSONPath: $');
    keys('C-u');
    type('$.headers');
    keys('Enter');
    screen = await waitForText('1 match for $.headers');
    expect(screen).toMatch(/"Content-Type": "application\/json"/i);
    expect(screen).not.toContain('"json"');

    // Grow the terminal: the frame is redrawn for the new size with nothing left of the old one.
    tmux('resize-window', '-t', 'tui', '-x', '140', '-y', '45');
    screen = await waitFor((s) => s.split('\n')[0].trimEnd().length === 140, 'the redraw at 140 columns');
    const lines = screen.split('\n');
    expect(lines[0].trimEnd().endsWith('╮')).toBe(true);
    expect(lines.filter((line) => line.includes('env: local'))).toHaveLength(1);
    expect(lines[43]).toContain('env: local');
    expect(lines.filter((line) => line.startsWith('╰'))).toHaveLength(1);

    keys('q');
    expect(await waitForExit()).toBe(0);
    expect(paneInfo('#{alternate_on}')).toBe('0');
    // Back on the normal screen: only the shell's line, none of the workbench.
    expect(capture()).not.toContain('listUsers');
  });

  it('restores the terminal on SIGTERM', async () => {
    start();
    await waitForText('listUsers');
    expect(paneInfo('#{alternate_on}')).toBe('1');
    // `env` execs node, so the shell's child is dial itself.
    process.kill(dialPid(), 'SIGTERM');
    expect(await waitForExit()).toBe(143);
    expect(paneInfo('#{alternate_on}')).toBe('0');
    expect(capture()).not.toContain('listUsers');
  });
});
