/** Registers the commands. Each command file defines its flags and imports its core lazily. */
import type { Command } from 'commander';
import { registerSend } from './send/index.js';
import { registerRun } from './run/index.js';
import { registerReport } from './report.js';
import { registerOpen } from './open.js';
import { registerList } from './list.js';
import { registerImport } from './import.js';
import { registerExport } from './export.js';
import { registerEnv } from './env.js';
import { registerConfig } from './config.js';
import { registerHistory } from './history.js';
import { registerEcho } from './echo.js';
import { registerCompletion } from './completion.js';
import { registerFmt } from './fmt.js';
import { registerCheck } from './check.js';
import { registerTrust } from './trust.js';
import { registerAuth } from './auth.js';
import { registerCookies } from './cookies.js';
import { registerSessions } from './sessions.js';

const commands: Record<string, (program: Command) => void> = {
  send: registerSend,
  run: registerRun,
  report: registerReport,
  open: registerOpen,
  list: registerList,
  import: registerImport,
  export: registerExport,
  env: registerEnv,
  config: registerConfig,
  history: registerHistory,
  echo: registerEcho,
  completion: registerCompletion,
  fmt: registerFmt,
  check: registerCheck,
  trust: registerTrust,
  auth: registerAuth,
  cookies: registerCookies,
  sessions: registerSessions,
};

/**
 * Registers the command named in argv, or all of them when none is (help, completion, an
 * unknown name, `dial` alone). Building every command's flags costs ~5 ms that `dial send`
 * would pay for nothing (every millisecond of start-up counts).
 */
export function registerCommands(program: Command, argv: string[] = []): void {
  // Global flags take no values, so the first word that is not a flag names the command.
  const named = argv.slice(2).find((word) => !word.startsWith('-'));
  const only =
    named !== undefined && named !== 'completion' && Object.hasOwn(commands, named) ? commands[named] : undefined;
  if (only) return only(program);
  for (const register of Object.values(commands)) register(program);
}
