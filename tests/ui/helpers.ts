/** Helpers for ink-testing-library tests: wait for a frame, send keys. */
import { stripAnsi } from '../helpers/cli.js';

export interface Frames {
  lastFrame: () => string | undefined;
}

/** Polls the last frame (ANSI stripped) until `predicate` holds; fails with the frame after `timeoutMs`. */
export async function waitForFrame(
  app: Frames,
  predicate: (frame: string) => boolean,
  timeoutMs = 4000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const frame = stripAnsi(app.lastFrame() ?? '');
    if (predicate(frame)) return frame;
    if (Date.now() > deadline) throw new Error(`frame never matched; last frame:\n${frame}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Waits until the frame contains every text. */
export function waitForText(app: Frames, ...texts: string[]): Promise<string> {
  return waitForFrame(app, (frame) => texts.every((t) => frame.includes(t)));
}

export const KEY = {
  enter: '\r',
  esc: '\x1b',
  tab: '\t',
  shiftTab: '\x1b[Z',
  up: '\x1b[A',
  down: '\x1b[B',
  ctrlC: '\x03',
  ctrlE: '\x05',
  ctrlH: '\x08',
  ctrlP: '\x10',
  ctrlU: '\x15',
  backspace: '\x7f',
} as const;
