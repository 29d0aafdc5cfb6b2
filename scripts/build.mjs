// Bundles src/cli.ts into dist/ with esbuild. Code splitting keeps the TUI (React, Ink)
// and other lazily imported parts in their own chunks, so `send` and `run` never read them.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';

rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: false,
  minify: false,
  legalComments: 'none',
  logLevel: 'warning',
  chunkNames: 'chunks/[name]-[hash]',
  // Ink imports react-devtools-core only when DEV is set; never bundle it.
  external: ['react-devtools-core'],
  // Some dependencies are CommonJS and call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __dialCreateRequire } from 'node:module'; const require = __dialCreateRequire(import.meta.url);" },
  define: { 'process.env.NODE_ENV': '"production"' },
});
