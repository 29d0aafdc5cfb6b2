/**
 * What the fourth held-out sweep (tests/compat/README.md) found, end to end against a recording
 * server on 127.0.0.1:0.
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-heldout4-', files);

const jsonServer = startJsonServer;

describe('env files with object values (JetBrains)', () => {
  it('{{a.b.c}} reads a member of an object value; dial check knows the name', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        // A byte order mark, as Visual Studio writes env files.
        'http-client.env.json': `\uFEFF${JSON.stringify({
          dev: { container: { url: { https: { catalog: server.url } } }, 'svc.key': 'flat', svc: { key: 'nested' } },
        })}`,
        'api.http': `### Get Products List\nGET {{container.url.https.catalog}}/products\nX-Key: {{svc.key}}\n`,
      });
      const check = await runCli(['check', 'api.http', '-e', 'dev'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
      const run = await runCli(['run', 'api.http', '-e', 'dev'], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.headers['x-key']}`)).toEqual(['GET /products flat']);
    } finally {
      await server.close();
    }
  });
});

describe('a response handler path that names a data file', () => {
  it('`> ./open.gif` is refused at its line before anything is sent, with the `>>` it likely meant', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'ingest.http': `### Pixel\nGET ${server.url}/email/open.gif\n> ./open.gif\n\n### Other\nGET ${server.url}/other\n`,
      });
      const run = await runCli(['run', 'ingest.http'], { cwd: dir });
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('ingest.http:3:1');
      expect(run.stderr).toContain('`>> ./open.gif`');
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe('env files with comments', () => {
  it('a // comment in http-client.private.env.json is skipped, the value under it used', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'http-client.private.env.json': `{\n  "dev": {\n    // "Api_HostAddress": "http://old.example.com"\n    "Api_HostAddress": "${server.url}"\n  }\n}\n`,
        'Api.http': '#### get time\nGET {{Api_HostAddress}}/time/\nAccept: application/json\n',
      });
      const check = await runCli(['check', 'Api.http', '-e', 'dev'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
      const run = await runCli(['run', 'Api.http', '-e', 'dev'], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /time/']);
    } finally {
      await server.close();
    }
  });
});
