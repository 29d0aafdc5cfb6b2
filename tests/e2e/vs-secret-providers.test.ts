// Visual Studio's secret providers through the built CLI: an `AspnetUserSecrets` value is read from
// the project's user secrets (HOME/.microsoft/usersecrets/<UserSecretsId>/secrets.json) and sent,
// masked in `dial env show`; an `AzureKeyVault` one stops the request that uses it, nothing sent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

const ID = '0f3c1e8a-5b6d-4c2e-9a1b-7d8e9f0a1b2c';
let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((_request, response) => response.end('{}'));
});
afterAll(() => server.close());

function workspace(): { root: string; home: string } {
  const root = tempDir('dial-vs-secrets-');
  const home = tempDir('dial-home-');
  mkdirSync(join(root, '.git'));
  writeFileSync(
    join(root, 'Api.csproj'),
    `<Project>\n  <PropertyGroup>\n    <UserSecretsId>${ID}</UserSecretsId>\n  </PropertyGroup>\n</Project>\n`,
  );
  mkdirSync(join(home, '.microsoft', 'usersecrets', ID), { recursive: true });
  writeFileSync(join(home, '.microsoft', 'usersecrets', ID, 'secrets.json'), '{ "config:ApiKeyDev": "s3cret-key" }');
  writeFileSync(
    join(root, 'http-client.env.json'),
    JSON.stringify({
      dev: {
        HostAddress: server.url,
        ApiKeyDev: { provider: 'AspnetUserSecrets', secretName: 'config:ApiKeyDev' },
        VaultKey: { provider: 'AzureKeyVault', secretName: 'k', resourceId: '/subscriptions/x' },
      },
    }),
  );
  return { root, home };
}

describe('Visual Studio secret providers', () => {
  it('sends the ASP.NET Core user secret and masks it in env show', async () => {
    const { root, home } = workspace();
    writeFileSync(join(root, 'api.http'), 'GET {{HostAddress}}/weather\nX-API-KEY: {{ApiKeyDev}}\n');
    const env = { HOME: home, APPDATA: undefined };
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http', '-e', 'dev'], { cwd: root, env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const sent = server.requests.slice(before);
    expect(sent.map((r) => r.url)).toEqual(['/weather']);
    expect(sent[0].headers['x-api-key']).toBe('s3cret-key');
    const shown = await runCli(['env', 'show', 'dev'], { cwd: root, env });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/ApiKeyDev\s+= ••••/);
    expect(shown.stdout).not.toContain('s3cret-key');
  });

  it('refuses an Azure Key Vault value where it is used, naming the env file and the key', async () => {
    const { root, home } = workspace();
    writeFileSync(join(root, 'api.http'), 'GET {{HostAddress}}/vault\nX-Key: {{VaultKey}}\n');
    const before = server.requests.length;
    const result = await runCli(['send', 'api.http', '-e', 'dev'], {
      cwd: root,
      env: { HOME: home, APPDATA: undefined },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain("'VaultKey' of");
    expect(result.stderr).toContain('http-client.env.json');
    expect(result.stderr).toContain('Azure Key Vault');
    expect(result.stderr).toContain('http-client.private.env.json');
    expect(server.requests.length).toBe(before);
  });
});
