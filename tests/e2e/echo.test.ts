import { describe, expect, it } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { DIAL_BIN, runCli, tempDir } from '../helpers/cli.js';

interface Running {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>;
}

/** Spawns `dial echo ...args` and resolves once it printed its URL. */
function startEcho(args: string[]): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DIAL_BIN, 'echo', ...args], {
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-'), NO_COLOR: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>((resolveExit) =>
      child.on('close', (code, signal) => resolveExit({ code, signal, stdout })),
    );
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^dial echo listening on (http:\/\/\S+)$/m.exec(stdout);
      if (match) resolve({ child, url: match[1], stderr: () => stderr, exit });
    });
    child.on('error', reject);
    void exit.then(({ code }) => reject(new Error(`dial echo exited early with ${code}: ${stderr}`)));
  });
}

describe('dial echo (built CLI)', () => {
  it('serves requests and exits 0 on SIGTERM', async () => {
    const running = await startEcho(['--port', '0']);
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${running.url}/get?hello=world`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { args: Record<string, string> };
    expect(body.args).toEqual({ hello: 'world' });
    running.child.kill('SIGTERM');
    const { code, signal } = await running.exit;
    expect(signal).toBeNull();
    expect(code).toBe(0);
    expect(running.stderr()).toContain('GET /get?hello=world -> 200');
  });

  it('exits 130 on SIGINT (Ctrl+C), and -q keeps stderr quiet', async () => {
    const running = await startEcho(['--port', '0']);
    running.child.kill('SIGINT');
    expect((await running.exit).code).toBe(130);
    const quiet = await startEchoQuiet();
    await fetch(`${quiet.url}/get`).then((response) => response.arrayBuffer());
    quiet.child.kill('SIGTERM');
    expect((await quiet.exit).code).toBe(0);
    expect(quiet.stderr()).toBe('');
  });

  it('a port in use is a usage error (exit 2) with a hint', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = await runCli(['echo', '--port', String(port)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('E_USAGE');
      expect(result.stderr).toContain(`port ${port}`);
      expect(result.stderr).toContain('--port 0');
    } finally {
      blocker.close();
    }
  });

  it('rejects an invalid port', async () => {
    const result = await runCli(['echo', '--port', 'abc']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("invalid port 'abc'");
  });
});

function startEchoQuiet(): Promise<Running> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DIAL_BIN, '-q', 'echo', '--port', '0'], {
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-config-') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string }>((resolveExit) =>
      child.on('close', (code, signal) => resolveExit({ code, signal, stdout })),
    );
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(stdout);
      if (match) resolve({ child, url: match[1], stderr: () => stderr, exit });
    });
    child.on('error', reject);
  });
}
