/**
 * The TUI's copy as curl with the real core services (not the fake): the command is built from
 * the request as the file resolved it — the same function as `dial export curl` — so a body over
 * the 64 KiB kept of the sent request is whole, binary parts are files (`@path`), redirects are
 * followed (`-L`), and the command, run by a real curl, sends what the TUI sent.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreServices } from '../../src/ui/core-services.js';
import { defaultSettings } from '../../src/core/settings/index.js';
import { closeConnections } from '../../src/core/http/index.js';
import { tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

const hasCurl = spawnSync('curl', ['--version']).status === 0 && spawnSync('bash', ['-c', 'true']).status === 0;

let server: TestServer & { requests: RecordedRequest[] };
let root: string;
// 100 KiB of JSON, well past the 64 KiB preview of the sent request.
const items = Array.from({ length: 2000 }, (_, i) => ({ id: i, name: `item-${i}`, note: 'x'.repeat(20) }));
const bigJson = JSON.stringify({ items });
// Bytes that are not text (a NUL, invalid UTF-8), 70 KiB of them.
const blob = Buffer.alloc(70 * 1024, 0);
for (let i = 0; i < blob.length; i++) blob[i] = (i * 7 + 0xf0) & 0xff;

beforeAll(async () => {
  server = await startRecordingServer();
  root = tempDir('dial-tui-curl-');
  mkdirSync(join(root, 'data'));
  writeFileSync(join(root, 'data', 'blob.bin'), blob);
  writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ local: { host: server.url } }));
  writeFileSync(
    join(root, 'api.http'),
    [
      '### big',
      '# @name big',
      'POST {{host}}/big',
      'Content-Type: application/json',
      '',
      bigJson,
      '',
      '### upload',
      '# @name upload',
      'POST {{host}}/upload',
      'Content-Type: multipart/form-data; boundary=B0undary',
      '',
      '--B0undary',
      'Content-Disposition: form-data; name="note"',
      '',
      'hello',
      '--B0undary',
      'Content-Disposition: form-data; name="blob"; filename="blob.bin"',
      'Content-Type: application/octet-stream',
      '',
      '< ./data/blob.bin',
      '--B0undary--',
      '',
      '### pinned',
      '# @name pinned',
      '# @no-redirect',
      'GET {{host}}/pinned',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await closeConnections();
  await server.close();
});

function services(settings = defaultSettings()) {
  return createCoreServices({
    root,
    environment: 'local',
    cliVariables: {},
    suspend: (run) => run(),
    env: { DIAL_CONFIG_DIR: tempDir() },
    settings,
  });
}

async function executeAndCopy(
  name: string,
  settings = defaultSettings(),
): Promise<{ command: string; sent: RecordedRequest }> {
  const core = services(settings);
  const [entry] = await core.loadWorkspace();
  const file = entry.file!;
  const node = file.requests.find((request) => request.name === name)!;
  const before = server.requests.length;
  const result = await core.execute(file, node, {
    environment: 'local',
    signal: new AbortController().signal,
    prompt: async () => '',
    onState: () => undefined,
  });
  expect(result.exchange.response.status).toBe(200);
  expect(server.requests.length).toBe(before + 1);
  return { command: core.curl(result), sent: server.requests[before] };
}

/** Runs a command with Bash and the real curl; returns what the server got. */
async function runWithCurl(command: string): Promise<RecordedRequest> {
  const before = server.requests.length;
  await new Promise<void>((done, fail) => {
    const child = spawn('bash', ['-c', `${command} -s -o /dev/null`], {
      cwd: process.cwd(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`bash/curl exited ${code}: ${stderr}`))));
  });
  expect(server.requests.length).toBe(before + 1);
  return server.requests[before];
}

describe('TUI copy as curl (real core services)', () => {
  it('a body over 64 KiB is in the command whole, not cut at the sent preview', async () => {
    const { command, sent } = await executeAndCopy('big');
    expect(sent.body.toString('utf8')).toBe(bigJson);
    expect(command).toBe(`curl -L '${server.url}/big' -H 'Content-Type: application/json' --data-raw '${bigJson}'`);
    if (hasCurl) expect((await runWithCurl(command)).body.toString('utf8')).toBe(bigJson);
  });

  it('a binary multipart part stays a file (@path), never "[binary data, N bytes]"', async () => {
    const { command, sent } = await executeAndCopy('upload');
    expect(sent.body.includes(blob)).toBe(true);
    expect(command).not.toContain('binary data');
    expect(command).toBe(
      `curl -L '${server.url}/upload' -F 'note=hello' -F 'blob=@${join(root, 'data', 'blob.bin')};type=application/octet-stream'`,
    );
    if (hasCurl) {
      const viaCurl = await runWithCurl(command);
      expect(viaCurl.body.includes(blob)).toBe(true);
      expect(viaCurl.body.toString('latin1')).toContain('name="note"\r\n\r\nhello\r\n');
    }
  });

  it('# @no-redirect: no -L, as the TUI did not follow', async () => {
    const { command } = await executeAndCopy('pinned');
    expect(command).toBe(`curl '${server.url}/pinned'`);
  });

  it('settings that change what is sent are in the command, as for export curl', async () => {
    const { command } = await executeAndCopy('pinned', { ...defaultSettings(), timeout: '2500ms', verifyTls: false });
    expect(command).toBe(`curl '${server.url}/pinned' -k --max-time 2.5`);
  });
});
