/**
 * Decoded bodies in `run` are capped: a gzip bomb stops at the compression-ratio guard, a body
 * past maxBodySize stops there, and no spill file is left; spill files of a killed run are
 * removed by the next one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { runCli, tempDir } from '../helpers/cli.js';
import { startHttpServer, type TestServer } from '../helpers/servers.js';
import { outsideGuard } from './helpers.js';

// 256 gzip members of 1 MiB of zeros: about 260 KB on the wire, 256 MiB decoded.
const member = gzipSync(Buffer.alloc(1024 * 1024));
const BOMB = Buffer.concat(Array.from({ length: 256 }, () => member));

let server: TestServer;
beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    if (request.url === '/bomb') {
      response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Encoding': 'gzip' });
      response.end(BOMB);
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/octet-stream' });
    response.end(Buffer.alloc(3 * 1024 * 1024, 0x61));
  });
});
afterAll(async () => {
  await server.close();
});

/** Where dial's spill files go under a temp folder (spillFolder in src/core/http/body-sinks.ts). */
const spillDir = (tmp: string) => join(tmp, `dial-spill-${process.getuid?.() ?? 'user'}`);
const spills = (tmp: string) =>
  (existsSync(spillDir(tmp)) ? readdirSync(spillDir(tmp)) : []).filter((name) => name.startsWith('dial-body-'));

describe('fault: body limits', () => {
  it('a gzip bomb in run: E_BODY_TOO_LARGE (compression bomb), no spill file left', async () => {
    const guard = outsideGuard();
    const dir = tempDir('dial-fault-');
    const tmp = tempDir('dial-fault-tmp-');
    writeFileSync(join(dir, 'api.http'), `### bomb\nGET ${server.url}/bomb\n\n?? status == 200\n`);
    const result = await runCli(['run', 'api.http'], { cwd: dir, env: { TMPDIR: tmp } });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/E_BODY_TOO_LARGE/);
    expect(result.stdout + result.stderr).toMatch(/compression bomb/);
    expect(spills(tmp)).toEqual([]);
    guard.assertUntouched();
  });

  it('a body past the maxBodySize setting: E_BODY_TOO_LARGE naming the setting', async () => {
    const dir = tempDir('dial-fault-');
    const configDir = tempDir('dial-config-');
    writeFileSync(join(configDir, 'config.json'), JSON.stringify({ maxBodySize: '1MiB' }));
    writeFileSync(join(dir, 'api.http'), `### big\nGET ${server.url}/big\n`);
    const result = await runCli(['run', 'api.http'], { cwd: dir, configDir });
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).toMatch(/E_BODY_TOO_LARGE.*larger than 1 MiB \(the maxBodySize setting\)/s);
    const fine = await runCli(['run', 'api.http'], { cwd: dir });
    expect(fine.code).toBe(0);
  });

  it('spill files of a dead dial process are removed by the next run; a live one is kept', async () => {
    const dir = tempDir('dial-fault-');
    const tmp = tempDir('dial-fault-tmp-');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    mkdirSync(spillDir(tmp), { recursive: true });
    writeFileSync(join(spillDir(tmp), `dial-body-${dead}-0123456789ab`), 'left by kill -9');
    mkdirSync(join(spillDir(tmp), `dial-report-${dead}-Ab12Cd`));
    writeFileSync(join(spillDir(tmp), `dial-report-${dead}-Ab12Cd`, 'files.jsonl'), 'a report spill left by kill -9');
    writeFileSync(join(spillDir(tmp), `dial-body-${process.pid}-0123456789ab`), 'still in use');
    writeFileSync(join(tmp, 'unrelated-file'), 'not ours');
    writeFileSync(join(dir, 'api.http'), `GET ${server.url}/big\n`);
    const result = await runCli(['run', 'api.http'], { cwd: dir, env: { TMPDIR: tmp } });
    expect(result.code).toBe(0);
    expect(existsSync(join(spillDir(tmp), `dial-body-${dead}-0123456789ab`))).toBe(false);
    expect(existsSync(join(spillDir(tmp), `dial-report-${dead}-Ab12Cd`))).toBe(false);
    expect(existsSync(join(spillDir(tmp), `dial-body-${process.pid}-0123456789ab`))).toBe(true);
    expect(existsSync(join(tmp, 'unrelated-file'))).toBe(true);
  });
});
