/**
 * Entry point of dist/cli.cjs, the program for every command (see ./start.ts). bin/dial.js runs
 * dist/send.cjs (./cli-send.ts) instead when the command line names `send`.
 */
import { startCli } from './start.js';

startCli(async () => (await import('./commands/index.js')).registerCommands);
