// The package as a user gets it: `npm pack`, then an install of that tarball into a temporary
// prefix with no network (an empty cache and an unreachable registry), then the installed
// `dial` run from there, far from this repository's node_modules: --version, send, run, open.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { startDialEcho, type RunningEcho } from '../helpers/echo-server.js';
import { KEY, PtyTerminal } from '../helpers/pty-terminal.js';
import { startHttpServer, type TestServer } from '../helpers/servers.js';

const root = join(import.meta.dirname, '../..');
const MB = 1_000_000;

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

/** The environment for npm: none of the variables `npm test` set for its own run, no registry. */
function npmEnv(cache: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!/^npm_/i.test(name)) env[name] = value;
  return {
    ...env,
    npm_config_cache: cache,
    npm_config_registry: 'http://127.0.0.1:9/',
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
  };
}

function sizeOf(path: string): { bytes: number; files: number } {
  const stat = statSync(path);
  if (!stat.isDirectory()) return { bytes: stat.size, files: 1 };
  return readdirSync(path)
    .map((name) => sizeOf(join(path, name)))
    .reduce((total, entry) => ({ bytes: total.bytes + entry.bytes, files: total.files + entry.files }), {
      bytes: 0,
      files: 0,
    });
}

let packed: PackResult;
let tarball: string;
let prefix: string;
let installed: string;
let dial: string;
let install: { status: number | null; output: string; ms: number };
let echo: RunningEcho;
let server: TestServer;

beforeAll(async () => {
  const work = tempDir('dial-pack-');
  // `npm test` has just built dist/; --ignore-scripts so packing does not build it again.
  const json = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], {
    cwd: root,
    encoding: 'utf8',
    env: npmEnv(join(work, 'cache-pack')),
  });
  packed = (JSON.parse(json) as PackResult[])[0];
  tarball = join(work, packed.filename);
  prefix = join(work, 'prefix');
  const started = performance.now();
  const result = spawnSync(
    'npm',
    ['install', '--global', '--offline', '--foreground-scripts', '--prefix', prefix, tarball],
    {
      cwd: work,
      encoding: 'utf8',
      env: npmEnv(join(work, 'empty-cache')),
    },
  );
  install = { status: result.status, output: result.stdout + result.stderr, ms: performance.now() - started };
  installed = join(prefix, 'lib/node_modules/dial-http');
  dial = join(prefix, 'bin/dial');
  const size = existsSync(installed) ? sizeOf(installed) : { bytes: 0, files: 0 };
  // The figures the release notes quote (not asserted on time: speed is the bench's job).
  console.log(
    `pack: ${packed.filename} ${(packed.size / MB).toFixed(2)} MB, ${packed.entryCount} files; ` +
      `installed ${(size.bytes / MB).toFixed(2)} MB in ${size.files} files; npm install --offline took ${Math.round(install.ms)} ms`,
  );
  echo = await startDialEcho([dial]);
  server = await startHttpServer((request, response) => {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ method: request.method, url: request.url }));
  });
}, 120_000);

afterAll(async () => {
  await echo?.stop();
  await server?.close();
});

