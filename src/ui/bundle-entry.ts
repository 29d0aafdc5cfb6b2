/**
 * What dist/ui.cjs, the workbench's bundle, exports: `dial open` calls openWorkbench, and the
 * build's warm-up run calls warmUpWorkbench to make the bundle's code cache.
 */
export { openWorkbench } from './open-workbench.js';
export { warmUpWorkbench } from './warm-up.js';
