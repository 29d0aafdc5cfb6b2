// The esbuild plugin that puts ./simple-text.js in front of Ink's text libraries in dist/ui.cjs
// (why: see that file). It is used by scripts/build.mjs for the UI bundle only.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
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

/** Replaces `pattern` in a dependency's source, and fails the build if an upgrade changed it. */
function patchSource(root, path, text, pattern, replacement) {
  if (!pattern.test(text))
    throw new Error(`build: ${relative(root, path)} has changed; update scripts/ui-shims/plugin.mjs`);
  return text.replace(pattern, replacement);
}

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
            root,
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
