// kulala's `# @env-json-key NAME path` sets a variable from the JSON response for later requests;
// `# @env-stdin-cmd` (a shell command fed the response) does too, but only in a workspace the user
// trusts (`dial trust`, --allow-node, DIAL_ALLOW_NODE=1); elsewhere it is refused before anything is sent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ json: { token: 'tok-9', user: { id: 4 } } }));
  });
});
afterAll(() => server.close());

function workspace(text: string): string {
  const root = tempDir('dial-kulala-keys-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), text.replaceAll('HOST', server.url));
  return root;
}

describe('kulala metadata', () => {
  it('# @env-json-key sets a variable from the response body for the next requests', async () => {
    const root = workspace(
      '### login\n# @env-json-key TOKEN json.token\n# @env-json-key UID json.user.id\nPOST HOST/login\n\n### me\nGET HOST/me?t={{TOKEN}}&u={{UID}}\n',
    );
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(0);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/login', '/me?t=tok-9&u=4']);
  });

  it('# @env-json-key with a path that is not there unsets the variable, as kulala does', async () => {
    const root = workspace(
      '### a\n# @env-json-key TOKEN json.token\nGET HOST/a\n\n### b\n# @env-json-key TOKEN json.none\nGET HOST/b\n\n### c\nGET HOST/c?t={{TOKEN}}\n',
    );
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stdout + result.stderr).toContain('TOKEN');
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/a', '/b']);
  });

  it("a script reads the file's variables through request.environment.get, as kulala gives them", async () => {
    const root = workspace(
      [
        '@ENV_USER = ann',
        '@base = HOST/v1',
        '',
        '### a',
        '< {%',
        '  request.variables.set("u", request.environment.get("ENV_USER") + "-" + request.environment.get("base").length);',
        '%}',
        'GET HOST/a?u={{u}}',
        '',
        '> {% client.global.set("who", request.environment.get("ENV_USER")); %}',
        '',
        '### b',
        'GET HOST/b?who={{who}}',
        '',
      ].join('\n'),
    );
    const base = `${server.url}/v1`;
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual([`/a?u=ann-${base.length}`, '/b?who=ann']);
    const sent = await runCli(['send', 'api.http#a'], { cwd: root });
    expect(sent.code).toBe(0);
    expect(server.requests.at(-1)?.url).toBe(`/a?u=ann-${base.length}`);
  });

  it('# @env-stdin-cmd is refused at its line in an untrusted workspace, nothing sent', async () => {
    const root = workspace('### a\nGET HOST/a\n\n### b\n# @env-stdin-cmd JWT jq -r .token\nPOST HOST/b\n');
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('api.http:5');
    expect(result.stderr).toContain('@env-stdin-cmd');
    expect(result.stderr).toContain('dial trust');
    const sent = await runCli(['send', 'api.http#b'], { cwd: root });
    expect(sent.code).toBe(3);
    expect(sent.stderr).toContain('api.http:5');
    expect(server.requests.length).toBe(before);
  });

  it.runIf(process.platform !== 'win32')('runs the commands in a trusted workspace (dial trust)', async () => {
    const root = workspace(
      [
        '### login',
        `# @env-stdin-cmd TOKEN sed -n 's/.*"token":"\\([^"]*\\)".*/\\1/p'`,
        '# @env-stdin-cmd-pre STAMP echo pre-$((6*7))',
        'POST HOST/login?s={{STAMP}}',
        '',
        '### me',
        'GET HOST/me?t={{TOKEN}}&s={{STAMP}}',
        '',
      ].join('\n'),
    );
    const configDir = tempDir('dial-config-');
    expect((await runCli(['trust', root], { configDir })).code).toBe(0);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root, configDir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/login?s=pre-42', '/me?t=tok-9&s=pre-42']);
    // dial send runs the -pre command too (its value goes into the request).
    const sent = await runCli(['send', 'api.http#login'], { cwd: root, configDir });
    expect(sent.code).toBe(0);
    expect(server.requests.at(-1)?.url).toBe('/login?s=pre-42');
  });

  it.runIf(process.platform !== 'win32')('a failing command errors the request at its line', async () => {
    const root = workspace('### a\n# @env-stdin-cmd T exit 4\nGET HOST/a\n\n### b\nGET HOST/b?t={{T}}\n');
    const result = await runCli(['run', 'api.http'], { cwd: root, env: { DIAL_ALLOW_NODE: '1' } });
    expect(result.code).toBe(3);
    expect(result.stdout + result.stderr).toContain('exit code 4');
    expect(result.stdout + result.stderr).toContain('api.http:2');
  });
});
