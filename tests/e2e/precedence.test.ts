/**
 * A name both in the selected environment and set in a JetBrains-dialect file (the fourth
 * held-out sweep's hmcts file: a handler's `client.global.set` of a name the env file defines):
 * dial sends the file's value, and `dial check`, `dial run` and `dial send FILE#req` say where
 * JetBrains' documented order would send the environment's value instead. Exit codes unchanged.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

function workspace(files: Record<string, string>): string {
  const dir = tempDir('dial-precedence-e2e-');
  mkdirSync(join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const API = [
  '@path = /file-path',
  '',
  '### create',
  'POST {{host}}{{path}}/subs',
  '',
  '> {%',
  '  client.global.set("sub", response.body.id);',
  '%}',
  '',
  '### use',
  'GET {{host}}{{path}}/subs/{{sub}}',
  '',
  '### again',
  'GET {{host}}{{path}}/subs/{{sub}}?again',
  '',
].join('\n');

describe('in-file values over the environment (JetBrains dialect)', () => {
  it('run sends the file values and warns once per name with file:line; check warns; exit 0', async () => {
    const server = await startRecordingServer((_request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end('{"id":"S-42"}');
    });
    try {
      const dir = workspace({
        'http-client.env.json': JSON.stringify({ dev: { host: server.url, path: '/env-path', sub: 'ENV-SUB' } }),
        'api.http': API,
      });
      const run = await runCli(['run', 'api.http', '-e', 'dev'], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /file-path/subs',
        'GET /file-path/subs/S-42',
        'GET /file-path/subs/S-42?again',
      ]);
      const warnings = run.stderr.split('\n').filter((line) => line.startsWith('warning: '));
      expect(warnings).toEqual([
        "warning: api.http:1: 'path' is set here by '@path = …' and also defined in environment 'dev' of http-client.env.json: dial uses the value set here; JetBrains' documentation ranks environment variables first and would send '/env-path' instead",
        "warning: api.http:7: 'sub' is set here by client.global.set('sub', …) and also defined in environment 'dev' of http-client.env.json: dial uses the value set here; JetBrains' documentation ranks environment variables first and would send 'ENV-SUB' instead",
      ]);
      expect(run.stderr).toContain(
        "  hint: rename one of them, or drop 'sub' from environment 'dev' of http-client.env.json, to make it explicit",
      );

      const check = await runCli(['check', 'api.http', '-e', 'dev'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(check.stdout).toContain("api.http:1:1: warning: 'path' is set here by '@path = …'");
      expect(check.stdout).toContain("api.http:7:1: warning: 'sub' is set here by client.global.set('sub', …)");
      expect(check.stderr).toContain('0 errors, 2 warnings in 1 file');
    } finally {
      await server.close();
    }
  });

  it('send FILE#req sends a private env value over a different public one, without a warning', async () => {
    const server = await startRecordingServer((_request, response) => response.end('ok'));
    try {
      const dir = workspace({
        'http-client.env.json': JSON.stringify({ dev: { host: 'http://127.0.0.1:9', token: 'public' } }),
        'http-client.private.env.json': JSON.stringify({ dev: { host: server.url } }),
        'api.http': '### ping\nGET {{host}}/ping\n',
      });
      const send = await runCli(['send', 'api.http#ping', '-e', 'dev'], { cwd: dir });
      expect(send.code, send.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/ping']);
      expect(send.stderr).not.toContain('warning');
    } finally {
      await server.close();
    }
  });

  it('no warning when the values are the same or the file is read in another dialect', async () => {
    const server = await startRecordingServer((_request, response) => response.end('ok'));
    try {
      const dir = workspace({
        'http-client.env.json': JSON.stringify({ dev: { host: server.url, path: '/same', k: 'env' } }),
        'api.http': '@path = /same\n\nGET {{host}}{{path}}\n',
        'kulala.http': '# @dialect kulala\n@k = file\n\nGET {{host}}/{{k}}\n',
      });
      const run = await runCli(['run', 'api.http', 'kulala.http', '-e', 'dev'], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests.map((r) => r.url).sort()).toEqual(['/file', '/same']);
      expect(run.stderr).not.toContain('warning:');
    } finally {
      await server.close();
    }
  });
});
