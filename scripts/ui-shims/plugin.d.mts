import type { Plugin } from 'esbuild';

/** The esbuild plugin that puts ./simple-text.js in front of Ink's text libraries (see plugin.mjs). */
export function uiSimpleTextPlugin(root: string): Plugin;
