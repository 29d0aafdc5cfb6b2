import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { importPostmanFiles } from '../../../src/core/import/postman.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { tempDir } from '../../helpers/cli.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/import/postman');
const COLLECTION = join(FIXTURES, 'shop.postman_collection.json');
const ENVIRONMENT = join(FIXTURES, 'shop.postman_environment.json');

describe('import postman', () => {
  it('writes a .http file per folder (nested folders as folders) and the env files', async () => {
    const result = await importPostmanFiles(COLLECTION, ENVIRONMENT);
    expect(result.files.map((file) => [file.path, file.description])).toEqual([
      ['shop-api.http', '1 request'],
      ['customers.http', '3 requests'],
      ['customers/admin.http', '2 requests'],
      ['orders.http', '5 requests'],
      ['http-client.env.json', '5 variables, 1 environment'],
      ['http-client.private.env.json', '4 variables, 1 environment, secret'],
    ]);
    expect(result.notes?.[0]).toBe('11 requests in 4 files');
  });

  it('every file parses back; names are slugs, unique within the file', async () => {
    const result = await importPostmanFiles(COLLECTION, ENVIRONMENT);
    const names = result.files
      .filter((file) => file.path.endsWith('.http'))
      .map((file) => parseHttpFile(file.content, file.path).requests.map((node) => node.name));
    expect(names).toEqual([
      ['health-check'],
      ['list-customers', 'get-customer', 'create-customer'],
      ['delete-customer', 'upload-avatar'],
      ['search-orders', 'import-orders', 'create-order', 'create-order-2', 'orders-graphql'],
    ]);
  });

  it('maps auth (inherited bearer, folder basic, apikey header/query, noauth) to headers with variables', async () => {
    const result = await importPostmanFiles(COLLECTION, ENVIRONMENT);
    const file = (path: string) => parseHttpFile(result.files.find((f) => f.path === path)!.content, path);
    const header = (node: { headers: Array<{ name: string; value: string }> }, name: string) =>
      node.headers.find((h) => h.name === name)?.value;
    const [health] = file('shop-api.http').requests;
    expect(header(health, 'Authorization')).toBeUndefined();
    const [list, get] = file('customers.http').requests;
    expect(header(list, 'Authorization')).toBe('Bearer {{accessToken}}');
    expect(list.url).toBe('{{baseUrl}}/customers?page=1&size={{pageSize}}');
    expect(get.url).toBe('{{baseUrl}}/customers/{{customerId}}');
    expect(get.variables.map((v) => [v.name, v.value])).toEqual([['customerId', 'c-42']]);
    const [remove] = file('customers/admin.http').requests;
    expect(header(remove, 'Authorization')).toBe('Basic {{username}} {{password}}');
    const orders = file('orders.http').requests;
    expect(header(orders[2], 'X-API-Key')).toBe('{{partnerApiKey}}');
    expect(orders[3].url).toBe('{{baseUrl}}/orders/legacy?id=7&api_key={{apiKey}}');
  });

  it('converts every body mode', async () => {
    // Written next to the collection: upload paths are relative to each .http file's folder.
    const result = await importPostmanFiles(COLLECTION, undefined, { outDir: FIXTURES });
    const customers = parseHttpFile(
      result.files.find((f) => f.path === 'customers.http')!.content,
      'customers.http',
    ).requests;
    expect(customers[2].headers.find((h) => h.name === 'Content-Type')?.value).toBe('application/json');
    expect(customers[2].body).toMatchObject({
      kind: 'inline',
      text: expect.stringContaining('"pageSize": "{{pageSize}}"'),
    });
    const admin = parseHttpFile(
      result.files.find((f) => f.path === 'customers/admin.http')!.content,
      'a.http',
    ).requests;
    expect(admin[1].body?.kind === 'inline' && admin[1].body.text).toContain(
      'Content-Disposition: form-data; name="avatar"; filename="avatar.png"\nContent-Type: image/png\n\n< ../avatar.png',
    );
    expect(admin[1].body?.kind === 'inline' && admin[1].body.text).not.toContain('name="old"');
    const orders = parseHttpFile(result.files.find((f) => f.path === 'orders.http')!.content, 'o.http').requests;
    expect(orders[0].body).toMatchObject({ kind: 'inline', text: 'status=open+%26+paid&limit={{pageSize}}' });
    expect(orders[1].body).toMatchObject({ kind: 'file', path: './orders.csv', substitute: false });
    expect(JSON.parse(orders[4].body?.kind === 'inline' ? orders[4].body.text : '')).toEqual({
      query: 'query Orders($first: Int) { orders(first: $first) { id } }',
      variables: { first: 5 },
    });
  });

  it('splits variables into env and private env files; secrets by type or name', async () => {
    const result = await importPostmanFiles(COLLECTION, ENVIRONMENT);
    const env = JSON.parse(result.files.find((f) => f.path === 'http-client.env.json')!.content);
    const secret = result.files.find((f) => f.path === 'http-client.private.env.json')!;
    expect(env).toEqual({
      $shared: { baseUrl: 'http://localhost:3000', pageSize: '20', username: 'admin' },
      Local: { baseUrl: 'http://127.0.0.1:3000', pageSize: '5' },
    });
    expect(JSON.parse(secret.content)).toEqual({
      $shared: { partnerApiKey: 'pk-live-123', password: 'hunter2', apiKey: 'legacy-secret' },
      Local: { accessToken: 'tok-local-123' },
    });
    expect(secret.mode).toBe(0o600);
  });

  it('keeps scripts and descriptions as comments, with a warning per script', async () => {
    const result = await importPostmanFiles(COLLECTION);
    const customers = result.files.find((f) => f.path === 'customers.http')!.content;
    expect(customers).toContain(
      '# Lists customers, newest first.\n# Postman test script (not converted):\n#   pm.test("status is 200", function () {',
    );
    expect(customers).toContain('# disabled in Postman: X-Trace: 1');
    expect(result.files[0].content).toContain('# \\@internal use only');
    expect(result.warnings).toEqual([
      'the collection: Postman pre-request script not converted (kept as comments)',
      'customers.http#List customers: Postman test script not converted (kept as comments)',
    ]);
    // Without the environment, accessToken is defined nowhere: the summary says so.
    expect(result.notes?.[1]).toMatch(/variables to define .*: accessToken/);
  });

  it('names the file, path, line and column of a malformed collection', async () => {
    const dir = tempDir();
    const path = join(dir, 'bad.json');
    writeFileSync(
      path,
      '{\n  "info": {"name": "x"},\n  "item": [\n    {"name": "a", "request": {"url": 42}}\n  ]\n}\n',
    );
    const error = await dialErrorOf(importPostmanFiles(path));
    expect(error.code).toBe('E_IMPORT');
    expect(error.message).toBe('Postman collection: item[0].request.url: expected string or object');
    expect(error.location).toMatchObject({ file: path, line: 4, col: 38 });
  });

  it('reports JSON syntax errors with a position, v1 collections and missing files', async () => {
    const dir = tempDir();
    const bad = join(dir, 'syntax.json');
    writeFileSync(bad, '{\n  "info": {"name": "x",}\n}');
    const syntax = await dialErrorOf(importPostmanFiles(bad));
    expect(syntax.code).toBe('E_IMPORT');
    expect(syntax.location).toMatchObject({ file: bad, line: 2 });
    const v1 = join(dir, 'v1.json');
    writeFileSync(v1, '{"name": "old", "requests": []}');
    expect((await dialErrorOf(importPostmanFiles(v1))).message).toMatch(/v1 collection/);
    expect((await dialErrorOf(importPostmanFiles(join(dir, 'nope.json')))).code).toBe('E_NOT_FOUND');
  });
});

