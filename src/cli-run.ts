/**
 * Entry point of dist/run.cjs: the program bin/dial.js runs when the command line names `run`.
 * For those arguments src/commands/index.ts registers `run` alone, so this program registers it
 * alone too and behaves the same; bundled without the other commands, and with a code cache made
 * by a `dial run` (scripts/build.mjs), its functions are not compiled again at each start
 * (docs/performance.md).
 */
import { startCli } from './start.js';

startCli(async () => (await import('./commands/run/index.js')).registerRun);

/** For the build's warm-up run (scripts/code-cache-warm-up.cjs): see restoreV8FlagDefaults. */
export { restoreV8FlagDefaults } from './commands/run/index.js';
