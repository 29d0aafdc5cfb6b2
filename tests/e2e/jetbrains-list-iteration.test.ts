// JetBrains' collections through the built CLI: `request.variables.set("ids", [...])` in a
// pre-request script sends the request once per item (handlers after each, request.iteration()
// the pass); `dial send` refuses such a request; a placeholder read another way is refused up front.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((_request, response) => response.end('{}'));
});
afterAll(() => server.close());

function workspace(lines: string[]): string {
  const root = tempDir('dial-jb-lists-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), lines.join('\n').replaceAll('HOST', server.url));
  return root;
}

describe('JetBrains list variables', () => {
  it('sends the request once per item, handlers after each', async () => {
    const root = workspace([
      '### ids',
      '< {%',
      '  request.variables.set("ids", [101, 102, 103]);',
      '%}',
      'GET HOST/api/resource/{{ids}}',
      '',
      '### clients',
      '< {%',
      '  request.variables.set("clients", [',
      '    {"id": 1, "firstName": "George"},',
      '    {"id": 2, "firstName": "Alice"}',
      '  ]);',
      '%}',
      'POST HOST/api/clients',
      'Content-Type: application/json',
      '',
      '{"clientId": {{$.clients..id}}, "firstName": "{{$.clients..firstName}}"}',
      '',
      '> {%',
      '  var current = request.variables.get("clients")[request.iteration()];',
      '  client.test("pass " + request.iteration(), function () { client.assert(response.status === 200); });',
      '  client.global.set("last", current.firstName);',
      '%}',
      '',
      '### after',
      'GET HOST/after?last={{last}}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http', '--reporter', 'json'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const sent = server.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      'GET /api/resource/101',
      'GET /api/resource/102',
      'GET /api/resource/103',
      'POST /api/clients',
      'POST /api/clients',
      'GET /after?last=Alice',
    ]);
    expect(sent.slice(3, 5).map((r) => JSON.parse(r.body.toString()))).toEqual([
      { clientId: 1, firstName: 'George' },
      { clientId: 2, firstName: 'Alice' },
    ]);
    const report = JSON.parse(result.stdout) as {
      files: Array<{ requests: Array<{ assertions: Array<{ source: string }> }> }>;
    };
    expect(report.files[0].requests[1].assertions.map((a) => a.source)).toEqual(['pass 0', 'pass 1']);
  });

  it('dial send refuses a request sent once per item; a list read another way is refused before sending', async () => {
    const root = workspace(['< {%', '  request.variables.set("ids", [1, 2]);', '%}', 'GET HOST/one/{{ids}}', '']);
    const before = server.requests.length;
    const sent = await runCli(['send', 'api.http'], { cwd: root });
    expect(sent.code).toBe(3);
    expect(sent.stderr).toContain('api.http:4');
    expect(sent.stderr).toContain('once per item of a list (2 sends)');
    const other = workspace([
      'GET HOST/first',
      '',
      '###',
      '< {%',
      '  request.variables.set("ids", [1, 2]);',
      '%}',
      'GET HOST/x?first={{ids[0]}}',
      '',
    ]);
    const run = await runCli(['run', 'api.http'], { cwd: other });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('api.http:7');
    expect(run.stderr).toContain('{{ids[0]}}');
    expect(server.requests.length).toBe(before);
  });
});
