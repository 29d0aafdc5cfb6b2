// JetBrains: a list set by a pre-request script sends the request once per item; `{{ids}}` is the
// item, `{{$.list..field}}` / `{{$.list[*].field}}` a field of it. What is not pinned down is refused.
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { listPasses } from '../../../src/core/httpfile/list-iteration.js';
import { DialError } from '../../../src/core/errors.js';

function passes(text: string, lists: Record<string, unknown[]>) {
  const file = parseHttpFile(text, '/w/api.http');
  return listPasses(file, file.requests[0], new Map(Object.entries(lists)));
}

describe('list passes', () => {
  it('one pass per item: the item for {{name}}, JSON for objects', () => {
    expect(
      passes('GET http://x/r/{{ids}}\n', { ids: [101, 'b', { a: 1 }] })?.map((p) => Object.fromEntries(p)),
    ).toEqual([{ ids: '101' }, { ids: 'b' }, { ids: '{"a":1}' }]);
  });

  it('fields of each item through $.list..field and $.list[*].field.sub, in target, headers and body', () => {
    const clients = [
      { id: 1, name: { first: 'George' } },
      { id: 2, name: { first: 'Alice' } },
    ];
    const result = passes(
      'POST http://x/c/{{$.clients..id}}\nX-Name: {{$.clients[*].name.first}}\n\n{"id": {{$.clients..id}}}\n',
      { clients },
    );
    expect(result?.map((p) => Object.fromEntries(p))).toEqual([
      { '$.clients..id': '1', '$.clients[*].name.first': 'George' },
      { '$.clients..id': '2', '$.clients[*].name.first': 'Alice' },
    ]);
  });

  it('a request that does not read the list is sent once', () => {
    expect(passes('GET http://x/a\n', { ids: [1, 2] })).toBeUndefined();
  });

  it('refuses a field that is missing, or that ..field finds more than once in an item', () => {
    const missing = (() => {
      try {
        passes('GET http://x/{{$.c..id}}\n', { c: [{ id: 1 }, { other: 2 }] });
      } catch (error) {
        return error as DialError;
      }
    })();
    expect(missing?.message).toContain("item 1 of 'c' has 'id' nowhere");
    const nested = (() => {
      try {
        passes('GET http://x/{{$.c..id}}\n', { c: [{ id: 1, owner: { id: 9 } }] });
      } catch (error) {
        return error as DialError;
      }
    })();
    expect(nested?.message).toContain('more than once');
    expect(nested?.hint).toContain('{{$.c[*].id}}');
    expect(passes('GET http://x/{{$.c[*].id}}\n', { c: [{ id: 1, owner: { id: 9 } }] })?.[0].get('$.c[*].id')).toBe(
      '1',
    );
  });
});
