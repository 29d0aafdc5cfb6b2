/**
 * `dial fmt` keeps what is sent: each request of a generated file is resolved by a session
 * (variables, file variables, metadata, bodies read from disk) before and after formatting,
 * and the two HTTP requests must be equal (or fail the same way).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { createSession } from '../../../src/core/session/index.js';
import { isDialError } from '../../../src/core/errors.js';
import { formatHttpText } from '../../../src/core/format-http/index.js';
import type { HttpFile } from '../../../src/core/httpfile/types.js';

const root = mkdtempSync(join(tmpdir(), 'dial-fmt-resolved-'));
writeFileSync(join(root, 'body.json'), '{"from": "{{host}}"}');

const space = fc.constantFrom('', ' ', '  ', '\t');
const blank = fc.constantFrom('', '  ');
const value = fc.constantFrom('1', 'a b', '{{host}}/x', '"q"', '');
const variable = fc
  .tuple(fc.constantFrom('host', 'id', 'token'), space, space, value)
  .map(([n, a, b, v]) => `@${n}${a}=${b}${v}`);
const header = fc
  .tuple(
    fc.constantFrom('Accept', 'x-id', 'Content-Type', 'Authorization'),
    space,
    space,
    fc.constantFrom('{{token}}', 'text/plain', 'Bearer {{token}}', 'a:b'),
  )
  .map(([name, a, b, v]) => `${name}${a}:${b}${v}`);
const body = fc.oneof(
  fc.constant(['{"id": "{{id}}",  "n": 1}']),
  fc.constant(['line one', '', '  indented {{id}}  ', 'last']),
  fc.constant(['< ./body.json']),
  fc.constant(['<@ ./body.json']),
  fc.constant(['a=1&b={{id}}']),
);
const request = fc
  .record({
    separator: fc.constantFrom('###', '#### t', '###   named  '),
    pre: fc.array(
      fc.oneof(variable, blank, fc.constantFrom('# @name r', '# @timeout 2s', '// @no-redirect', '# note  ')),
      { maxLength: 3 },
    ),
    method: fc.constantFrom('GET ', 'post  ', '', 'PUT\t'),
    url: fc.constantFrom('http://127.0.0.1:9/a', '{{host}}/b?x={{id}}', 'https://example.com/c'),
    version: fc.constantFrom('', ' HTTP/1.1', '  HTTP/2'),
    headers: fc.array(header, { maxLength: 3 }),
    gap: fc.array(blank, { minLength: 1, maxLength: 3 }),
    body: fc.option(body, { nil: undefined }),
    tail: fc.array(blank, { maxLength: 3 }),
  })
  .map((r) =>
    [
      r.separator,
      ...r.pre,
      `${r.method}${r.url}${r.version}`,
      ...r.headers,
      ...(r.body ? [...r.gap, ...r.body] : []),
      ...r.tail,
    ].join('\n'),
  );
const file = fc
  .tuple(
    fc.array(fc.oneof(variable, blank), { maxLength: 3 }),
    fc.array(request, { minLength: 1, maxLength: 4 }),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([top, requests, eol]) => [...top, ...requests].join('\n').replace(/\n/g, eol));

async function resolved(file: HttpFile): Promise<unknown[]> {
  const session = createSession({
    workspaceRoot: root,
    cliVariables: { host: 'http://h', id: '7', token: 't0k' },
    processEnv: {},
  });
  const out: unknown[] = [];
  for (const node of file.requests) {
    try {
      const prepared = await session.prepare(file, node);
      out.push({ request: prepared.request, overrides: prepared.overrides });
    } catch (error) {
      if (!isDialError(error)) throw error;
      out.push({ error: error.code });
    }
  }
  return out;
}

function parses(text: string): boolean {
  try {
    parseHttpFile(text, join(root, 'gen.http'));
    return true;
  } catch (error) {
    if (isDialError(error)) return false;
    throw error;
  }
}

describe('dial fmt (property, resolved requests)', () => {
  it('every request resolves to the same HTTP request before and after formatting', async () => {
    await fc.assert(
      fc.asyncProperty(file, async (text) => {
        fc.pre(parses(text));
        const path = join(root, 'gen.http');
        const formatted = formatHttpText(text, path);
        const [before, after] = await Promise.all([
          resolved(parseHttpFile(text, path)),
          resolved(parseHttpFile(formatted, path)),
        ]);
        expect(after).toEqual(before);
      }),
      { numRuns: 150 },
    );
  });
});
