/**
 * A real pseudo-terminal for end-to-end tests of `dial open`: util-linux `script` owns the pty
 * (it is in every Debian base system, so CI needs nothing installed), and @xterm/headless — the
 * xterm.js terminal emulator without a DOM — interprets what the program writes, so tests assert
 * on the screen a user would see, the alternate-screen state and the exit status.
 *
 * Why not tmux: its server daemonizes, and in the CI sandbox it died on start-up ("server exited
 * unexpectedly") while `script` ptys worked.
 */
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import xtermHeadless from '@xterm/headless';
import { tempDir } from './cli.js';

const { Terminal } = xtermHeadless;

/** Key sequences as a terminal sends them. */
export const KEY = {
  enter: '\r',
  tab: '\t',
  escape: '\x1b',
  ctrlU: '\x15',
  ctrlR: '\x12',
} as const;

const shellQuote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

export interface PtyOptions {
  cols: number;
  rows: number;
  /** Environment for the program; the pty's own TERM is xterm-256color. */
  env?: Record<string, string | undefined>;
  /** Working folder of the program. */
  cwd?: string;
}

export class PtyTerminal {
  /** Every screen a wait looked at, so a test can prove something never appeared, even briefly. */
  readonly screensSeen: string[] = [];
  /** Every byte the program wrote, decoded: proves what never reached the terminal at all. */
  rawOutput = '';
  private readonly terminal: InstanceType<typeof Terminal>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly stateDir: string;
  private exitCode: number | undefined;
  private readonly exited: Promise<number>;
  private pendingWrites: Promise<void> = Promise.resolve();

  /** Starts `argv` in a new pty of the given size. */
  constructor(argv: string[], options: PtyOptions) {
    this.terminal = new Terminal({ cols: options.cols, rows: options.rows, allowProposedApi: true });
    this.stateDir = tempDir('dial-pty-');
    // The shell sizes the pty, records its device (to resize it later) and its own pid (which the
    // program inherits through exec), then becomes the program.
    const inner = [
      `stty cols ${options.cols} rows ${options.rows}`,
      `tty > ${shellQuote(join(this.stateDir, 'tty'))}`,
      `echo $$ > ${shellQuote(join(this.stateDir, 'pid'))}`,
      `exec ${argv.map(shellQuote).join(' ')}`,
    ].join('; ');
    this.child = spawn('script', ['-qfec', inner, '/dev/null'], {
      env: { ...process.env, ...options.env, TERM: 'xterm-256color' } as NodeJS.ProcessEnv,
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.rawOutput += chunk.toString('utf8');
      this.pendingWrites = this.pendingWrites.then(() => new Promise<void>((done) => this.terminal.write(chunk, done)));
    });
    this.exited = new Promise((resolveExit) => {
      this.child.on('close', (code, signal) => {
        this.exitCode = code ?? (signal ? 128 : 1);
        resolveExit(this.exitCode);
      });
    });
  }

  /** The visible screen, one line per row, trailing blanks trimmed. */
  async screen(): Promise<string> {
    await this.pendingWrites;
    const buffer = this.terminal.buffer.active;
    const lines: string[] = [];
    for (let row = 0; row < this.terminal.rows; row++)
      lines.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    return lines.join('\n');
  }

  /** Whether the program has switched to the alternate screen (and not back). */
  async onAlternateScreen(): Promise<boolean> {
    await this.pendingWrites;
    return this.terminal.buffer.active.type === 'alternate';
  }

  /** Polls the screen until `predicate` holds; bounded, no fixed sleeps. */
  async waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const screen = await this.screen();
      this.screensSeen.push(screen);
      if (predicate(screen)) return screen;
      if (this.exitCode !== undefined || Date.now() > deadline) {
        const why = this.exitCode !== undefined ? `the program exited with ${this.exitCode}` : 'timed out';
        throw new Error(`${why} waiting for ${what}; screen:\n${screen}`);
      }
      await new Promise((r) => setTimeout(r, 40));
    }
  }

  waitForText(...texts: string[]): Promise<string> {
    return this.waitFor((s) => texts.every((t) => s.includes(t)), JSON.stringify(texts));
  }

  /** Writes keys as typed; text is sent as it is. */
  press(...keys: string[]): void {
    for (const key of keys) this.child.stdin.write(key);
  }

  /** Resizes the pty (the kernel sends the program SIGWINCH) and the emulator with it. */
  async resize(cols: number, rows: number): Promise<void> {
    await this.pendingWrites;
    this.terminal.resize(cols, rows);
    execFileSync('stty', ['-F', this.ttyPath(), 'cols', String(cols), 'rows', String(rows)]);
  }

  /** The pid of the program itself (the shell exec'd into it). */
  pid(): number {
    return Number(readFileSync(join(this.stateDir, 'pid'), 'utf8').trim());
  }

  /** The exit status of the program (128 + signal when a signal ended it). */
  async exit(timeoutMs = 15_000): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `the program did not exit within ${timeoutMs} ms; screen:\n${this.terminal.buffer.active.getLine(0)?.translateToString(true)}`,
            ),
          ),
        timeoutMs,
      );
    });
    try {
      const code = await Promise.race([this.exited, timeout]);
      await this.pendingWrites;
      return code;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends whatever is still running; safe to call twice. */
  dispose(): void {
    if (this.exitCode === undefined) {
      try {
        process.kill(this.pid(), 'SIGKILL');
      } catch {
        // Not started or already gone.
      }
      this.child.kill('SIGKILL');
    }
    this.terminal.dispose();
  }

  private ttyPath(): string {
    return readFileSync(join(this.stateDir, 'tty'), 'utf8').trim();
  }
}
