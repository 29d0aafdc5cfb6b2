/**
 * Entry point of dist/send-url.cjs: the program bin/dial.js runs for a `dial send` that names no
 * .http file. It is ./cli-send.ts built without the .http machinery (the parser, sessions,
 * variables, scripts, OAuth) and zod, which a URL send never runs: scripts/build.mjs replaces
 * those modules with one that throws HandOver when loaded, and then this program hands the
 * command line over to dist/send.cjs, before it has read or written anything
 * (src/commands/send/hand-over.ts, docs/performance.md).
 */
import { HandOver, runFullSendProgram } from './commands/send/hand-over.js';
import { startCli } from './start.js';

startCli(
  async () => (await import('./commands/send/index.js')).registerSend,
  (error) => {
    if (!(error instanceof HandOver)) return false;
    runFullSendProgram();
    return true;
  },
);
