/**
 * Entry point of dist/run.cjs: the program bin/dial.js runs when the command line names `run`.
 * For those arguments src/commands/index.ts registers `run` alone, so this program registers it
 * alone too and behaves the same; bundled without the other commands, and with a code cache made
 * by a `dial run` (scripts/build.mjs), its functions are not compiled again at each start
 * (bench/HISTORY.md). A plainly valid command line is read without Commander
 * (src/commands/run/quick-line.ts).
 */
import { quickRunLine } from './commands/run/quick-line.js';
import { startCli, startCommand } from './start.js';

const line = quickRunLine(process.argv.slice(2));
if (line) {
  startCommand(async () => {
    const [{ applyDialect }, { runAction }] = await Promise.all([
      import('./commands/dialect-flag.js'),
      import('./commands/run/action.js'),
    ]);
    // As the run command's preAction hook does (src/commands/run/index.ts): no --dialect here.
    applyDialect(undefined);
    await runAction(line.paths, line.flags, line.global);
    // As src/program.ts's main answers once Commander's action is done.
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  });
} else {
  startCli(async () => (await import('./commands/run/index.js')).registerRun);
}

/** For the build's warm-up run (scripts/code-cache-warm-up.cjs): see restoreV8FlagDefaults. */
export { restoreV8FlagDefaults } from './commands/run/action.js';
