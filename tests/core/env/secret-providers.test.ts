// Visual Studio's secret providers in env files: `AspnetUserSecrets` reads the user secrets of the
// project (the nearest .csproj with <UserSecretsId>) from where .NET keeps them, masked as a secret;
// Azure Key Vault and DPAPI values are refused where a request uses them, naming the env file and key.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { userSecretsPath, providerValue } from '../../../src/core/env/secret-providers.js';
import { createSession } from '../../../src/core/session/index.js';
import { tempDir } from '../../helpers/cli.js';

const ID = 'b1d2c3e4-0000-4a4a-9f9f-123456789abc';

function project(secrets: string | undefined): { root: string; home: string; api: string } {
  const root = tempDir('dial-usersecrets-');
  const home = tempDir('dial-home-');
  mkdirSync(join(root, '.git'));
  const api = join(root, 'src', 'Api');
  mkdirSync(api, { recursive: true });
  writeFileSync(
    join(api, 'Api.csproj'),
    `<Project Sdk="Microsoft.NET.Sdk.Web">\n  <PropertyGroup>\n    <UserSecretsId>${ID}</UserSecretsId>\n  </PropertyGroup>\n</Project>\n`,
  );
  if (secrets !== undefined) {
    mkdirSync(join(home, '.microsoft', 'usersecrets', ID), { recursive: true });
    writeFileSync(join(home, '.microsoft', 'usersecrets', ID, 'secrets.json'), secrets);
  }
  return { root, home, api };
}

describe('AspnetUserSecrets', () => {
  it('finds secrets.json where .NET keeps it', () => {
    expect(userSecretsPath(ID, { HOME: '/home/ann' })).toBe(`/home/ann/.microsoft/usersecrets/${ID}/secrets.json`);
    expect(userSecretsPath(ID, { APPDATA: '/c/AppData/Roaming', HOME: '/home/ann' })).toBe(
      join('/c/AppData/Roaming', 'Microsoft', 'UserSecrets', ID, 'secrets.json'),
    );
  });

  it('reads a flat or nested secret, names case-insensitive, comments allowed; the value is a secret', async () => {
    const { api, home } = project(
      '{\n  // dotnet user-secrets set writes flat names\n  "config:ApiKeyDev": "k-123",\n  "Db": { "Password": "pw" },\n}\n',
    );
    const env = { HOME: home };
    const cache = { secrets: new Map() };
    const envFile = join(api, 'http-client.env.json');
    const object = { provider: 'AspnetUserSecrets', secretName: 'Config:ApiKeyDev' };
    await expect(providerValue(object, envFile, 'ApiKey', cache, env)).resolves.toEqual({
      value: 'k-123',
      secret: true,
    });
    await expect(
      providerValue({ provider: 'AspnetUserSecrets', secretName: 'db:password' }, envFile, 'Pw', cache, env),
    ).resolves.toEqual({ value: 'pw', secret: true });
    // From a folder below the project's (the nearest project above).
    mkdirSync(join(api, 'Http'));
    await expect(
      providerValue(object, join(api, 'Http', 'http-client.env.json'), 'ApiKey', { secrets: new Map() }, env),
    ).resolves.toEqual({ value: 'k-123', secret: true });
  });

  it('a missing secret, secrets file or project becomes a placeholder naming what is missing', async () => {
    const { api, home, root } = project('{"other": "x"}');
    const object = { provider: 'AspnetUserSecrets', secretName: 'config:ApiKeyDev' };
    const missing = await providerValue(
      object,
      join(api, 'http-client.env.json'),
      'ApiKey',
      { secrets: new Map() },
      {
        HOME: home,
      },
    );
    expect(missing.secret).toBe(false);
    expect(missing.value).toContain("the user secret 'config:ApiKeyDev' is not in");
    const noFile = await providerValue(
      object,
      join(api, 'http-client.env.json'),
      'ApiKey',
      { secrets: new Map() },
      {
        HOME: tempDir('dial-home-'),
      },
    );
    expect(noFile.value).toContain('does not exist');
    const noProject = await providerValue(
      object,
      join(root, 'http-client.env.json'),
      'ApiKey',
      { secrets: new Map() },
      {
        HOME: home,
      },
    );
    expect(noProject.value).toContain('no .csproj with a <UserSecretsId>');
  });
});

describe('secret providers through a session', () => {
  it('sends the user secret, masked; refuses Azure Key Vault and DPAPI values where they are used', async () => {
    const { api, home } = project('{"config:ApiKeyDev": "k-123"}');
    const saved = { HOME: process.env.HOME, APPDATA: process.env.APPDATA };
    process.env.HOME = home;
    delete process.env.APPDATA;
    try {
      writeFileSync(
        join(api, 'http-client.env.json'),
        JSON.stringify({
          dev: {
            host: 'http://x',
            ApiKey: { provider: 'AspnetUserSecrets', secretName: 'config:ApiKeyDev' },
            Vault: { provider: 'AzureKeyVault', secretName: 'v', resourceId: '/subscriptions/1' },
            Dpapi: { provider: 'Encrypted', value: 'AQAAANCMnd8BFdERjHoAwE' },
          },
        }),
      );
      writeFileSync(
        join(api, 'api.http'),
        'GET {{host}}/a\nX-Api-Key: {{ApiKey}}\n\n###\nGET {{host}}/b?v={{Vault}}\n\n###\nGET {{host}}/c?d={{Dpapi}}\n',
      );
      const session = createSession({ workspaceRoot: api, environment: 'dev', processEnv: {} });
      const file = await session.loadFile(join(api, 'api.http'));
      const first = await session.prepare(file, file.requests[0]);
      expect(first.request.headers).toContainEqual(['X-Api-Key', 'k-123']);
      expect([...(first.secretValues ?? [])]).toContain('k-123');
      await expect(session.prepare(file, file.requests[1])).rejects.toThrow(
        /'Vault' of .*http-client\.env\.json comes from Azure Key Vault/,
      );
      await expect(session.prepare(file, file.requests[2])).rejects.toThrow(/'Dpapi' of .*Windows DPAPI/);
    } finally {
      for (const [name, value] of Object.entries(saved))
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
    }
  });
});
