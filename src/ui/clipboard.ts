/** Clipboard through the terminal (OSC 52): works over SSH and in tmux with set-clipboard on. */

/** The OSC 52 sequence that puts `text` on the system clipboard. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}
