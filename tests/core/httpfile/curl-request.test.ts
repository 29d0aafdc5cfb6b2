// REST Client's cURL requests (a `curl …` command in place of the request line): what dial reads
// from them, what it refuses at the line, and the spans it keeps (src/core/httpfile/curl-request.ts).
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { formatHttpText } from '../../../src/core/format-http/format.js';
import { DialError } from '../../../src/core/errors.js';

function only(text: string) {
  const file = parseHttpFile(text, 'api.http');
  expect(file.requests).toHaveLength(1);
  return file.requests[0];
}

function refusal(text: string): DialError {
  try {
    parseHttpFile(text, 'api.http');
  } catch (error) {
    expect(error).toBeInstanceOf(DialError);
    return error as DialError;
  }
  throw new Error('not refused');
}

const headersOf = (node: ReturnType<typeof only>) => node.headers.map((h) => [h.name, h.value]);

describe('a cURL request', () => {
  it('a bare curl URL is a GET', () => {
    const node = only('curl http://x/dashboard\n');
    expect(node).toMatchObject({ method: 'GET', url: 'http://x/dashboard', curl: true, body: undefined });
    expect(node.headers).toEqual([]);
  });

  it('reads -X, -H and -d over `\\` continuation lines, keeping {{variables}} for send time', () => {
    const text = [
      '@base = http://x',
      '',
      '### create',
      "curl -X PUT '{{base}}/items/{{id}}' \\",
      "  -H 'Content-Type: application/json' \\",
      '  -H "Authorization: Bearer {{token}}" \\',
      `  --data '{"name": "{{$randomInt 1 9}}"}'`,
      '',
      '### next',
      'GET http://x/next',
    ].join('\n');
    const file = parseHttpFile(text, 'api.http');
    expect(file.requests).toHaveLength(2);
    const node = file.requests[0];
    expect(node).toMatchObject({ name: 'create', method: 'PUT', url: '{{base}}/items/{{id}}' });
    expect(headersOf(node)).toEqual([
      ['Content-Type', 'application/json'],
      ['Authorization', 'Bearer {{token}}'],
    ]);
    expect(node.body).toMatchObject({ kind: 'inline', text: '{"name": "{{$randomInt 1 9}}"}' });
    // The request line's span covers the command's four lines; the request ends before `### next`.
    expect(node.requestLineSpan.line).toBe(4);
    expect(text.slice(node.requestLineSpan.start, node.requestLineSpan.end)).toBe(
      text.split('\n').slice(3, 7).join('\n'),
    );
    expect(text.slice(node.span.start, node.span.end)).not.toContain('GET http://x/next');
    expect(file.requests[1].requestLineSpan.line).toBe(10);
  });

  it('-d without -X is a form POST; several -d are joined with &', () => {
    const node = only('curl http://x/login -d user=ada -d "pass={{pw}}"\n');
    expect(node.method).toBe('POST');
    expect(headersOf(node)).toEqual([['Content-Type', 'application/x-www-form-urlencoded']]);
    expect(node.body).toMatchObject({ kind: 'inline', text: 'user=ada&pass={{pw}}' });
  });

  it('-d @file sends the file as it is', () => {
    const node = only("curl -X POST http://x/up -H 'Content-Type: text/plain' --data-binary @./body.txt\n");
    expect(node.body).toMatchObject({ kind: 'file', path: './body.txt', substitute: false });
  });

  it('-u is Basic auth: encoded now, or after substitution when it holds a variable', () => {
    expect(headersOf(only('curl -u ada:secret http://x/\n'))).toEqual([
      ['Authorization', `Basic ${Buffer.from('ada:secret').toString('base64')}`],
    ]);
    expect(headersOf(only('curl --user {{user}}:{{pass}} http://x/\n'))).toEqual([
      ['Authorization', 'Basic {{user}}:{{pass}}'],
    ]);
  });

  it('-I is HEAD, -b a cookie string, -L/-s/--compressed change nothing sent', () => {
    const node = only("curl -sSL --compressed -I -b 'a=1; b=2' http://x/page\n");
    expect(node.method).toBe('HEAD');
    expect(headersOf(node)).toEqual([['Cookie', 'a=1; b=2']]);
  });

  it('-XPOST, --request=patch and an indented -… line without `\\` (REST Client joins the block)', () => {
    expect(only('curl -XPOST http://x/\n').method).toBe('POST');
    const node = only("curl --request=patch http://x/a\n  -H 'X-A: 1'\n");
    expect(node.method).toBe('PATCH');
    expect(headersOf(node)).toEqual([['X-A', '1']]);
  });

  it('a trailing `\\` does not run past the `###` that ends the block', () => {
    const file = parseHttpFile("curl -X PUT http://c -H 'A: 1' \\\n###\nGET http://d\n", 'a.http');
    expect(file.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['PUT http://c', 'GET http://d']);
    expect(file.requests[0].requestLineSpan.line).toBe(1);
  });

  it('a line right under the command that does not continue it is refused at that line', () => {
    const error = refusal('curl http://x/a\nContent-Type: text/plain\n');
    expect(error.message).toContain('does not continue it');
    expect(error.location).toMatchObject({ line: 2, col: 1 });
  });

  it('comments and metadata above it count; handlers and assertions after it too', () => {
    const node = only('# @name get\ncurl http://x/a\n\n?? status == 200\n');
    expect(node.name).toBe('get');
    expect(node.assertions).toHaveLength(1);
  });

  it('is read in every dialect (no other tool gives the line a meaning)', () => {
    for (const dialect of ['jetbrains', 'httpyac', 'kulala', 'rest.nvim'] as const)
      expect(parseHttpFile('curl http://x/a\n', 'a.http', { dialect }).requests[0].curl).toBe(true);
  });

  it('dial fmt leaves a formatted file with a cURL request as it is', () => {
    const text =
      "### c\n# @name c\ncurl -u a:b -X PUT http://x/a \\\n  -H 'A: {{x}}' -d 'b={{x}}'\n\n?? status == 200\n";
    expect(formatHttpText(text, 'a.http')).toBe(text);
  });

  it('dial fmt leaves the command as written', () => {
    const text = "###\ncurl  -X POST http://x/a \\\n    -H 'A:  1'\n";
    expect(formatHttpText(text, 'a.http')).toContain("curl  -X POST http://x/a \\\n    -H 'A:  1'");
  });
});

