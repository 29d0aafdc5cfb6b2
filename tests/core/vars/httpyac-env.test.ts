import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withHttpyacEnvironment } from '../../../src/core/vars/httpyac-env.js';

const base = {
  values: new Map([['token', 'from-json']]),
  secretNames: new Set<string>(),
  files: ['http-client.env.json'],
  sources: new Map([['token', 'http-client.env.json']]),
};

describe("httpyac's env/*.env files", () => {
  const root = mkdtempSync(join(tmpdir(), 'dial-httpyac-env-'));
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'env'));
  mkdirSync(join(root, 'api'));
  writeFileSync(join(root, 'env', '.env'), 'host=http://default\ntoken=from-dotenv\nport=1\n');
  writeFileSync(join(root, 'env', 'dev.env'), 'host=http://dev\n');

  it('reads env/.env for every file below, under the JetBrains values', async () => {
    const env = await withHttpyacEnvironment(base, join(root, 'api'), undefined);
    expect(env.values.get('host')).toBe('http://default');
    expect(env.values.get('token')).toBe('from-json');
    expect(env.files).toContain(join(root, 'env', '.env'));
  });
  it('adds env/<name>.env over env/.env when an environment is chosen', async () => {
    const env = await withHttpyacEnvironment(base, join(root, 'api'), 'dev');
    expect(env.values.get('host')).toBe('http://dev');
    expect(env.values.get('port')).toBe('1');
  });
  it('returns the environment unchanged when there are no such files', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'dial-httpyac-none-'));
    mkdirSync(join(empty, '.git'));
    expect(await withHttpyacEnvironment(base, empty, undefined)).toBe(base);
  });
});
