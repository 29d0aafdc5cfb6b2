/** Layout numbers derived from the terminal size (pure, so tests and the bench can use them). */
import { viewerHeight } from '../components/ResponsePane.js';

export type Layout = ReturnType<typeof layout>;

/** Pane sizes for a terminal of `columns` × `rows`, with `bottom` rows for the status line. */
export function layout(columns: number, rows: number, bottom = 1) {
  // One row short of the terminal: a frame as tall as the screen makes Ink clear it on every render.
  const height = Math.max(10, rows - 1);
  const width = Math.max(40, columns);
  const mainHeight = height - bottom;
  const treeWidth = Math.min(40, Math.max(20, Math.floor(width * 0.28)));
  const rightWidth = width - treeWidth;
  const requestHeight = Math.min(12, Math.max(5, Math.floor(mainHeight * 0.3)));
  const responseHeight = mainHeight - requestHeight;
  return {
    width,
    height,
    mainHeight,
    treeWidth,
    rightWidth,
    requestHeight,
    responseHeight,
    /** Inner sizes (inside the round borders). */
    viewerWidth: rightWidth - 2,
    viewerRows: viewerHeight(responseHeight - 2),
  };
}
