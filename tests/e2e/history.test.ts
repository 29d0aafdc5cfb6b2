import { readFileSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

let server: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());

describe('dial history', () => {
  it('records each send (masked, 0600), lists newest first, shows one, clears', async () => {
    const configDir = tempDir('dial-config-');
    await runCli(['send', `${server.url}/first`, '-a', 'ann:hunter22', 'Cookie:sid=abc'], { configDir });
    await runCli(['send', `${server.url}/second`, 'x=1'], { configDir });
    const file = join(configDir, 'history.jsonl');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const raw = readFileSync(file, 'utf8');
    expect(raw.trim().split('\n')).toHaveLength(2);
    expect(raw).not.toContain('hunter22');
    expect(raw).not.toContain(Buffer.from('ann:hunter22').toString('base64'));
    expect(raw).not.toContain('sid=abc');

    const list = await runCli(['history', 'list'], { configDir });
    expect(list.code).toBe(0);
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ +1 .* 200 +POST http:\/\/127\.0\.0\.1:\d+\/second/);
    expect(lines[1]).toMatch(/^ +2 .* 200 +GET http:\/\/127\.0\.0\.1:\d+\/first/);

    const json = JSON.parse((await runCli(['history', 'list', '--json', '-n', '1'], { configDir })).stdout) as Array<{
      exchange: { request: { url: string } };
    }>;
    expect(json).toHaveLength(1);
    expect(json[0].exchange.request.url).toMatch(/\/second$/);

    const show = await runCli(['history', 'show', '2'], { configDir });
    expect(show.code).toBe(0);
    expect(show.stdout).toContain('GET /first HTTP/1.1');
    expect(show.stdout).toContain('Authorization: Basic ••••');
    expect(show.stdout).toContain('Cookie: ••••');
    expect(show.stdout).toContain('HTTP/1.1 200 OK');
    expect(show.stdout).toContain('"url": "/first"');

    const missing = await runCli(['history', 'show', '9'], { configDir });
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('no history entry 9');

    expect((await runCli(['history', 'clear'], { configDir })).code).toBe(0);
    expect(existsSync(file)).toBe(false);
    expect((await runCli(['history', 'list'], { configDir })).stdout).toBe('');
  });

  it('historyLimit caps the entries kept; 0 keeps none', async () => {
    const configDir = tempDir('dial-config-');
    await runCli(['config', 'set', 'historyLimit', '2'], { configDir });
    for (const path of ['/a', '/b', '/c']) await runCli(['send', `${server.url}${path}`], { configDir });
    const entries = JSON.parse(
      (await runCli(['history', 'list', '--json', '-n', '10'], { configDir })).stdout,
    ) as Array<{ exchange: { request: { url: string } } }>;
    expect(entries.map((entry) => new URL(entry.exchange.request.url).pathname)).toEqual(['/c', '/b']);

    // Lowering the limit trims the file at once.
    await runCli(['config', 'set', 'historyLimit', '1'], { configDir });
    expect(readFileSync(join(configDir, 'history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);

    const none = tempDir('dial-config-');
    await runCli(['config', 'set', 'historyLimit', '0'], { configDir: none });
    await runCli(['send', `${server.url}/x`], { configDir: none });
    expect(existsSync(join(none, 'history.jsonl'))).toBe(false);
  });
});
