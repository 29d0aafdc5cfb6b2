#!/usr/bin/env -S node --
// CommonJS on purpose (see bin/package.json): `dial --version` answers before Node starts its
// ES module loader, which costs ~8 ms on Node 20 (start-up budget: 1.3× of `node -e 0`).
// Everything else loads the ES module bundle.
'use strict';
if (process.argv.length === 3 && process.argv[2] === '--version') {
  process.stdout.on('error', () => process.exit(0)); // a closed pipe is the reader's choice
  process.stdout.write(`${require('../package.json').version}\n`);
} else {
  import('../dist/cli.js');
}
