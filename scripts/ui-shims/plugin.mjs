// The esbuild plugins that patch the workbench's dependencies in dist/ui.cjs, used by
// scripts/build.mjs for the UI bundle only: one removes the top-level awaits that kept the UI in
// ES modules, the other puts ./simple-text.js in front of Ink's text libraries (why: see that file).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const shim = new URL('./simple-text.js', import.meta.url).pathname;

/** Every non-ASCII, non-control character in the files under `dirs` (recursively) and in `files`. */
function charactersIn(root, dirs, files) {
  const found = new Set();
  const read = (path) => {
    for (const char of readFileSync(path, 'utf8')) {
      const code = char.codePointAt(0);
      if (code > 0x9f && code <= 0xffff && !(code >= 0xd800 && code <= 0xdfff)) found.add(char);
    }
  };
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(tsx?|js|json)$/.test(name)) read(path);
    }
  };
  for (const dir of dirs) walk(join(root, dir));
  for (const file of files) read(join(root, file));
  return [...found].sort();
}

/** The string-width copies under node_modules (ES module versions, which the UI's libraries use). */
function stringWidthCopies(root) {
  const copies = [];
  const look = (dir, depth) => {
    let names;
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (name === 'string-width') {
        const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
        if (manifest.type === 'module') copies.push(join(path, 'index.js'));
      } else if (depth > 0 && (name.startsWith('@') || name === 'node_modules')) look(path, depth);
      else if (depth > 0 && statSync(path).isDirectory()) look(join(path, 'node_modules'), depth - 1);
    }
  };
  look(join(root, 'node_modules'), 1);
  return copies;
}

/**
 * The table of simple characters and their widths: kept only where every string-width copy
 * gives the same width, and, paired with every other simple character, Intl.Segmenter splits
 * the two and every copy's width of the pair is the sum of the two.
 */
async function simpleWidths(root, copies) {
  const widthFunctions = await Promise.all(
    copies.map(async (path) => (await import(pathToFileURL(path).href)).default),
  );
  const segmenter = new Intl.Segmenter();
  const ascii = [];
  for (let code = 0; code < 0x7f; code++) if (code !== 0x0d) ascii.push(String.fromCharCode(code));
  const widthOf = (text) => {
    const widths = new Set(widthFunctions.map((stringWidth) => stringWidth(text)));
    return widths.size === 1 ? [...widths][0] : undefined;
  };
  const isPair = (a, b) => {
    if ([...segmenter.segment(a + b)].length !== 2) return false;
    const together = a + b;
    return widthFunctions.every((stringWidth) => stringWidth(together) === stringWidth(a) + stringWidth(b));
  };
  let candidates = charactersIn(
    root,
    ['src/ui', 'node_modules/ink/build'],
    ['node_modules/cli-boxes/boxes.json'],
  ).filter((char) => widthOf(char) !== undefined);
  // Dropping a character can only make the others' checks easier: repeat until nothing drops.
  for (;;) {
    const simple = [...ascii, ...candidates];
    const kept = candidates.filter((char) => simple.every((other) => isPair(char, other) && isPair(other, char)));
    if (kept.length === candidates.length) break;
    candidates = kept;
  }
  return Object.fromEntries(candidates.map((char) => [char, widthOf(char)]));
}

const HERE = 'scripts/ui-shims/plugin.mjs';

/** Fails the build when a dependency's source no longer holds `pattern` (an upgrade changed it). */
function expectSource(path, text, pattern) {
  if (!pattern.test(text)) throw new Error(`build: ${path} has changed; update its patch in ${HERE}`);
}

/** Replaces `pattern` in a dependency's source (see expectSource). */
function patchSource(path, text, pattern, replacement) {
  expectSource(path, text, pattern);
  return text.replace(pattern, replacement);
}

/**
 * The two top-level awaits that kept the UI in ES modules, which V8 cannot code-cache on Node 20:
 * - Ink awaits react-devtools-core and its package.json when DEV=true. dial does not ship the
 *   devtools (the import fails, as it did before), so both become the values Ink uses without DEV.
 * - yoga-layout awaits its WebAssembly. Its Emscripten loader accepts `instantiateWasm`, a hook
 *   that may instantiate synchronously; the module is then ready when the loader returns. The
 *   inline base64 moves from the loader to that hook, so the bundle holds it once.
 */
