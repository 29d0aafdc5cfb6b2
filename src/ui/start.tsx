/**
 * The one place that calls Ink's render(): enters the alternate screen, renders the App,
 * and restores the terminal on quit, crash, SIGINT and SIGTERM.
 */
import { render, useStdout } from 'ink';
import { App } from './App.js';
import { readWorkspace } from './hooks.js';
import { createTheme, type ThemeName } from './theme.js';
import type { Keymap } from './keymap.js';
import type { WorkbenchServices } from './services.js';

const ENTER_ALT = '\x1b[?1049h\x1b[2J\x1b[H';
const LEAVE_ALT = '\x1b[?25h\x1b[?1049l';

export interface StartOptions {
  keymap: Keymap;
  color: boolean;
  /** The `theme` setting, already validated (default dark). */
  theme?: ThemeName;
  environment?: string;
  /** Builds the services once the screen is ready; receives the suspend function for $EDITOR/$PAGER. */
  services: (suspend: (run: () => void) => void) => WorkbenchServices;
  /** Called after the TUI has gone (to close connections). */
  onClose?: () => Promise<void> | void;
  /** The terminal to draw on and read keys from (default: this process's); see ./warm-up.ts. */
  terminal?: WorkbenchTerminal;
}

export interface WorkbenchTerminal {
  stdout: NodeJS.WriteStream;
  stdin: NodeJS.ReadStream;
}

/** Runs the workbench until the user quits; resolves with the exit code. */
export async function startWorkbench(options: StartOptions): Promise<number> {
  const stdout = options.terminal?.stdout ?? process.stdout;
  const stdin = options.terminal?.stdin ?? process.stdin;
  let restored = false;
  const restore = (): void => {
    if (restored) return;
    restored = true;
    stdout.write(LEAVE_ALT);
  };
  stdout.write(ENTER_ALT);

  // Ink's own write (useStdout().write): it erases its frame, writes, then writes the whole last
  // frame again. With nothing to write it is a full repaint, which Ink has no other way to ask
  // for: it skips a render whose output equals the previous one, even when the screen was cleared.
  let repaint: () => void = () => undefined;
  const Repaint = (): null => {
    const { write } = useStdout();
    repaint = () => write('');
    return null;
  };

  // Registered before Ink's own listener: the screen is blanked (no leftover frames), then the last
  // frame is painted again (Ink skips the redraw when the new layout prints the same frame).
  const onResize = (): void => {
    stdout.write('\x1b[2J\x1b[H');
    repaint();
  };
  stdout.on('resize', onResize);

  let instance: ReturnType<typeof render> | undefined;
  const suspend = (run: () => void): void => {
    // Hand the terminal to the child: normal screen, cooked mode; then take it back and redraw.
    const size = `${stdout.columns}x${stdout.rows}`;
    stdout.write(LEAVE_ALT);
    if (stdin.isTTY) stdin.setRawMode(false);
    try {
      run();
    } finally {
      if (stdin.isTTY) stdin.setRawMode(true);
      stdout.write(ENTER_ALT);
      // The alternate screen is blank now: paint the frame again, and lay it out anew if the
      // terminal was resized meanwhile (its SIGWINCH went to the child's screen).
      if (`${stdout.columns}x${stdout.rows}` !== size) stdout.emit('resize');
      else repaint();
    }
  };

  const onSignal = (signal: NodeJS.Signals): void => {
    instance?.unmount();
    restore();
    process.exit(signal === 'SIGINT' ? 130 : signal === 'SIGHUP' ? 129 : 143);
  };
  const onCrash = (error: unknown): void => {
    try {
      instance?.unmount();
    } finally {
      restore();
      process.stderr.write(
        `dial: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  process.on('uncaughtException', onCrash);
  process.on('unhandledRejection', onCrash);
  process.on('exit', restore);

  try {
    const services = options.services(suspend);
    const theme = createTheme(options.color, options.theme);
    // Read before the first frame, so that frame shows the requests rather than an empty tree.
    // On failure the App reads it again and says why in its status line.
    const workspace = await readWorkspace(services).catch(() => undefined);
    // Raw mode from the first frame on: keys typed before Ink's input hook subscribes (its effect
    // runs after that frame is drawn) wait in the stream for it, instead of being echoed and held
    // by the terminal's line editing. Ink turns raw mode off again when it unmounts.
    if (stdin.isTTY) stdin.setRawMode(true);
    let exit: () => void = () => undefined;
    instance = render(
      <>
        <Repaint />
        <App
          services={services}
          keymap={options.keymap}
          theme={theme}
          environment={options.environment}
          onExit={() => exit()}
          {...(workspace && { workspace })}
        />
      </>,
      {
        stdout,
        stdin,
        exitOnCtrlC: false,
        patchConsole: true,
        maxFps: 60,
      },
    );
    const current = instance;
    exit = () => current.unmount();
    await instance.waitUntilExit();
    return 0;
  } finally {
    stdout.off('resize', onResize);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    process.off('uncaughtException', onCrash);
    process.off('unhandledRejection', onCrash);
    restore();
    process.off('exit', restore);
    stdin.pause();
    await options.onClose?.();
  }
}
