/**
 * The workbench's "done when", on the BUILT binary in a real pseudo-terminal: a request found by
 * its ### title in the palette is the one selected and sent (its own response shows), and an
 * empty folder becomes a workspace with one new request that answers 200 and is on disk.
 * Needs a fresh build (`node scripts/build.mjs`).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';
import { KEY, PtyTerminal } from '../helpers/pty-terminal.js';

const BIN = process.env.DIAL_TUI_BIN ?? DIAL_BIN;
const CTRL_P = '\x10';
const CTRL_N = '\x0e';

describe('dial open: the workbench from a user’s first steps', () => {
  let echo: EchoServer;
  let terminal: PtyTerminal | undefined;

  const open = (dir: string): PtyTerminal => {
    terminal = new PtyTerminal([process.execPath, BIN, 'open', dir], {
      cols: 120,
      rows: 36,
      env: { CI: undefined, NO_COLOR: undefined, DIAL_CONFIG_DIR: tempDir('dial-tui-config-') },
    });
    return terminal;
  };

  beforeAll(async () => {
    echo = await startEchoServer();
  });
  afterEach(() => terminal?.dispose());
  afterAll(async () => {
    await echo?.close();
  });

  it('ctrl+p finds a request by its ### title; enter selects it, enter sends it, and its own response shows', async () => {
    const dir = tempDir('dial-tui-titles-');
    writeFileSync(
      join(dir, 'api.http'),
      `### Health check\nGET ${echo.url}/anything/health\n\n### Who am I\nGET ${echo.url}/anything/whoami\n\n### Create a thing\nPOST ${echo.url}/anything/things\n\n{"a": 1}\n`,
    );
    const tty = open(dir);
    await tty.waitForText('Health check', 'Who am I', 'Create a thing');
    tty.press(CTRL_P);
    await tty.waitForText('Command palette');
    tty.press('Who am I');
    await tty.waitForText('> Who am I');
    tty.press(KEY.enter);
    // Selected, not sent: its own preview, no response of any other request.
    const selected = await tty.waitForText(`GET ${echo.url}/anything/whoami`, 'Not sent yet');
    expect(selected).not.toContain('200 OK');
    tty.press(KEY.enter);
    const screen = await tty.waitForText('200 OK', '/anything/whoami');
    expect(screen).not.toContain('/anything/health"');
    tty.press('q');
    expect(await tty.exit()).toBe(0);
  });

  it('in an empty folder, New request → GET …/get → enter shows 200, and requests.http holds the request', async () => {
    const dir = tempDir('dial-tui-empty-');
    const tty = open(dir);
    await tty.waitForText('Welcome to dial', 'New request');
    tty.press(CTRL_N);
    await tty.waitForText('New request (METHOD URL):');
    const url = `${echo.url}/get`;
    tty.press(`GET ${url}`);
    await tty.waitForText(`New request (METHOD URL): GET ${url}`);
    tty.press(KEY.enter);
    await tty.waitForText('requests.http', 'GET /get', `GET ${url}`);
    const file = join(dir, 'requests.http');
    expect(existsSync(file)).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(`###\nGET ${url}\n`);
    tty.press(KEY.enter);
    await tty.waitForText('200 OK');
    tty.press('q');
    expect(await tty.exit()).toBe(0);
  });

  it('in an empty folder, import a curl command: the file is written and its request selected, ready to send', async () => {
    const dir = tempDir('dial-tui-import-');
    const tty = open(dir);
    await tty.waitForText('Welcome to dial', 'Import');
    tty.press('i');
    await tty.waitForText('Import (a curl command, or a Postman / OpenAPI file path):');
    tty.press(`curl -H 'X-Team: core' ${echo.url}/anything/team`);
    await tty.waitForText(`${echo.url}/anything/team`);
    tty.press(KEY.enter);
    await tty.waitForText('imported into', 'X-Team: core');
    const written = readFileSync(join(dir, 'team.http'), 'utf8');
    expect(written).toContain(`GET ${echo.url}/anything/team`);
    tty.press(KEY.enter);
    await tty.waitForText('200 OK', '"X-Team": "core"');
    tty.press('q');
    expect(await tty.exit()).toBe(0);
  });
});
