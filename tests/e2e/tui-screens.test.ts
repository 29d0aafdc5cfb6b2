/**
 * Golden screens: every screen of the workbench as the user sees it, at 80×24 and 140×45, from the
 * BUILT binary in a real pseudo-terminal (tests/helpers/pty-terminal.ts). The expected screens are
 * plain-text files in tests/ui/screens/, reviewed like code; what varies between runs (the echo
 * server's port, durations, times, the version) is replaced by a fixed word first.
 *
 * After a deliberate change to a screen: `UPDATE_SCREENS=1 npx vitest run tests/e2e/tui-screens.test.ts`,
 * then review the diff of tests/ui/screens/. Needs a fresh build (`node scripts/build.mjs`).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';
import { KEY, PtyTerminal } from '../helpers/pty-terminal.js';

const BIN = process.env.DIAL_TUI_BIN ?? DIAL_BIN;
const SCREENS = resolve(import.meta.dirname, '../ui/screens');
const UPDATE = Boolean(process.env.UPDATE_SCREENS);
const sizes = [
  { cols: 80, rows: 24 },
  { cols: 140, rows: 45 },
];

/** One line with what varies replaced; the line keeps its width (the pane's right border stays put). */
function normaliseLine(line: string): string {
  const fixed = line
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
    .replace(/dial\/\d+\.\d+\.\d+[\w.-]*/g, 'dial/VERSION')
    .replace(/\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(\.\d+)?Z?/g, 'DATE')
    .replace(/ *\b\d+(\.\d+)? ?(ms|s)\b/g, ' N ms')
    .replace(/ *\b\d+(\.\d+)? ?(B|KiB|MiB)\b/g, ' N B')
    .replace(/█+/g, '');
  const border = fixed.lastIndexOf('│');
  if (fixed.length === line.length || border <= 0) return fixed.trimEnd();
  // Spaces before the last border take up the difference.
  const head = fixed.slice(0, border).trimEnd();
  return `${head}${' '.repeat(Math.max(1, line.length - (fixed.length - border) - head.length))}${fixed.slice(border)}`.trimEnd();
}

/** The screen with what changes from run to run (port, durations, sizes, times, version) replaced by fixed words. */
export function normaliseScreen(screen: string): string {
  return screen.split('\n').map(normaliseLine).join('\n');
}

/** Compares a screen with its golden file (or writes it under UPDATE_SCREENS). */
function expectScreen(name: string, size: { cols: number; rows: number }, screen: string): void {
  const file = join(SCREENS, `${name}.${size.cols}x${size.rows}.txt`);
  const text = `${normaliseScreen(screen)}\n`;
  if (UPDATE) {
    writeFileSync(file, text);
    return;
  }
  if (!existsSync(file)) throw new Error(`no golden screen ${file}: run with UPDATE_SCREENS=1 and review it`);
  expect(text, `${name} at ${size.cols}x${size.rows} (UPDATE_SCREENS=1 rewrites it)`).toBe(readFileSync(file, 'utf8'));
}

/** Waits until `predicate` holds and the screen has not changed for a moment (the frame is complete). */
async function settled(tty: PtyTerminal, predicate: (screen: string) => boolean, what: string): Promise<string> {
  let screen = await tty.waitFor(predicate, what);
  for (;;) {
    await new Promise((r) => setTimeout(r, 120));
    const again = await tty.screen();
    if (again === screen && predicate(again)) return again;
    screen = again;
  }
}

/** Keys one at a time: an ESC followed at once by a key would read as alt+key. */
async function keys(tty: PtyTerminal, ...sequence: string[]): Promise<void> {
  for (const key of sequence) {
    tty.press(key);
    await new Promise((r) => setTimeout(r, 60));
  }
}

/**
 * ESC, then `next` once the screen shows it was read: an ESC and the next key arriving in one read
 * (a loaded machine) would be taken as alt+key.
 */
async function escapeThen(tty: PtyTerminal, closed: (screen: string) => boolean, next: string): Promise<void> {
  tty.press(KEY.escape);
  await tty.waitFor(closed, 'the screen to close');
  await new Promise((r) => setTimeout(r, 60));
  tty.press(next);
}

