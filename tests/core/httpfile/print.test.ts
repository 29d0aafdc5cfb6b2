import { describe, expect, it } from 'vitest';
import {
  draftFromNode,
  formatRequest,
  insertRequestText,
  parseHttpFile,
  printHttpFile,
  removeRequestText,
  replaceRequestText,
  replaceSpan,
} from '../../../src/core/httpfile/index.js';

const FILE = `@host = http://127.0.0.1:4010

### Log in
# @name login
POST {{host}}/login
Content-Type: application/json

{"user": "ada"}

?? status == 200


### List
GET {{host}}/widgets   
Accept: */*

###   trailing   
`;

describe('printHttpFile', () => {
  it('returns the same bytes for an unedited file', () => {
    expect(printHttpFile(parseHttpFile(FILE, 'a.http'))).toBe(FILE);
  });
});

describe('formatRequest', () => {
  it('prints the canonical style', () => {
    const text = formatRequest({
      title: 'Create widget',
      name: 'create',
      method: 'POST',
      url: '{{host}}/widgets',
      httpVersion: 'HTTP/2',
      variables: [{ name: 'id', value: '7' }],
      metadata: [{ key: 'tag', value: 'smoke' }, { key: 'no-redirect' }],
      preScripts: [{ kind: 'inline', code: 'request.variables.set("a", "1")' }],
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      body: '{"name": "w"}\n\n',
      assertions: ['status == 201', '?? body $.id exists'],
      handlers: [
        { kind: 'inline', code: '\n  client.global.set("id", response.body.id);\n' },
        { kind: 'file', path: './h.js' },
      ],
      outputRedirect: { path: './out.json', overwrite: true },
    });
    expect(text).toBe(`### Create widget
@id = 7
# @name create
# @tag smoke
# @no-redirect
< {% request.variables.set("a", "1") %}
POST {{host}}/widgets HTTP/2
Content-Type: application/json

{"name": "w"}

?? status == 201
?? body $.id exists
> {%
  client.global.set("id", response.body.id);
%}
> ./h.js
>>! ./out.json
`);
  });

  it('prints a minimal request and a file body', () => {
    expect(formatRequest({ url: 'http://a' })).toBe('###\nGET http://a\n');
    expect(formatRequest({ url: 'http://a', methodExplicit: false })).toBe('###\nhttp://a\n');
    expect(
      formatRequest({
        name: 'up',
        method: 'PUT',
        url: 'http://a',
        body: { kind: 'file', path: './b.json', substitute: true },
      }),
    ).toBe('### up\n# @name up\nPUT http://a\n\n<@ ./b.json\n');
  });

  it('reprints a parsed request into an equivalent one', () => {
    const file = parseHttpFile(FILE, '');
    const again = parseHttpFile(formatRequest(draftFromNode(file.requests[0])), '').requests[0];
    const original = file.requests[0];
    for (const key of ['name', 'title', 'method', 'url', 'tags'] as const) expect(again[key]).toEqual(original[key]);
    expect(again.body).toMatchObject({ text: '{"user": "ada"}' });
    expect(again.assertions.map((a) => a.source)).toEqual(['status == 200']);
  });
});

describe('surgical edits', () => {
  it('replaceRequestText changes only that request and keeps the blank lines after it', () => {
    const file = parseHttpFile(FILE, '');
    const edited = replaceRequestText(
      file,
      0,
      formatRequest({ name: 'login', title: 'Log in', method: 'POST', url: '{{host}}/v2/login' }),
    );
    const expected = FILE.replace(
      /### Log in[\s\S]*?\?\? status == 200/,
      '### Log in\n# @name login\nPOST {{host}}/v2/login',
    );
    expect(edited).toBe(expected);
    const reparsed = parseHttpFile(edited, '');
    expect(reparsed.requests.map((r) => r.url)).toEqual(['{{host}}/v2/login', '{{host}}/widgets']);
    // the last request (with trailing spaces on its URL line) is untouched
    expect(edited.endsWith('GET {{host}}/widgets   \nAccept: */*\n\n###   trailing   \n')).toBe(true);
  });

  it('keeps CRLF files CRLF', () => {
    const text = '### a\r\nGET http://a\r\n\r\n### b\r\nGET http://b\r\n';
    const edited = replaceRequestText(parseHttpFile(text, ''), 1, '### b\nGET http://c\n');
    expect(edited).toBe('### a\r\nGET http://a\r\n\r\n### b\r\nGET http://c\r\n');
  });

  it('replaceSpan edits one header', () => {
    const file = parseHttpFile(FILE, '');
    const header = file.requests[1].headers[0];
    expect(replaceSpan(file, header.span, 'Accept: application/json')).toBe(
      FILE.replace('Accept: */*', 'Accept: application/json'),
    );
  });

  it('insertRequestText appends with a blank line, or inserts before a request', () => {
    const file = parseHttpFile('### a\nGET http://a\n', '');
    expect(insertRequestText(file, '### b\nGET http://b\n')).toBe('### a\nGET http://a\n\n### b\nGET http://b\n');
    expect(insertRequestText(file, '### z\nGET http://z', 0)).toBe('### z\nGET http://z\n\n### a\nGET http://a\n');
    expect(insertRequestText(parseHttpFile('', ''), '### b\nGET http://b')).toBe('### b\nGET http://b\n');
  });

  it('removeRequestText drops the block', () => {
    const file = parseHttpFile('### a\nGET http://a\n\n### b\nGET http://b\n', '');
    expect(removeRequestText(file, 0)).toBe('### b\nGET http://b\n');
  });
});

describe('surgical edits keep every other byte', () => {
  it('keeps trailing spaces, mixed line endings and comments of other blocks', () => {
    const text = '### a\r\nGET http://a   \r\n\r\n### b\nGET http://b\n# comment\r\n\n### c\r\nGET http://c\r\n';
    const file = parseHttpFile(text, '');
    const edited = replaceRequestText(file, 1, '### b\nPOST http://b2\n');
    expect(edited).toBe('### a\r\nGET http://a   \r\n\r\n### b\r\nPOST http://b2\r\n\n### c\r\nGET http://c\r\n');
    // a block edited as text (CR kept) goes in exactly as given
    const asText = text.slice(file.requests[1].span.start, file.requests[1].span.end).replace('GET', 'PUT');
    expect(replaceRequestText(file, 1, asText)).toBe(text.replace('GET http://b', 'PUT http://b'));
  });
});
