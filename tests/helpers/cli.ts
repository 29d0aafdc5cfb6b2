/** Runs the built CLI (bin/dial.js) as a user would, with an isolated config folder. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const DIAL_BIN = resolve(import.meta.dirname, '../../bin/dial.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Text (or bytes) written to stdin; when undefined stdin is an empty closed pipe... unless `stdinInherit`. */
  input?: string | Buffer;
  /** A fresh DIAL_CONFIG_DIR is made per call unless given. */
  configDir?: string;
  /** Arguments for node in place of bin/dial.js (`-e SCRIPT`): the args follow them. */
  nodeArgs?: string[];
}

/** A temp folder for a test (not removed: the OS temp cleaner does that). */
export function tempDir(prefix = 'dial-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A temp workspace (a `.git` folder marks its root) holding `files`, paths relative to it. */
export function gitWorkspace(prefix: string, files: Record<string, string>): string {
  const dir = tempDir(prefix);
  mkdirSync(join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Runs `node bin/dial.js ...args` and resolves with its exit code and output. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const env: Record<string, string | undefined> = {
      ...process.env,
      DIAL_CONFIG_DIR: options.configDir ?? tempDir('dial-config-'),
      NO_COLOR: undefined,
      FORCE_COLOR: undefined,
      CI: undefined,
      ...options.env,
    };
    for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
    const child = spawn(process.execPath, [...(options.nodeArgs ?? [DIAL_BIN]), ...args], {
      cwd: options.cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolvePromise({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
      }),
    );
    child.stdin.on('error', () => {});
    if (options.input !== undefined) child.stdin.end(options.input);
    else child.stdin.end();
  });
}

/** Strips ANSI escape sequences (colours, cursor moves) from text. */
export function stripAnsi(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]/g, '');
}
