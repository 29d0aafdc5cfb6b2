/** Starts the built `dial echo` on a free loopback port, as the docs tests use it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { DIAL_BIN, tempDir } from './cli.js';

export interface RunningEcho {
  port: number;
  url: string;
  stop(): Promise<void>;
}

/** Runs `node bin/dial.js echo --port 0` (or another launcher) and resolves once it listens. */
export function startDialEcho(command: string[] = [process.execPath, DIAL_BIN]): Promise<RunningEcho> {
  const [file, ...args] = command;
  const child: ChildProcess = spawn(file, [...args, 'echo', '--port', '0', '-q'], {
    env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-echo-config-'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let seen = '';
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`dial echo exited with ${code} before listening`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = /listening on (http:\/\/127\.0\.0\.1:(\d+))/.exec(seen);
      if (!match) return;
      child.removeAllListeners('exit');
      resolve({
        port: Number(match[2]),
        url: match[1],
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
