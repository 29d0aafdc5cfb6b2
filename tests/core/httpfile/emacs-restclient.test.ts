// Files written for Emacs restclient.el (`# -*- restclient -*-` on the first line): `#` lines end
// requests, `:name = value` variables are replaced in the text, and what restclient.el would send
// as written but dial would read is refused at its line (src/core/httpfile/emacs-restclient.ts).
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { formatHttpText } from '../../../src/core/format-http/format.js';
import type { DialError } from '../../../src/core/errors.js';
import { dialErrorThrownBy } from '../../helpers/dial-error.js';

const refusal = (text: string): DialError => dialErrorThrownBy(() => parseHttpFile(text, 'api.http'));

const GRAPHQL = [
  '# -*- restclient -*-',
  '',
  '# Get some tracks',
  'POST http://localhost:8888/graphql',
  'Content-Type: application/json',
  '',
  '{"query": "{tracks {name}}"}',
  '',
  '# Get the schema',
  'POST http://localhost:8888/graphql',
  'Content-Type: application/json',
  '',
  '{"query": "{__schema {types {name}}}"}',
  '',
].join('\n');

describe('Emacs restclient.el files', () => {
  it('a `#` line ends the request above it, as restclient.el reads the file', () => {
    const file = parseHttpFile(GRAPHQL, 'graphql.http');
    expect(
      file.requests.map((r) => [
        r.method,
        r.url,
        r.requestLineSpan.line,
        r.body?.kind === 'inline' ? r.body.text : r.body?.kind,
      ]),
    ).toEqual([
      ['POST', 'http://localhost:8888/graphql', 4, '{"query": "{tracks {name}}"}'],
      ['POST', 'http://localhost:8888/graphql', 10, '{"query": "{__schema {types {name}}}"}'],
    ]);
    expect(file.requests[1].title).toBe('Get the schema');
    const banner = parseHttpFile('# -*- restclient -*-\n#\n# Options for api\n#\nOPTIONS http://x/api\n', 'a.http');
    expect(banner.requests.map((r) => [r.title, r.requestLineSpan.line])).toEqual([['Options for api', 5]]);
    expect(file.warnings ?? []).toEqual([]);
  });

  it('without the mode line the same text is two requests with a warning (a file naming no tool is split at request lines)', () => {
    const file = parseHttpFile(GRAPHQL.replace('# -*- restclient -*-', '# tracks'), 'graphql.http');
    expect(
      file.requests.map((r) => [r.requestLineSpan.line, r.body?.kind === 'inline' ? r.body.text : undefined]),
    ).toEqual([
      [4, '{"query": "{tracks {name}}"}'],
      [10, '{"query": "{__schema {types {name}}}"}'],
    ]);
    expect(file.warnings?.map((w) => w.line)).toEqual([10]);
    // Named JetBrains, the .http tools' reading: one request, the rest its body.
    const jetbrains = parseHttpFile(GRAPHQL.replace('# -*- restclient -*-', '# @dialect jetbrains'), 'graphql.http');
    expect(jetbrains.requests).toHaveLength(1);
    expect(jetbrains.warnings?.[0].line).toBe(10);
  });

  it('replaces `:name` with the value of the variable defined above, longest name first', () => {
    const text = [
      '# -*- mode: restclient; -*-',
      ':host = http://api.test',
      ':hostname = ignored',
      ':token = abc',
      ':auth = Bearer :token',
      '#',
      'GET :host/items?x=:token',
      'Authorization: :auth',
      '#',
      ':token = def',
      'POST :host/items',
      '',
      'id=:token&a=1',
      '',
    ].join('\r\n');
    const file = parseHttpFile(text, 'api.rest');
    expect(file.requests.map((r) => r.url)).toEqual(['http://api.test/items?x=abc', 'http://api.test/items']);
    expect(file.requests[0].headers).toMatchObject([{ name: 'Authorization', value: 'Bearer abc' }]);
    expect(file.requests[1].body).toMatchObject({ kind: 'inline', text: 'id=def&a=1' });
    expect(file.requests[1].requestLineSpan.line).toBe(11);
  });

  it('refuses Elisp and multi-line variables, hooks, and dial constructs restclient.el sends as text', () => {
    const head = '# -*- restclient -*-\n';
    const cases: Array<[string, number, string]> = [
      [':now := (current-time-string)\nGET http://x/\n', 2, 'Emacs Lisp'],
      [':body = <<\n{"a": 1}\n#\n', 2, 'multi-line'],
      ['GET http://x/\n-> jq-set-var :id .id\n', 3, 'hooks'],
      ['GET http://x/{{id}}\n', 2, "'{{'"],
      ['POST http://x/\n\n// note\n', 4, "'//'"],
      ['@id = 1\nGET http://x/\n', 2, "'@id ='"],
      ['GET http://x/\n\n> {% client.log(1) %}\n', 4, "'>'"],
      ['GET http://x/a\n  &b=1\n', 3, "'&'"],
      ['GET http://x/\n:id = 1\n', 3, 'inside a request'],
    ];
    for (const [text, line, words] of cases) {
      const error = refusal(head + text);
      expect(error.code).toBe('E_PARSE');
      expect(error.message).toContain(words);
      expect(error.location).toMatchObject({ file: 'api.http', line, col: 1 });
    }
  });

  it('dial fmt leaves such a file as it is, with a clear error', () => {
    expect(() => formatHttpText(GRAPHQL, 'graphql.http')).toThrow(/restclient\.el file/);
  });
});
