import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { toCurl } from '../../../src/core/export/curl.js';
import { shellQuote } from '../../../src/core/export/shell-quote.js';
import { parseCurlCommand } from '../../../src/core/curl/curl.js';
import { splitBashWords } from '../../../src/core/curl/shell-words.js';
import type { HttpRequest } from '../../../src/core/http/types.js';

// Any text but NUL (which no shell argument can hold), rich in what shells treat specially.
const tricky = fc.constantFrom(
  ...'\x01\x07\x1b\x7f\t\n\r \'"\\$`!#&;|<>(){}[]*?~%^'.split(''),
  '^\n',
  '^"',
  ' ^\n',
  '\\\n',
);
const text = fc
  .oneof(
    fc.string({ unit: 'grapheme', maxLength: 40 }),
    fc.string({ unit: fc.oneof(tricky, fc.constantFrom('a', 'é', '☃', '😀')), maxLength: 30 }),
  )
  .map((s) => s.replace(/\0/g, ''));
const headerValue = fc
  .string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 30 })
  .map((s) => s.replace(/[\r\n\0]/g, '').trim())
  .filter((s) => s !== '');
const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/);

describe('properties', () => {
  it('shellQuote: Bash splitting gives back exactly one word, the value', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (value, force) => {
        const quoted = shellQuote(value, force || value === '');
        expect(splitBashWords(quoted).map((word) => word.value)).toEqual([value]);
      }),
      { numRuns: 500 },
    );
  });

  it('toCurl then parseCurlCommand gives back the request', () => {
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PURGE'),
      path: fc.array(
        fc.stringMatching(/^[a-z0-9_~-][a-z0-9._~-]{0,7}$/).filter((s) => !/^\.+$/.test(s)),
        { maxLength: 3 },
      ),
      headers: fc.array(fc.tuple(token, headerValue), { maxLength: 4 }),
      body: fc.option(
        text.filter((s) => s !== ''),
        { nil: undefined },
      ),
      multiline: fc.boolean(),
    });
    fc.assert(
      fc.property(request, ({ method, path, headers, body, multiline }) => {
        const input: HttpRequest = {
          method,
          url: `http://127.0.0.1:8080/${path.join('/')}`,
          headers: headers.filter(([name]) => name.toLowerCase() !== 'content-type'),
          body: body === undefined ? { kind: 'none' } : { kind: 'text', text: body },
        };
        expect(parseCurlCommand(toCurl(input, { multiline })).request).toEqual(input);
      }),
      { numRuns: 300 },
    );
  });
});
