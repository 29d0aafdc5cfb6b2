// docs/websocket.md's example file runs as written against the built `dial echo` (its port swapped in).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startDialEcho, type RunningEcho } from '../helpers/echo-server.js';

const doc = readFileSync(resolve(import.meta.dirname, '../../docs/websocket.md'), 'utf8');
let echo: RunningEcho;
let cwd: string;

beforeAll(async () => {
  echo = await startDialEcho();
  cwd = tempDir('dial-ws-doc-');
  const example = /```http\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  writeFileSync(join(cwd, 'chat.http'), example.replaceAll('127.0.0.1:4010', `127.0.0.1:${echo.port}`));
}, 30_000);
afterAll(() => echo?.stop());

describe('docs/websocket.md', () => {
  it('its chat.http sends and runs against dial echo as the page says', async () => {
    const send = await runCli(['send', 'chat.http#echo'], { cwd });
    expect(send.stdout).toBe('{"message": "Hello"}\n{"message": "World"}\n');
    const run = await runCli(['run', 'chat.http'], { cwd });
    expect(run.stdout).toContain('3 passed');
    expect(run.code).toBe(0);
  });
});