/** Runs the installed `dial` (asynchronously: the loopback server lives in this process). */
function run(args: string[], cwd = prefix): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(dial, args, {
      cwd,
      env: { ...process.env, DIAL_CONFIG_DIR: tempDir('dial-pack-config-'), NO_COLOR: '1', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('npm pack → npm install --offline → dial', () => {
  it('packs a handful of files under 10 MB: bin, dist (with the bundled licences), docs, LICENSE, README', () => {
    const paths = packed.files.map((file) => file.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'bin/dial.js',
        'bin/package.json',
        'dist/cli.cjs',
        'dist/cli.cjs.cache',
        'dist/send.cjs',
        'dist/send.cjs.cache',
        'dist/run.cjs',
        'dist/run.cjs.cache',
        'dist/lib/quickjs.wasm',
        'dist/THIRD-PARTY-LICENSES.txt',
        'docs/cli.md',
        'LICENSE',
        'README.md',
        'package.json',
      ]),
    );
    expect(paths.filter((path) => !/^(bin|dist|docs)\/|^(LICENSE|README\.md|package\.json)$/.test(path))).toEqual([]);
    expect(packed.unpackedSize).toBeLessThan(10 * MB);
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.name).toBe('dial-http');
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toEqual({ dial: 'bin/dial.js' });
  });

  it('installs from the tarball with no network and an empty cache, without running the build (prepare)', () => {
    expect(install.status, install.output).toBe(0);
    // No dependency came along, and nothing was built: the tarball has no scripts/ to build with.
    expect(existsSync(join(installed, 'node_modules'))).toBe(false);
    expect(existsSync(join(installed, 'scripts'))).toBe(false);
    // (This npm lists `prepare` among "install scripts not yet covered by allowScripts", but a
    // tarball install never runs it; --foreground-scripts would print its `> … prepare` line.)
    expect(install.output).not.toMatch(/^> dial-http@\S+ prepare/m);
    expect(readdirSync(installed).filter((name) => name.startsWith('dist.'))).toEqual([]);
    expect(sizeOf(installed).bytes).toBeLessThan(10 * MB);
    expect(readFileSync(join(installed, 'dist/THIRD-PARTY-LICENSES.txt'), 'utf8')).toMatch(
      /^commander \d+\.\d+\.\d+ \(MIT\)$/m,
    );
  });

  it('runs the installed dial: --version, send to a loopback server, run examples/ against dial echo', async () => {
    const version = await run(['--version']);
    expect(version.stdout).toBe(
      `${(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version}\n`,
    );

    const send = await run(['send', `${server.url}/from-the-package`, 'q==1']);
    expect(send.stderr).toBe('');
    expect(JSON.parse(send.stdout)).toEqual({ method: 'GET', url: '/from-the-package?q=1' });
    expect(send.status).toBe(0);

    const cwd = tempDir('dial-pack-run-');
    cpSync(join(root, 'examples'), join(cwd, 'examples'), { recursive: true });
    const envFile = join(cwd, 'examples/http-client.env.json');
    writeFileSync(envFile, readFileSync(envFile, 'utf8').replace('127.0.0.1:4010', `127.0.0.1:${echo.port}`));
    const tests = await run(['run', 'examples', '-e', 'local'], cwd);
    expect(tests.stdout).toMatch(/^4 passed, 0 failed, 0 errored, 0 skipped \(4 requests, 1 file\)/m);
    expect(tests.status).toBe(0);

    // The script sandbox: QuickJS's WebAssembly is a file of its own in dist/lib (scripts/build.mjs).
    writeFileSync(
      join(cwd, 'handler.http'),
      `GET ${echo.url}/anything/x\n\n> {%\n  client.test("sandbox", () => client.assert(response.status === 200 && 6 * 7 === 42));\n%}\n`,
    );
    const handled = await run(['run', 'handler.http'], cwd);
    expect(handled.stdout).toMatch(/^1 passed, 0 failed, 0 errored, 0 skipped/m);
    expect(handled.status).toBe(0);
  });

  it('opens the workbench from the installed copy (the UI bundle needs no node_modules either)', async () => {
    const workspace = tempDir('dial-pack-open-');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(join(workspace, 'http-client.env.json'), JSON.stringify({ local: { host: echo.url } }));
    writeFileSync(join(workspace, 'api.http'), '### ping\nGET {{host}}/anything/ping\n');
    const tty = new PtyTerminal([dial, 'open', workspace, '-e', 'local'], {
      cols: 100,
      rows: 30,
      env: { CI: undefined, NO_COLOR: undefined, DIAL_CONFIG_DIR: tempDir('dial-pack-tui-') },
    });
    try {
      await tty.waitForText('ping', 'env: local');
      tty.press(KEY.enter);
      await tty.waitForText('200 OK', '/anything/ping');
      tty.press('q');
      expect(await tty.exit()).toBe(0);
    } finally {
      tty.dispose();
    }
  });
});