describe('import postman v2.0', () => {
  it('reads v2.0 auth objects, raw header strings, string requests and inherit', async () => {
    const dir = tempDir();
    const path = join(dir, 'v20.json');
    writeFileSync(
      path,
      JSON.stringify({
        info: { name: 'Old', schema: 'https://schema.getpostman.com/json/collection/v2.0.0/collection.json' },
        auth: { type: 'bearer', bearer: { token: 'literal-token' } },
        item: [
          { name: 'Plain', request: 'https://api.example.com/ping?id={{$randomUUID}}&n={{$randomFirstName}}' },
          {
            name: 'Headers',
            request: {
              method: 'post',
              url: 'https://api.example.com/h',
              header: 'X-A: 1\nX-B: two words',
              auth: { type: 'inherit' },
            },
          },
          {
            name: 'Digest',
            request: {
              url: 'https://api.example.com/d',
              auth: { type: 'digest', digest: { username: 'u', password: '{{pw}}' } },
            },
          },
          { name: 'Hawk', request: { url: 'https://api.example.com/k', auth: { type: 'hawk', hawk: {} } } },
        ],
      }),
    );
    const result = await importPostmanFiles(path);
    const nodes = parseHttpFile(result.files[0].content, 'old.http').requests;
    expect(
      nodes.map((node) => [node.name, node.method, node.url, node.headers.map((h) => `${h.name}: ${h.value}`)]),
    ).toEqual([
      [
        'plain',
        'GET',
        'https://api.example.com/ping?id={{$uuid}}&n={{$randomFirstName}}',
        ['Authorization: Bearer {{token}}'],
      ],
      ['headers', 'POST', 'https://api.example.com/h', ['X-A: 1', 'X-B: two words', 'Authorization: Bearer {{token}}']],
      ['digest', 'GET', 'https://api.example.com/d', ['Authorization: Digest {{username}} {{pw}}']],
      ['hawk', 'GET', 'https://api.example.com/k', []],
    ]);
    // The literal token is kept out of the .http file, in the private env file.
    expect(JSON.parse(result.files.find((f) => f.path === 'http-client.private.env.json')!.content)).toEqual({
      $shared: { token: 'literal-token' },
    });
    expect(result.warnings).toEqual([
      "old.http#Hawk: 'hawk' auth is not supported and was not converted",
      'Postman dynamic variables dial does not have: $randomFirstName (replace them before sending)',
    ]);
  });
});

