// Bundles src/cli.ts into dist/ with esbuild. Code splitting keeps the TUI (React, Ink)
// and other lazily imported parts in their own chunks, so `send` and `run` never read them.
import { build } from 'esbuild';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
process.chdir(root);

const banner = "import { createRequire as __dialCreateRequire } from 'node:module'; const require = __dialCreateRequire(import.meta.url);";
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Build into a fresh folder and swap it in, so a concurrent build or a running `dial`
// never sees an empty or half-written dist/.
const outdir = `dist.tmp-${process.pid}`;
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir,
  absWorkingDir: root,
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

// The entry only imports the program chunk and never calls require(): drop the banner there,
// so start-up loads one module less.
const entry = `${outdir}/cli.js`;
const entryText = readFileSync(entry, 'utf8');
if (!entryText.slice(banner.length).includes('require(')) writeFileSync(entry, entryText.replace(banner, ''));

const previous = `dist.old-${process.pid}`;
try {
  renameSync('dist', previous);
} catch {
  // no previous build
}
renameSync(outdir, 'dist');
rmSync(previous, { recursive: true, force: true });
