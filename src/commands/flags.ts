/**
 * Flags several commands share, declared once. Their values are checked by the zod pieces in
 * ./flag-schemas.ts, which commands import inside their actions (zod is not loaded to build
 * the program).
 */
import type { Command } from 'commander';

/** Commander's collector for a repeatable flag (`--var a=1 --var b=2`). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** How `--var` and friends read: which help line each command shows. */
export interface SharedFlagHelp {
  env: string;
  var: string;
}

/** `-e, --env NAME` and the repeatable `--var NAME=VALUE`. */
export function addVariableFlags(command: Command, help: SharedFlagHelp): Command {
  return command.option('-e, --env <name>', help.env).option('--var <name=value>', help.var, collect, []);
}

/** The TLS and proxy flags of every command that sends (`send`, `run`). */
export function addTransportFlags(command: Command, help: { insecure: string; proxy: string }): Command {
  return command
    .option('-k, --insecure', help.insecure)
    .option('--cacert <file>', 'trust the CA certificates in FILE (PEM)')
    .option('--cert <file>', 'client certificate (PEM)')
    .option('--key <file>', 'client certificate key (PEM)')
    .option('--proxy <url>', help.proxy);
}

/** `--timeout DURATION`. */
export function addTimeoutFlag(command: Command, help: string): Command {
  return command.option('--timeout <duration>', help);
}

/** `--cookie-jar FILE` and `--no-cookie-jar`: where the saved cookie jar of a workspace is, or none (docs/cookies.md). */
export function addCookieJarFlags(command: Command): Command {
  return command
    .option('--cookie-jar <file>', 'keep the cookie jar in FILE instead of the config folder')
    .option('--no-cookie-jar', 'neither read nor save the cookie jar: cookies last for this command only');
}
