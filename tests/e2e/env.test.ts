import { cpSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';

const FIXTURE = resolve(import.meta.dirname, '../fixtures/workspace');

function workspace(): string {
  const root = tempDir('dial-env-e2e-');
  cpSync(FIXTURE, root, { recursive: true });
  return root;
}

describe('dial env', () => {
  it('lists the environments (also as `dial env list` and --json)', async () => {
    const root = workspace();
    const plain = await runCli(['env'], { cwd: root });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('dev\nprod\n');
    const json = await runCli(['env', 'list', '--json'], { cwd: root });
    expect(JSON.parse(json.stdout)).toEqual({
      workspace: root,
      files: ['http-client.env.json', 'http-client.private.env.json'],
      environments: [
        { name: 'dev', default: false, files: ['http-client.env.json', 'http-client.private.env.json'] },
        { name: 'prod', default: false, files: ['http-client.env.json'] },
      ],
    });
  });

  it('show NAME prints resolved values with secrets masked', async () => {
    const root = workspace();
    const result = await runCli(['env', 'show', 'dev'], { cwd: root });
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).toMatch(/^base\s+= http:\/\/127\.0\.0\.1:4010\/v1\s+http-client\.env\.json$/m);
    expect(out).toMatch(/^password\s+= ••••\s+http-client\.private\.env\.json$/m);
    expect(out).toMatch(/^apiKey\s+= ••••/m);
    expect(out).toMatch(/^DOTENV_SECRET\s+= ••••\s+\.env$/m);
    for (const secret of ['dev-password-xyz', 'shared-api-key-123', 'from-dotenv-456']) {
      expect(out).not.toContain(secret);
      expect(result.stderr).not.toContain(secret);
    }
  });

  it('show --json, and --reveal shows the values', async () => {
    const root = workspace();
    const json = JSON.parse((await runCli(['env', 'show', 'dev', '--json'], { cwd: root })).stdout);
    expect(json.variables).toContainEqual({
      name: 'password',
      value: '••••',
      secret: true,
      source: 'http-client.private.env.json',
    });
    expect(json.variables).toContainEqual({
      name: 'user',
      value: 'ada',
      secret: false,
      source: 'http-client.env.json',
    });
    const revealed = await runCli(['env', 'show', 'dev', '--reveal'], { cwd: root });
    expect(revealed.stdout).toContain('dev-password-xyz');
  });

  it('an unknown environment exits 3 naming the known ones', async () => {
    const result = await runCli(['env', 'show', 'staging'], { cwd: workspace() });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("error[E_ENV]: unknown environment 'staging'");
    expect(result.stderr).toContain('environments: dev, prod');
  });

  it('a broken env file exits 3 with file:line:col', async () => {
    const root = workspace();
    writeFileSync(join(root, 'http-client.env.json'), '{\n  "dev": {\n    "host": "x"\n    "port": 1\n  }\n}\n');
    const result = await runCli(['env', 'show', 'dev'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`error[E_ENV] ${join(root, 'http-client.env.json')}:4:5: invalid JSON`);
  });

  it('reads env files as JetBrains does: comments and trailing commas are allowed', async () => {
    const root = workspace();
    writeFileSync(
      join(root, 'http-client.env.json'),
      '{\n  // the local server\n  "dev": {\n    /* "host": "old", */\n    "host": "x//y", // trailing\n    "list": [1, 2,],\n  },\n}\n',
    );
    const result = await runCli(['env', 'show', 'dev', '--json'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('x//y');
    expect(result.stdout).not.toContain('old');
  });
});
