/**
 * What `dial send` does once its command line is read (by Commander, ./index.ts, or without it
 * for a plainly valid one, ./quick-line.ts): the flags to typed options, the process's streams
 * and Ctrl+C to ./run-send.ts, which is imported here, with the core it uses, to keep start-up lean.
 */
import { fstatSync, type Stats } from 'node:fs';
import { colorFor, type GlobalOptions } from '../globals.js';

/**
 * The send command's action: Commander's reading of the command line (the positional words,
 * the command's opts() and the global flags), or ./quick-line.ts's for a plainly valid one.
 */
export async function sendAction(args: string[], flags: unknown, global: GlobalOptions): Promise<void> {
  const [{ quickSendOptions }, { runSend }, { VERSION }] = await Promise.all([
    import('./option-values.js'),
    import('./run-send.js'),
    import('../../version.js'),
  ]);
  // `--name login` is `FILE.http#login`, for editor plugins that pass the name apart.
  const { name, ...otherFlags } = flags as { name?: string };
  if (name !== undefined) {
    if (!/\.(?:http|rest)$/i.test(args[0] ?? '')) {
      const { DialError } = await import('../../core/errors.js');
      throw new DialError('E_USAGE', '--name needs a .http file', { hint: 'dial send api.http --name login' });
    }
    args = [`${args[0]}#${name}`, ...args.slice(1)];
  }
  // zod loads only when the flags are not plainly valid (it words the error).
  const options = quickSendOptions(otherFlags) ?? (await import('./options.js')).sendOptions(otherFlags);
  // stdin is a body only when it is a pipe, socket or file — never a terminal or /dev/null.
  let stdinStat: Stats | undefined;
  try {
    stdinStat = fstatSync(0);
  } catch {
    stdinStat = undefined;
  }
  const stdinIsData = Boolean(stdinStat && (stdinStat.isFIFO() || stdinStat.isFile() || stdinStat.isSocket()));
  // isatty(0), not process.stdin.isTTY: that getter builds a stdin stream (~3 ms) that a send
  // without a body never reads; and node:tty loads only when stdout is a terminal.
  const interactive = Boolean(process.stdout.isTTY) && !process.env.CI && (await import('node:tty')).isatty(0);
  // The same for stderr, which a send without a warning never writes to: process.stderr is
  // built on first write (io.stderr below is a getter), not to ask whether it is a terminal.
  const stderrIsTTY = await isTerminal(2);
  const pick = interactive ? await import('../pick.js') : undefined;
  // Ctrl+C cancels the exchange (E_CANCELLED, exit 130) so a partial download is cleaned up;
  // if nothing is in flight to cancel (e.g. waiting on stdin), exit shortly after anyway.
  const controller = new AbortController();
  const onInterrupt = (): void => {
    controller.abort();
    setTimeout(() => process.exit(130), 1000).unref();
  };
  process.once('SIGINT', onInterrupt);
  await runSend(args, options, {
    stdout: process.stdout,
    get stderr() {
      return process.stderr;
    },
    stdin: stdinIsData ? process.stdin : undefined,
    stdinSize: stdinStat?.isFile() ? stdinStat.size : undefined,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    // No progress meter (carriage returns) under CI, even on a TTY.
    stderrIsTTY: stderrIsTTY && !process.env.CI,
    color: colorFor(global, process.stdout),
    colorErr: colorFor(global, { isTTY: stderrIsTTY }),
    verbose: global.verbose,
    quiet: global.quiet,
    cwd: process.cwd(),
    env: process.env,
    userAgent: `dial/${VERSION}`,
    pick: pick?.pickRequest,
    prompt: pick?.promptValue,
    signal: controller.signal,
    openStdin: () => process.stdin,
    // Only an interactive WebSocket asks (node:tty loads for /dev/null too, a character device).
    stdinIsTTY: () => isTerminal(0, stdinStat),
  }).finally(() => process.off('SIGINT', onInterrupt));
}

/**
 * isatty(fd), as process.stdin/stderr.isTTY would say, without building that stream. node:tty
 * loads only for a character device (a terminal, or /dev/null): a pipe or file is no terminal.
 */
async function isTerminal(fd: number, stat?: Stats): Promise<boolean> {
  try {
    if (!(stat ?? fstatSync(fd)).isCharacterDevice()) return false;
  } catch {
    return false; // a closed descriptor: Node's stream for it is no terminal either
  }
  return (await import('node:tty')).isatty(fd);
}
