/**
 * `dial import postman` end to end: the fixture collection and environment are imported by
 * the built CLI, then `dial run` sends every generated request (environment "Local", baseUrl
 * pointed at a recording loopback server) and what the server received is checked against the
 * collection: method, path, query, auth, headers and body of every body mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/import/postman');
const COLLECTION = join(FIXTURES, 'shop.postman_collection.json');
const ENVIRONMENT = join(FIXTURES, 'shop.postman_environment.json');

let server: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
});

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('dial import postman', () => {
  it('imports the collection and environment, and every request sends what the collection describes', async () => {
    const out = tempDir('dial-import-postman-');
    const result = await runCli(['import', 'postman', COLLECTION, '--environment', ENVIRONMENT, '-o', out]);
    expect(result.stderr).toBe(
      [
        'warning: the collection: Postman pre-request script not converted (kept as comments)',
        'warning: customers.http#List customers: Postman test script not converted (kept as comments)',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('customers/admin.http (2 requests)');
    expect(result.stdout).toContain('11 requests in 4 files');
    expect(statSync(join(out, 'http-client.private.env.json')).mode & 0o777).toBe(0o600);

    // The files the collection uploads stay next to the collection: each .http file points there.
    expect(existsSync(join(out, 'customers', 'avatar.png')) || existsSync(join(out, 'orders.csv'))).toBe(false);
    expect(readFileSync(join(out, 'customers', 'admin.http'), 'utf8')).toContain(
      `< ${relative(join(out, 'customers'), join(FIXTURES, 'avatar.png')).split(sep).join('/')}\n`,
    );

    // Every request of every generated file, through the built CLI.
    const before = server.requests.length;
    const run = await runCli(['run', out, '-e', 'Local', '--var', `baseUrl=${server.url}`, '--concurrency', '1'], {
      cwd: out,
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/11 passed, 0 failed, 0 errored, 0 skipped \(11 requests, 4 files\)/);
    const byRoute = new Map(
      server.requests.slice(before).map((request) => [`${request.method} ${request.url.split('?')[0]}`, request]),
    );
    const routes: Record<string, string> = {
      'health-check': 'GET /health',
      'list-customers': 'GET /customers',
      'get-customer': 'GET /customers/c-42',
      'create-customer': 'POST /customers',
      'delete-customer': 'DELETE /customers/c-13',
      'upload-avatar': 'POST /customers/c-42/avatar',
      'search-orders': 'POST /orders/search',
      'import-orders': 'PUT /orders/import',
      'create-order': 'POST /orders',
      'create-order-2': 'GET /orders/legacy',
      'orders-graphql': 'POST /graphql',
    };
    expect([...byRoute.keys()].sort()).toEqual(Object.values(routes).sort());
    const received = new Map(Object.entries(routes).map(([name, route]) => [name, byRoute.get(route)!]));
    const at = (name: string) => received.get(name)!;
    const bearer = 'Bearer tok-local-123';

    expect(at('health-check')).toMatchObject({ method: 'GET', url: '/health' });
    expect(at('health-check').headers.authorization).toBeUndefined();

    expect(at('list-customers')).toMatchObject({
      method: 'GET',
      url: '/customers?page=1&size=5',
      headers: { authorization: bearer, accept: 'application/json' },
    });
    expect(at('get-customer')).toMatchObject({
      method: 'GET',
      url: '/customers/c-42',
      headers: { authorization: bearer },
    });
    expect(at('get-customer').headers['x-request-id']).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(at('get-customer').headers['x-trace']).toBeUndefined();

    expect(at('create-customer')).toMatchObject({
      method: 'POST',
      url: '/customers',
      headers: { 'content-type': 'application/json', authorization: bearer },
    });
    expect(JSON.parse(at('create-customer').body.toString())).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      pageSize: '5',
    });

    // (The Basic credentials themselves are checked in the test below.)
    expect(at('delete-customer')).toMatchObject({
      method: 'DELETE',
      url: '/customers/c-13',
      headers: { authorization: expect.stringMatching(/^Basic /) },
    });
    const upload = at('upload-avatar');
    expect(upload).toMatchObject({
      method: 'POST',
      url: '/customers/c-42/avatar',
      headers: { authorization: expect.stringMatching(/^Basic /) },
    });
    const boundary = /boundary=(\S+)/.exec(String(upload.headers['content-type']))![1];
    expect(
      upload.body.equals(
        Buffer.concat([
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="caption"\r\n\r\nProfile photo\r\n`),
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="avatar.png"\r\nContent-Type: image/png\r\n\r\n`,
          ),
          readFileSync(join(FIXTURES, 'avatar.png')),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]),
      ),
    ).toBe(true);

    expect(at('search-orders')).toMatchObject({
      method: 'POST',
      url: '/orders/search',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: bearer },
    });
    expect(at('search-orders').body.toString()).toBe('status=open+%26+paid&limit=5');
    expect(new URLSearchParams(at('search-orders').body.toString()).get('status')).toBe('open & paid');

    expect(at('import-orders')).toMatchObject({
      method: 'PUT',
      url: '/orders/import',
      headers: { 'content-type': 'text/csv', authorization: bearer },
    });
    expect(at('import-orders').body.toString()).toBe(readFileSync(join(FIXTURES, 'orders.csv'), 'utf8'));

    expect(at('create-order')).toMatchObject({
      method: 'POST',
      url: '/orders',
      headers: { 'x-api-key': 'pk-live-123', 'content-type': 'application/json' },
    });
    expect(at('create-order').headers.authorization).toBeUndefined();
    expect(JSON.parse(at('create-order').body.toString())).toEqual({
      customer: 'c-42',
      items: [{ sku: 'A-1', qty: 2 }],
    });
    expect(at('create-order-2')).toMatchObject({ method: 'GET', url: '/orders/legacy?id=7&api_key=legacy-secret' });

    expect(at('orders-graphql')).toMatchObject({
      method: 'POST',
      url: '/graphql',
      headers: { 'content-type': 'application/json', authorization: bearer },
    });
    expect(JSON.parse(at('orders-graphql').body.toString())).toEqual({
      query: 'query Orders($first: Int) { orders(first: $first) { id } }',
      variables: { first: 5 },
    });
  });

  it('folder basic auth becomes `Authorization: Basic {{username}} {{password}}`, sent base64-encoded (JetBrains convention)', async () => {
    const out = tempDir('dial-import-postman-basic-');
    expect((await runCli(['import', 'postman', COLLECTION, '-o', out])).code).toBe(0);
    expect(readFileSync(join(out, 'customers', 'admin.http'), 'utf8')).toContain(
      'Authorization: Basic {{username}} {{password}}',
    );
    const before = server.requests.length;
    const sent = await runCli(['send', 'customers/admin.http#delete-customer', '--var', `baseUrl=${server.url}`], {
      cwd: out,
    });
    expect(sent.code).toBe(0);
    expect(server.requests[before].headers.authorization).toBe(basic('admin', 'hunter2'));
  });

  it('never overwrites: an existing target stops the import before anything is written (exit 3), --force overwrites', async () => {
    const out = tempDir('dial-import-exists-');
    writeFileSync(join(out, 'orders.http'), 'GET http://keep.me/\n');
    const refused = await runCli(['import', 'postman', COLLECTION, '-o', out]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(
      /^error\[E_EXISTS\]: .*orders\.http already exists; nothing was written\nhint: pass --force/,
    );
    expect(refused.stdout).toBe('');
    expect(existsSync(join(out, 'customers.http'))).toBe(false);
    expect(readFileSync(join(out, 'orders.http'), 'utf8')).toBe('GET http://keep.me/\n');

    const forced = await runCli(['import', 'postman', COLLECTION, '-o', out, '--force']);
    expect(forced.code).toBe(0);
    expect(readFileSync(join(out, 'orders.http'), 'utf8')).toContain('# @name search-orders');
  });

  it('env files are merged: importing twice keeps both environments, and a value already there is never replaced', async () => {
    const out = tempDir('dial-import-merge-');
    // The user's own workspace: their Local token and a Prod environment.
    writeFileSync(
      join(out, 'http-client.env.json'),
      JSON.stringify({ Prod: { baseUrl: 'https://prod.example' } }, null, 2),
    );
    writeFileSync(
      join(out, 'http-client.private.env.json'),
      JSON.stringify({ Local: { accessToken: 'my-own-token' } }, null, 2),
      { mode: 0o600 },
    );

    // No --force needed: only env files are there.
    const first = await runCli(['import', 'postman', COLLECTION, '--environment', ENVIRONMENT, '-o', out]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(
      `merged into ${join(out, 'http-client.env.json')}: added $shared.baseUrl, $shared.pageSize, $shared.username, Local.baseUrl, Local.pageSize\n`,
    );
    expect(first.stdout).toContain(
      `merged into ${join(out, 'http-client.private.env.json')}: added $shared.partnerApiKey, $shared.password, $shared.apiKey; kept 1 existing (Local.accessToken); the imported value differs for Local.accessToken\n`,
    );

    // A second environment from Postman; the .http files exist now, so --force (they are rewritten, the env files merged).
    const staging = join(tempDir('dial-import-staging-'), 'staging.postman_environment.json');
    writeFileSync(
      staging,
      JSON.stringify({
        name: 'Staging',
        values: [
          { key: 'baseUrl', value: 'http://staging.invalid', enabled: true },
          { key: 'accessToken', value: 'tok-staging', type: 'secret', enabled: true },
        ],
      }),
    );
    const refused = await runCli(['import', 'postman', COLLECTION, '--environment', staging, '-o', out]);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/^error\[E_EXISTS\]/);
    expect(JSON.parse(readFileSync(join(out, 'http-client.env.json'), 'utf8')).Staging).toBeUndefined();
    const second = await runCli(['import', 'postman', COLLECTION, '--environment', staging, '-o', out, '--force']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(
      'added Staging.baseUrl; kept 3 existing ($shared.baseUrl, $shared.pageSize, $shared.username)\n',
    );

    expect(JSON.parse(readFileSync(join(out, 'http-client.env.json'), 'utf8'))).toEqual({
      Prod: { baseUrl: 'https://prod.example' },
      $shared: { baseUrl: 'http://localhost:3000', pageSize: '20', username: 'admin' },
      Local: { baseUrl: 'http://127.0.0.1:3000', pageSize: '5' },
      Staging: { baseUrl: 'http://staging.invalid' },
    });
    expect(JSON.parse(readFileSync(join(out, 'http-client.private.env.json'), 'utf8'))).toEqual({
      Local: { accessToken: 'my-own-token' },
      $shared: { partnerApiKey: 'pk-live-123', password: 'hunter2', apiKey: 'legacy-secret' },
      Staging: { accessToken: 'tok-staging' },
    });
    expect(statSync(join(out, 'http-client.private.env.json')).mode & 0o777).toBe(0o600);

    // Both environments send what they hold: the kept token for Local, the new one for Staging.
    for (const [environment, token] of [
      ['Local', 'my-own-token'],
      ['Staging', 'tok-staging'],
    ]) {
      const before = server.requests.length;
      const sent = await runCli(
        ['send', 'customers.http#list-customers', '-e', environment, '--var', `baseUrl=${server.url}`],
        { cwd: out },
      );
      expect(sent.code).toBe(0);
      expect(server.requests[before].headers.authorization).toBe(`Bearer ${token}`);
    }
  });

  it('a malformed collection is exit 3 naming the file, line and JSON path', async () => {
    const dir = tempDir('dial-import-bad-');
    const path = join(dir, 'broken.json');
    writeFileSync(
      path,
      '{\n  "info": {"name": "Broken"},\n  "item": [{"name": "x", "request": {"method": 7, "url": "http://x"}}]\n}\n',
    );
    const result = await runCli(['import', 'postman', path, '-o', dir]);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`error[E_IMPORT] ${path}:3:`);
    expect(result.stderr).toContain('Postman collection: item[0].request.method: expected string');
    expect(result.stdout).toBe('');
  });
});
