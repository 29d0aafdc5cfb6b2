/**
 * `{{$auth.token("name")}}` in the workbench (real core services and session, real servers):
 * the device code shows through onNotice (the status bar), the browser opener the command gives
 * is used, the token lands in the config folder the workbench runs with, the preview keeps the
 * placeholder (it signs in nowhere) and the shown exchange has the token masked.
 */
import { getEventListeners } from 'node:events';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreServices } from '../../src/ui/core-services.js';
import { defaultSettings } from '../../src/core/settings/index.js';
import { closeConnections } from '../../src/core/http/index.js';
import { tempDir } from '../helpers/cli.js';
import {
  startDeviceServer,
  startProtectedApi,
  type DeviceTestServer,
  type ProtectedApi,
} from '../helpers/oauth-servers.js';

let device: DeviceTestServer;
let api: ProtectedApi;
let root: string;

beforeAll(async () => {
  device = await startDeviceServer({ clientId: 'tv-app', interval: 0 });
  api = await startProtectedApi([device]);
  root = tempDir('dial-tui-oauth-');
  writeFileSync(
    join(root, 'http-client.env.json'),
    JSON.stringify({
      dev: {
        api: api.url,
        Security: {
          Auth: {
            tv: {
              Type: 'OAuth2',
              'Grant Type': 'Device Authorization',
              'Device Auth URL': device.deviceUrl,
              'Token URL': device.tokenUrl,
              'Client ID': 'tv-app',
            },
          },
        },
      },
    }),
  );
  writeFileSync(join(root, 'api.http'), '### me\nGET {{api}}/me\nAuthorization: Bearer {{$auth.token("tv")}}\n');
});

afterAll(async () => {
  await closeConnections();
  await Promise.all([device.close(), api.close()]);
});

describe('OAuth 2.0 in the workbench', () => {
  it('the device code goes to onNotice, the page to the opener; the token is cached in the config folder and masked', async () => {
    const configDir = tempDir();
    const opened: string[] = [];
    const core = createCoreServices({
      root,
      environment: 'dev',
      cliVariables: {},
      suspend: (run) => run(),
      env: { DIAL_CONFIG_DIR: configDir },
      settings: defaultSettings(),
      openBrowser: async (url) => {
        opened.push(url);
        await (await fetch(url)).text();
      },
    });
    const [entry] = await core.loadWorkspace();
    const file = entry.file!;
    const node = file.requests[0];

    const preview = await core.preview(file, node, 'dev');
    expect(preview.lines).toContain('Authorization: Bearer {{$auth.token("tv")}}');
    expect(existsSync(join(configDir, 'oauth-tokens.json'))).toBe(false);

    const notices: string[] = [];
    const result = await core.execute(file, node, {
      environment: 'dev',
      signal: new AbortController().signal,
      prompt: async () => '',
      onState: () => undefined,
      onNotice: (message) => notices.push(message),
    });
    expect(result.exchange.response.status).toBe(200);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/open http:\/\/127\.0\.0\.1:\d+\/activate and enter the code [A-F0-9]{4}-[A-F0-9]{4}/);
    expect(opened[0]).toMatch(/\/activate\?user_code=/);
    const token = [...device.issued][0];
    expect(readFileSync(join(configDir, 'oauth-tokens.json'), 'utf8')).toContain(token);
    expect(result.secrets).toContain(token);
  });

  it('esc (the signal of the request) stops a sign-in that waits for the user', async () => {
    const core = createCoreServices({
      root,
      environment: 'dev',
      cliVariables: {},
      suspend: (run) => run(),
      env: { DIAL_CONFIG_DIR: tempDir() },
      settings: defaultSettings(),
      openBrowser: () => undefined,
    });
    const [entry] = await core.loadWorkspace();
    const controller = new AbortController();
    const started = Date.now();
    let listenersWhilePolling = 0;
    const sending = core.execute(entry.file!, entry.file!.requests[0], {
      environment: 'dev',
      signal: controller.signal,
      prompt: async () => '',
      onState: () => undefined,
      onNotice: () =>
        setTimeout(() => {
          listenersWhilePolling = getEventListeners(controller.signal, 'abort').length;
          controller.abort();
        }, 100),
    });
    await expect(sending).rejects.toMatchObject({ code: 'E_CANCELLED' });
    expect(Date.now() - started).toBeLessThan(5000);
    // Each poll's wait removes its abort listener when it ends: they do not pile up on the signal
    // (41 had piled up by the time of the abort when they were left).
    expect(listenersWhilePolling).toBeLessThan(5);
  });
});
