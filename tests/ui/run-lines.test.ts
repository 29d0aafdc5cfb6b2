/**
 * The workbench sends a block of JetBrains/kulala `run` lines through the same executor as
 * `dial run`: the requests it names go out (an imported file's, with the line's variables) and
 * the workbench shows the last exchange they produced.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreServices } from '../../src/ui/core-services.js';
import { defaultSettings } from '../../src/core/settings/index.js';
import { closeConnections } from '../../src/core/http/index.js';
import { tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };
let root: string;

beforeAll(async () => {
  server = await startRecordingServer();
  root = tempDir('dial-tui-run-lines-');
  mkdirSync(join(root, 'lib'));
  writeFileSync(
    join(root, 'lib', 'auth.http'),
    `@user = bob\n\n### Login\nPOST ${server.url}/login?u={{user}}\n\n### Me\nGET ${server.url}/me?u={{user}}\n`,
  );
  writeFileSync(join(root, 'api.http'), 'import ./lib/auth.http\n\n### Both as ann\nrun ./lib/auth.http (@user=ann)\n');
});

afterAll(async () => {
  await closeConnections();
  await server.close();
});

describe('run lines in the workbench', () => {
  it('sends what the run line names and shows the last exchange', async () => {
    const core = createCoreServices({
      root,
      cliVariables: {},
      suspend: (run) => run(),
      env: { DIAL_CONFIG_DIR: tempDir() },
      settings: defaultSettings(),
    });
    const entries = await core.loadWorkspace();
    const file = entries.find((entry) => entry.file?.path.endsWith('api.http'))!.file!;
    const before = server.requests.length;
    const result = await core.execute(file, file.requests[0], {
      environment: undefined,
      signal: new AbortController().signal,
      prompt: async () => '',
      onState: () => undefined,
    });
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /login?u=ann',
      'GET /me?u=ann',
    ]);
    expect(result.exchange.response.status).toBe(200);
    expect(JSON.parse(result.bodyText)).toMatchObject({ url: '/me?u=ann' });
  });
});
