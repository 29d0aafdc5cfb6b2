import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  draftFromNode,
  formatRequest,
  parseHttpFile,
  printHttpFile,
  type HttpFile,
} from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'PURGE');
const url = fc
  .tuple(
    fc.constantFrom('http://127.0.0.1:4010', '{{host}}', 'https://api.example.com'),
    fc.array(word, { maxLength: 3 }),
  )
  .map(([base, parts]) => `${base}/${parts.join('/')}`);
const header = fc
  .tuple(fc.constantFrom('Accept', 'Content-Type', 'X-Id', 'Authorization'), fc.stringMatching(/^[ -~]{0,20}$/))
  .map(([name, value]) => `${name}: ${value}`);
const bodyLine = fc.oneof(
  fc.stringMatching(/^[{}"a-z0-9:, []{0,30}$/),
  fc.constant('  "token": "{{token}}",'),
  fc.constant('<a>text</a>'),
  fc.constant('< ./body.json'),
);
const assertion = fc.constantFrom(
  '?? status == 200',
  '?? header content-type contains json',
  '?? body $.id exists',
  '?? body $.items length > 0',
  '?? js response.body.ok == true',
  '?? duration < 1000',
  '?? body snapshot ignore $.id',
  '?? body not isEmpty',
);
const comment = fc.oneof(
  fc.constant('# a comment'),
  fc.constant('// another'),
  word.map((w) => `# ${w}`),
);
const metadata = fc.oneof(
  word.map((w) => `# @name ${w}`),
  word.map((w) => `// @tag ${w} smoke`),
  fc.constant('# @timeout 5s'),
  fc.constant('# @no-redirect'),
  fc.constant('# @retry 2 100ms'),
  fc.constant('# @secret token'),
  word.map((w) => `# @custom ${w}`),
);
const variable = fc.tuple(word, fc.stringMatching(/^[ -~]{0,20}$/)).map(([n, v]) => `@${n} = ${v}`);
const blank = fc.constantFrom('', '   ', '\t');

const request = fc
  .record({
    title: fc.option(fc.stringMatching(/^[ -~]{0,20}$/), { nil: undefined }),
    pre: fc.array(
      fc.oneof(comment, metadata, variable, blank, fc.constant('< {% request.variables.set("a", "1") %}')),
      { maxLength: 4 },
    ),
    method: fc.option(method, { nil: undefined }),
    url,
    version: fc.option(fc.constantFrom(' HTTP/1.1', ' HTTP/2'), { nil: undefined }),
    continuation: fc.array(
      word.map((w) => `    &${w}=1`),
      { maxLength: 2 },
    ),
    headers: fc.array(fc.oneof(header, comment), { maxLength: 4 }),
    body: fc.option(fc.array(bodyLine, { minLength: 1, maxLength: 5 }), { nil: undefined }),
    trailingBlank: fc.array(blank, { maxLength: 2 }),
    post: fc.array(
      fc.oneof(
        assertion,
        comment,
        fc.constant('> {%\n  client.global.set("x", 1);\n%}'),
        fc.constant('> ./h.js'),
        fc.constant('>> ./out.json'),
      ),
      { maxLength: 4 },
    ),
  })
  .map((r) => {
    const lines = [`###${r.title === undefined ? '' : ` ${r.title}`}`, ...r.pre];
    lines.push(
      `${r.method ? `${r.method} ` : ''}${r.url}${r.continuation.length ? '' : (r.version ?? '')}`,
      ...r.continuation,
      ...r.headers,
    );
    if (r.body) lines.push('', ...r.body);
    lines.push(...r.trailingBlank);
    if (r.post.length) lines.push('', ...r.post);
    return lines.join('\n');
  });

const file = fc
  .record({
    top: fc.array(fc.oneof(variable, comment, blank), { maxLength: 4 }),
    requests: fc.array(request, { maxLength: 6 }),
    eol: fc.constantFrom('\n', '\r\n'),
    finalNewline: fc.boolean(),
  })
  .map(({ top, requests, eol, finalNewline }) => {
    const text = [...top, ...requests].join('\n');
    return (finalNewline ? `${text}\n` : text).replace(/\n/g, eol);
  });

function checkSpans(parsed: HttpFile): void {
  let previous = 0;
  for (const request of parsed.requests) {
    expect(request.span.start).toBeGreaterThanOrEqual(previous);
    expect(request.span.end).toBeGreaterThanOrEqual(request.span.start);
    expect(request.requestLineSpan.start).toBeGreaterThanOrEqual(request.span.start);
    expect(request.requestLineSpan.end).toBeLessThanOrEqual(request.span.end);
    for (const header of request.headers)
      expect(parsed.text.slice(header.span.start, header.span.end).trim().startsWith(header.name)).toBe(true);
    // The body's text is its span without whole-line comments (they are comments, not body text).
    if (request.body?.kind === 'inline')
      expect(
        parsed.text
          .slice(request.body.span.start, request.body.span.end)
          .replace(/^[ \t]*(?:#|\/\/)[^\n]*(?:\n|$)/gm, '')
          .replace(/\r?\n$/, ''),
      ).toBe(request.body.text);
    previous = request.span.end;
  }
  expect(previous).toBeLessThanOrEqual(parsed.text.length);
}

describe('round trip (property)', () => {
  it('printHttpFile(parseHttpFile(x)) === x for generated .http files, with sane spans', () => {
    fc.assert(
      fc.property(file, (text) => {
        const parsed = parseHttpFile(text, 'gen.http');
        expect(printHttpFile(parsed)).toBe(text);
        checkSpans(parsed);
      }),
      { numRuns: 400 },
    );
  });

  it('formatRequest(draftFromNode(r)) parses back to the same request', () => {
    fc.assert(
      fc.property(request, (text) => {
        const [node] = parseHttpFile(text, '').requests;
        const [again] = parseHttpFile(formatRequest(draftFromNode(node)), '').requests;
        expect(again.method).toBe(node.method);
        expect(again.url).toBe(node.url);
        expect(again.name).toBe(node.name);
        expect(again.headers.map((h) => [h.name, h.value])).toEqual(node.headers.map((h) => [h.name, h.value]));
        const bodyOf = (n: typeof node) =>
          n.body?.kind === 'inline' ? n.body.text : n.body ? `${n.body.path}:${n.body.substitute}` : undefined;
        expect(bodyOf(again)).toEqual(bodyOf(node));
        expect(again.assertions.map((a) => a.source)).toEqual(node.assertions.map((a) => a.source));
        expect(again.tags).toEqual(node.tags);
      }),
      { numRuns: 300 },
    );
  });

  it('any text either parses and round-trips, or fails with a DialError', () => {
    const line = fc.oneof(
      fc.stringMatching(/^[ -~\t]{0,30}$/),
      fc.constantFrom(
        '###',
        '### x',
        'GET http://a',
        '> {%',
        '%}',
        '?? status == 1',
        '< ./f',
        '@a = 1',
        '',
        '# @name q',
        '    ?a=1',
      ),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.constantFrom('\n', '\r\n', '\r'), (lines, eol) => {
        const text = lines.join(eol);
        try {
          const parsed = parseHttpFile(text, 'any.http');
          expect(printHttpFile(parsed)).toBe(text);
          checkSpans(parsed);
        } catch (error) {
          if (!isDialError(error)) throw error;
          expect(error.code).toBe('E_PARSE');
          expect(error.location?.line).toBeGreaterThan(0);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
