/**
 * What the fifth held-out sweep (tests/compat/README.md) found, end to end against a recording
 * server on 127.0.0.1:0: a file variable naming itself (`@token = {{token}}`), env files with
 * comments and trailing commas, REST Client's `rest-client.defaultHeaders`, and the hint for a
 * variable an httpyac JavaScript config's hook would provide.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep5-', files);

const jsonServer = startJsonServer;

describe('fifth held-out sweep', () => {
  it('`@userId = {{userId}}` takes the env value and a handler-set global wins over it; the env file may hold comments', async () => {
    const server = await jsonServer((url) => (url === '/token' ? { data: { token: 'q-1' } } : {}));
    try {
      const dir = workspace({
        'http/http-client.env.json': `{\n  // local server\n  "local": {\n    "host": "${server.url}",\n    "userId": "u-7",\n  },\n}\n`,
        'http/queue.http': [
          '@userId = {{userId}}',
          '@queueToken = {{queueToken}}',
          '',
          '### token',
          'POST {{host}}/token',
          'Content-Type: application/json',
          '',
          '{"userId": "{{userId}}"}',
          '',
          '> {% client.global.set("queueToken", response.body.data.token) %}',
          '',
          '### read',
          'GET {{host}}/read',
          'Queue-Token: {{queueToken}}',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'http/queue.http', '-e', 'local'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => [r.url, r.body.toString('utf8'), r.headers['queue-token']])).toEqual([
        ['/token', '{"userId": "u-7"}', undefined],
        ['/read', '', 'q-1'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('sends rest-client.defaultHeaders (User-Agent) instead of dial’s own', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        '.vscode/settings.json': `{\n  // REST Client\n  "rest-client.defaultHeaders": { "User-Agent": "team-client" },\n}\n`,
        'api.http': `GET ${server.url}/a\n\n###\nGET ${server.url}/b\nUser-Agent: mine\n`,
      });
      const result = await runCli(['run', 'api.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.headers['user-agent'])).toEqual(['team-client', 'mine']);
    } finally {
      await server.close();
    }
  });

  it('a variable only an httpyac JavaScript config hook provides: refused at the request, naming the hook', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'httpyac.config.js': "module.exports = require(path.join(__dirname, 'infra', 'httpyac.config.js'));\n",
        'infra/httpyac.config.js':
          "// no provideVariables cache here\nmodule.exports = {\n  configureHooks(api) {\n    api.hooks.provideVariables.addHook('keyring', () => ({ token: 'x' }));\n  },\n};\n",
        'infra/a.http': `GET ${server.url}/a\nAuthorization: Bearer {{token}}\n`,
      });
      const result = await runCli(['run', 'infra/a.http', '--dialect', 'httpyac'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stdout + result.stderr).toContain('a.http:2');
      expect(result.stdout + result.stderr).toContain(`${join('infra', 'httpyac.config.js')}:4`);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
