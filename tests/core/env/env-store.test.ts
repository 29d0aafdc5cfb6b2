import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvStore, parseDotenv, parseEnvFile, parseJsonText, folderChain } from '../../../src/core/env/index.js';
import { DialError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';

function workspace(files: Record<string, string>): string {
  const root = tempDir('dial-env-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('env files', () => {
  it('layers $shared < env, public < private, farther < nearer; marks private names secret', async () => {
    const root = workspace({
      'http-client.env.json': JSON.stringify({
        $shared: { a: 'shared', b: 'shared' },
        dev: { b: 'dev', c: 'dev-root', n: 5, o: { x: 1 } },
        prod: {},
      }),
      'http-client.private.env.json': JSON.stringify({ dev: { token: 'tok-root' }, $shared: { k: 'priv-shared' } }),
      'api/http-client.env.json': JSON.stringify({ dev: { c: 'dev-api', token: 'public-near' } }),
    });
    const store = new EnvStore(root);
    const env = await store.resolve(join(root, 'api'), 'dev');
    expect(Object.fromEntries(env.values)).toEqual({
      a: 'shared',
      b: 'dev',
      c: 'dev-api',
      n: '5',
      o: '{"x":1}',
      'o.x': '1',
      token: 'public-near',
      k: 'priv-shared',
    });
    expect([...env.secretNames].sort()).toEqual(['k', 'token']);
    expect(env.files).toEqual([
      join(root, 'http-client.env.json'),
      join(root, 'http-client.private.env.json'),
      join(root, 'api/http-client.env.json'),
    ]);
    expect(await store.names(join(root, 'api'))).toEqual(['dev', 'prod']);
    const none = await store.resolve(root);
    expect(Object.fromEntries(none.values)).toEqual({ a: 'shared', b: 'shared', k: 'priv-shared' });
  });

  it('an object value is read member by member too ({{a.b.c}}); a name written with dots keeps its own value', async () => {
    const file = await parseEnvFile(
      JSON.stringify({
        dev: {
          container: { url: { https: { catalog: 'https://localhost:6060' } }, ports: [1, 2] },
          'svc.host': 'explicit',
          svc: { host: 'nested', port: 80 },
        },
      }),
      '/w/http-client.env.json',
      false,
    );
    expect(file.environments.dev).toEqual({
      container: '{"url":{"https":{"catalog":"https://localhost:6060"}},"ports":[1,2]}',
      'container.url': '{"https":{"catalog":"https://localhost:6060"}}',
      'container.url.https': '{"catalog":"https://localhost:6060"}',
      'container.url.https.catalog': 'https://localhost:6060',
      'container.ports': '[1,2]',
      'svc.host': 'explicit',
      svc: '{"host":"nested","port":80}',
      'svc.port': '80',
    });
  });

  it('reads // and /* */ comments (JetBrains allows them); errors after one keep their line and column', async () => {
    const file = await parseEnvFile(
      '{\n  "prod": {\n    // "host": "https://old.example.com"\n    "host": "https://new.example.com/a//b", /* why */\n    "x": "/* kept */"\n  }\n}',
      '/w/http-client.private.env.json',
      true,
    );
    expect(file.environments.prod).toEqual({ host: 'https://new.example.com/a//b', x: '/* kept */' });
    const error = await parseEnvFile(
      '{\n  // note\n  "dev": {"a": 1 "b": 2}\n}',
      '/w/http-client.env.json',
      false,
    ).catch((e: DialError) => e);
    expect((error as DialError).code).toBe('E_ENV');
    expect((error as DialError).location).toMatchObject({ line: 3, col: 18 });
  });

  it('an empty env file holds no environment; the private file beside it still gives them (sweep 14)', async () => {
    for (const text of ['', '  \n', '\uFEFF\n']) {
      const file = await parseEnvFile(text, '/w/http-client.env.json', false);
      expect(file.environments).toEqual({});
    }
    const root = workspace({
      'http-client.env.json': '',
      'http-client.private.env.json': '{"admin": {"providerUrl": "10.0.0.1:5000", "userName": "admin"}}',
    });
    const env = await new EnvStore(root).resolve(root, 'admin');
    expect(env.values.get('providerUrl')).toBe('10.0.0.1:5000');
    // Text that is not blank still has to be JSON.
    const error = await parseEnvFile('{', '/w/http-client.env.json', false).catch((e: DialError) => e);
    expect((error as DialError).code).toBe('E_ENV');
  });

  it('-e NAME with no env file on the folder chain reads the one env folder elsewhere in the workspace (sweep 14)', async () => {
    const root = workspace({
      'http/customer-auth.http': 'GET {{baseUrl}}/x\n',
      'http-client/http-client.env.json': '{"dev": {"baseUrl": "http://api.test"}}',
      'http-client/http-client.private.env.json': '{"dev": {"token": "t0"}}',
    });
    const store = new EnvStore(root);
    const dev = await store.resolve(join(root, 'http'), 'dev');
    expect(dev.values.get('baseUrl')).toBe('http://api.test');
    expect(dev.values.get('token')).toBe('t0');
    expect(dev.secretNames.has('token')).toBe(true);
    // Not listed as the folder's own (kulala's implicit `dev` must not pick it up), and with no
    // environment chosen nothing is read from elsewhere.
    expect(await store.names(join(root, 'http'))).toEqual([]);
    expect((await store.resolve(join(root, 'http'))).values.size).toBe(0);
    // An environment that folder does not define stays unknown.
    await expect(store.resolve(join(root, 'http'), 'prod')).rejects.toThrow(/unknown environment 'prod'/);
  });

  it('env folders elsewhere are not read when the chain has an env file, or when two folders hold them', async () => {
    const chained = workspace({
      'http/http-client.env.json': '{"local": {"baseUrl": "http://local"}}',
      'other/http-client.env.json': '{"dev": {"baseUrl": "http://other"}}',
    });
    await expect(new EnvStore(chained).resolve(join(chained, 'http'), 'dev')).rejects.toThrow(
      /unknown environment 'dev'/,
    );
    const two = workspace({
      'a/http-client.env.json': '{"dev": {"baseUrl": "http://a"}}',
      'b/http-client.env.json': '{"dev": {"baseUrl": "http://b"}}',
      'http/x.http': 'GET {{baseUrl}}\n',
    });
    await expect(new EnvStore(two).resolve(join(two, 'http'), 'dev')).rejects.toThrow(/unknown environment 'dev'/);
  });

  it('an unknown environment is E_ENV naming the known ones', async () => {
    const root = workspace({ 'http-client.env.json': '{"dev": {}, "prod": {}}' });
    const error = await new EnvStore(root).resolve(root, 'staging').catch((e: DialError) => e);
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('E_ENV');
    expect((error as DialError).message).toContain("unknown environment 'staging'");
    expect((error as DialError).hint).toContain('dev, prod');
  });

  it('JSON syntax errors carry file, line and column', () => {
    try {
      parseJsonText('{\n  "dev": {\n    "a": 1,\n  }\n}', '/w/http-client.env.json');
      expect.unreachable();
    } catch (error) {
      const e = error as DialError;
      expect(e.code).toBe('E_ENV');
      expect(e.exitCode).toBe(3);
      expect(e.location).toMatchObject({ file: '/w/http-client.env.json', line: 4, col: 3, excerpt: '  }' });
    }
  });

  it('the wrong shape is E_ENV pointing at the environment', async () => {
    const error = await parseEnvFile('{\n  "dev": "http://x"\n}', '/w/http-client.env.json', false).catch(
      (e: DialError) => e,
    );
    expect((error as DialError).message).toContain("environment 'dev' must be an object");
    expect((error as DialError).location).toMatchObject({ line: 2, col: 3 });
  });

  it('reads .env from the workspace root', async () => {
    const root = workspace({
      '.env': 'A=1\nexport B="two words" # c\n# comment\nC=three # trailing\nD=\'x#y\'\nE="a\\nb"\n',
    });
    const dotenv = await new EnvStore(root).dotenv();
    expect(Object.fromEntries(dotenv!.values)).toEqual({ A: '1', B: 'two words', C: 'three', D: 'x#y', E: 'a\nb' });
    expect(await new EnvStore(workspace({})).dotenv()).toBeUndefined();
  });

  it('parseDotenv handles multi-line quoted values and escaped quotes', () => {
    expect(Object.fromEntries(parseDotenv('K="line1\nline2"\nQ="say \\"hi\\""\n'))).toEqual({
      K: 'line1\nline2',
      Q: 'say "hi"',
    });
  });

  it('folderChain goes from the root down, or is just the folder outside the root', () => {
    expect(folderChain('/w/a/b', '/w')).toEqual(['/w', '/w/a', '/w/a/b']);
    expect(folderChain('/other', '/w')).toEqual(['/other']);
  });
});
