import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importOpenApiFile } from '../../../src/core/import/openapi.js';
import { exampleFromSchema } from '../../../src/core/import/schema-example.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { tempDir } from '../../helpers/cli.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

const SPEC = resolve(import.meta.dirname, '../../fixtures/import/openapi/petstore.yaml');

function write(name: string, text: string): string {
  const path = join(tempDir(), name);
  writeFileSync(path, text);
  return path;
}

describe('exampleFromSchema', () => {
  it('prefers examples, then builds from types, required props, enums and formats', () => {
    expect(exampleFromSchema({ type: 'string', example: 'x' })).toBe('x');
    expect(exampleFromSchema({ type: 'integer', examples: [7] })).toBe(7);
    expect(exampleFromSchema({ type: 'string', enum: ['a', 'b'] })).toBe('a');
    expect(exampleFromSchema({ type: 'string', format: 'email' })).toBe('user@example.com');
    expect(exampleFromSchema({ type: ['null', 'integer'], minimum: 3 })).toBe(3);
    expect(
      exampleFromSchema({
        type: 'object',
        required: ['a'],
        properties: { a: { type: 'boolean' }, b: { type: 'string' } },
      }),
    ).toEqual({ a: true });
    expect(
      exampleFromSchema({
        type: 'object',
        properties: { id: { type: 'integer', readOnly: true }, b: { type: 'array', items: { type: 'number' } } },
      }),
    ).toEqual({ b: [0] });
    expect(
      exampleFromSchema({
        allOf: [
          { type: 'object', properties: { a: { const: 1 } } },
          { type: 'object', properties: { b: { default: 'd' } } },
        ],
      }),
    ).toEqual({ a: 1, b: 'd' });
    const node: Record<string, unknown> = { type: 'object', required: ['child'], properties: {} };
    (node.properties as Record<string, unknown>).child = node;
    expect(exampleFromSchema(node)).toEqual({ child: {} });
  });
});

