// The stand-ins the build puts in front of Ink's text libraries (scripts/ui-shims/): built here
// as the build builds them, then checked against the real string-width copies and Intl.Segmenter
// on random text mixing the simple characters with ones that are not (emoji, marks, CJK, CR…).
import { build, type PluginBuild } from 'esbuild';
import fc from 'fast-check';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uiSimpleTextPlugin } from '../../scripts/ui-shims/plugin.mjs';

const root = resolve(import.meta.dirname, '../..');
const shim = join(root, 'scripts/ui-shims/simple-text.js');
const copies = {
  ink: join(root, 'node_modules/string-width/index.js'),
  wrapAnsi: join(root, 'node_modules/wrap-ansi/node_modules/string-width/index.js'),
};

type Width = (text: string, options?: object) => number;
interface Built {
  table: Record<string, number>;
  isSimpleText: (text: string) => boolean;
  graphemeSegmenter: () => {
    segment(text: string): Iterable<{ segment: string; index: number }> & {
      containing(index: number): { segment: string; index: number } | undefined;
    };
  };
  inkWidth: Width;
  wrapAnsiWidth: Width;
  realInkWidth: Width;
  realWrapAnsiWidth: Width;
}

async function buildShims(): Promise<Built> {
  const result = await build({
    stdin: {
      resolveDir: root,
      contents: `
        export { default as table } from 'dial-simple-text:table';
        export { isSimpleText, graphemeSegmenter } from ${JSON.stringify(shim)};
        export { default as inkWidth } from 'string-width';
        export { default as wrapAnsiWidth } from 'wrap-ansi-string-width';
        export { default as realInkWidth } from ${JSON.stringify(copies.ink)};
        export { default as realWrapAnsiWidth } from ${JSON.stringify(copies.wrapAnsi)};`,
    },
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    logLevel: 'error',
    plugins: [
      uiSimpleTextPlugin(root),
      {
        // string-width as wrap-ansi imports it (its own copy).
        name: 'wrap-ansi-string-width',
        setup(pluginBuild: PluginBuild) {
          pluginBuild.onResolve({ filter: /^wrap-ansi-string-width$/ }, () => ({ path: 'width', namespace: 'test' }));
          pluginBuild.onLoad({ filter: /.*/, namespace: 'test' }, () => ({
            contents: "export { default } from 'string-width';",
            resolveDir: join(root, 'node_modules/wrap-ansi'),
          }));
        },
      },
    ],
  });
  const bundleModule = { exports: {} as Built };
  new Function('module', 'exports', 'require', result.outputFiles[0]!.text)(
    bundleModule,
    bundleModule.exports,
    createRequire(import.meta.url),
  );
  return bundleModule.exports;
}

const built = await buildShims();
const simpleCharacters = Object.keys(built.table);
const other = [
  '\x7f',
  '\r',
  '\r\n',
  '\u0301',
  '\u200d',
  '\ufe0f',
  '\u00ad',
  'é',
  '中',
  '한',
  '👍',
  '👨‍👩‍👧',
  '🇺🇸',
  '\u2028',
  '\u0085',
];
const ansi = ['\x1b[31m', '\x1b[0m', '\x1b[1;38;2;1;2;3m', '\x1b]8;;http://x\x07'];
const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i));
const controls = ['\t', '\n', '\x1b', '\x07', '\x00'];

const pieces = (pool: string[]) => fc.array(fc.constantFrom(...pool), { maxLength: 12 }).map((list) => list.join(''));
const simpleText = pieces([...printable, ...controls, ...simpleCharacters, ...ansi]);
const anyText = pieces([...printable, ...controls, ...simpleCharacters, ...ansi, '\x9b2m', ...other]);

describe('the workbench bundle’s simple-text stand-ins', () => {
  it('cover the characters the workbench draws (borders, glyphs, spinner)', () => {
    for (const char of ['─', '│', '╭', '╯', '⠋', '⏎', '✓', '●', '…', '↑']) expect(built.table[char]).toBe(1);
    expect(built.isSimpleText('GET /users ─ ✓')).toBe(true);
    expect(built.isSimpleText('a\r\nb')).toBe(false);
    expect(built.isSimpleText('👍')).toBe(false);
  });

  it('measure text as both string-width copies do', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(built.inkWidth(text)).toBe(built.realInkWidth(text));
        expect(built.wrapAnsiWidth(text)).toBe(built.realWrapAnsiWidth(text));
        expect(built.inkWidth(text, { ambiguousIsNarrow: false })).toBe(
          built.realInkWidth(text, { ambiguousIsNarrow: false }),
        );
        expect(built.inkWidth(text, { countAnsiEscapeCodes: true })).toBe(
          built.realInkWidth(text, { countAnsiEscapeCodes: true }),
        );
      }),
      { numRuns: 2000 },
    );
  });

  it('split text into graphemes as Intl.Segmenter does', () => {
    const real = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
    const stand = built.graphemeSegmenter();
    fc.assert(
      fc.property(anyText, (text) => {
        const shown = [...stand.segment(text)].map(({ segment, index }) => [segment, index]);
        expect(shown).toEqual([...real.segment(text)].map(({ segment, index }) => [segment, index]));
        for (let index = -1; index <= text.length; index++) {
          const mine = stand.segment(text).containing(index);
          const theirs = real.segment(text).containing(index);
          expect(mine && [mine.segment, mine.index]).toEqual(theirs && [theirs.segment, theirs.index]);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('treat simple text as simple (the fast path is the one taken)', () => {
    fc.assert(
      fc.property(simpleText, (text) => {
        expect(built.isSimpleText(text)).toBe(true);
      }),
    );
  });
});
