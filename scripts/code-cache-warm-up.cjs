// Run by scripts/build.mjs before it swaps the new dist/ in: one use of a bundle built in
// DIAL_WARM_UP_DIST, after which V8's code cache of that bundle, with every function that ran
// compiled, is written beside it. Doing it there, not in the live dist/, ties the cache to the
// exact bundle it was made from even when two builds run at once.
//
// DIAL_WARM_UP_PROGRAM names the bundle: cli.cjs or send.cjs run the command on this command
// line (whatever it names); ui.cjs draws the workbench to its first frame (src/ui/warm-up.ts).
'use strict';
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { runBundle } = require('../bin/dial.js');

const file = join(process.env.DIAL_WARM_UP_DIST, process.env.DIAL_WARM_UP_PROGRAM);
const { exports: bundleExports, script } = runBundle(file);
if (process.env.DIAL_WARM_UP_PROGRAM === 'ui.cjs') {
  bundleExports.warmUpWorkbench().then(
    () => writeFileSync(`${file}.cache`, script.createCachedData()),
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
} else {
  process.once('exit', () => {
    // dist/run.cjs sets V8 flags as it runs: its cache is made under V8's defaults, as it is read.
    bundleExports.restoreV8FlagDefaults?.(require('node:v8'));
    writeFileSync(`${file}.cache`, script.createCachedData());
  });
}
