/**
 * `dial import insomnia` (v4 JSON, v5 YAML) and `dial import bruno` end to end: fixtures written
 * from the tools' documented export formats are imported by the built CLI, then `dial run`
 * sends the generated requests to a recording loopback server and what arrives is checked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest } from '../helpers/servers.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/import');

let server: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function runAll(
  dir: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Map<string, RecordedRequest>> {
  const before = server.requests.length;
  const run = await runCli(['run', '.', '--concurrency', '1', ...args], { cwd: dir, env });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return new Map(server.requests.slice(before).map((r) => [`${r.method} ${r.url.split('?')[0]}`, r]));
}

describe('dial import insomnia', () => {
  it('v4 JSON: folders to files, environments to env files, untranslatable parts reported; the requests send what Insomnia would', async () => {
    const out = tempDir('dial-insomnia-');
    const result = await runCli(['import', 'insomnia', join(FIXTURES, 'insomnia/shop-v4.json'), '-o', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('3 requests in 2 files\n4 things could not be translated');
    expect(result.stderr).toContain("warning: request 'Users/Create user': Insomnia template '{% response 'body'");
    expect(result.stderr).toContain("warning: request 'Users/Create user': its pre-request script is not translated");
    expect(result.stderr).toContain("warning: request 'Login': oauth2 authentication is not translated");
    expect(result.stderr).toContain("warning: 'Say hello': grpc_request is not an HTTP request; skipped");
    expect(JSON.parse(readFileSync(join(out, 'http-client.env.json'), 'utf8'))).toEqual({
      $shared: { base_url: 'http://localhost:3000', 'db.name': 'shop', page_size: '20' },
      Production: { base_url: 'https://api.shop.example' },
    });
    expect(JSON.parse(readFileSync(join(out, 'http-client.private.env.json'), 'utf8'))).toEqual({
      Production: { api_token: 'prod-secret' },
    });

    const got = await runAll(out, [
      '-e',
      'Production',
      '--var',
      `base_url=${server.url}`,
      '--var',
      'admin_password=pw',
      '--var',
      'password=s3',
    ]);
    expect(got.get('GET /users')?.url).toBe('/users?limit=20');
    expect(got.get('GET /users')?.headers.authorization).toBe('Bearer prod-secret');
    const create = got.get('POST /users')!;
    expect(create.headers.authorization).toBe(basic('admin', 'pw'));
    expect(JSON.parse(create.body.toString()).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.get('POST /login')?.body.toString()).toBe('user=ann&password=s3');
  });

  it('v5 YAML: the same collection in the Insomnia 11 format', async () => {
    const out = tempDir('dial-insomnia-');
    const result = await runCli(['import', 'insomnia', join(FIXTURES, 'insomnia/shop-v5.yaml'), '-o', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(
      "warning: request 'Users/Create user': its after-response script is not translated",
    );
    expect(result.stderr).toContain(
      "warning: 'Live feed': a gRPC or WebSocket request is not an HTTP request; skipped",
    );
    const got = await runAll(out, ['-e', 'Production', '--var', `base_url=${server.url}`]);
    expect(got.get('GET /users')?.headers.authorization).toBe('Bearer prod-secret');
    expect(got.get('POST /users')?.headers.authorization).toBe('Bearer prod-secret');
    expect(JSON.parse(got.get('POST /users')!.body.toString())).toEqual({ name: 'Ann' });
  });

  it('bad input names file:line (exit 3)', async () => {
    const dir = tempDir('dial-insomnia-');
    writeFileSync(
      join(dir, 'bad.yaml'),
      'type: collection.insomnia.rest/5.0\nname: X\ncollection:\n  - name: A\n    url: x: y\n    method: GET\n',
    );
    const yaml = await runCli(['import', 'insomnia', 'bad.yaml'], { cwd: dir });
    expect(yaml.code).toBe(3);
    expect(yaml.stderr).toMatch(/error\[E_IMPORT\] bad\.yaml:5:10: Insomnia export is not valid YAML: Nested mappings/);
    writeFileSync(
      join(dir, 'bad.json'),
      '{\n  "_type": "export",\n  "__export_format": 4,\n  "resources": [\n    { "_id": "r1", "_type": "request", "url": 42 }\n  ]\n}\n',
    );
    const shape = await runCli(['import', 'insomnia', 'bad.json'], { cwd: dir });
    expect(shape.code).toBe(3);
    expect(shape.stderr).toContain(
      'error[E_IMPORT] bad.json:5:47: Insomnia v4 export: resources[0].url: expected string',
    );
    writeFileSync(join(dir, 'v3.json'), '{"_type": "export", "__export_format": 3, "resources": []}');
    const v3 = await runCli(['import', 'insomnia', 'v3.json'], { cwd: dir });
    expect(v3.code).toBe(3);
    expect(v3.stderr).toContain('Insomnia export format 3');
  });
});

describe('dial import bruno', () => {
  it('a .bru collection with folders, auth inheritance, environments; the requests send what Bruno would', async () => {
    const out = tempDir('dial-bruno-');
    const result = await runCli(['import', 'bruno', join(FIXTURES, 'bruno/pet-store'), '-o', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('pet-store.http (1 request)');
    expect(result.stdout).toContain('users.http (3 requests)');
    expect(result.stderr).toContain("warning: environment 'Local': secret 'token' has no value in the collection");
    expect(result.stderr).toContain(
      "warning: request 'users/Create User.bru': its assertions (line 29) are not translated",
    );
    expect(result.stderr).toContain(
      "warning: request 'users/Create User.bru': its post-response script (line 33) is not translated",
    );
    expect(JSON.parse(readFileSync(join(out, 'http-client.env.json'), 'utf8'))).toEqual({
      $shared: { version: 'v2' },
      Local: { baseUrl: 'http://localhost:3000' },
      Production: { baseUrl: 'https://petstore.example.com' },
    });
    const users = readFileSync(join(out, 'users.http'), 'utf8');
    // Requests keep Bruno's order (meta seq), and docs become comments.
    expect(users.indexOf('### Get User')).toBeLessThan(users.indexOf('### Create User'));
    expect(users).toContain('### Create User\n# Creates a user with the given role.\n@role = admin\n');

    const got = await runAll(
      out,
      ['-e', 'Local', '--var', `baseUrl=${server.url}`, '--var', 'token=tok', '--var', 'apiKey=key-1'],
      { ADMIN_PASSWORD: 'pw' },
    );
    expect(got.get('GET /v2/health')?.headers['x-api-key']).toBe('key-1');
    expect(got.get('GET /users/42')?.url).toBe('/users/42?fields=name,email');
    expect(got.get('GET /users/42')?.headers.authorization).toBe(basic('admin', 'pw'));
    const create = got.get('POST /users')!;
    expect(create.headers.authorization).toBe('Bearer tok');
    expect(create.headers['x-debug']).toBeUndefined();
    expect(JSON.parse(create.body.toString())).toEqual({ name: 'Ann', role: 'admin' });
    const upload = got.get('PUT /users/42/avatar')!.body.toString();
    expect(upload).toContain('filename="avatar.png"');
    expect(upload).toContain('avatar-bytes');
    expect(upload).toContain('name="caption"\r\n\r\nMy new\r\navatar\r\n');
  });

  it('bad input names file:line (exit 3)', async () => {
    const dir = tempDir('dial-bruno-');
    mkdirSync(join(dir, 'col'));
    writeFileSync(join(dir, 'col', 'bruno.json'), '{"version": "1", "name": "C", "type": "collection"}');
    writeFileSync(
      join(dir, 'col', 'Broken.bru'),
      'meta {\n  name: Broken\n}\n\nget {\n  url: http://x\n  this line has no colon\n}\n',
    );
    const result = await runCli(['import', 'bruno', 'col'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/error\[E_IMPORT\] .*col\/Broken\.bru:7:1: expected `key: value` in this block/);
    writeFileSync(join(dir, 'col', 'Broken.bru'), 'meta {\n  name: Broken\n\nget {\n  url: http://x\n}\n');
    const unclosed = await runCli(['import', 'bruno', 'col'], { cwd: dir });
    expect(unclosed.stderr).toMatch(/Broken\.bru:4:1: /);
    const none = await runCli(['import', 'bruno', '.'], { cwd: dir });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('holds no bruno.json');
  });
});
