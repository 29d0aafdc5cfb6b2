/** Small display helpers shared by the panes. */

/** `1.2 KiB`, `3.4 MiB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GiB`;
}

/** `42 ms`, `1.20 s`. */
export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** Cuts text to a width with an ellipsis. */
export function fit(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length <= width ? text : text.slice(0, Math.max(0, width - 1)) + '…';
}

/** Cuts text from the left (keeps the end, e.g. a file name), with an ellipsis. */
export function fitStart(text: string, width: number): string {
  if (width <= 0) return '';
  return text.length <= width ? text : '…' + text.slice(text.length - Math.max(0, width - 1));
}
