// Bundles src/cli.ts into dist/ with esbuild. Code splitting keeps the TUI (React, Ink)
// and other lazily imported parts in their own chunks, so `send` and `run` never read them.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';

const banner = "import { createRequire as __dialCreateRequire } from 'node:module'; const require = __dialCreateRequire(import.meta.url);";
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

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
  banner: { js: banner },
  define: { 'process.env.NODE_ENV': '"production"', __DIAL_VERSION__: JSON.stringify(version) },
});

// The entry answers `--version` on its own and never calls require(): drop the banner there,
// so that path loads one module less.
const entry = new URL('../dist/cli.js', import.meta.url);
const entryText = readFileSync(entry, 'utf8');
if (!entryText.slice(banner.length).includes('require(')) writeFileSync(entry, entryText.replace(banner, ''));
