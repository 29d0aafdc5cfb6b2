// REST Client's cURL requests (a `curl …` command in place of the request line): what dial reads
// from them, what it refuses at the line, and the spans it keeps (src/core/httpfile/curl-request.ts).
import { describe, expect, it } from 'vitest';
import { parseHttpFile, refuseUnreadableRequests } from '../../../src/core/httpfile/index.js';
import { formatHttpText } from '../../../src/core/format-http/format.js';
import type { DialError } from '../../../src/core/errors.js';
import { dialErrorThrownBy } from '../../helpers/dial-error.js';

function only(text: string) {
  const file = parseHttpFile(text, 'api.http');
  expect(file.requests).toHaveLength(1);
  return file.requests[0];
}

// A refused cURL request stops that request only (RequestNode.refused); whole-file readers throw it.
const refusal = (text: string): DialError =>
  dialErrorThrownBy(() => refuseUnreadableRequests(parseHttpFile(text, 'api.http')));

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

  it('a header given twice is one header, joined with `,` (Cookie with `;`) under its first spelling', () => {
    const node = only("curl http://x/ -H 'X-A: 1' -H 'x-a:  2 ' -H 'Cookie: a=1' -H 'cookie: b=2' -H 'B: 3'\n");
    expect(headersOf(node)).toEqual([
      ['X-A', '1,2'],
      ['Cookie', 'a=1;b=2'],
      ['B', '3'],
    ]);
    // -b and -u set the header REST Client spells Cookie / Authorization, over one written alike.
    expect(headersOf(only("curl http://x/ -H 'Cookie: a=1' -b 'c=3' -u a:b\n"))).toEqual([
      ['Cookie', 'c=3'],
      ['Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ]);
  });

  it("-d '' is no body: a GET without Content-Type (REST Client tests the body for being empty)", () => {
    const node = only("curl http://x/ -d ''\n");
    expect(node.method).toBe('GET');
    expect(node.headers).toEqual([]);
    expect(node.body).toBeUndefined();
    expect(only("curl -X POST http://x/ --data ''\n")).toMatchObject({ method: 'POST', body: undefined });
  });

  it('runs of white space in a value are one space, as REST Client collapses them before reading', () => {
    const node = only(`curl http://x/ -H 'X-A: a   b' -d '{"a":    1}'\n`);
    expect(headersOf(node)[0]).toEqual(['X-A', 'a b']);
    expect(node.body).toMatchObject({ text: '{"a": 1}' });
  });

  it('a data value REST Client reads as a number is sent as that number', () => {
    expect(only('curl http://x/ -d 1.50\n').body).toMatchObject({ text: '1.5' });
    expect(only('curl http://x/ -d 007\n').body).toMatchObject({ text: '007' });
  });

  it('-d @file is looked for in the workspace root first (REST Client), then beside the .http file', () => {
    expect(only('curl http://x/ -d @data/a.json\n').body).toMatchObject({
      kind: 'file',
      path: 'data/a.json',
      rootFirst: true,
    });
  });

  it('-L or --compressed right before the URL is fine when REST Client takes the URL back from it', () => {
    expect(only('curl -L http://x/a\n').url).toBe('http://x/a');
    expect(only('curl -sSL http://x/a\n').url).toBe('http://x/a');
    expect(only('curl -X GET --compressed http://x/a\n').url).toBe('http://x/a');
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

  it('a -… line under a line that ends in blanks continues the command; with no blank it is refused', () => {
    // REST Client merges the blanks and the line break into one space; a bare line break glues the
    // two lines into one word (a broken URL), which dial refuses at the line.
    const node = only("curl -X POST 'http://x/a' \n-H 'X-A: 1' \t\n-d 'k=v'\n");
    expect(node.method).toBe('POST');
    expect(headersOf(node)).toEqual([
      ['X-A', '1'],
      ['Content-Type', 'application/x-www-form-urlencoded'],
    ]);
    expect(node.body).toMatchObject({ kind: 'inline', text: 'k=v' });
    const error = refusal("curl -X POST 'http://x/a'\n-H 'X-A: 1'\n");
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
    ['`-d` together with `--data`', 'curl http://x/ -d a=1 --data b=2'],
    ['`-H` together with `--header`', "curl http://x/ -H 'A: 1' --header 'B: 2'"],
    ['`-X` given twice', 'curl -X POST -X PUT http://x/'],
    ['`-X` together with `-I`', 'curl -X POST -I http://x/'],
    ['GET; curl sends HEAD', 'curl -sIL http://x/'],
    ['finds no URL there', 'curl -X POST -s http://x/'],
    ['finds no URL there', 'curl --verbose http://x/'],
    ['reads `-L` as the URL', 'curl -L --compressed http://x/'],
    ['more options', 'curl -dfoo http://x/'],
    ['as an option, not as the value', 'curl -H -x http://x/'],
    ['a second URL', 'curl http://x/a http://x/b'],
    ['a header without a colon', "curl -H 'X-A' http://x/"],
    ['sends both', "curl -H 'authorization: x' -u a:b http://x/"],
  ])('%s', (what, command) => {
    const error = refusal(`GET http://x/ok\n\n###\n# a comment\n${command} \\\n  -s\n`);
    expect(error.code).toBe('E_PARSE');
    expect(error.message).toContain(what);
    expect(error.location).toMatchObject({ file: 'api.http', line: 5 });
    expect(error.hint).toBeTruthy();
  });
});

// Sixteenth held-out sweep: a FastAPI project's test.http held Swagger UI's curl command as pasted,
// its `-d '{` JSON running over five lines with no `\`. A shell reads the quoted lines as one
// argument; REST Client reads the block as one text, drops `\` + line break, and turns each run of
// two or more blanks into one space, inside the quotes too.
describe('a cURL argument quoted over several lines', () => {
  it('is one argument: the lines inside the quote belong to it, blank runs collapsed as REST Client does', () => {
    const text = [
      "curl -X 'POST' \\",
      "  'http://x/user/' \\",
      "  -H 'Content-Type: application/json' \\",
      "  -d '{",
      '  "username": "string",',
      '  "email": "user@example.com"',
      "}'",
      '',
      '###',
      'GET http://x/next',
    ].join('\n');
    const file = parseHttpFile(text, 'test.http');
    expect(file.requests).toHaveLength(2);
    const [node] = file.requests;
    expect(node).toMatchObject({ method: 'POST', url: 'http://x/user/' });
    // `{` + line break + two blanks is one space; the lone line break before `}` stays.
    expect(node.body).toMatchObject({
      kind: 'inline',
      text: '{ "username": "string", "email": "user@example.com"\n}',
    });
    expect(node.requestLineSpan.line).toBe(1);
    expect(text.slice(node.requestLineSpan.start, node.requestLineSpan.end)).toBe(
      text.split('\n').slice(0, 7).join('\n'),
    );
    expect(file.requests[1].url).toBe('http://x/next');
  });

  it('a double-quoted argument may hold single quotes over its lines', () => {
    const node = only(`curl http://x/ -d "{\n  'a': 1\n}"\n`);
    expect(node.body).toMatchObject({ kind: 'inline', text: "{ 'a': 1\n}" });
  });

  it('a blank line inside the quote does not end the command (its two line breaks are one space)', () => {
    const node = only("curl http://x/ -d 'a\n\nb'\n");
    expect(node.body).toMatchObject({ kind: 'inline', text: 'a b' });
  });

  it('a quote still open at `###` is refused at the command, naming its quotes', () => {
    const error = refusal('curl http://x/ -d \'{\n  "a": 1\n###\nGET http://x/\n');
    expect(error.location?.line).toBe(1);
    expect(error.hint).toContain('quotes');
  });

  it('a line under the closing quote that does not continue the command is still refused at its line', () => {
    const error = refusal("curl http://x/ -d '{\n}'\nnot an option\n");
    expect(error.location?.line).toBe(3);
  });
});

// Twenty-first held-out sweep: a `.rest` file held `curl '…' HTTP/1.1` (the request line's version
// word pasted after the URL) and `curl curl '…'`. REST Client's curlRequestParser takes the first
// word after `curl` as the URL and drops the others, so it sends the first request; for the second
// its URL is `curl`, which it cannot send. dial refused the whole file at the first.
describe('a cURL request refused or warned: that request only', () => {
  it('`HTTP/1.1` after the URL is dropped, as REST Client drops it, with a warning at its line', () => {
    const file = parseHttpFile("###\ncurl 'http://x/a?b=1' HTTP/1.1\n###\nGET http://x/next\n", 'test.rest');
    expect(file.requests.map((r) => [r.method, r.url, r.refused])).toEqual([
      ['GET', 'http://x/a?b=1', undefined],
      ['GET', 'http://x/next', undefined],
    ]);
    expect(file.warnings).toHaveLength(1);
    expect(file.warnings?.[0]).toMatchObject({ line: 2 });
    expect(file.warnings?.[0]?.message).toContain('`HTTP/1.1` after the URL of a curl command');
  });

  it.each(['HTTP/2', 'http/1.0'])('`%s` likewise; a word that is not a version is still a second URL', (word) => {
    expect(only(`curl -X POST http://x/a ${word} -d a=1\n`)).toMatchObject({ method: 'POST', url: 'http://x/a' });
    const file = parseHttpFile(`curl http://x/a HTTP/1.1x\n`, 'api.http');
    expect(file.requests[0].refused?.message).toContain('a second URL');
  });

  it('`curl curl URL` is refused at its line, the file’s other requests kept', () => {
    const text = "GET http://x/first\n\n###\ncurl curl 'http://x/b'\n\n###\nGET http://x/last\n";
    const file = parseHttpFile(text, 'test.rest');
    expect(file.requests.map((r) => [r.url, r.refused?.line])).toEqual([
      ['http://x/first', undefined],
      ["curl curl 'http://x/b'", 4],
      ['http://x/last', undefined],
    ]);
    expect(file.requests[1].refused?.message).toContain('written twice');
  });

  it('any refused cURL request stops that request only; lines under it up to `###` are not read', () => {
    const text = 'curl -k http://x/a\n\nPOST http://x/not-read\n\n###\nGET http://x/b\n';
    const file = parseHttpFile(text, 'api.http');
    expect(file.requests).toHaveLength(2);
    expect(file.requests[0].refused).toMatchObject({ line: 1, col: 6 });
    expect(file.requests[0].refused?.message).toContain('`-k`');
    expect(file.requests[1]).toMatchObject({ url: 'http://x/b' });
    expect(file.requests[1].refused).toBeUndefined();
  });
});
