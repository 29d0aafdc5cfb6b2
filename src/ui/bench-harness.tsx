/**
 * For `npm run bench` (the TUI's latency budget): times the response viewer on a body
 * without a terminal. Each frame goes through the same path as the live TUI (line model ->
 * viewer reducer -> React -> Ink layout and output) via Ink's renderToString.
 *
 *   const { measureViewer } = await import('dist/chunks/bench-harness-*.js') // or via tsx from src
 *   await measureViewer({ bodyText, columns: 120, rows: 40, presses: 200 })
 */
import { renderToString } from 'ink';
import { ResponseViewer } from './components/ResponseViewer.js';
import { createTheme } from './theme.js';
import { layout } from './App.js';
import { buildLineModel } from './viewer/line-model.js';
import { initialViewerState, viewerReducer, type ViewerAction, type ViewerState } from './viewer/viewer-reducer.js';

export interface ViewerMeasurement {
  /** Building the line model (one pass over the body). */
  modelMs: number;
  /** From having the body text to the first frame's string. */
  firstFrameMs: number;
  /** Key press (reducer) to frame, per press. */
  keyMs: number[];
  rows: number;
  modelKind: 'json' | 'text';
}

export interface MeasureViewerOptions {
  bodyText: string;
  contentType?: string;
  columns?: number;
  rows?: number;
  presses?: number;
  /** The keys pressed in turn (default: page down, down, down, bottom, top, repeated). */
  actions?: ViewerAction[];
}

/** Renders the viewer for a body and measures time to first frame and key-press-to-frame. */
export function measureViewer(options: MeasureViewerOptions): ViewerMeasurement {
  const dims = layout(options.columns ?? 120, options.rows ?? 40);
  const theme = createTheme(true);
  const frame = (state: ViewerState, base: ReturnType<typeof buildLineModel>): string =>
    renderToString(
      <ResponseViewer
        base={base}
        state={state}
        height={dims.viewerRows}
        width={dims.viewerWidth}
        theme={theme}
        focused
      />,
      { columns: dims.viewerWidth },
    );
  const start = performance.now();
  const base = buildLineModel(options.bodyText, { width: dims.viewerWidth, contentType: options.contentType });
  const modelMs = performance.now() - start;
  let state = initialViewerState;
  frame(state, base);
  const firstFrameMs = performance.now() - start;
  const cycle: ViewerAction[] = options.actions ?? [
    { type: 'page', direction: 1 },
    { type: 'move', by: 1 },
    { type: 'move', by: 1 },
    { type: 'page', direction: 1 },
    { type: 'bottom' },
    { type: 'page', direction: -1 },
    { type: 'top' },
  ];
  const keyMs: number[] = [];
  const presses = options.presses ?? 100;
  for (let i = 0; i < presses; i++) {
    const t = performance.now();
    state = viewerReducer(state, cycle[i % cycle.length], { base, height: dims.viewerRows });
    frame(state, base);
    keyMs.push(performance.now() - t);
  }
  return { modelMs, firstFrameMs, keyMs, rows: dims.viewerRows, modelKind: base.kind };
}
