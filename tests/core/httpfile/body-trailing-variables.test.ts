// `@name = value` lines after a body (set off by a blank line, before the next `###`), as in
// davidfowl/TodoApi's Requests/todo.http: dial ends the body before them and reads them as file
// variables, with a warning (REST Client reads them as file variables too, but also sends them as
// body text: its request range drops only trailing blank and comment lines). Never sent as body text.
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';

const FILE = [
  'POST http://x/users/token',
  'Content-Type: application/json',
  '',
  '{',
  '  "username": "me"',
  '}',
  '',
  '# paste the token below',
  '@token = <put JWT token here>',
  '',
  '### Create a todo',
  'POST http://x/todos',
  'Authorization: Bearer {{token}}',
  '',
].join('\n');

describe('variables after a body', () => {
  it('end the body and become file variables, with a warning at their line', () => {
    const file = parseHttpFile(FILE, 'todo.http');
    const [first, second] = file.requests;
    expect(first.body).toMatchObject({ kind: 'inline', text: '{\n  "username": "me"\n}' });
    expect(file.variables.map((v) => [v.name, v.value])).toEqual([['token', '<put JWT token here>']]);
    expect(second.headers[0].value).toBe('Bearer {{token}}');
    expect(file.warnings).toEqual([
      expect.objectContaining({ line: 9, message: expect.stringContaining('@token after the body') }),
    ]);
  });

  it('a variable-looking line inside the body text (no blank line before it) stays body', () => {
    const text = 'POST http://x/\nContent-Type: text/plain\n\nhello\n@a = b\n';
    const file = parseHttpFile(text, 'p.http');
    expect(file.requests[0].body).toMatchObject({ text: 'hello\n@a = b' });
    expect(file.variables).toEqual([]);
  });

  it('a body that is only variables is still no body (unchanged)', () => {
    const file = parseHttpFile('GET http://x/\n\n@a = b\n', 'p.http');
    expect(file.requests[0].body).toBeUndefined();
    expect(file.variables.map((v) => v.name)).toEqual(['a']);
  });
});

// Whole-line comments inside a body (jasontaylordev/CleanArchitecture's Web.http writes
// `// CreateTodoListCommand` above the JSON): the JetBrains format reads them as comments, REST
// Client and Visual Studio drop them, so the server gets plain JSON.
describe('comment lines inside a body', () => {
  const text = [
    'POST http://x/api/TodoLists',
    'Content-Type: application/json',
    '',
    '// CreateTodoListCommand',
    '{',
    '  # "ignored": true,',
    '  "Title": "Backlog" // kept: not a whole line',
    '}',
    '',
  ].join('\n');

  it('are not sent', () => {
    const [request] = parseHttpFile(text, 'Web.http').requests;
    expect(request.body).toMatchObject({ text: '{\n  "Title": "Backlog" // kept: not a whole line\n}' });
  });

  // httpyac runs its metadata/comment parsers before the body parser on every line
  // (parseMetaData matches /^\s*(#+|\/{2})/), so the same lines are not sent there either.
  it('are not sent in the httpyac dialect either', () => {
    const [request] = parseHttpFile(`# @dialect httpyac\n${text}`, 'Web.http').requests;
    expect(request.body).toMatchObject({ text: '{\n  "Title": "Backlog" // kept: not a whole line\n}' });
  });
});

// httpyac's `/*` … `*/` comments (commentHttpRegionParser: `/*` and `*/` on lines of their own)
// stand anywhere, also right under the headers and inside or after a body (roXtra/PublicAPI's
// Introduction.http documents each request with them).
describe('httpyac /* */ comments after the request line', () => {
  it('end the headers and are not sent', () => {
    const text = [
      '# @dialect httpyac',
      'GET http://x/a',
      'Accept: application/json',
      '/*',
      '## Next step',
      'You can either edit the [sample.env](./env/sample.env) file.',
      '### not a separator inside the comment',
      '*/',
      '###',
      'POST http://x/b',
      '',
      '{"a": 1,',
      '/*',
      'a note',
      '*/',
      '"b": 2}',
      '/*',
      'trailing',
      '*/',
    ].join('\n');
    const [first, second] = parseHttpFile(text, 'Introduction.http').requests;
    expect(first.headers.map((h) => h.name)).toEqual(['Accept']);
    expect(first.body).toBeUndefined();
    expect(second.body).toMatchObject({ text: '{"a": 1,\n"b": 2}' });
  });

  it('stay body text in the other dialects', () => {
    const [request] = parseHttpFile(
      '# @dialect jetbrains\nPOST http://x/b\n\n/*\nnot a comment\n*/\n',
      'b.http',
    ).requests;
    expect(request.body).toMatchObject({ text: '/*\nnot a comment\n*/' });
  });
});

// JetBrains' documentation annotates multipart parts with `// …` lines; they are comments.
describe('comment lines inside a multipart body', () => {
  it('are not part of any part', () => {
    const text = [
      'POST http://x/api/upload',
      'Content-Type: multipart/form-data; boundary=boundary',
      '',
      '--boundary',
      'Content-Disposition: form-data; name="second"; filename="input-second.txt"',
      '',
      "// A temporary 'input-second.txt' file with the 'Text' content will be uploaded",
      'Text',
      '--boundary--',
      '',
    ].join('\n');
    const [request] = parseHttpFile(text, 'mp.http').requests;
    expect(request.body).toMatchObject({ kind: 'inline', text: expect.not.stringContaining('temporary') });
    expect(request.body).toMatchObject({ text: expect.stringContaining('\n\nText\n--boundary--') });
  });
});

// A section comment after a body (`# User Routes` before the next `###`), or a handler commented
// out below it, is not body text: REST Client trims trailing comment lines off a request.
describe('comment lines after a body', () => {
  it('end the body', () => {
    const text =
      'POST http://x/sign-up\nContent-Type: application/json\n\n{\n  "a": 1\n}\n\n\n# User Routes\n\n### next\nGET http://x/users\n';
    const [first] = parseHttpFile(text, 'api.http').requests;
    expect(first.body).toMatchObject({ text: '{\n  "a": 1\n}' });
    const commented = 'POST http://x/login\n\n{"a": 1}\n\n# > {%\n#     client.log(1);\n# %}\n';
    expect(parseHttpFile(commented, 'api.http').requests[0].body).toMatchObject({ text: '{"a": 1}' });
  });
});

// 4ks-io's api.http: a second request line after the first request's blank lines, no `###`
// between them. JetBrains and REST Client send it as the body; dial does too, and says so.
describe('a request line as the first line of a body', () => {
  it('is body text, with a warning naming its line', () => {
    const file = parseHttpFile(
      '# @dialect jetbrains\nGET http://x/a\ncontent-type: application/json\n\n\nPOST http://x/b HTTP/1.1\n\n{"a": 1}\n',
      'api.http',
    );
    expect(file.requests).toHaveLength(1);
    expect(file.requests[0].body).toMatchObject({ text: 'POST http://x/b HTTP/1.1\n\n{"a": 1}' });
    expect(file.warnings?.map((w) => w.line)).toEqual([6]);
  });
});
