/**
 * kulala's `# @env-stdin-cmd NAME command…` family: a shell command written in a `.http` file.
 * That is code from the repository, so it runs only where scripts may use Node (the user's
 * `dial trust`, `--allow-node`, DIAL_ALLOW_NODE=1); the caller checks that before calling here.
 * As kulala: `sh -c` (PowerShell on Windows), the response body on stdin for the commands after
 * the response, stdout minus its final line break as the value. Unlike kulala, which logs a
 * failed command and goes on with whatever it printed, a failure (an exit code other than 0, or
 * output on stderr, which kulala also counts as failing) is an error at the metadata line.
 */
import { spawn } from 'node:child_process';
import { DialError } from '../errors.js';
import type { MetadataNode } from '../httpfile/types.js';

/** How much of a command's stdout is kept (a variable's value, never a download). */
const MAX_OUTPUT = 16 * 1024 * 1024;

export interface ShellCommandOptions {
  /** The folder it runs in (the .http file's). */
  cwd: string;
  /** What it reads on stdin (the response body); nothing (closed at once) when undefined. */
  stdin?: string | Buffer;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The .http file, for errors. */
  file: string;
}

/** The command of a command line (after the variable's name for the `env-` keys). */
function commandOf(meta: MetadataNode): string {
  if (!meta.key.startsWith('env-')) return meta.value.trim();
  return /^\S+\s+(\S[\s\S]*)$/.exec(meta.value.trim())?.[1] ?? '';
}

function shell(): [string, string[]] {
  return process.platform === 'win32' ? ['powershell', ['-NoProfile', '-Command']] : ['sh', ['-c']];
}

/** Runs one command metadata line; answers its stdout without the final line break. */
export function runShellCommand(meta: MetadataNode, options: ShellCommandOptions): Promise<string> {
  const command = commandOf(meta);
  const location = { file: options.file, line: meta.span.line };
  const failure = (message: string, hint?: string): DialError =>
    new DialError('E_SCRIPT', `\`# @${meta.key}\` ${message}`, { location, ...(hint ? { hint } : {}) });
  const [program, args] = shell();
  return new Promise((resolve, reject) => {
    // Its own process group on POSIX, so a time limit or a cancel stops what the shell started too
    // (a `sleep` left behind would hold the pipes open).
    const child = spawn(program, [...args, command], {
      cwd: options.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
      detached: process.platform !== 'win32',
    });
    let stopped: string | undefined;
    const stop = (why: string): void => {
      stopped ??= why;
      try {
        if (process.platform !== 'win32' && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    // A time limit of 0 means none, as for the request itself (`--timeout 0`).
    const timer =
      options.timeoutMs > 0
        ? setTimeout(() => stop(`was stopped after ${options.timeoutMs / 1000} s`), options.timeoutMs)
        : undefined;
    const onAbort = (): void => stop('was cancelled');
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_OUTPUT) out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    // A command that does not read its stdin closes the pipe early: not an error.
    child.stdin.on('error', () => {});
    child.stdin.end(options.stdin ?? '');
    const done = (): void => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      done();
      reject(failure(`could not start ${program}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      done();
      const stderr = Buffer.concat(err).toString('utf8').trim();
      const said = stderr ? `: ${stderr.length > 500 ? `${stderr.slice(0, 500)}…` : stderr}` : '';
      if (stopped) return reject(failure(stopped));
      if (signal) return reject(failure(`was killed (${signal})${said}`));
      if (code !== 0) return reject(failure(`failed with exit code ${code}${said}`));
      if (stderr) return reject(failure(`wrote to stderr${said}`, 'kulala counts output on stderr as a failure too'));
      if (size > MAX_OUTPUT) return reject(failure(`printed more than ${MAX_OUTPUT / 1048576} MiB`));
      resolve(
        Buffer.concat(out)
          .toString('utf8')
          .replace(/\r?\n$|\r$/, ''),
      );
    });
  });
}
