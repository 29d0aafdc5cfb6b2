// kulala's request metadata through the built CLI: `# @delay` (ms before the request),
// `# @env-header-key NAME Header` (a variable from a response header) and `# @curl-insecure`
// (no certificate check for that request only), against real local servers.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startHttpsServer, startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };
let https: TestServer;
const arrivals: number[] = [];

beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    arrivals.push(Date.now());
    response.setHeader('content-type', 'application/json');
    response.setHeader('x-request-id', 'req-42');
    response.end('{}');
  });
  https = await startHttpsServer((_request, response) => response.end('secure'));
});
afterAll(async () => {
  await server.close();
  await https.close();
});

function workspace(lines: string[]): string {
  const root = tempDir('dial-kulala-meta-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), lines.join('\n').replaceAll('HOST', server.url).replaceAll('TLS', https.url));
  return root;
}

describe("kulala's request metadata", () => {
  it('@env-header-key sets a variable from a response header; @delay waits before the request', async () => {
    const root = workspace([
      '### first',
      '# @env-header-key REQ_ID X-Request-Id',
      'GET HOST/first',
      '',
      '### second',
      '# @delay 400',
      'GET HOST/second?id={{REQ_ID}}',
      '',
    ]);
    const before = server.requests.length;
    arrivals.length = 0;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(0);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/first', '/second?id=req-42']);
    expect(arrivals[1] - arrivals[0]).toBeGreaterThanOrEqual(390);
  });

  it('@delay that is not a number of milliseconds is refused at its line', async () => {
    const root = workspace(['# @delay soon', 'GET HOST/x', '']);
    const result = await runCli(['check', 'api.http'], { cwd: root });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('api.http:1');
  });

  it('@curl-insecure skips the certificate check for that request only', async () => {
    const root = workspace(['### lax', '# @curl-insecure', 'GET TLS/lax', '', '### strict', 'GET TLS/strict', '']);
    const result = await runCli(['run', 'api.http', '--reporter', 'json'], { cwd: root });
    const report = JSON.parse(result.stdout) as {
      files: Array<{ requests: Array<{ status: string; error?: { code: string } }> }>;
    };
    const [lax, strict] = report.files[0].requests;
    expect(lax.status).toBe('passed');
    expect(strict.status).toBe('errored');
    expect(result.code).not.toBe(0);
  });
});
