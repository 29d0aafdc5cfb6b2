// kulala's `# @env-json-key NAME path` sets a variable from the JSON response for later requests;
// `# @env-stdin-cmd` (a shell command) stays refused before anything is sent.
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

  it('# @env-stdin-cmd is refused at its line, nothing sent', async () => {
    const root = workspace('### a\nGET HOST/a\n\n### b\n# @env-stdin-cmd JWT jq -r .token\nPOST HOST/b\n');
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('api.http:5');
    expect(result.stderr).toContain('@env-stdin-cmd');
    expect(server.requests.length).toBe(before);
  });
});
