import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  dialectDeclaredIn,
  dialectFromConstructs,
  HINT_ALL,
  HINT_DIALECT_LINE,
  HINT_HTTPYAC,
  HINT_KULALA,
  HINT_LUA,
  HINT_ROOTED,
  namesRequestWithoutSeparator,
  textHints,
} from '../../../src/core/httpfile/dialect.js';
import { lineTable } from '../../../src/core/httpfile/lines.js';

// Pieces of the constructs each pattern looks for, near misses of them, and ordinary lines,
// joined with every line break a `^` in a multiline pattern sees (and none).
const piece = fc.constantFrom(
  '#',
  '##',
  '//',
  '///',
  '/',
  ' ',
  '\t',
  '@',
  '@ref',
  '@refs',
  '@forceRef',
  '@import',
  '@loop',
  '@jwt',
  '@keepStreaming',
  '@note',
  '@name',
  '@sleep',
  '@save',
  '@verbose',
  '@debug',
  '@dialect',
  '@dialect httpyac',
  '@dialect nope',
  '@injectVariables',
  '@ratelimit',
  '@openWith',
  '@env-stdin-cmd',
  '@env-json-key',
  '@curl-',
  '@grpc-',
  '@graphql',
  '@lang',
  '@lang=lua',
  '@lang lua',
  ' = ',
  'lua',
  '.lua',
  './a.lua',
  '>',
  '> ',
  '<',
  '< ',
  '{%',
  '> {%',
  '< {%',
  '-- lua',
  '--lua',
  ' -- lua.x',
  '{',
  '{{',
  '}}',
  '{{@',
  '{{+',
  '{{response',
  '{{ $uuid }}',
  '\\{\\{',
  '\\}\\}',
  'x',
  '/*',
  '*/',
  'HTTP/1.1 200',
  'HTTP/2 404 Not Found',
  'HTTP/',
  'GET',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'HEAD',
  'OPTIONS',
  'GET /a',
  'HEAD\t/b',
  'GET //c',
  'get /d',
  'Host: x',
  'host:',
  '/',
  '//',
  'http://x',
  '200',
  '\uFEFF',
);
const lineBreak = fc.constantFrom('\n', '\n', '\n', '\r\n', '\r', '\u2028', '\u2029', '');
const blanks = fc.constantFrom('', '', ' ', '\t', '  ');
/** A metadata-shaped line: every key a pattern names, and near misses. */
const metadataLine = fc
  .tuple(
    blanks,
    fc.constantFrom('#', '##', '//', '///', '/', '#/'),
    blanks,
    fc.constantFrom(
      ...['ref', 'forceRef', 'import', 'loop', 'jwt', 'keepStreaming', 'note', 'sleep', 'verbose', 'debug'],
      ...['injectVariables', 'ratelimit', 'save', 'openWith', 'env-stdin-cmd', 'env-json-key', 'curl-x', 'grpc-x'],
      ...['graphql', 'lang', 'dialect', 'name', 'tag', 'refs', 'Ref', 'env-', 'curl', 'lan', 'dialects', 'notes'],
    ),
    fc.constantFrom('', ' ', ' lua', '=lua', ' = lua', ' httpyac', ' nope', '-x', 'x'),
  )
  .map(([indent, mark, gap, key, rest]) => `${indent}${mark}${gap}@${key}${rest}`);
const requestLine = fc
  .tuple(
    blanks,
    fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'get', 'TRACE', 'GETS'),
    fc.constantFrom(' ', '\t', '  ', ''),
    fc.constantFrom('/a', '//a', 'http://x/', '{{host}}/a', '/'),
  )
  .map((parts) => parts.join(''));
const line = fc.oneof(
  fc.array(piece, { maxLength: 5 }).map((pieces) => pieces.join('')),
  metadataLine,
  requestLine,
);
const text = fc
  .array(fc.tuple(line, lineBreak), { maxLength: 8 })
  .map((lines) => lines.map(([content, end]) => content + end).join(''));

