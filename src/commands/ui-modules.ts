/**
 * The workbench's modules, which only `dial open` loads. The build swaps this file for one that
 * starts dist/ui.cjs, the workbench's own bundle, compiled with its V8 code cache
 * (scripts/build.mjs, bin/dial.js). Under tsx and vitest it is used as written.
 */
export const importWorkbench = (): Promise<typeof import('../ui/bundle-entry.js')> => import('../ui/bundle-entry.js');
