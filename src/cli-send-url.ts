/**
 * Entry point of dist/send-url.cjs: the program bin/dial.js runs for a `dial send` that names no
 * .http file. It is ./cli-send.ts built without the .http machinery (the parser, sessions,
 * variables, scripts, OAuth) and zod, which a URL send never runs: scripts/build.mjs replaces
 * those modules with one that throws HandOver when loaded, and then this program hands the
 * command line over to dist/send.cjs, before it has read or written anything
 * (src/commands/send/hand-over.ts, bench/HISTORY.md). A plainly valid command line is read
 * without Commander (src/commands/send/quick-line.ts).
 */
import { HandOver, runFullSendProgram } from './commands/send/hand-over.js';
import { quickSendLine } from './commands/send/quick-line.js';
import { startCli, startCommand } from './start.js';

const handOver = (error: unknown): boolean => {
  if (!(error instanceof HandOver)) return false;
  runFullSendProgram();
  return true;
};

const line = quickSendLine(process.argv.slice(2));
if (line) {
  startCommand(async () => {
    await (await import('./commands/send/action.js')).sendAction(line.args, line.flags, line.global);
    // As src/program.ts's main answers once Commander's action is done.
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  }, handOver);
} else {
  startCli(async () => (await import('./commands/send/index.js')).registerSend, handOver);
}
