// REST Client environments in `.vscode/settings.json` (JSON with comments), under the env files,
// and `{{$shared name}}` reading the `$shared` environment alone.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvStore } from '../../../src/core/env/index.js';
import { stripJsonComments } from '../../../src/core/jsonc.js';
import { createSession } from '../../../src/core/session/index.js';
import { tempDir } from '../../helpers/cli.js';

const SETTINGS = `{
  // REST Client
  "editor.tabSize": 2, /* not ours */
  "rest-client.environmentVariables": {
    "$shared": { "version": "v1", "host": "http://shared.example" },
    "local": { "host": "http://local.example", "token": "{{$shared version}}-tok", "port": 8080, },
  },
}`;

function workspace(files: Record<string, string>): string {
  const root = tempDir('dial-vscode-env-');
  mkdirSync(join(root, '.vscode'));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  return root;
}

describe('REST Client environments in .vscode/settings.json', () => {
  it('strips comments and trailing commas, leaving strings alone', () => {
    expect(JSON.parse(stripJsonComments('{"a": "x // y /* z */", // c\n "b": [1, 2,], /* d */}'))).toEqual({
      a: 'x // y /* z */',
      b: [1, 2],
    });
  });

  it('adds its environments under http-client.env.json (whose values win)', async () => {
    const root = workspace({
      '.vscode/settings.json': SETTINGS,
      'http-client.env.json': JSON.stringify({ local: { host: 'http://from-env-file.example' } }),
    });
    const store = new EnvStore(root);
    expect(await store.names(root)).toEqual(['local']);
    const local = await store.resolve(root, 'local');
    expect(local.values.get('host')).toBe('http://from-env-file.example');
    expect(local.values.get('port')).toBe('8080');
    expect(local.values.get('version')).toBe('v1');
  });

  it('{{$shared name}} reads the $shared value even where the environment has its own', async () => {
    const root = workspace({
      '.vscode/settings.json': SETTINGS,
      'api.http': 'GET {{host}}/{{$shared host}}?t={{token}}\n',
    });
    const session = createSession({ workspaceRoot: root, environment: 'local', processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const { request } = await session.prepare(file, file.requests[0]);
    expect(request.url).toBe('http://local.example/http://shared.example?t=v1-tok');
  });

  it('sends rest-client.defaultHeaders with every request that does not set them, with or without environments', async () => {
    const settings = `{
  "rest-client.defaultHeaders": { "User-Agent": "my-client", "X-Team": "{{team}}", }, // REST Client's
  "rest-client.environmentVariables": { "local": { "team": "core" } },
}`;
    const root = workspace({
      '.vscode/settings.json': settings,
      'api.http': 'GET http://x.example/a\n\n###\nGET http://x.example/b\nuser-agent: own\n',
    });
    const session = createSession({ workspaceRoot: root, environment: 'local', processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const first = (await session.prepare(file, file.requests[0])).request.headers;
    expect(first).toEqual(
      expect.arrayContaining([
        ['User-Agent', 'my-client'],
        ['X-Team', 'core'],
      ]),
    );
    const second = (await session.prepare(file, file.requests[1])).request.headers;
    expect(second.filter(([name]) => name.toLowerCase() === 'user-agent')).toEqual([['user-agent', 'own']]);
    expect(second).toContainEqual(['X-Team', 'core']);

    const headersOnly = workspace({
      '.vscode/settings.json': '{"rest-client.defaultHeaders": {"User-Agent": "my-client"}}',
      'api.http': 'GET http://x.example/a\n',
    });
    const plain = createSession({ workspaceRoot: headersOnly, processEnv: {} });
    const plainFile = await plain.loadFile(join(headersOnly, 'api.http'));
    expect((await plain.prepare(plainFile, plainFile.requests[0])).request.headers).toContainEqual([
      'User-Agent',
      'my-client',
    ]);
  });

  it('a settings file that does not parse adds nothing', async () => {
    const root = workspace({ '.vscode/settings.json': '{ not json' });
    expect(await new EnvStore(root).names(root)).toEqual([]);
  });
});

describe('REST Client file variables', () => {
  it('{{%name}} percent-encodes; a variable declared further down is read when defined nowhere above', async () => {
    const root = tempDir('dial-rc-vars-');
    writeFileSync(
      join(root, 'api.http'),
      '@name = Strunk & White\n\nGET http://x/authors/{{%name}}?q={{later}}\n\n###\n@later = a b\n@name = other\n',
    );
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const { request } = await session.prepare(file, file.requests[0]);
    // `name` is declared above the request, so that declaration (not the later one) is used.
    expect(request.url).toBe('http://x/authors/Strunk%20%26%20White?q=a b');
  });
});

describe('Visual Studio secret providers in env files', () => {
  it('a value read from a secret store is refused where it is used, never sent as JSON', async () => {
    const root = tempDir('dial-vs-secret-');
    writeFileSync(
      join(root, 'http-client.env.json'),
      JSON.stringify({
        dev: { host: 'http://x', key: { provider: 'AzureKeyVault', secretName: 'k', resourceId: '/subs/1' } },
      }),
    );
    writeFileSync(join(root, 'api.http'), 'GET {{host}}/a\n\n###\nGET {{host}}/b\nX-Key: {{key}}\n');
    const session = createSession({ workspaceRoot: root, environment: 'dev', processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    expect((await session.prepare(file, file.requests[0])).request.url).toBe('http://x/a');
    await expect(session.prepare(file, file.requests[1])).rejects.toThrow(
      /'key' of .*http-client\.env\.json comes from Azure Key Vault/,
    );
  });
});

describe("Visual Studio's http-client.env.json.user", () => {
  it('is read after the env files of its folder, and its values are secret', async () => {
    const root = tempDir('dial-vs-user-');
    writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ dev: { host: 'http://x', key: 'public' } }));
    writeFileSync(join(root, 'http-client.env.json.user'), JSON.stringify({ dev: { key: 'mine' } }));
    const dev = await new EnvStore(root).resolve(root, 'dev');
    expect(dev.values.get('key')).toBe('mine');
    expect(dev.secretNames.has('key')).toBe(true);
  });
});