export const uiWithoutTopLevelAwaitPlugin = {
  name: 'dial-ui-without-top-level-await',
  setup(pluginBuild) {
    const yogaBinary = /(data:application\/octet-stream;base64,)([A-Za-z0-9+/=]+)/;
    pluginBuild.onLoad({ filter: /node_modules\/ink\/build\/reconciler\.js$/ }, ({ path }) => {
      let text = readFileSync(path, 'utf8');
      text = patchSource(
        path,
        text,
        /await import\('\.\/devtools\.js'\);/,
        "throw Object.assign(new Error('react-devtools-core is not bundled'), { code: 'ERR_MODULE_NOT_FOUND' });",
      );
      text = patchSource(path, text, /\? await loadPackageJson\(\)/, '? { name: undefined, version: undefined }');
      return { contents: text, loader: 'js' };
    });
    pluginBuild.onLoad(
      { filter: /node_modules\/yoga-layout\/dist\/binaries\/yoga-wasm-base64-esm\.js$/ },
      ({ path }) => ({
        contents: patchSource(path, readFileSync(path, 'utf8'), yogaBinary, '$1'),
        loader: 'js',
      }),
    );
    pluginBuild.onLoad({ filter: /node_modules\/yoga-layout\/dist\/src\/index\.js$/ }, ({ path }) => {
      const binaryPath = join(path, '../../binaries/yoga-wasm-base64-esm.js');
      const [, , base64] = yogaBinary.exec(readFileSync(binaryPath, 'utf8')) ?? [];
      if (!base64) throw new Error(`build: no inline WebAssembly in ${binaryPath}; update ${HERE}`);
      expectSource(path, readFileSync(path, 'utf8'), /wrapAssembly\(await loadYoga\(\)\)/);
      return {
        loader: 'js',
        resolveDir: join(path, '..'),
        contents: `
          import loadYoga from '../binaries/yoga-wasm-base64-esm.js';
          import wrapAssembly from './wrapAssembly.js';
          const yogaModule = {
            instantiateWasm(imports, receiveInstance) {
              const bytes = Buffer.from(${JSON.stringify(base64)}, 'base64');
              const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), imports);
              receiveInstance(instance);
              return instance.exports;
            },
          };
          loadYoga(yogaModule);
          if (!yogaModule.calledRun) throw new Error('yoga-layout did not start synchronously; update scripts/build.mjs');
          export default wrapAssembly(yogaModule);
          export * from './generated/YGEnums.js';`,
      };
    });
  },
};

export function uiSimpleTextPlugin(root) {
  const copies = stringWidthCopies(root);
  let table;
  return {
    name: 'dial-ui-simple-text',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^dial-simple-text:table$/ }, () => ({
        path: 'table',
        namespace: 'dial-simple-text',
      }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'dial-simple-text' }, async () => {
        table ??= await simpleWidths(root, copies);
        return { loader: 'json', contents: JSON.stringify(table) };
      });
      // `import stringWidth from 'string-width'` anywhere gets the stand-in over the copy it resolves to.
      pluginBuild.onResolve({ filter: /^string-width$/ }, async (args) => {
        if (args.pluginData?.real) return undefined;
        const real = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          resolveDir: args.resolveDir,
          importer: args.importer,
          pluginData: { real: true },
        });
        if (real.errors.length > 0) return { errors: real.errors };
        if (!copies.includes(real.path))
          throw new Error(
            `build: ${real.path} was not checked for the simple-text table; see scripts/ui-shims/plugin.mjs`,
          );
        return { path: real.path, namespace: 'dial-string-width' };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: 'dial-string-width' }, ({ path }) => ({
        loader: 'js',
        resolveDir: join(path, '..'),
        contents: `
          import stripAnsi from 'strip-ansi';
          import { stringWidthFor } from ${JSON.stringify(shim)};
          export default stringWidthFor(() => require(${JSON.stringify(path)}).default, stripAnsi);`,
      }));
      // The grapheme segmenters made when the tokenisers load.
      for (const file of [/@alcalzone\/ansi-tokenize\/build\/tokenize\.js$/, /slice-ansi\/tokenize-ansi\.js$/]) {
        pluginBuild.onLoad({ filter: file }, ({ path }) => ({
          loader: 'js',
          contents: `import { graphemeSegmenter as __dialGraphemeSegmenter } from ${JSON.stringify(shim)};\n${patchSource(
            path,
            readFileSync(path, 'utf8'),
            /new Intl\.Segmenter\(/,
            '__dialGraphemeSegmenter(',
          )}`,
        }));
      }
    },
  };
}