/** What each bit stands for, asked of the patterns alone (the bit given, so the pattern runs). */
function matches(t: string): number {
  let bits = 0;
  try {
    if (dialectDeclaredIn(t, '', HINT_DIALECT_LINE) !== undefined) bits |= HINT_DIALECT_LINE;
  } catch {
    bits |= HINT_DIALECT_LINE; // an unknown name: the pattern matched
  }
  if (dialectFromConstructs(t, HINT_HTTPYAC) === 'httpyac') bits |= HINT_HTTPYAC;
  if (dialectFromConstructs(t, HINT_ROOTED) === 'httpyac') bits |= HINT_ROOTED;
  if (dialectFromConstructs(t, HINT_KULALA) === 'kulala') bits |= HINT_KULALA;
  const lua = dialectFromConstructs(t, HINT_LUA);
  // kulala's `{% -- lua` script needs the bit; its other signs (a script reading a file variable) need none.
  if (lua === 'rest.nvim' || (lua === 'kulala' && dialectFromConstructs(t, 0) !== 'kulala')) bits |= HINT_LUA;
  return bits;
}

describe('dialect hints (a bit is set wherever its pattern matches)', () => {
  it('never misses a pattern, from the line table or on its own', () => {
    fc.assert(
      fc.property(text, (t) => {
        const found = matches(t);
        expect(lineTable(t).hints & found).toBe(found);
        expect(textHints(t) & found).toBe(found);
        // Both ways of finding the bits agree.
        expect(lineTable(t).hints).toBe(textHints(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same dialect as running every pattern', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(dialectFromConstructs(t)).toBe(dialectFromConstructs(t, HINT_ALL));
        let declared: unknown;
        let declaredAll: unknown;
        try {
          declared = dialectDeclaredIn(t, '');
        } catch (error) {
          declared = (error as Error).message;
        }
        try {
          declaredAll = dialectDeclaredIn(t, '', HINT_ALL);
        } catch (error) {
          declaredAll = (error as Error).message;
        }
        expect(declared).toBe(declaredAll);
      }),
      { numRuns: 3000 },
    );
  });

  it('sets no bit for a plain JetBrains file', () => {
    const plain =
      '### a\n# @name a\n# @tag smoke\nPOST {{host}}/a\nContent-Type: application/json\n\n{"a": 1}\n\n?? status == 200\n';
    expect(textHints(plain)).toBe(0);
    expect(textHints('GET /a\n')).toBe(HINT_ROOTED);
    expect(textHints('# @ref login\r\nGET http://x\r\n')).toBe(HINT_HTTPYAC);
    expect(textHints('# @ref login\rGET http://x\r')).toBe(HINT_ALL);
  });
});

describe('namesRequestWithoutSeparator (a `# @name` request written under another without `###`)', () => {
  // The reading it replaced, line by line over the whole text: the reference.
  const requestLine =
    /^(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)[ \t]+(?:https?:\/\/|\{\{)\S*(?:[ \t]+HTTP\/\d(?:\.\d)?)?$/i;
  const nameLine = /^(?:#+|\/\/+)[ \t]*@name[ \t]+\S/;
  const reference = (text: string): boolean => {
    let requestSeen = false;
    let previous = '';
    for (const raw of text.split('\n')) {
      const t = raw.trim();
      if (t.startsWith('###')) requestSeen = false;
      else if (requestLine.test(t)) {
        if (requestSeen && nameLine.test(previous)) return true;
        requestSeen = true;
      }
      previous = t;
    }
    return false;
  };
  const line = fc.constantFrom(
    '',
    ' ',
    '###',
    '### @name x',
    '# @name a',
    '// @name b',
    '#@name',
    '# @names c',
    'GET http://a',
    'post  http://b  HTTP/1.1',
    '  GET {{host}}/x ',
    'GET /rooted',
    'X-A: 1',
    '{"@name": 1}',
    'body @name text',
  );

  it('agrees with reading the text line by line', () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 14 }),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        (lines, eol, lead) => {
          const text = (lead ? eol : '') + lines.join(eol);
          expect(namesRequestWithoutSeparator(text)).toBe(reference(text));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
