/**
 * The BUILT binary in a real pseudo-terminal: the workbench comes back by itself after $PAGER and $EDITOR,
 * SIGINT restores the terminal (exit 130), Ctrl+C with nothing in flight quits cleanly, and
 * `dial open -e ENV` remembers ENV for the workspace. Needs a fresh build (`node scripts/build.mjs`).
 */
import { chmodSync, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';
import { KEY, PtyTerminal } from '../helpers/pty-terminal.js';

const BIN = process.env.DIAL_TUI_BIN ?? DIAL_BIN;

describe('dial open: suspend, signals and remembered choices in a real terminal', () => {
  let echo: EchoServer;
  let workspace: string;
  let terminal: PtyTerminal | undefined;

  const start = (args: string[], env: Record<string, string | undefined> = {}): PtyTerminal => {
    terminal = new PtyTerminal([process.execPath, BIN, 'open', workspace, ...args], {
      cols: 120,
      rows: 40,
      env: { CI: undefined, NO_COLOR: undefined, DIAL_CONFIG_DIR: tempDir('dial-tui-config-'), ...env },
    });
    return terminal;
  };

  beforeAll(async () => {
    echo = await startEchoServer();
    workspace = tempDir('dial-tui-term-');
    cpSync(resolve(import.meta.dirname, '../fixtures/tui/workspace'), workspace, { recursive: true });
    writeFileSync(
      join(workspace, 'http-client.env.json'),
      JSON.stringify({ local: { baseUrl: echo.url }, staging: { baseUrl: echo.url } }),
    );
  });
  afterEach(() => terminal?.dispose());
  afterAll(async () => {
    await echo?.close();
  });

  it('repaints the workbench after $PAGER returns, without another key', async () => {
    const dir = tempDir('dial-tui-pager-');
    const marker = join(dir, 'paged');
    const pager = join(dir, 'pager.sh');
    // Prints on the normal screen (never seen in the workbench) and records the file it was given.
    writeFileSync(pager, `#!/bin/sh\nprintf 'PAGER-RAN\\n'\ncp "$1" ${JSON.stringify(marker)}\n`);
    chmodSync(pager, 0o755);
    const tty = start(['-e', 'local'], { PAGER: pager });
    await tty.waitForText('listUsers', 'env: local');
    tty.press(KEY.enter);
    await tty.waitForText('200 OK', '"page": "1"');
    tty.press(KEY.tab, KEY.tab);
    await tty.waitForText('JSONPath');
    const before = tty.rawOutput.length;
    tty.press('p');
    // The pager ran with the body...
    await tty.waitFor(() => existsSync(marker), 'the pager to run');
    expect(readFileSync(marker, 'utf8')).toContain('"page": "1"');
    // ...the terminal was handed back (alternate screen entered again)...
    await tty.waitFor(
      () => tty.rawOutput.slice(before).includes('\x1b[?1049l') && tty.rawOutput.slice(before).includes('\x1b[?1049h'),
      'the alternate screen again',
    );
    // ...and the workbench is on it by itself: no key pressed since.
    const screen = await tty.waitFor(
      (s) => s.includes('listUsers') && s.includes('200 OK') && s.includes('env: local'),
      'the workbench after the pager',
    );
    expect(await tty.onAlternateScreen()).toBe(true);
    expect(screen).not.toContain('PAGER-RAN');

    tty.press('q');
    expect(await tty.exit()).toBe(0);
  });

  it('after $EDITOR the workbench is back with the edit saved into the file', async () => {
    const dir = tempDir('dial-tui-editor-');
    const editor = join(dir, 'editor.sh');
    writeFileSync(editor, `#!/bin/sh\nsed -i 's#/anything/users#/anything/people#' "$1"\n`);
    chmodSync(editor, 0o755);
    const ws = tempDir('dial-tui-editor-ws-');
    cpSync(workspace, ws, { recursive: true });
    terminal = new PtyTerminal([process.execPath, BIN, 'open', ws, '-e', 'local'], {
      cols: 120,
      rows: 40,
      env: {
        CI: undefined,
        NO_COLOR: undefined,
        DIAL_CONFIG_DIR: tempDir('dial-tui-config-'),
        EDITOR: editor,
        VISUAL: undefined,
      },
    });
    const tty = terminal;
    await tty.waitForText('listUsers', 'env: local');
    const before = tty.rawOutput.length;
    tty.press('e');
    await tty.waitFor(() => tty.rawOutput.slice(before).includes('\x1b[?1049h'), 'the alternate screen again');
    const screen = await tty.waitForText('saved api.http', 'GET {{host}}/anything/people?page=1', 'env: local');
    expect(screen).toContain('listUsers');
    expect(readFileSync(join(ws, 'api.http'), 'utf8')).toBe(
      readFileSync(join(workspace, 'api.http'), 'utf8').replace('/anything/users', '/anything/people'),
    );
    tty.press('q');
    expect(await tty.exit()).toBe(0);
  });

  it('restores the terminal on SIGINT (exit 130)', async () => {
    const tty = start(['-e', 'local']);
    await tty.waitForText('listUsers');
    expect(await tty.onAlternateScreen()).toBe(true);
    process.kill(tty.pid(), 'SIGINT');
    expect(await tty.exit()).toBe(130);
    expect(await tty.onAlternateScreen()).toBe(false);
    expect(await tty.screen()).not.toContain('listUsers');
    // The cursor is shown again.
    expect(tty.rawOutput.lastIndexOf('\x1b[?25h')).toBeGreaterThan(tty.rawOutput.lastIndexOf('\x1b[?25l'));
  });

  it('Ctrl+C with no request in flight quits and restores the terminal (exit 0)', async () => {
    const tty = start(['-e', 'local']);
    await tty.waitForText('listUsers');
    tty.press('\x03');
    expect(await tty.exit()).toBe(0);
    expect(await tty.onAlternateScreen()).toBe(false);
    expect(await tty.screen()).not.toContain('listUsers');
  });

  it('dial open -e ENV remembers ENV for the workspace, as the ctrl+e picker does', async () => {
    const configDir = tempDir('dial-tui-config-');
    let tty = start(['-e', 'staging'], { DIAL_CONFIG_DIR: configDir });
    await tty.waitForText('listUsers', 'env: staging');
    tty.press('q');
    expect(await tty.exit()).toBe(0);
    const settings = JSON.parse(readFileSync(join(configDir, 'config.json'), 'utf8')) as {
      defaultEnvironment: Record<string, string>;
    };
    expect(Object.values(settings.defaultEnvironment)).toEqual(['staging']);

    // Opened again without -e: the remembered environment is the active one.
    tty.dispose();
    tty = start([], { DIAL_CONFIG_DIR: configDir });
    await tty.waitForText('listUsers', 'env: staging');
    tty.press('q');
    expect(await tty.exit()).toBe(0);
  });
});
