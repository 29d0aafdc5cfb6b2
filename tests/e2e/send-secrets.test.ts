/**
 * `dial send FILE.http#name` prints secrets masked (DESIGN §6): values of the private env file,
 * `.env` and `# @secret` variables never reach stdout in clear — request or response, piped or
 * on a terminal, sent or --offline — while the server gets the real values and `--curl` keeps
 * them (it is a command to run). Against a real `dial echo` server, which echoes them back.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN, runCli, stripAnsi, tempDir } from '../helpers/cli.js';

const PRIVATE = 'pk-private-7f3a9c2e';
const DOTENV = 'dot-env-5b1d8e44';
const MARKED = 'file-secret-91c3aa';
const SECRETS = [PRIVATE, DOTENV, MARKED];
const MASK = '••••';

let echo: EchoServer;
let paths: string[] = [];
let dir: string;

beforeAll(async () => {
  echo = await startEchoServer({ onRequest: (entry) => paths.push(entry.path) });
  dir = tempDir('dial-send-secrets-');
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { host: echo.url, user: 'ada' } }));
  writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ dev: { apiKey: PRIVATE } }));
  writeFileSync(join(dir, '.env'), `DOT_TOKEN=${DOTENV}\n`);
  writeFileSync(
    join(dir, 'api.http'),
    [
      '@password = ' + MARKED,
      '',
      '### login',
      '# @name login',
      '# @secret password',
      'POST {{host}}/anything/{{user}}?key={{apiKey}}',
      'X-Api-Key: {{apiKey}}',
      'Authorization: Bearer {{DOT_TOKEN}}',
      'Content-Type: application/json',
      '',
      '{"user": "{{user}}", "password": "{{password}}"}',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await echo.close();
});

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

/** Runs the CLI inside a real pseudo-terminal (util-linux `script`), so stdout is a TTY (buffered, pretty output). */
function runInTerminal(args: string[]): Promise<{ code: number | null; output: string }> {
  const command = `cd ${quote(dir)} && ${[process.execPath, DIAL_BIN, ...args].map(quote).join(' ')}`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    DIAL_CONFIG_DIR: tempDir('dial-config-'),
    NO_COLOR: '1',
    FORCE_COLOR: undefined,
    CI: undefined,
  };
  for (const key of Object.keys(env)) if (env[key] === undefined) delete env[key];
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: env as NodeJS.ProcessEnv,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output: output.replace(/\r\n/g, '\n') }));
  });
}

function expectMasked(output: string): void {
  for (const secret of SECRETS) expect(output).not.toContain(secret);
  expect(output).toContain(MASK);
}

describe('dial send FILE.http#name masks secrets in what it prints', () => {
  for (const flags of [['-v'], ['-p', 'H'], ['-p', 'HBhb'], [], ['-p', 'hb']]) {
    it(`piped, ${flags.join(' ') || 'default (-p b)'}: the server gets the values, stdout shows ${MASK}`, async () => {
      paths = [];
      const result = await runCli(['send', 'api.http#login', '-e', 'dev', ...flags], { cwd: dir });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      // The echo server got the real value.
      expect(paths).toEqual([`/anything/ada?key=${PRIVATE}`]);
      expectMasked(result.stdout);
      expect(result.stdout).toContain('ada');
    });
  }

  it('-v shows every secret masked where it was: URL, headers and request body', async () => {
    const result = await runCli(['send', 'api.http#login', '-e', 'dev', '-v'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`POST /anything/ada?key=${MASK} HTTP/1.1`);
    expect(result.stdout).toContain(`X-Api-Key: ${MASK}`);
    expect(result.stdout).toContain(`Authorization: Bearer ${MASK}`);
    expect(result.stdout).toContain(`{"user": "ada", "password": "${MASK}"}`);
  });

  it('the echoed response body is masked value by value, the rest intact', async () => {
    const result = await runCli(['send', 'api.http#login', '-e', 'dev'], { cwd: dir });
    expect(result.code).toBe(0);
    const echoed = JSON.parse(result.stdout) as {
      headers: Record<string, string>;
      json: unknown;
      args: unknown;
      url: string;
    };
    expect(echoed.json).toEqual({ user: 'ada', password: MASK });
    expect(echoed.args).toEqual({ key: MASK });
    expect(echoed.url).toBe(`${echo.url}/anything/ada?key=${MASK}`);
    expect(Object.entries(echoed.headers).find(([name]) => name.toLowerCase() === 'x-api-key')?.[1]).toBe(MASK);
  });

  it('--offline prints the request masked and sends nothing', async () => {
    paths = [];
    const result = await runCli(['send', 'api.http#login', '-e', 'dev', '--offline'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(paths).toEqual([]);
    expectMasked(result.stdout);
    expect(result.stdout).toContain(`X-Api-Key: ${MASK}`);
    expect(result.stdout).toContain(`"password": "${MASK}"`);
  });

  it('on a terminal (buffered, pretty-printed) the values are masked too', async () => {
    const result = await runInTerminal(['send', 'api.http#login', '-e', 'dev', '-v']);
    expect(result.code).toBe(0);
    const output = stripAnsi(result.output);
    expectMasked(output);
    expect(output).toContain(`X-Api-Key: ${MASK}`);
    expect(output).toContain(`"password": "${MASK}"`);
  });

  it('--curl keeps the real values: the command is meant to run', async () => {
    paths = [];
    const result = await runCli(['send', 'api.http#login', '-e', 'dev', '--curl'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(paths).toEqual([]);
    for (const secret of SECRETS) expect(result.stdout).toContain(secret);
    expect(result.stdout).not.toContain(MASK);
    const exported = await runCli(['export', 'curl', 'api.http#login', '-e', 'dev'], { cwd: dir });
    expect(exported.stdout).toBe(result.stdout);
  });

  it('-o saves the real bytes (a file, not a display) while nothing printed holds a secret', async () => {
    const out = join(tempDir('dial-send-secrets-out-'), 'body.json');
    const result = await runCli(['send', 'api.http#login', '-e', 'dev', '-o', out, '-p', 'Hh'], { cwd: dir });
    expect(result.code).toBe(0);
    for (const secret of SECRETS) expect(result.stdout + result.stderr).not.toContain(secret);
    const saved = JSON.parse(readFileSync(out, 'utf8')) as { json: unknown };
    expect(saved.json).toEqual({ user: 'ada', password: MARKED });
  });
});
