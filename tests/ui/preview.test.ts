/**
 * The unsent request's preview through the real core: variables filled from the environment,
 * the engine's default headers, private values masked, nothing sent, and an unresolvable
 * variable named instead of failing. Real files, no server (a request to it would fail).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCoreServices } from '../../src/ui/core-services.js';
import { defaultSettings } from '../../src/core/settings/index.js';
import { loadHttpFile } from '../../src/core/editing/index.js';
import { tempDir } from '../helpers/cli.js';

const PASSWORD = 'preview-secret-42';

describe('preview of an unsent request', () => {
  it('fills variables, adds the default headers, masks private values; names what it cannot resolve', async () => {
    const root = tempDir();
    mkdirSync(root, { recursive: true });
    writeFileSync(
      join(root, 'http-client.env.json'),
      JSON.stringify({ local: { host: 'http://127.0.0.1:9', user: 'ada' } }),
    );
    writeFileSync(join(root, 'http-client.private.env.json'), JSON.stringify({ local: { password: PASSWORD } }));
    writeFileSync(
      join(root, 'api.http'),
      '### Log in\nPOST {{host}}/login\nContent-Type: application/json\nX-Password: {{password}}\n\n{"user": "{{user}}"}\n\n### Needs a token\nGET {{host}}/me\nAuthorization: Bearer {{token}}\n',
    );
    const services = createCoreServices({
      root,
      environment: 'local',
      cliVariables: {},
      suspend: (run) => run(),
      env: { DIAL_CONFIG_DIR: tempDir() },
      settings: defaultSettings(),
    });
    const file = await loadHttpFile(join(root, 'api.http'));

    const login = await services.preview(file, file.requests[0], 'local');
    expect(login.problem).toBeUndefined();
    expect(login.lines[0]).toBe('POST http://127.0.0.1:9/login');
    expect(login.lines).toContain('Content-Type: application/json');
    expect(login.lines.some((line) => /^Host: 127\.0\.0\.1:9$/.test(line))).toBe(true);
    expect(login.lines.at(-1)).toBe('{"user": "ada"}');
    expect(login.lines.join('\n')).not.toContain(PASSWORD);
    expect(login.lines.find((line) => line.startsWith('X-Password:'))).toMatch(/•/);

    const me = await services.preview(file, file.requests[1], 'local');
    expect(me.problem).toMatch(/token/);
    expect(me.lines[0]).toBe('GET {{host}}/me');
  });
});
