/** Registers every command. Each command file defines its flags and imports its core lazily. */
import type { Command } from 'commander';
import { registerSend } from './send.js';
import { registerRun } from './run.js';
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

export function registerCommands(program: Command): void {
  for (const register of [
    registerSend, registerRun, registerReport, registerOpen, registerList, registerImport,
    registerExport, registerEnv, registerConfig, registerHistory, registerEcho, registerCompletion,
  ]) {
    register(program);
  }
}
