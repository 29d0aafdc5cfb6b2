/**
 * The build's warm-up run of the workbench (scripts/code-cache-warm-up.cjs): opens the workbench
 * on a small workspace, on a stand-in terminal, until its first frame shows, then quits with `q`.
 * Every function that ran is then in the V8 code cache the build writes beside dist/ui.cjs, so
 * `dial open` does not compile them again. Settings come from DIAL_CONFIG_DIR, which the build
 * points at an empty folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { openWorkbench } from './open-workbench.js';

const TITLE = 'list widgets';

/** A terminal's output side: 120×40, keeps what is written. */
class StandInScreen extends Writable {
  readonly isTTY = true;
  readonly columns = 120;
  readonly rows = 40;
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += String(chunk);
    this.emit('drawn');
    done();
  }
}

/** A terminal's input side in raw mode, fed by the warm-up. */
class StandInKeyboard extends PassThrough {
  readonly isTTY = true;
  setRawMode(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/** Resolves once the workbench has drawn its first frame and quit again. */
export async function warmUpWorkbench(): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'dial-warm-up-'));
  try {
    writeFileSync(
      join(workspace, 'requests.http'),
      `### ${TITLE}\nGET http://127.0.0.1:9/widgets\nAccept: application/json\n`,
    );
    const screen = new StandInScreen();
    const keyboard = new StandInKeyboard();
    const quitOnFirstFrame = (): void => {
      if (!screen.text.includes(TITLE)) return;
      screen.off('drawn', quitOnFirstFrame);
      keyboard.write('q');
    };
    screen.on('drawn', quitOnFirstFrame);
    const closed = openWorkbench({
      dir: workspace,
      cliVariables: {},
      color: true,
      terminal: {
        stdout: screen as unknown as NodeJS.WriteStream,
        stdin: keyboard as unknown as NodeJS.ReadStream,
      },
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`the workbench showed no '${TITLE}' within 20 s`)), 20_000);
    });
    try {
      await Promise.race([closed, timeout]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}
