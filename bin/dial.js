#!/usr/bin/env node
// CommonJS on purpose (see bin/package.json): Node's ES module loader costs ~8 ms to start on
// Node 20, and ES modules cannot use a V8 code cache there.
// The shebang passes no flag to node: Linux hands `env` the rest of the line as one word and
// BusyBox `env` (Alpine, most CI images) has no `-S` to split it. Flags dial needs are set from
// inside (`dial run` sets its V8 heap flags with v8.setFlagsFromString, src/commands/run.ts).
'use strict';
const { dirname, join } = require('node:path');

/**
 * Compiles dist/cli.cjs (the program, built by scripts/build.mjs) with V8's code cache of it,
 * so the functions a command runs are not compiled again at every start: `new vm.Script` with
 * `cachedData` is what Node 22's compile cache does, and Node 20 has none. The wrapper is
 * CommonJS's own plus `__dialImportEsm`: code compiled by node:vm cannot call import() on
 * Node 20, so the program loads the UI's ES modules through this file's import().
 */
function compileProgram(dist = join(__dirname, '..', 'dist')) {
  const { readFileSync } = require('node:fs');
  const { Script } = require('node:vm');
  const file = join(dist, 'cli.cjs');
  let cachedData;
  try {
    cachedData = readFileSync(`${file}.cache`);
  } catch {
    cachedData = undefined; // a build without a cache still runs, only slower to start
  }
  // latin1: the build writes the program ASCII-only, and latin1 skips UTF-8 decoding (~0.5 ms).
  const source = `(function (exports, require, module, __filename, __dirname, __dialImportEsm) {${readFileSync(file, 'latin1')}\n})`;
  return { file, script: new Script(source, { filename: file, cachedData }) };
}

/** Runs the program in `dist` with this process's arguments; returns its compiled script. */
function runProgram(dist) {
  const { createRequire } = require('node:module');
  const { file, script } = compileProgram(dist);
  const programModule = { exports: {} };
  script.runInThisContext()(
    programModule.exports,
    createRequire(file),
    programModule,
    file,
    dirname(file),
    (url) => import(url),
  );
  return { file, script };
}

if (require.main !== module) {
  module.exports = { compileProgram, runProgram }; // for the build's warm-up run and its test
} else if (process.argv.length === 3 && process.argv[2] === '--version') {
  // Answered before anything else loads (budget: 1.3× of `node -e 0`).
  process.stdout.on('error', () => process.exit(0)); // a closed pipe is the reader's choice
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  runProgram();
}
