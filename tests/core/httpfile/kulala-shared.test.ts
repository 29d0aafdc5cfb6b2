// kulala shared blocks: a leading `### Shared` block with the `NOP` target shares its headers,
// scripts and run lines (and is no request); `### Shared each` runs its request before each one.
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';

describe('kulala shared blocks', () => {
  it('NOP: headers (unless the request sets its own), scripts and run lines go to every request', () => {
    const text = [
      '### Shared',
      '@base = http://x',
      '',
      'run #Login',
      'NOP',
      'X-Tenant: acme',
      'Accept: application/json',
      '',
      '> {% client.log("after") %}',
      '',
      '### one',
      'GET {{base}}/one',
      'Accept: text/plain',
      '',
      '### Login',
      'POST {{base}}/login',
      '',
    ].join('\n');
    const file = parseHttpFile(text, '');
    expect(file.requests.map((r) => [r.index, r.title, r.url])).toEqual([
      [0, 'one', '{{base}}/one'],
      [1, 'Login', '{{base}}/login'],
    ]);
    const [one] = file.requests;
    expect(one.headers.map((h) => `${h.name}: ${h.value}`)).toEqual(['X-Tenant: acme', 'Accept: text/plain']);
    expect(one.handlers).toHaveLength(1);
    expect(one.runs?.map((run) => run.name)).toEqual(['Login']);
    expect(file.variables.map((v) => v.name)).toEqual(['base']);
  });

  it('Shared each: its request runs before every other request and is skipped on its own', () => {
    const file = parseHttpFile(
      '### Shared each\nPOST http://x/login\n\n### a\nGET http://x/a\n\n### b\nGET http://x/b\n',
      '',
    );
    const [shared, a, b] = file.requests;
    expect(shared.skip?.reason).toContain('Shared each');
    expect(a.runs?.map((run) => run.name)).toEqual(['Shared each']);
    expect(b.runs?.map((run) => run.name)).toEqual(['Shared each']);
  });

  it('NOP anywhere else is refused at its line; a leading `### Shared` with a request is left alone', () => {
    expect(() => parseHttpFile('### a\nGET http://x/a\n\n### Shared\nNOP\nX-A: 1\n', 'k.http')).toThrow(
      expect.objectContaining({ location: expect.objectContaining({ file: 'k.http', line: 5 }) }),
    );
    expect(parseHttpFile('### Shared\nNOP\nX-A: 1\n', '').requests).toEqual([]);
    const once = parseHttpFile('### Shared\nPOST http://x/login\n\n### a\nGET http://x/a\n', '');
    expect(once.requests.map((r) => r.runs)).toEqual([undefined, undefined]);
  });
});
