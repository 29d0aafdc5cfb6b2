// Run by scripts/build.mjs before it swaps the new dist/ in: one command of the program built in
// DIAL_WARM_UP_DIST, after which V8's code cache of the program, with every function that ran
// compiled, is written beside it. Doing it there, not in the live dist/, ties the cache to the
// exact program it was made from even when two builds run at once.
'use strict';
const { writeFileSync } = require('node:fs');
const { runProgram } = require('../bin/dial.js');

// DIAL_WARM_UP_PROGRAM: which program (cli.cjs, send.cjs), whatever the command line names.
const { file, script } = runProgram(process.env.DIAL_WARM_UP_DIST, process.env.DIAL_WARM_UP_PROGRAM);
process.once('exit', () => writeFileSync(`${file}.cache`, script.createCachedData()));
