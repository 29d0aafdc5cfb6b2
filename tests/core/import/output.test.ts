import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EnvFiles } from '../../../src/core/import/env-writer.js';
import { formatImportSummary, writeImport, type ImportResult } from '../../../src/core/import/output.js';
import { isDialError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';

function imported(variables: Array<[env: string, name: string, value: string]>, http = 'api.http'): ImportResult {
  const env = new EnvFiles();
  for (const [environment, name, value] of variables) env.set(environment, name, value);
  return {
    files: [{ path: http, content: 'GET http://x/\n', description: '1 request' }, ...env.files()],
    warnings: [],
  };
}

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('writeImport: existing env files are merged into, never replaced', () => {
  it('adds new environments and variables, keeps every existing value, keeps the layout; no --force needed', () => {
    const dir = tempDir();
    const plain = join(dir, 'http-client.env.json');
    const secret = join(dir, 'http-client.private.env.json');
    writeFileSync(
      plain,
      '{\n    "Local": {\n        "baseUrl": "http://mine:1",\n        "port": 1\n    },\n    "Prod": {"baseUrl": "https://prod"}\n}\n',
    );
    writeFileSync(secret, JSON.stringify({ Local: { token: 'my-secret' } }), { mode: 0o644 });
    const result = imported([
      ['Local', 'baseUrl', 'http://theirs:2'],
      ['Local', 'pageSize', '5'],
      ['Staging', 'baseUrl', 'https://staging'],
      ['Local', 'token', 'imported-secret'],
      ['Staging', 'token', 'staging-secret'],
    ]);
    writeImport(result, { outDir: dir, force: false });

    expect(readFileSync(plain, 'utf8')).toBe(
      [
        '{',
        '    "Local": {',
        '        "baseUrl": "http://mine:1",',
        '        "port": 1,',
        '        "pageSize": "5"',
        '    },',
        '    "Prod": {',
        '        "baseUrl": "https://prod"',
        '    },',
        '    "Staging": {',
        '        "baseUrl": "https://staging"',
        '    }',
        '}',
        '',
      ].join('\n'),
    );
    // No newline at the end before: none after.
    expect(readFileSync(secret, 'utf8')).toBe(
      '{\n  "Local": {\n    "token": "my-secret"\n  },\n  "Staging": {\n    "token": "staging-secret"\n  }\n}',
    );
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    expect(readFileSync(join(dir, 'api.http'), 'utf8')).toBe('GET http://x/\n');
    expect(formatImportSummary(result, dir)).toBe(
      [
        `wrote ${join(dir, 'api.http')} (1 request)`,
        `merged into ${plain}: added Local.pageSize, Staging.baseUrl; kept 1 existing (Local.baseUrl); the imported value differs for Local.baseUrl`,
        `merged into ${secret}: added Staging.token; kept 1 existing (Local.token); the imported value differs for Local.token`,
        '',
      ].join('\n'),
    );
  });

  it('--force rewrites .http files but still never replaces an env file; nothing new leaves it untouched', () => {
    const dir = tempDir();
    const plain = join(dir, 'http-client.env.json');
    const before = '{"Local": {"baseUrl": "http://mine:1", "pageSize": "5"}}\n';
    writeFileSync(plain, before);
    writeFileSync(join(dir, 'api.http'), 'old');
    const result = imported([
      ['Local', 'baseUrl', 'http://theirs:2'],
      ['Local', 'pageSize', '5'],
    ]);
    writeImport(result, { outDir: dir, force: true });
    expect(readFileSync(join(dir, 'api.http'), 'utf8')).toBe('GET http://x/\n');
    expect(readFileSync(plain, 'utf8')).toBe(before);
    expect(formatImportSummary(result, dir).split('\n')[1]).toBe(
      `left ${plain} as it was: nothing new to add; kept 2 existing (Local.baseUrl, Local.pageSize); the imported value differs for Local.baseUrl`,
    );
  });

  it('an existing .http file still stops the import (E_EXISTS) before any env file is merged', () => {
    const dir = tempDir();
    const plain = join(dir, 'http-client.env.json');
    writeFileSync(plain, '{"Local": {"a": "1"}}\n');
    writeFileSync(join(dir, 'api.http'), 'old');
    const error = errorOf(() => writeImport(imported([['Dev', 'a', '2']]), { outDir: dir, force: false }));
    expect(isDialError(error) && error.code).toBe('E_EXISTS');
    expect(readFileSync(plain, 'utf8')).toBe('{"Local": {"a": "1"}}\n');
    expect(readFileSync(join(dir, 'api.http'), 'utf8')).toBe('old');
  });

  it('an env file that is not valid JSON or not environments of variables stops the import: nothing is written', () => {
    const dir = tempDir();
    const plain = join(dir, 'http-client.env.json');
    writeFileSync(plain, '{\n  "Local": {"a": "1",}\n}\n');
    const syntax = errorOf(() => writeImport(imported([['Dev', 'a', '2']], 'new.http'), { outDir: dir, force: true }));
    expect(isDialError(syntax) && syntax.code).toBe('E_ENV');
    expect(isDialError(syntax) && syntax.message).toMatch(
      /^cannot add the imported variables to .*http-client\.env\.json: invalid JSON: .*; nothing was written$/,
    );
    expect(isDialError(syntax) && syntax.location).toMatchObject({ file: plain, line: 2 });
    expect(existsSync(join(dir, 'new.http'))).toBe(false);

    writeFileSync(plain, '{"Local": "oops"}');
    const shape = errorOf(() => writeImport(imported([['Dev', 'a', '2']], 'new.http'), { outDir: dir, force: true }));
    expect(isDialError(shape) && shape.message).toMatch(
      /: 'Local' is not an object of variables; nothing was written$/,
    );
    expect(existsSync(join(dir, 'new.http'))).toBe(false);
    expect(readFileSync(plain, 'utf8')).toBe('{"Local": "oops"}');
  });
});