describe('import openapi', () => {
  it('groups operations by tag, names them by operationId and writes servers as environments', async () => {
    const result = await importOpenApiFile(SPEC);
    expect(result.files.map((file) => [file.path, file.description])).toEqual([
      ['pets.http', '6 requests'],
      ['store.http', '2 requests'],
      ['default.http', '1 request'],
      ['http-client.env.json', '7 variables, 2 environments'],
    ]);
    const pets = parseHttpFile(result.files[0].content, 'pets.http').requests;
    expect(pets.map((node) => node.name)).toEqual([
      'listPets',
      'createPet',
      'getPet',
      'updatePet',
      'deletePet',
      'uploadPhoto',
    ]);
    expect(pets.map((node) => node.tags)).toEqual(Array(6).fill(['pets']));
    expect(JSON.parse(result.files[3].content)).toEqual({
      $shared: {
        baseUrl: 'https://petstore.example.com/v1',
        limit: '20',
        X_Request_Id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
        petId: '42',
        warehouse: 'main%20hall',
      },
      production: { baseUrl: 'https://petstore.example.com/v1' },
      local: { baseUrl: 'http://localhost:8080/v1' },
    });
    expect(result.notes).toEqual([
      '9 requests in 3 files',
      'variables to define (in http-client.private.env.json or with --var): token, apiKeyHeader, username, password, queryKey',
    ]);
  });

  it('turns parameters into variables and security schemes into auth', async () => {
    const result = await importOpenApiFile(SPEC);
    const pets = parseHttpFile(result.files[0].content, 'pets.http').requests;
    const headers = (index: number) => pets[index].headers.map((h) => [h.name, h.value]);
    expect(pets[0].url).toBe('{{baseUrl}}/pets?limit={{limit}}');
    expect(headers(0)).toEqual([
      ['X-Request-Id', '{{X_Request_Id}}'],
      ['Authorization', 'Bearer {{token}}'],
      ['Accept', 'application/json'],
    ]);
    expect(result.files[0].content).toContain('# Optional query parameters: status');
    expect(pets[2].url).toBe('{{baseUrl}}/pets/{{petId}}');
    expect(headers(2)).toEqual([
      ['X-API-Key', '{{apiKeyHeader}}'],
      ['Accept', 'application/json'],
    ]);
    expect(headers(5)[0]).toEqual(['Authorization', 'Basic {{username}} {{password}}']);
    const store = parseHttpFile(result.files[1].content, 'store.http').requests;
    expect(store[1].url).toBe('{{baseUrl}}/store/inventory?warehouse={{warehouse}}&api_key={{queryKey}}');
    const health = parseHttpFile(result.files[2].content, 'default.http').requests[0];
    expect(health.headers).toEqual([]);
  });

  it('takes bodies from examples, or generates them from the schema ($refs resolved)', async () => {
    const result = await importOpenApiFile(SPEC);
    const pets = parseHttpFile(result.files[0].content, 'pets.http').requests;
    const text = (index: number) => (pets[index].body?.kind === 'inline' ? pets[index].body.text : '');
    expect(JSON.parse(text(1))).toEqual({ name: 'Rex', tag: 'dog' });
    expect(JSON.parse(text(3))).toEqual({
      name: 'string',
      id: 0,
      status: 'available',
      category: { name: 'Dogs', parent: {} },
    });
    expect(text(5)).toContain('name="caption"\n\nOn the beach');
    expect(text(5)).toContain('name="photo"; filename="photo"\n\n< ./photo');
    expect(result.warnings).toContain(
      "POST /pets/{petId}/photo: multipart field 'photo' is a file; it was written as ./photo — point it at the file to upload",
    );
    const store = parseHttpFile(result.files[1].content, 'store.http').requests;
    expect(store[0].body).toMatchObject({
      kind: 'inline',
      text: 'petId=1&quantity=2&shipDate=2024-01-01T00%3A00%3A00Z',
    });
    expect(result.files[0].content).toMatch(/### Delete a pet\n# Deprecated\./);
  });

  it('--base-url becomes the shared baseUrl; relative servers are made absolute with it', async () => {
    const path = write(
      'api.json',
      JSON.stringify({
        openapi: '3.0.3',
        info: { title: 'T', version: '1' },
        servers: [{ url: '/api' }],
        paths: { '/items': { get: { responses: { 200: { description: 'ok' } } } } },
      }),
    );
    const result = await importOpenApiFile(path, { baseUrl: 'http://127.0.0.1:9/' });
    expect(JSON.parse(result.files.find((f) => f.path === 'http-client.env.json')!.content)).toEqual({
      $shared: { baseUrl: 'http://127.0.0.1:9' },
      '127-0-0-1': { baseUrl: 'http://127.0.0.1:9/api' },
    });
    const node = parseHttpFile(result.files[0].content, 'default.http').requests[0];
    expect(node).toMatchObject({ name: 'get-items', method: 'GET', url: '{{baseUrl}}/items' });
  });

  it('resolves $refs into other local files (never fetching remote ones)', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'schemas.yaml'),
      'Widget:\n  type: object\n  required: [id, size]\n  properties:\n    id: {type: string, format: uuid}\n    size: {type: integer, enum: [3, 5]}\n',
    );
    const path = join(dir, 'api.yaml');
    writeFileSync(
      path,
      [
        'openapi: 3.0.3',
        'info: {title: Widgets, version: "1"}',
        'servers: [{url: "https://w.example.com"}]',
        'paths:',
        '  /widgets:',
        '    post:',
        '      operationId: create widget',
        '      requestBody:',
        '        content:',
        '          application/vnd.api+json:',
        "            schema: {$ref: './schemas.yaml#/Widget'}",
        '      responses: {"201": {description: ok}}',
      ].join('\n'),
    );
    const result = await importOpenApiFile(path);
    const node = parseHttpFile(result.files[0].content, 'default.http').requests[0];
    expect(node).toMatchObject({ name: 'create-widget', method: 'POST', url: '{{baseUrl}}/widgets' });
    expect(node.headers.map((h) => [h.name, h.value])).toEqual([['Content-Type', 'application/vnd.api+json']]);
    expect(JSON.parse(node.body?.kind === 'inline' ? node.body.text : '')).toEqual({
      id: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
      size: 3,
    });
    const remote = join(dir, 'remote.yaml');
    writeFileSync(
      remote,
      "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      parameters:\n        - $ref: 'https://example.invalid/params.yaml#/id'\n      responses: {}\n",
    );
    expect((await dialErrorOf(importOpenApiFile(remote))).message).toMatch(/cannot resolve the \$refs/);
  });

  it('rejects Swagger 2.0, bad YAML (with line and column), unknown versions and broken $refs', async () => {
    expect(
      (
        await dialErrorOf(
          importOpenApiFile(write('s.yaml', 'swagger: "2.0"\ninfo: {title: x, version: "1"}\npaths: {}\n')),
        )
      ).message,
    ).toMatch(/Swagger 2\.0/);
    const yaml = await dialErrorOf(
      importOpenApiFile(write('y.yaml', 'openapi: 3.1.0\ninfo:\n  title: x\n   version: 1\n')),
    );
    expect(yaml.code).toBe('E_IMPORT');
    expect(yaml.location).toMatchObject({ line: 3, col: 10, excerpt: '  title: x' });
    expect(
      (await dialErrorOf(importOpenApiFile(write('v.yaml', 'openapi: 4.0.0\ninfo: {title: x}\npaths: {}\n')))).message,
    ).toMatch(/'4\.0\.0' is not supported/);
    const shape = await dialErrorOf(
      importOpenApiFile(write('i.yaml', 'openapi: 3.1.0\ninfo:\n  version: "1"\npaths: {}\n')),
    );
    expect(shape.message).toBe('OpenAPI document: info.title: expected string');
    expect(shape.location?.line).toBe(3);
    const ref = await dialErrorOf(
      importOpenApiFile(
        write(
          'r.yaml',
          "openapi: 3.1.0\ninfo: {title: x, version: '1'}\npaths:\n  /a:\n    get:\n      requestBody:\n        $ref: '#/components/requestBodies/Missing'\n      responses: {}\n",
        ),
      ),
    );
    expect(ref.message).toMatch(/cannot resolve the \$refs/);
    expect((await dialErrorOf(importOpenApiFile('/nonexistent/spec.yaml'))).code).toBe('E_NOT_FOUND');
  });
});
