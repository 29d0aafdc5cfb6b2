import { cpSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFromText } from '../../../src/core/import/from-text.js';
import { tempDir } from '../../helpers/cli.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

const fixtures = resolve(import.meta.dirname, '../../fixtures/import');

describe('importFromText', () => {
  it('a curl command becomes a .http file in the folder', async () => {
    const dir = tempDir();
    const written = await importFromText(dir, "curl -X POST -H 'X-A: 1' https://api.example.com/items -d '{\"a\":1}'");
    expect(written.map((path) => basename(path))).toEqual(['items.http']);
    const text = readFileSync(written[0], 'utf8');
    expect(text).toContain('POST https://api.example.com/items');
    expect(text).toContain('X-A: 1');
  });

  it('tells a Postman collection from an OpenAPI document by content', async () => {
    const dir = tempDir();
    cpSync(join(fixtures, 'postman/shop.postman_collection.json'), join(dir, 'shop.json'));
    cpSync(join(fixtures, 'openapi/petstore.yaml'), join(dir, 'petstore.yaml'));
    const fromPostman = await importFromText(dir, 'shop.json');
    expect(fromPostman.length).toBeGreaterThan(0);
    const fromOpenApi = await importFromText(dir, 'petstore.yaml');
    expect(fromOpenApi.length).toBeGreaterThan(0);
    expect(readFileSync(fromOpenApi[0], 'utf8')).toMatch(/^(GET|POST|PUT|DELETE|PATCH) /m);
  });

  it('a path that does not exist is a typed error saying what to give', async () => {
    const error = await dialErrorOf(importFromText(tempDir(), 'nowhere.json'));
    expect(error.code).toBe('E_NOT_FOUND');
    expect(error.message).toMatch(/no file .*nowhere\.json/);
  });
});
