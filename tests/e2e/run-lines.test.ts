// JetBrains/kulala `import` and `run` lines through the built CLI: `dial run` runs what they
// name (this file, imported files, whole files) with their `(@var=value)` overrides, `dial send`
// follows a block of one `run #name` line, and a target that does not exist sends nothing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());

function workspace(files: Record<string, string>): string {
  const root = tempDir('dial-run-lines-');
  mkdirSync(join(root, '.git'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text.replaceAll('HOST', server.url));
  }
  return root;
}

const AUTH = '@user = bob\n\n### Login\nPOST HOST/login?u={{user}}\n\n### Me\nGET HOST/me?u={{user}}\n';

async function sentBy(
  args: string[],
  cwd: string,
): Promise<{ urls: string[]; code: number | null; stderr: string; stdout: string }> {
  const before = server.requests.length;
  const result = await runCli(args, { cwd });
  return {
    urls: server.requests.slice(before).map((r) => `${r.method} ${r.url}`),
    code: result.code,
    stderr: result.stderr,
    stdout: result.stdout,
  };
}

describe('run and import lines', () => {
  it('dial run: run ./file.http, run #name from an import (with overrides), then a block’s own request', async () => {
    const root = workspace({
      'lib/auth.http': AUTH,
      'main.http':
        '@who = ann\nimport ./lib/auth.http\n\n### All of auth\nrun ./lib/auth.http\n\n### Ann\nrun #Me (@user={{who}}, @unused=1)\n\n### After login\nrun #Login\nGET HOST/after\n',
    });
    const { urls, code, stderr } = await sentBy(['run', 'main.http', '--reporter', 'dot'], root);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(urls).toEqual(['POST /login?u=bob', 'GET /me?u=bob', 'GET /me?u=ann', 'POST /login?u=bob', 'GET /after']);
  });

  it('dial run: a run block’s request named `METHOD url` (kulala) and a request of the same file', async () => {
    const root = workspace({
      'api.http': `### First\nGET HOST/first\n\n###\nPOST HOST/second\n\n### Both\nrun #First\nrun #POST ${server.url}/second\n`,
    });
    const { urls } = await sentBy(['run', 'api.http:9'], root);
    expect(urls).toEqual(['GET /first', 'POST /second']);
  });

  it('dial send FILE#name follows a block of one run line; several requests are dial run’s', async () => {
    const root = workspace({
      'lib/auth.http': AUTH,
      'main.http':
        'import ./lib/auth.http\n\n# @name ann\nrun #Me (@user=ann)\n\n###\n# @name all\nrun ./lib/auth.http\n',
    });
    const one = await sentBy(['send', 'main.http#ann'], root);
    expect(one.code).toBe(0);
    expect(one.urls).toEqual(['GET /me?u=ann']);
    const several = await sentBy(['send', 'main.http#all'], root);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain("request 'all' runs 2 requests");
    expect(several.stderr).toContain('dial run main.http:8');
    expect(several.urls).toEqual([]);
  });

  it('a run line naming nothing errors at its line and sends nothing of its block', async () => {
    const root = workspace({ 'api.http': '### Go\nrun #Nope\nGET HOST/never\n' });
    const { urls, code, stdout } = await sentBy(['run', 'api.http'], root);
    expect(code).not.toBe(0);
    expect(stdout).toContain("run: no request named 'Nope' in this file");
    expect(stdout).toContain('api.http:2');
    expect(urls).toEqual([]);
  });
});
