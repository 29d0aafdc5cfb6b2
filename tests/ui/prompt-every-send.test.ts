/**
 * `# @prompt` in the TUI (real core services and session): every send asks again (as JetBrains
 * does) and sends the new answer; within one send, a referenced request that prompts for the same
 * variable reuses the answer instead of asking twice.
 */
import { writeFileSync } from 'node:fs';
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
  root = tempDir('dial-tui-prompt-');
  writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ local: { host: server.url } }));
  writeFileSync(
    join(root, 'api.http'),
    [
      '### login',
      '# @name login',
      '# @prompt otp One-time code',
      'GET {{host}}/login?otp={{otp}}',
      '',
      '### ask',
      '# @name ask',
      '# @prompt otp One-time code',
      'GET {{host}}/ask?otp={{otp}}&from={{login.response.body.$.method}}',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await closeConnections();
  await server.close();
});

describe('@prompt in the TUI', () => {
  it('asks on every send; a referenced request reuses the answer of the same send', async () => {
    const core = createCoreServices({
      root,
      environment: 'local',
      cliVariables: {},
      suspend: (run) => run(),
      env: { DIAL_CONFIG_DIR: tempDir() },
      settings: defaultSettings(),
    });
    const [entry] = await core.loadWorkspace();
    const file = entry.file!;
    const ask = file.requests.find((request) => request.name === 'ask')!;
    const asked: string[] = [];
    const send = async (answer: string) => {
      const result = await core.execute(file, ask, {
        environment: 'local',
        signal: new AbortController().signal,
        prompt: async (name) => {
          asked.push(name);
          return answer;
        },
        onState: () => undefined,
      });
      expect(result.exchange.response.status).toBe(200);
      return result.exchange.request.url;
    };

    // First send: one question, though `login` (run first, by reference) prompts for otp too.
    const first = await send('111');
    expect(asked).toEqual(['otp']);
    expect(server.requests.map((r) => r.url)).toEqual(['/login?otp=111', '/ask?otp=111&from=GET']);
    expect(first).toContain('otp=111');

    // Second send: asked again, and the new answer is sent (login already ran: not again).
    const second = await send('222');
    expect(asked).toEqual(['otp', 'otp']);
    expect(second).toContain('/ask?otp=222&from=GET');
    expect(server.requests.map((r) => r.url)).toEqual([
      '/login?otp=111',
      '/ask?otp=111&from=GET',
      '/ask?otp=222&from=GET',
    ]);
  });
});
