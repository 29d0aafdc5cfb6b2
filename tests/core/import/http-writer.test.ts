import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  commentLine,
  fitsInline,
  renderHttpFile,
  slugify,
  uniqueName,
  type ImportDraft,
} from '../../../src/core/import/http-writer.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';

const draft = (body: ImportDraft['body'], extra: Partial<ImportDraft> = {}): ImportDraft => ({
  name: 'req',
  comments: [],
  metadata: [],
  method: 'POST',
  url: 'http://x/',
  headers: [{ name: 'Content-Type', value: 'text/plain' }],
  body,
  ...extra,
});

describe('.http writer', () => {
  it('slugify, uniqueName and commentLine', () => {
    expect(slugify('Get Customer (v2) — Ünïcode')).toBe('get-customer-v2-unicode');
    expect(slugify('orderItems GraphQL')).toBe('order-items-graphql');
    expect(slugify('!!!')).toBe('request');
    const used = new Set<string>();
    expect([uniqueName('a', used), uniqueName('a', used), uniqueName('A', used)]).toEqual(['a', 'a-2', 'A-3']);
    expect(commentLine('@name not metadata')).toBe('# \\@name not metadata');
    expect(commentLine('')).toBe('#');
  });

  it('fitsInline refuses what the parser would read differently', () => {
    expect(fitsInline('{"a": 1}')).toBe(true);
    expect(fitsInline('a\n\nb')).toBe(true);
    for (const text of [
      '',
      ' lead',
      'trail\n',
      'a\r\nb',
      '< ./file',
      '# only a comment',
      'x\n### y',
      'x\n?? status == 200',
      'x\n> {% %}',
      'bell\x07',
      'a\n<> ./prev.json',
    ]) {
      expect([text, fitsInline(text)]).toEqual([text, false]);
    }
  });

  it('any body comes back byte for byte: inline, or in a side file', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(
            'a',
            ' ',
            '\n',
            '\r',
            '#',
            '<',
            '>',
            '?',
            '{',
            '}',
            '@',
            '-',
            '\t',
            'é',
            '/',
            '%',
            '=',
            ':',
            '*',
            '!',
          ),
          minLength: 1,
          maxLength: 40,
        }),
        fc.boolean(),
        (text, substitute) => {
          const { text: http, sideFiles } = renderHttpFile([draft({ kind: 'text', text, substitute })], {
            filePath: 'dir/f.http',
          });
          const node = parseHttpFile(http, 'dir/f.http').requests[0];
          if (node.body?.kind === 'inline') {
            expect(sideFiles).toEqual([]);
            expect(node.body.text).toBe(text);
          } else {
            expect(node.body).toMatchObject({ kind: 'file', path: './f.req.body.txt' });
            expect(sideFiles).toEqual([{ path: 'dir/f.req.body.txt', content: text, description: 'body of req' }]);
            // Sent as is unless it is meant to hold variables.
            expect(node.body?.kind === 'file' && node.body.substitute).toBe(substitute && text.includes('{{'));
          }
        },
      ),
      // Found by this test: a line opening an httpyac `{{ }}` block or a `/* */` comment.
      {
        numRuns: 2000,
        examples: [
          ['{{@', true],
          ['a\n/*', false],
        ],
      },
    );
  });

  it('writes comments under the separator, block variables, metadata and HTTP/2', () => {
    const { text } = renderHttpFile(
      [
        draft(
          { kind: 'none' },
          {
            title: 'T',
            comments: ['line one', '@x'],
            variables: [{ name: 'id', value: '7' }],
            metadata: [{ key: 'tag', value: 'a b' }],
            httpVersion: '2',
            method: 'get',
          },
        ),
      ],
      { filePath: 'f.http', preamble: ['Top'] },
    );
    expect(text).toBe(
      '# Top\n\n### T\n# line one\n# \\@x\n@id = 7\n# @name req\n# @tag a b\nGET http://x/ HTTP/2\nContent-Type: text/plain\n',
    );
    const node = parseHttpFile(text, 'f.http').requests[0];
    expect(node).toMatchObject({ name: 'req', title: 'T', tags: ['a', 'b'], httpVersion: 'HTTP/2', method: 'GET' });
  });
});
