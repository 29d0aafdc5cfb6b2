/**
 * The UI's modules, which only `dial open` loads. Ink uses top-level await, so the build puts
 * the UI in an ES module bundle of its own beside the CommonJS program and swaps this file for
 * one that imports that bundle (scripts/build.mjs). Under tsx and vitest it is used as written.
 */
export const importUiStart = (): Promise<unknown> => import('../ui/start.js');
export const importOpenWorkbench = (): Promise<typeof import('../ui/open-workbench.js')> =>
  import('../ui/open-workbench.js');
