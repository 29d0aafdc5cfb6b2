/**
 * Entry point of dist/send.cjs: the program bin/dial.js runs when the command line names
 * `send`. For those arguments src/commands/index.ts registers `send` alone, so this program
 * registers it alone too and behaves the same; bundled without the other commands, it is a
 * third smaller to read and compile at start-up (bench/HISTORY.md).
 */
import { startCli } from './start.js';

startCli(async () => (await import('./commands/send/index.js')).registerSend);
