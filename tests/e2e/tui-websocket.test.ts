/**
 * A WebSocket in the BUILT workbench, in a real pseudo-terminal, against dial echo's /ws (the ws
 * client comes from the UI bundle): the log fills, `w` sends a typed message, esc closes.
 * Needs a fresh build (`node scripts/build.mjs`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';
import { KEY, PtyTerminal } from '../helpers/pty-terminal.js';

const BIN = process.env.DIAL_TUI_BIN ?? DIAL_BIN;

describe('dial send ws://… on a terminal', () => {
  let echo: EchoServer;
  let terminal: PtyTerminal | undefined;
  beforeAll(async () => {
    echo = await startEchoServer();
  });
  afterEach(() => terminal?.dispose());
  afterAll(async () => {
    await echo?.close();
  });

  it('says how to type and end, prints the replies to typed lines, and ends on Ctrl+D (exit 0)', async () => {
    const tty = new PtyTerminal([process.execPath, BIN, 'send', `${echo.url.replace('http', 'ws')}/ws`], {
      cols: 100,
      rows: 20,
      env: { CI: undefined, NO_COLOR: '1', DIAL_CONFIG_DIR: tempDir('dial-tty-config-') },
    });
    terminal = tty;
    await tty.waitForText('type a message and press Enter; Ctrl+D or Ctrl+C closes');
    tty.press('ping-over-tty\r');
    // The terminal echoes what was typed; the server's echo prints it a second time.
    await tty.waitFor((screen) => screen.split('ping-over-tty').length === 3, 'the typed line and its echo');
    tty.press('\x04');
    expect(await tty.exit()).toBe(0);
  });
});

describe('dial open: a WebSocket request', () => {
  let echo: EchoServer;
  let terminal: PtyTerminal | undefined;
  beforeAll(async () => {
    echo = await startEchoServer();
  });
  afterEach(() => terminal?.dispose());
  afterAll(async () => {
    await echo?.close();
  });

  it('shows the message log, sends a composed message, and closes on esc', async () => {
    const dir = tempDir('dial-tui-ws-');
    writeFileSync(join(dir, 'ws.http'), `### Chat\nWS ${echo.url.replace('http', 'ws')}/ws\n\nfrom the file\n`);
    const tty = new PtyTerminal([process.execPath, BIN, 'open', dir], {
      cols: 120,
      rows: 36,
      env: { CI: undefined, NO_COLOR: undefined, DIAL_CONFIG_DIR: tempDir('dial-tui-config-') },
    });
    terminal = tty;
    await tty.waitForText('Chat');
    tty.press(KEY.enter);
    await tty.waitForText('← from the file', 'WebSocket open, 2 messages');
    tty.press('w');
    await tty.waitForText('Message (enter sends)');
    tty.press('typed');
    tty.press(KEY.enter);
    await tty.waitForText('← typed', 'WebSocket open, 4 messages');
    tty.press(KEY.escape);
    const screen = await tty.waitForText('101 Switching Protocols');
    expect(screen).toContain('→ typed');
    tty.press('q');
    expect(await tty.exit()).toBe(0);
  });
});
