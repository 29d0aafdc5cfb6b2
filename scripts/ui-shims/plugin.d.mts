import type { Plugin } from 'esbuild';

/** The esbuild plugin that puts ./simple-text.js in front of Ink's text libraries (see plugin.mjs). */
export function uiSimpleTextPlugin(root: string): Plugin;

/** The esbuild plugin that removes the UI's top-level awaits (Ink's devtools, yoga's WebAssembly). */
export const uiWithoutTopLevelAwaitPlugin: Plugin;
