/**
 * Golden CLI tests: every folder under tests/golden/ with a `cmd` file is one case. The built
 * bin/dial.js runs it as a user would, and its stdout, stderr, exit code (and, with an
 * `expected-files/` folder, the files it wrote under {{tmp}}) must match the case's files exactly,
 * after the normalisers below. `UPDATE_GOLDEN=1 npx vitest run tests/golden` rewrites them.
 * How to add a case: tests/golden/README.md.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';
import { DIAL_BIN } from '../helpers/cli.js';

const GOLDEN = import.meta.dirname;
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const VERSION = (JSON.parse(readFileSync(resolve(GOLDEN, '../../package.json'), 'utf8')) as { version: string }).version;
/** Files of a case folder that describe the case rather than being its input. */
const CASE_FILES = new Set(['cmd', 'stdin', 'stdout', 'stderr', 'exit', 'config', 'expected-files', 'expected-config', 'README.md']);

/** Splits the `cmd` line into words: blanks separate, '…' and "…" quote (no escapes, no expansions). */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const pattern = /'([^']*)'|"([^"]*)"|(\S+?)(?=\s|'|"|$)|\s+/gy;
  let current: string | undefined;
  for (const match of line.matchAll(pattern)) {
    if (/^\s+$/.test(match[0])) {
      if (current !== undefined) words.push(current);
      current = undefined;
      continue;
    }
    current = (current ?? '') + (match[1] ?? match[2] ?? match[3]);
  }
  if (current !== undefined) words.push(current);
  return words;
}

interface Places {
  echo: string;
  tmp: string;
  cwd: string;
  config: string;
}

function substitute(text: string, places: Places): string {
  return text.replaceAll('{{echo}}', places.echo).replaceAll('{{tmp}}', places.tmp).replaceAll('{{cwd}}', places.cwd);
}

/** A duration as dial prints it for people (src/core/duration.ts formatDuration): 850ms, 1.20s, 2m 5s. */
const DURATION = String.raw`(?:\d+ms|\d+\.\d+s|\d+m \d+s)`;

/**
 * The normalisers, each as narrow as it can be. Output is compared after these and nothing else:
 * - the case's temp folders become {{tmp}}, {{cwd}} and {{config}} (as given and as realpath);
 * - the live echo URL becomes {{echo}}, its host:port (Host headers) {{echo-host}};
 * - dial's own version (package.json) becomes {{version}}, so a release does not rewrite every case;
 * - a duration for people at the end of a line after two spaces (`✓ a.http › x  200  12ms`, also
 *   before ` (2 attempts)`) or
 *   after ` in ` (the run summary) becomes <duration>;
 * - machine-readable timings become <n>: JSON `"durationMs": 12.3`, JUnit `time="0.012"`;
 * - ISO 8601 timestamps (report `startedAt`, JUnit `timestamp`) become <date>, and HTTP dates
 *   (`Date: Tue, 24 Nov 2026 20:29:11 GMT`) become <http-date>.
 */
export function normalise(text: string, places: Places): string {
  let out = text;
  for (const [path, name] of [
    [places.tmp, '{{tmp}}'],
    [places.cwd, '{{cwd}}'],
    [places.config, '{{config}}'],
  ] as const) {
    out = out.replaceAll(realpathSync(path), name).replaceAll(path, name);
  }
  out = out.replaceAll(places.echo, '{{echo}}').replaceAll(new URL(places.echo).host, '{{echo-host}}');
  out = out.replaceAll(VERSION, '{{version}}');
  out = out.replace(new RegExp(`(?<=  )${DURATION}(?=(?: \\(\\d+ attempts\\))?$)`, 'gm'), '<duration>');
  out = out.replace(new RegExp(`(?<= in )${DURATION}$`, 'gm'), '<duration>');
  out = out.replace(/"durationMs": ?\d+(?:\.\d+)?/g, '"durationMs": <n>');
  out = out.replace(/\btime="\d+(?:\.\d+)?"/g, 'time="<n>"');
  out = out.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)/g, '<date>');
  out = out.replace(/\b[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT\b/g, '<http-date>');
  return out;
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runDial(args: string[], cwd: string, config: string, stdin: Buffer | undefined): Promise<Outcome> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: 'true', DIAL_CONFIG_DIR: config, COLUMNS: '80' };
  for (const key of ['NODE_EXTRA_CA_CERTS', 'FORCE_COLOR', 'HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'NO_PROXY', 'no_proxy']) delete env[key];
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [DIAL_BIN, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }));
    child.stdin.on('error', () => {});
    child.stdin.end(stdin);
  });
}

/** Every file under `dir`, as relative paths with `/`, sorted. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else found.push(relative(dir, path).split('\\').join('/'));
    }
  };
  walk(dir);
  return found.sort();
}

/** Compares (or, with UPDATE_GOLDEN=1, writes) one expected file of a case. */
function expectGolden(path: string, actual: string): void {
  if (UPDATE) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  const expected = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
  expect(actual, `${relative(GOLDEN, path)} differs (UPDATE_GOLDEN=1 rewrites it after review)`).toBe(expected);
}

/** With an `expected` folder in the case, the files under `written` must be exactly those, with that content. */
function expectWrittenFiles(expectedDir: string, writtenDir: string, places: Places): void {
  if (!existsSync(expectedDir) || !statSync(expectedDir).isDirectory()) return;
  const written = listFiles(writtenDir);
  if (UPDATE) rmSync(expectedDir, { recursive: true, force: true });
  else expect(written, `files written under ${writtenDir}`).toEqual(listFiles(expectedDir));
  if (UPDATE) mkdirSync(expectedDir, { recursive: true });
  for (const file of written) expectGolden(join(expectedDir, file), normalise(readFileSync(join(writtenDir, file), 'utf8'), places));
}

const cases = readdirSync(GOLDEN)
  .filter((name) => existsSync(join(GOLDEN, name, 'cmd')))
  .sort();

let echo: EchoServer;
const scratch = mkdtempSync(join(tmpdir(), 'dial-golden-'));

beforeAll(async () => {
  echo = await startEchoServer({ port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await echo?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('golden CLI cases', () => {
  it('finds the cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases)('%s', async (name) => {
    const caseDir = join(GOLDEN, name);
    const root = mkdtempSync(join(scratch, `${name}-`));
    const places: Places = { echo: echo.url, cwd: join(root, 'cwd'), tmp: join(root, 'tmp'), config: join(root, 'config') };
    for (const dir of [places.cwd, places.tmp, places.config]) mkdirSync(dir);
    for (const entry of readdirSync(caseDir)) {
      if (!CASE_FILES.has(entry)) cpSync(join(caseDir, entry), join(places.cwd, entry), { recursive: true });
    }
    if (existsSync(join(caseDir, 'config'))) cpSync(join(caseDir, 'config'), places.config, { recursive: true });
    const line = readFileSync(join(caseDir, 'cmd'), 'utf8').trim();
    const args = splitCommandLine(substitute(line, places));
    const stdinPath = join(caseDir, 'stdin');
    const stdin = existsSync(stdinPath) ? readFileSync(stdinPath) : undefined;
    const outcome = await runDial(args, places.cwd, places.config, stdin);

    expectGolden(join(caseDir, 'stdout'), normalise(outcome.stdout, places));
    expectGolden(join(caseDir, 'stderr'), normalise(outcome.stderr, places));
    expectGolden(join(caseDir, 'exit'), `${outcome.code}\n`);
    expectWrittenFiles(join(caseDir, 'expected-files'), places.tmp, places);
    expectWrittenFiles(join(caseDir, 'expected-config'), places.config, places);
  });
});
