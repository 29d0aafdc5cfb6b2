#!/usr/bin/env node
// CommonJS on purpose (see bin/package.json): Node's ES module loader costs ~8 ms to start on
// Node 20, and ES modules cannot use a V8 code cache there.
// The shebang passes no flag to node: Linux hands `env` the rest of the line as one word and
// BusyBox `env` (Alpine, most CI images) has no `-S` to split it. Flags dial needs are set from
// inside (`dial run` sets its V8 heap flags with v8.setFlagsFromString, src/commands/run/action.ts).
'use strict';

/**
 * The program for a command line: dist/send-url.cjs or dist/send.cjs when it names `send`,
 * dist/run.cjs when it names `run`, else dist/cli.cjs (all built by scripts/build.mjs). The rule
 * is src/commands/index.ts's: global flags take no values, so the first word that is not a flag
 * names the command, and for `send` or `run` the full program registers that command alone;
 * dist/send.cjs and dist/run.cjs are that program without the other commands, smaller to read
 * and compile, each with a code cache made by its own command (tests/e2e/cli.test.ts checks
 * the two rules agree).
 * dist/send-url.cjs is dist/send.cjs without the .http machinery, half its size again: it runs
 * unless a word names a .http file, and hands over to dist/send.cjs what it cannot run (a .http
 * target this guess missed, or flags whose error zod words), before it reads or writes anything.
 * The guess only saves that detour: either program gives the same result.
 */
function programName(argv) {
  const words = argv.slice(2);
  const command = words.find((word) => !word.startsWith('-'));
  if (command === 'run') return 'run.cjs';
  if (command !== 'send') return 'cli.cjs';
  return words.some((word) => /\.(?:http|rest)(?:#|:\d+$|$)/i.test(word)) ? 'send.cjs' : 'send-url.cjs';
}

/**
 * Compiles a bundle of dist/ (dist/cli.cjs, dist/send.cjs, dist/send-url.cjs or dist/run.cjs, the program; dist/ui.cjs, the
 * workbench; all built by scripts/build.mjs) with V8's code cache of it, so the functions a
 * command runs are not compiled again at every start: `new vm.Script` with `cachedData` is what
 * Node 22's compile cache does, and Node 20 has none. The file is CommonJS's own wrapper function plus
 * `__dialRunBundle`, with which the program starts the workbench's bundle the same way.
 */
function compileBundle(file) {
  const { readFileSync } = require('node:fs');
  const { Script } = require('node:vm');
  let cachedData;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined; // a build without a cache still runs, only slower to start
  }
  // latin1: the build writes the bundles ASCII-only, and latin1 skips UTF-8 decoding (~0.5 ms).
  // The file is the wrapper function itself (scripts/build.mjs writes it so): compiled as read.
  return new Script(readFileSync(file, 'latin1'), { filename: file, cachedData });
}

/** Runs a bundle of dist/ (its path); returns its exports and its compiled script. */
function runBundle(file) {
  const { dirname, join } = require('node:path');
  const script = compileBundle(file);
  const bundleModule = { exports: {} };
  const folder = dirname(file);
  // The bundles require Node's modules and their own ./lib files, nothing else: this file's
  // require does, with ./ taken from dist/. (module.createRequire would load node:module and
  // the ES module loader with it, ~3% of a `dial send`.)
  const bundleRequire = (id) => require(id.startsWith('./') ? join(folder, id) : id);
  const runSibling = (name) => runBundle(join(folder, name)).exports;
  script.runInThisContext()(bundleModule.exports, bundleRequire, bundleModule, file, folder, runSibling);
  return { exports: bundleModule.exports, script };
}

const programFile = (argv) => require('node:path').join(__dirname, '..', 'dist', programName(argv));

/**
 * `dial --version`, answered before anything else loads (budget: 1.05× `node -e 0`). Written
 * with writeSync: process.stdout would first build a stream for the file, pipe or terminal
 * (~18 M instructions, a fifth of Node's own start). Any write error, a closed pipe first of
 * all, is the reader's choice: exit 0 quietly.
 */
function writeVersion() {
  const text = `${require('../package.json').version}\n`;
  try {
    require('node:fs').writeSync(1, text);
  } catch {
    // nothing to tell: the reader went away
  }
}

if (require.main !== module) {
  // For the build's warm-up runs and the tests (V8 accepts the caches; the program choice).
  module.exports = { programName, compileBundle, runBundle };
} else if (process.argv.length === 3 && process.argv[2] === '--version') {
  writeVersion();
} else {
  runBundle(programFile(process.argv));
}
