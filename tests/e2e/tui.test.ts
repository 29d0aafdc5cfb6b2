/**
 * Drives the BUILT binary in a real pseudo-terminal: open a workspace, filter, send to `dial echo`
 * (in-process), fold, filter with JSONPath, resize, quit; the process exits 0 and leaves the
 * alternate screen. Needs a fresh build (`node scripts/build.mjs`).
 */
import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';
import { KEY, PtyTerminal } from '../helpers/pty-terminal.js';

// DIAL_TUI_BIN lets a developer point the test at another build of the CLI.
const BIN = process.env.DIAL_TUI_BIN ?? DIAL_BIN;

describe('dial open in a real terminal', () => {
  let echo: EchoServer;
  let workspace: string;
  let terminal: PtyTerminal | undefined;

  const start = (): PtyTerminal => {
    terminal = new PtyTerminal([process.execPath, BIN, 'open', workspace, '-e', 'local'], {
      cols: 120,
      rows: 40,
      env: { CI: undefined, NO_COLOR: undefined, DIAL_CONFIG_DIR: tempDir('dial-tui-config-') },
    });
    return terminal;
  };

  beforeAll(async () => {
    echo = await startEchoServer();
    workspace = tempDir('dial-tui-');
    cpSync(resolve(import.meta.dirname, '../fixtures/tui/workspace'), workspace, { recursive: true });
    writeFileSync(join(workspace, 'http-client.env.json'), JSON.stringify({ local: { baseUrl: echo.url } }));
  });
  afterEach(() => terminal?.dispose());
  afterAll(async () => {
    await echo?.close();
  });

  it('opens, sends, folds, filters with JSONPath and quits cleanly', async () => {
    const tty = start();
    await tty.waitForText('listUsers', 'env: local');
    expect(await tty.onAlternateScreen()).toBe(true);

    tty.press('/', 'create');
    await tty.waitFor((s) => s.includes('/create') && !s.includes('listUsers'), 'the filtered tree');
    tty.press(KEY.enter);
    await tty.waitForText('POST {{host}}/post');

    tty.press(KEY.enter);
    // The frame arrives in several writes: wait for its body, not only the status line above it.
    let screen = await tty.waitForText('200 OK', '"json": {');
    expect(screen).toContain('"name": "ada"');

    tty.press(KEY.tab, KEY.tab, 'Z');
    screen = await tty.waitForText('"json": { … } 1 item');

    tty.press('$');
    // The prompt starts empty: typing `$.headers` gives `$.headers`, not `$$.headers`.
    await tty.waitFor((s) => /JSONPath: ▏/.test(s), 'an empty JSONPath prompt');
    tty.press('$.headers', KEY.enter);
    screen = await tty.waitForText('1 match for $.headers');
    expect(screen).toMatch(/"Content-Type": "application\/json"/i);
    expect(screen).not.toContain('"json"');

    // Grow the terminal: the frame is redrawn for the new size with nothing left of the old one.
    await tty.resize(140, 45);
    // The frame is written in several chunks (and stty may change columns and rows one at a
    // time), so wait for the finished 140×45 frame: top border full width, status bar on row 44.
    screen = await tty.waitFor((s) => {
      const rows = s.split('\n');
      return rows[0].trimEnd().length === 140 && rows[0].trimEnd().endsWith('╮') && rows[43].includes('env: local');
    }, 'the redraw at 140×45');
    const lines = screen.split('\n');
    expect(lines.filter((line) => line.includes('env: local'))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('╰'))).toHaveLength(1);

    tty.press('q');
    expect(await tty.exit()).toBe(0);
    expect(await tty.onAlternateScreen()).toBe(false);
    // Back on the normal screen: none of the workbench is left on it.
    expect(await tty.screen()).not.toContain('listUsers');
  });

  it('`dial` alone on a terminal opens the workbench on the current folder', async () => {
    terminal = new PtyTerminal([process.execPath, BIN], {
      cols: 120,
      rows: 40,
      cwd: workspace,
      env: { CI: undefined, NO_COLOR: undefined, DIAL_CONFIG_DIR: tempDir('dial-tui-config-') },
    });
    await terminal.waitForText('listUsers');
    expect(await terminal.onAlternateScreen()).toBe(true);
    terminal.press('q');
    expect(await terminal.exit()).toBe(0);
  });

  it('with CI set, even on a terminal, `dial open` refuses with E_NOT_TTY (exit 2)', async () => {
    terminal = new PtyTerminal([process.execPath, BIN, 'open', workspace], {
      cols: 120,
      rows: 40,
      env: { CI: 'true', NO_COLOR: undefined, DIAL_CONFIG_DIR: tempDir('dial-tui-config-') },
    });
    expect(await terminal.exit()).toBe(2);
    const screen = await terminal.screen();
    expect(screen).toContain('E_NOT_TTY');
    expect(terminal.rawOutput).not.toContain('\x1b[?1049h');
  });

  it('restores the terminal on SIGTERM', async () => {
    const tty = start();
    await tty.waitForText('listUsers');
    expect(await tty.onAlternateScreen()).toBe(true);
    process.kill(tty.pid(), 'SIGTERM');
    expect(await tty.exit()).toBe(143);
    expect(await tty.onAlternateScreen()).toBe(false);
    expect(await tty.screen()).not.toContain('listUsers');
  });
});
