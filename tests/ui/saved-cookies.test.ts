/**
 * The workbench and the saved cookie jar (real core services, a real server): a cookie a request
 * gets in one workbench session goes with requests of the next one and of `dial send`, in the
 * same environment only.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreServices } from '../../src/ui/core-services.js';
import { defaultSettings } from '../../src/core/settings/index.js';
import { closeConnections } from '../../src/core/http/index.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startHttpServer, type TestServer } from '../helpers/servers.js';

let server: TestServer;
let root: string;
const configDir = tempDir('dial-tui-jar-config-');

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    if (request.url === '/login') response.setHeader('set-cookie', 'sid=tui-s3cr3t; Path=/');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ cookie: request.headers.cookie ?? null }));
  });
  root = tempDir('dial-tui-jar-ws-');
  writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ dev: {}, prod: {} }));
  writeFileSync(
    join(root, 'api.http'),
    [`### login`, `GET ${server.url}/login`, '', '### me', `GET ${server.url}/me`, ''].join('\n'),
  );
});

afterAll(async () => {
  await closeConnections();
  await server.close();
});

/** Sends one request of api.http through a new workbench's services; answers the Cookie the server saw. */
async function sendInNewWorkbench(
  environment: string,
  index: number,
  cookieJar?: string | false,
): Promise<string | null> {
  const core = createCoreServices({
    ...(cookieJar !== undefined && { cookieJar }),
    root,
    environment,
    cliVariables: {},
    suspend: (run) => run(),
    env: { DIAL_CONFIG_DIR: configDir },
    settings: defaultSettings(),
  });
  const [entry] = await core.loadWorkspace();
  const file = entry.file!;
  const result = await core.execute(file, file.requests[index], {
    environment,
    signal: new AbortController().signal,
    prompt: async () => '',
    onState: () => undefined,
  });
  const body = result.exchange.response.body;
  return (JSON.parse(body.kind === 'memory' ? body.bytes.toString('utf8') : '{}') as { cookie: string | null }).cookie;
}

describe('the workbench and the saved cookie jar', () => {
  it('keeps a cookie for the next workbench and for dial send, in its environment only', async () => {
    expect(await sendInNewWorkbench('dev', 0)).toBeNull();
    // Saved after the exchange: a new workbench (a new session of the same workspace) sends it.
    expect(readdirSync(join(configDir, 'cookies'))).toHaveLength(1);
    expect(await sendInNewWorkbench('dev', 1)).toBe('sid=tui-s3cr3t');
    expect(await sendInNewWorkbench('prod', 1)).toBeNull();
    const send = await runCli(['send', 'api.http#me', '-e', 'dev'], { cwd: root, configDir });
    expect(JSON.parse(send.stdout)).toEqual({ cookie: 'sid=tui-s3cr3t' });
    // The workbench's history entries (the echoed Cookie, the Set-Cookie) keep the value out.
    const history = readFileSync(join(configDir, 'history.jsonl'), 'utf8');
    expect(history.split('\n').filter((line) => line.includes('/me')).length).toBeGreaterThanOrEqual(2);
    expect(history).not.toContain('tui-s3cr3t');
  });

  it('dial open --no-cookie-jar neither reads nor saves it; --cookie-jar FILE uses FILE', async () => {
    expect(await sendInNewWorkbench('dev', 1, false)).toBeNull();
    const jar = join(tempDir('dial-tui-jar-'), 'jar.json');
    expect(await sendInNewWorkbench('dev', 1, jar)).toBeNull();
    expect(await sendInNewWorkbench('prod', 0, jar)).toBeNull();
    expect(await sendInNewWorkbench('prod', 1, jar)).toBe('sid=tui-s3cr3t');
    expect(await sendInNewWorkbench('prod', 1)).toBeNull();
  });
});