describe('import postman URLs', () => {
  it('builds URLs without raw from their parts, drops disabled query parameters, turns :vars into {{vars}}', async () => {
    const dir = tempDir();
    const path = join(dir, 'parts.json');
    writeFileSync(
      path,
      JSON.stringify({
        info: { name: 'Parts', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
        item: [
          {
            name: 'By parts',
            request: {
              method: 'GET',
              url: {
                protocol: 'https',
                host: ['api', 'example', 'com'],
                port: '8443',
                path: ['v1', 'teams', ':teamId', 'members'],
                query: [
                  { key: 'role', value: 'admin' },
                  { key: 'x', value: '1', disabled: true },
                  { key: 'flag', value: null },
                ],
                variable: [{ key: 'teamId', value: 't-9' }],
              },
            },
          },
        ],
      }),
    );
    const result = await importPostmanFiles(path);
    const node = parseHttpFile(result.files[0].content, 'parts.http').requests[0];
    expect(node.url).toBe('https://api.example.com:8443/v1/teams/{{teamId}}/members?role=admin&flag');
    expect(node.variables.map((v) => [v.name, v.value])).toEqual([['teamId', 't-9']]);
  });
});

describe('import postman upload files', () => {
  const collection = (src: Record<string, unknown>) => ({
    info: { name: 'Files', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    item: [
      {
        name: 'Deep',
        item: [
          {
            name: 'Deeper',
            item: [
              {
                name: 'Upload',
                request: {
                  method: 'POST',
                  url: 'http://x/u',
                  body: { mode: 'formdata', formdata: [{ key: 'doc', type: 'file', src: src.form }] },
                },
              },
              {
                name: 'Put',
                request: { method: 'PUT', url: 'http://x/p', body: { mode: 'file', file: { src: src.file } } },
              },
            ],
          },
        ],
      },
    ],
  });
  const bodies = (content: string) => parseHttpFile(content, 'x.http').requests.map((node) => node.body);

  it('resolves src against the collection folder and writes it relative to each nested .http file', async () => {
    const source = tempDir('dial-pm-src-');
    mkdirSync(join(source, 'files'));
    writeFileSync(join(source, 'files', 'doc.pdf'), 'pdf');
    writeFileSync(join(source, 'data.csv'), 'a,b\n');
    const path = join(source, 'files.postman_collection.json');
    writeFileSync(path, JSON.stringify(collection({ form: 'files/doc.pdf', file: 'data.csv' })));
    const out = join(tempDir('dial-pm-out-'), 'api');
    const result = await importPostmanFiles(path, undefined, { outDir: out });
    expect(result.warnings).toEqual([]);
    const file = result.files.find((f) => f.path === 'deep/deeper.http')!;
    // <out>/deep/deeper.http -> <source>/files/doc.pdf
    const up = relative(join(out, 'deep'), source).split(sep).join('/');
    const [upload, put] = bodies(file.content);
    expect(upload?.kind === 'inline' && upload.text).toContain(`filename="doc.pdf"\n\n< ${up}/files/doc.pdf\n`);
    expect(put).toMatchObject({ kind: 'file', path: `${up}/data.csv`, substitute: false });
  });

  it('warns about a file that does not exist; keeps absolute paths', async () => {
    const source = tempDir('dial-pm-src-');
    const path = join(source, 'c.json');
    const absolute = join(tempDir('dial-pm-abs-'), 'payload.bin');
    writeFileSync(absolute, 'x');
    writeFileSync(path, JSON.stringify(collection({ form: 'missing/doc.pdf', file: absolute })));
    const result = await importPostmanFiles(path, undefined, { outDir: source });
    expect(result.warnings).toEqual([
      `deep/deeper.http#Upload: form field 'doc': ${join(source, 'missing', 'doc.pdf')} does not exist; put the file there or edit the path`,
    ]);
    const [upload, put] = bodies(result.files.find((f) => f.path === 'deep/deeper.http')!.content);
    expect(upload?.kind === 'inline' && upload.text).toContain('< ../missing/doc.pdf\n');
    expect(put).toMatchObject({ kind: 'file', path: absolute });
  });
});