describe('a cURL request is refused at its line', () => {
  it('at the line and column of the option the refusal names', () => {
    const error = refusal("###\ncurl -X POST http://x/ \\\n  -H 'A: 1' \\\n  --json '{}'\n");
    expect(error.message).toContain('`--json`');
    expect(error.location).toMatchObject({ line: 4, col: 3 });
  });

  it.each([
    ['-k', 'curl -k https://x/'],
    ['-F', "curl -F 'a=1' http://x/"],
    ['--json', `curl --json '{}' http://x/`],
    ['-G', 'curl -G -d a=1 http://x/'],
    ['--data-urlencode', 'curl --data-urlencode a=b c http://x/'],
    ['-A', 'curl -A agent http://x/'],
    ['--max-time', 'curl --max-time 5 http://x/'],
    ['headers from a file', 'curl -H @headers.txt http://x/'],
    ['`-H @{{file}}`', 'curl -H @{{file}} http://x/'],
    ['a cookie file', 'curl -b cookies.txt http://x/'],
    ['sends it empty', "curl -H 'Accept:' http://x/"],
    ['data from standard input', 'curl -d @- http://x/'],
    ['together with other data', 'curl -d @a.json -d b=1 http://x/'],
    ['$TOKEN', 'curl -H "Authorization: Bearer $TOKEN" http://x/'],
    ['more than one command', 'curl http://x/ | jq .'],
    ['no URL', 'curl -X POST'],
    ["unknown method 'FETCH'", 'curl -X FETCH http://x/'],
  ])('%s', (what, command) => {
    const error = refusal(`GET http://x/ok\n\n###\n# a comment\n${command} \\\n  -s\n`);
    expect(error.code).toBe('E_PARSE');
    expect(error.message).toContain(what);
    expect(error.location).toMatchObject({ file: 'api.http', line: 5 });
    expect(error.hint).toBeTruthy();
  });
});
