// Run by scripts/build.mjs before it swaps the new dist/ in: one use of a bundle built in
// DIAL_WARM_UP_DIST, after which V8's code cache of that bundle, with every function that ran
// compiled, is written beside it. Doing it there, not in the live dist/, ties the cache to the
// exact bundle it was made from even when two builds run at once.
//
//   node scripts/code-cache-warm-up.cjs send -v URL a=1   the program (dist/cli.cjs), as `dial send`
//   node scripts/code-cache-warm-up.cjs --workbench       the workbench (dist/ui.cjs) to its first frame
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { runBundle } = require('../bin/dial.js');

const dist = process.env.DIAL_WARM_UP_DIST;
if (process.argv[2] === '--workbench') {
  const file = join(dist, 'ui.cjs');
  const { exports, script } = runBundle(file);
  exports.warmUpWorkbench().then(
    () => writeFileSync(`${file}.cache`, script.createCachedData()),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
} else {
  const file = join(dist, 'cli.cjs');
  const { script } = runBundle(file);
  process.once('exit', () => writeFileSync(`${file}.cache`, script.createCachedData()));
}
