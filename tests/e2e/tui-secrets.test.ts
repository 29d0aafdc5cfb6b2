/**
 * The BUILT binary in a real pseudo-terminal: a password from http-client.private.env.json,
 * reflected by `dial echo`, never reaches the screen until ctrl+r reveals it; a handler script reads
 * the environment; an unknown `theme` setting stops `dial open` with E_CONFIG. Needs a fresh build.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';
import { KEY, PtyTerminal } from '../helpers/pty-terminal.js';

const BIN = process.env.DIAL_TUI_BIN ?? DIAL_BIN;
const PASSWORD = 'hunter2-pty-secret';

describe('dial open: secrets and settings in a real terminal', () => {
  let echo: EchoServer;
  let workspace: string;

  let terminal: PtyTerminal | undefined;

  const start = (configDir: string): PtyTerminal => {
    terminal = new PtyTerminal([process.execPath, BIN, 'open', workspace, '-e', 'local'], {
      cols: 120,
      rows: 45,
      env: { CI: undefined, NO_COLOR: undefined, DIAL_CONFIG_DIR: configDir },
    });
    return terminal;
  };

  beforeAll(async () => {
    echo = await startEchoServer();
    workspace = tempDir('dial-tui-secrets-');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(
      join(workspace, 'http-client.env.json'),
      JSON.stringify({ local: { baseUrl: echo.url, user: 'ada' } }),
    );
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
  });
  afterEach(() => terminal?.dispose());
  afterAll(async () => {
    await echo?.close();
  });

  it('masks the reflected private password until ctrl+r, and the handler sees the environment', async () => {
    const configDir = tempDir('dial-tui-config-');
    const tty = start(configDir);
    await tty.waitForText('login', 'env: local', 'secrets hidden');
    tty.press(KEY.enter);
    let screen = await tty.waitForText('200 OK', '"X-Password": "••••"');
    expect(screen).toContain('\\"password\\": \\"••••\\"');
    tty.press(KEY.tab, KEY.tab, ']', ']', ']');
    await tty.waitForText('✓ env user is ada');
    tty.press(']');
    screen = await tty.waitForText('X-Password: ••••', 'HTTP/1.1 200 OK');
    // Not on any screen, and not in a single byte written to the terminal.
    expect(tty.screensSeen.some((s) => s.includes(PASSWORD))).toBe(false);
    expect(tty.rawOutput).not.toContain(PASSWORD);

    tty.press(KEY.ctrlR);
    screen = await tty.waitForText('secrets SHOWN', `X-Password: ${PASSWORD}`);
    tty.press(KEY.ctrlR);
    await tty.waitFor((s) => s.includes('secrets hidden') && !s.includes(PASSWORD), 'the secret masked again');

    tty.press('q');
    expect(await tty.exit()).toBe(0);
    // History on disk never held the password either.
    const history = readFileSync(join(configDir, 'history.jsonl'), 'utf8');
    expect(history).toContain('login');
    expect(history).not.toContain(PASSWORD);
  });

  it('an unknown theme setting stops `dial open` with E_CONFIG naming it', async () => {
    const configDir = tempDir('dial-tui-config-');
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ theme: 'neon' }));
    const tty = start(configDir);
    expect(await tty.exit()).toBe(3);
    const screen = await tty.screen();
    expect(screen).toContain("unknown theme 'neon'");
    expect(screen).toContain('E_CONFIG');
  });
});