const has =
  (...texts: string[]) =>
  (screen: string) =>
    texts.every((t) => screen.includes(t));

describe.each(sizes)('golden screens at $cols×$rows', (size) => {
  let echo: EchoServer;
  let workspace: string;
  let terminal: PtyTerminal | undefined;

  const open = (dir: string, args: string[] = []): PtyTerminal => {
    terminal = new PtyTerminal([process.execPath, BIN, 'open', dir, ...args], {
      ...size,
      env: { CI: undefined, NO_COLOR: '1', DIAL_CONFIG_DIR: tempDir('dial-tui-screens-config-') },
    });
    return terminal;
  };

  beforeAll(async () => {
    echo = await startEchoServer();
    workspace = tempDir('dial-tui-screens-');
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

  it('welcome and the new-request prompt (an empty folder)', async () => {
    // A folder with a fixed name: the welcome screen names it.
    const empty = join(tempDir('dial-tui-screens-empty-'), 'my-api');
    mkdirSync(empty);
    const tty = open(empty);
    expectScreen('welcome', size, await settled(tty, has('Welcome to dial'), 'the welcome screen'));
    tty.press('\x0e');
    expectScreen('new-request', size, await settled(tty, has('New request (METHOD URL):'), 'the new-request prompt'));
    await escapeThen(tty, (s) => !s.includes('New request (METHOD URL):'), 'i');
    expectScreen('import', size, await settled(tty, has('Import (a curl command'), 'the import prompt'));
    await escapeThen(tty, (s) => !s.includes('Import (a curl'), 'q');
    expect(await tty.exit()).toBe(0);
  });

  it('workbench, palette, help, environments, body editor, response tabs and history', async () => {
    const tty = open(workspace, ['-e', 'local']);
    expectScreen(
      'workbench-unsent',
      size,
      await settled(tty, has('list users', 'Not sent yet', 'User-Agent:'), 'the workbench'),
    );
    tty.press('\x10');
    expectScreen('palette', size, await settled(tty, has('Command palette'), 'the palette'));
    tty.press('list');
    expectScreen('palette-query', size, await settled(tty, has('> list'), 'the palette query'));
    await escapeThen(tty, (s) => !s.includes('Command palette'), '?');
    expectScreen('help', size, await settled(tty, has('Keys (esc closes)'), 'help'));
    await escapeThen(tty, (s) => !s.includes('Keys (esc closes)'), '\x05');
    expectScreen('environments', size, await settled(tty, has('Environment', 'staging'), 'the environment picker'));
    tty.press(KEY.escape);
    await settled(tty, has('list users', 'Not sent yet', 'User-Agent:'), 'the workbench again');
    tty.press(KEY.enter);
    expectScreen('response-body', size, await settled(tty, has('200 OK', '"page": "1"'), 'the response'));
    await keys(tty, KEY.tab, KEY.tab, ']', ']');
    expectScreen('response-timings', size, await settled(tty, has('First byte', 'Download'), 'the timings tab'));
    tty.press('\x08');
    expectScreen('history', size, await settled(tty, has('History (1)'), 'history'));
    await escapeThen(tty, (s) => !s.includes('History (1)'), '\x10');
    tty.press('create user');
    await settled(tty, has('> create user'), 'the palette query');
    await keys(tty, KEY.enter, 'b');
    expectScreen('body-editor', size, await settled(tty, has('valid JSON', 'ctrl+s save'), 'the body editor'));
    await escapeThen(tty, (s) => !s.includes('ctrl+s save'), 'x');
    expectScreen(
      'confirm-delete',
      size,
      await settled(tty, has('Delete create user? (y/n)'), 'the delete confirmation'),
    );
    await keys(tty, 'n', 'u');
    expectScreen('edit-url', size, await settled(tty, has('URL: {{host}}/post'), 'the URL editor'));
    await escapeThen(tty, (s) => !s.includes('URL: {{host}}/post'), 'r');
    expectScreen('rename', size, await settled(tty, has('Title: create user'), 'the rename prompt'));
    await escapeThen(tty, (s) => !s.includes('Title: create user'), 'q');
    expect(await tty.exit()).toBe(0);
  });
});
