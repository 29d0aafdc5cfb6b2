/**
 * `dial import openapi` end to end: the fixture OpenAPI 3.1 document (YAML, $refs, tags,
 * security, examples) is imported by the built CLI with --base-url pointing at a recording
 * loopback server; `dial run` sends every generated request, checked against the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

const SPEC = resolve(import.meta.dirname, '../fixtures/import/openapi/petstore.yaml');

let server: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
});

describe('dial import openapi', () => {
  it('imports the document, and every operation sends what the document describes', async () => {
    const out = tempDir('dial-import-openapi-');
    const result = await runCli(['import', 'openapi', SPEC, '--base-url', server.url, '-o', out]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "warning: POST /pets/{petId}/photo: multipart field 'photo' is a file; it was written as ./photo — point it at the file to upload\n",
    );
    expect(result.stdout).toContain('pets.http (6 requests)');
    expect(result.stdout).toContain(
      'variables to define (in http-client.private.env.json or with --var): token, apiKeyHeader, username, password, queryKey',
    );
    const env = JSON.parse(readFileSync(join(out, 'http-client.env.json'), 'utf8'));
    expect(env.production).toEqual({ baseUrl: 'https://petstore.example.com/v1' });
    expect(env.$shared.baseUrl).toBe(server.url);

    writeFileSync(join(out, 'photo'), 'JPEGDATA');
    const vars = ['token=t0k', 'apiKeyHeader=k-1', 'username=u', 'password=p', 'queryKey=q-1'].flatMap((pair) => [
      '--var',
      pair,
    ]);
    const before = server.requests.length;
    const run = await runCli(['run', out, ...vars, '--concurrency', '1'], { cwd: out });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/9 passed, 0 failed, 0 errored, 0 skipped \(9 requests, 3 files\)/);
    const byRoute = new Map(
      server.requests.slice(before).map((request) => [`${request.method} ${request.url.split('?')[0]}`, request]),
    );
    const routes: Record<string, string> = {
      listPets: 'GET /pets',
      createPet: 'POST /pets',
      getPet: 'GET /pets/42',
      updatePet: 'PUT /pets/42',
      deletePet: 'DELETE /pets/42',
      uploadPhoto: 'POST /pets/42/photo',
      placeOrder: 'POST /store/orders',
      getInventory: 'GET /store/inventory',
      health: 'GET /health',
    };
    expect([...byRoute.keys()].sort()).toEqual(Object.values(routes).sort());
    const received = new Map(Object.entries(routes).map(([name, route]) => [name, byRoute.get(route)!]));
    const at = (name: string) => received.get(name)!;
    const json = (name: string) => JSON.parse(at(name).body.toString());

    expect(at('listPets')).toMatchObject({
      method: 'GET',
      url: '/pets?limit=20',
      headers: {
        authorization: 'Bearer t0k',
        accept: 'application/json',
        'x-request-id': '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      },
    });
    expect(at('createPet')).toMatchObject({
      method: 'POST',
      url: '/pets',
      headers: { authorization: 'Bearer t0k', 'content-type': 'application/json' },
    });
    expect(json('createPet')).toEqual({ name: 'Rex', tag: 'dog' });
    expect(at('getPet')).toMatchObject({ method: 'GET', url: '/pets/42', headers: { 'x-api-key': 'k-1' } });
    expect(at('getPet').headers.authorization).toBeUndefined();
    expect(at('updatePet')).toMatchObject({ method: 'PUT', url: '/pets/42' });
    expect(json('updatePet')).toMatchObject({ name: 'string', id: 0, status: 'available', category: { name: 'Dogs' } });
    expect(at('deletePet')).toMatchObject({
      method: 'DELETE',
      url: '/pets/42',
      headers: { authorization: 'Bearer t0k' },
    });

    const upload = at('uploadPhoto');
    expect(upload).toMatchObject({
      method: 'POST',
      url: '/pets/42/photo',
      headers: { authorization: expect.stringMatching(/^Basic /) },
    });
    const boundary = /boundary=(\S+)/.exec(String(upload.headers['content-type']))![1];
    expect(upload.body.toString()).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nOn the beach\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="photo"; filename="photo"\r\n\r\nJPEGDATA\r\n--${boundary}--\r\n`,
    );

    expect(at('placeOrder')).toMatchObject({
      method: 'POST',
      url: '/store/orders',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(Object.fromEntries(new URLSearchParams(at('placeOrder').body.toString()))).toEqual({
      petId: '1',
      quantity: '2',
      shipDate: '2024-01-01T00:00:00Z',
    });
    expect(at('getInventory')).toMatchObject({
      method: 'GET',
      url: '/store/inventory?warehouse=main%20hall&api_key=q-1',
    });
    expect(at('getInventory').headers.authorization).toBeUndefined();
    expect(at('health')).toMatchObject({ method: 'GET', url: '/health' });
    expect(at('health').headers.authorization).toBeUndefined();
  });

  it('http basic security becomes `Authorization: Basic {{username}} {{password}}`, sent base64-encoded (JetBrains convention)', async () => {
    const out = tempDir('dial-import-openapi-basic-');
    expect((await runCli(['import', 'openapi', SPEC, '--base-url', server.url, '-o', out])).code).toBe(0);
    writeFileSync(join(out, 'photo'), 'x');
    const before = server.requests.length;
    const sent = await runCli(['send', 'pets.http#uploadPhoto', '--var', 'username=ada', '--var', 'password=s3cret'], {
      cwd: out,
    });
    expect(sent.code).toBe(0);
    expect(server.requests[before].headers.authorization).toBe(`Basic ${Buffer.from('ada:s3cret').toString('base64')}`);
  });

  it('a broken document is exit 3 naming the file and line', async () => {
    const dir = tempDir('dial-import-openapi-bad-');
    const path = join(dir, 'bad.yaml');
    writeFileSync(path, 'openapi: 3.1.0\ninfo:\n  title: [unclosed\npaths: {}\n');
    const result = await runCli(['import', 'openapi', path, '-o', dir]);
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error\\[E_IMPORT\\] ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+:\\d+: OpenAPI document is not valid YAML or JSON`,
      ),
    );
    expect(result.stdout).toBe('');
  });
});
