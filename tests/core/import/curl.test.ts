import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCurlCommand, parseCurlCommands } from '../../../src/core/import/curl.js';
import { importCurl, nameFromUrl } from '../../../src/core/import/curl-import.js';
import { splitBashWords, splitCmdWords, splitShellWords } from '../../../src/core/import/shell-words.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';

const words = (text: string) => splitBashWords(text).filter((word) => !word.operator).map((word) => word.value);

describe('splitBashWords', () => {
  it('handles quotes, escapes and continuations as Bash does', () => {
    expect(words(`curl 'a b' "c \\"d\\" \\$e \\x" f\\ g \\\n  -H x`)).toEqual(['curl', 'a b', 'c "d" $e \\x', 'f g', '-H', 'x']);
    expect(words(`a'b'"c"$'d\\ne'`)).toEqual(['abcd\ne']);
    expect(words(`$'\\x41\\101\\u00e9\\'\\t\\cA'`)).toEqual(["AAé'\t\x01"]);
    expect(words(`curl x # a comment\n-d y`)).toEqual(['curl', 'x', '-d', 'y']);
    expect(words(`curl x \\\r\n -k`)).toEqual(['curl', 'x', '-k']);
  });

  it('names the place of an unterminated quote', () => {
    let caught: unknown;
    try {
      words(`curl -H 'a: b' \\\n  -d 'x`);
    } catch (error) {
      caught = error;
    }
    expect(isDialError(caught) && caught.code).toBe('E_IMPORT');
    expect(isDialError(caught) && caught.location).toMatchObject({ line: 2, col: 6 });
  });
});

describe('splitCmdWords (Windows cmd copies)', () => {
  it('reads ^ continuations and ^" quoting', () => {
    const text = 'curl ^"https://x/api?a=1^&b=2^" ^\n  -H ^"accept: */*^" ^\n  --data-raw ^"^{^\\^"a^\\^":1^}^"';
    expect(splitCmdWords(text).map((word) => word.value)).toEqual(['curl', 'https://x/api?a=1&b=2', '-H', 'accept: */*', '--data-raw', '{"a":1}']);
    expect(splitShellWords(text).map((word) => word.value)[1]).toBe('https://x/api?a=1&b=2');
  });
});

describe('parseCurlCommand', () => {
  it('maps method, headers and data', () => {
    const { request, warnings } = parseCurlCommand(`curl -X PUT https://api.example.com/items/1 -H 'Accept: application/json' -d '{"a":1}' -H 'Content-Type: application/json'`);
    expect(request).toEqual({
      method: 'PUT', url: 'https://api.example.com/items/1',
      headers: [['Accept', 'application/json'], ['Content-Type', 'application/json']],
      body: { kind: 'text', text: '{"a":1}' },
    });
    expect(warnings).toEqual([]);
  });

  it('joins several -d with & and adds the form Content-Type curl sends', () => {
    const { request } = parseCurlCommand(`curl http://x/ -d a=1 --data b=2 --data-raw '@c'`);
    expect(request.method).toBe('POST');
    expect(request.body).toEqual({ kind: 'text', text: 'a=1&b=2&@c' });
    expect(request.headers).toEqual([['Content-Type', 'application/x-www-form-urlencoded']]);
  });

  it('--data-urlencode encodes like curl, -G moves data to the query', () => {
    const { request } = parseCurlCommand(`curl -G http://x/search?x=1 --data-urlencode 'q=a b&c' --data-urlencode '=é' -d n=2`);
    expect(request).toEqual({ method: 'GET', url: 'http://x/search?x=1&q=a+b%26c&%C3%A9&n=2', headers: [], body: { kind: 'none' } });
  });

  it('--json sets JSON Content-Type and Accept', () => {
    const { request } = parseCurlCommand(`curl --json '{"a":' --json '1}' http://x/`);
    expect(request.body).toEqual({ kind: 'text', text: '{"a":1}' });
    expect(request.headers).toEqual([['Content-Type', 'application/json'], ['Accept', 'application/json']]);
  });

  it('reads @file data: --data-binary keeps a file reference, -d inlines without newlines', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'body.txt'), 'line1\nline2\n');
    expect(parseCurlCommand(`curl http://x/ --data-binary @body.txt`, { cwd: dir }).request.body).toEqual({ kind: 'file', path: 'body.txt' });
    expect(parseCurlCommand(`curl http://x/ -d @body.txt -d z=1`, { cwd: dir }).request.body).toEqual({ kind: 'text', text: 'line1line2&z=1' });
    expect(parseCurlCommand(`curl http://x/ --data-urlencode name@body.txt`, { cwd: dir }).request.body).toEqual({ kind: 'text', text: 'name=line1%0Aline2%0A' });
    expect(() => parseCurlCommand(`curl http://x/ -d @missing.txt -d a=1`, { cwd: dir })).toThrow(/cannot read the file/);
  });

  it('maps -F parts (text, file with type and filename, quoted, <file content)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'note.txt'), 'from a file');
    const { request } = parseCurlCommand(`curl http://x/up -F title=Hi -F 'file=@"my;file.png";type=image/png;filename=a.png' -F 'note=<note.txt' --form-string 'raw=@x;y'`, { cwd: dir });
    expect(request.method).toBe('POST');
    expect(request.body).toEqual({ kind: 'multipart', parts: [
      { name: 'title', value: 'Hi' },
      { name: 'file', filePath: 'my;file.png', contentType: 'image/png', filename: 'a.png' },
      { name: 'note', value: 'from a file' },
      { name: 'raw', value: '@x;y' },
    ] });
  });

  it('maps -u, -b, -A, -e, --oauth2-bearer, -I, --http2, -k, -L, -m, --retry, --url, bundled short flags', () => {
    const parsed = parseCurlCommand(`curl -sSLk -u ada:pw -b 'a=1' -b 'b=2' -A agent/1 -e https://ref/ --http2 -m 2.5 --retry 3 --url http://x/me`);
    expect(parsed.request).toEqual({
      method: 'GET', url: 'http://x/me', httpVersion: '2', body: { kind: 'none' },
      headers: [['User-Agent', 'agent/1'], ['Referer', 'https://ref/'], ['Authorization', `Basic ${Buffer.from('ada:pw').toString('base64')}`], ['Cookie', 'a=1; b=2']],
    });
    expect(parsed).toMatchObject({ insecure: true, followRedirects: true, timeoutMs: 2500, retry: 3, warnings: [] });
    expect(parseCurlCommand(`curl -I http://x/`).request.method).toBe('HEAD');
    expect(parseCurlCommand(`curl -XDELETE -HX-A:1 http://x/`).request).toMatchObject({ method: 'DELETE', headers: [['X-A', '1']] });
    expect(parseCurlCommand(`curl --oauth2-bearer tok http://x/`).request.headers).toEqual([['Authorization', 'Bearer tok']]);
    expect(parseCurlCommand(`curl example.com/a`).request.url).toBe('http://example.com/a');
  });

  it('warns by name about every flag it does not map', () => {
    const { warnings } = parseCurlCommand(`curl -v -o out.json --proxy http://p:8080 --max-redirs 3 --frobnicate http://x/ -b cookies.txt`);
    expect(warnings.join('\n')).toMatch(/-v: an output option/);
    expect(warnings.join('\n')).toMatch(/-o out\.json: an output option/);
    expect(warnings.join('\n')).toMatch(/--proxy http:\/\/p:8080: not supported/);
    expect(warnings.join('\n')).toMatch(/--max-redirs 3: not supported/);
    expect(warnings.join('\n')).toMatch(/--frobnicate: not supported/);
    expect(warnings.join('\n')).toMatch(/-b cookies\.txt/);
    expect(warnings).toHaveLength(6);
  });

  it('refuses what is not a curl command, or has no URL', () => {
    expect(() => parseCurlCommand('wget http://x/')).toThrow(/not a curl command/);
    expect(() => parseCurlCommand('curl -H a:b')).toThrow(/no URL/);
    expect(() => parseCurlCommand('curl http://x -H')).toThrow(/-H needs a value/);
  });

  it('--digest -u becomes the Digest convention; --url-query adds to the query', () => {
    expect(parseCurlCommand('curl --digest -u ada:pw http://x/a').request.headers).toEqual([['Authorization', 'Digest ada pw']]);
    expect(parseCurlCommand(`curl http://x/a?z=1 --url-query 'q=a b' --url-query '+raw=%41'`).request.url).toBe('http://x/a?z=1&q=a+b&raw=%41');
  });

  it('-T uploads a file with PUT', () => {
    expect(parseCurlCommand('curl -T ./a.bin http://x/files/').request).toEqual({ method: 'PUT', url: 'http://x/files/a.bin', headers: [], body: { kind: 'file', path: './a.bin' } });
  });
});

describe('several commands', () => {
  it('reads browsers\' "Copy all as cURL" (commands joined with ;) into one file, a request each', () => {
    const dir = tempDir();
    const text = `curl 'https://app.example.com/api/me' -H 'accept: */*' ;\ncurl 'https://app.example.com/api/orders' -H 'accept: */*' --data-raw '{"a":1}' ;\ncurl 'https://app.example.com/api/me' -H 'x: 1'`;
    const result = importCurl(text, { cwd: dir, outDir: dir });
    expect(result.files[0]).toMatchObject({ path: 'me.http', description: '3 requests' });
    const nodes = parseHttpFile(result.files[0].content, 'me.http').requests;
    expect(nodes.map((node) => [node.name, node.method, node.url])).toEqual([
      ['me', 'GET', 'https://app.example.com/api/me'],
      ['orders', 'POST', 'https://app.example.com/api/orders'],
      ['me-2', 'GET', 'https://app.example.com/api/me'],
    ]);
  });

  it('splits at && and at a new line starting with curl; names what is not curl', () => {
    const parsed = parseCurlCommands(`export T=1 && curl http://x/a -H 'a: 1'\ncurl http://x/b \n  -H 'b: 2' | jq .`);
    expect(parsed.map((entry) => [entry.request.url, entry.request.headers])).toEqual([['http://x/a', [['a', '1']]], ['http://x/b', [['b', '2']]]]);
    expect(parsed[0].warnings).toEqual([`'export T=1' is not a curl command; ignored`, `the output piped into 'jq .' is not a curl command; ignored`]);
    expect(parseCurlCommand('curl http://x/a; curl http://x/b').warnings).toEqual(['the text holds 2 curl commands; only the first was used']);
    // Unquoted & ends the command in Bash, as it would in the shell.
    expect(parseCurlCommand('curl http://x/?a=1&b=2').request.url).toBe('http://x/?a=1');
  });
});

describe('importCurl', () => {
  it('names the request after the URL path', () => {
    expect(nameFromUrl('https://api.example.com/v1/users/42')).toBe('users');
    expect(nameFromUrl('https://api.example.com/v1/orderItems?x=1')).toBe('order-items');
    expect(nameFromUrl('https://www.example.com/')).toBe('example');
  });

  it('writes a .http file that the parser reads back to the same request', () => {
    const dir = tempDir();
    const result = importCurl(`curl -X POST 'https://api.example.com/v1/users?x=1' -H 'Accept: application/json' -H 'Content-Type: application/json' --data-raw '{"name":"Ada"}' -m 5`, { cwd: dir, outDir: dir });
    expect(result.files.map((file) => file.path)).toEqual(['users.http']);
    const file = parseHttpFile(result.files[0].content, join(dir, 'users.http'));
    expect(file.requests).toHaveLength(1);
    const node = file.requests[0];
    expect(node).toMatchObject({ name: 'users', method: 'POST', url: 'https://api.example.com/v1/users?x=1', timeoutMs: 5000 });
    expect(node.headers.map((h) => [h.name, h.value])).toEqual([['Accept', 'application/json'], ['Content-Type', 'application/json']]);
    expect(node.body).toMatchObject({ kind: 'inline', text: '{"name":"Ada"}' });
  });

  it('puts a body that cannot be inline (CR, {{, trailing newline) in a side file sent as is', () => {
    const dir = tempDir();
    const result = importCurl(`curl https://x/a -H 'Content-Type: text/plain' --data-raw $'{{not a var}}\\r\\n'`, { cwd: dir, outDir: dir });
    expect(result.files.map((file) => file.path)).toEqual(['a.http', 'a.a.body.txt']);
    expect(result.files[1].content).toBe('{{not a var}}\r\n');
    const node = parseHttpFile(result.files[0].content, join(dir, 'a.http')).requests[0];
    expect(node.body).toMatchObject({ kind: 'file', path: './a.a.body.txt', substitute: false });
  });

  it('rebases @file paths onto the output folder and writes multipart parts', () => {
    const cwd = tempDir();
    const out = join(cwd, 'out');
    mkdirSync(out);
    const result = importCurl(`curl http://x/upload -F 'title=Report' -F 'doc=@files/r.pdf;type=application/pdf'`, { cwd, outDir: out });
    const node = parseHttpFile(result.files[0].content, join(out, 'upload.http')).requests[0];
    expect(node.headers.map((h) => [h.name, h.value])).toEqual([['Content-Type', 'multipart/form-data; boundary=WebAppBoundary']]);
    expect(node.body?.kind === 'inline' && node.body.text).toBe([
      '--WebAppBoundary',
      'Content-Disposition: form-data; name="title"',
      '',
      'Report',
      '--WebAppBoundary',
      'Content-Disposition: form-data; name="doc"; filename="r.pdf"',
      'Content-Type: application/pdf',
      '',
      '< ../files/r.pdf',
      '--WebAppBoundary--',
    ].join('\n'));
  });

  it('an empty -d is a POST without a body (no side file)', () => {
    const dir = tempDir();
    const result = importCurl(`curl -d '' http://x/ping`, { cwd: dir, outDir: dir });
    expect(result.files).toHaveLength(1);
    expect(parseHttpFile(result.files[0].content, 'ping.http').requests[0]).toMatchObject({ method: 'POST', body: undefined });
  });

  it('keeps -k as a comment and a warning', () => {
    const dir = tempDir();
    const result = importCurl('curl -k https://self-signed.local/health', { cwd: dir, outDir: dir });
    expect(result.warnings.join('\n')).toMatch(/-k\/--insecure/);
    expect(result.files[0].content).toMatch(/^# curl -k: TLS verification was off/m);
  });
});

describe('writeImport', () => {
  it('writes atomically, refuses existing targets before writing anything, and maps I/O errors', async () => {
    const { writeImport } = await import('../../../src/core/import/output.js');
    const { existsSync, readFileSync } = await import('node:fs');
    const dir = tempDir();
    const result = { files: [{ path: 'a.http', content: 'A', description: '' }, { path: 'sub/b.http', content: 'B', description: '' }], warnings: [] };
    writeFileSync(join(dir, 'a.http'), 'old');
    expect(() => writeImport(result, { outDir: dir, force: false })).toThrow(/a\.http already exists; nothing was written/);
    expect(existsSync(join(dir, 'sub', 'b.http'))).toBe(false);
    writeImport(result, { outDir: dir, force: true });
    expect(readFileSync(join(dir, 'a.http'), 'utf8')).toBe('A');
    expect(readFileSync(join(dir, 'sub', 'b.http'), 'utf8')).toBe('B');
    expect(() => writeImport({ files: [{ path: '../escape.http', content: '', description: '' }], warnings: [] }, { outDir: dir, force: true })).toThrow(/outside the output folder/);
    writeFileSync(join(dir, 'blocker'), '');
    let caught: unknown;
    try {
      writeImport({ files: [{ path: 'blocker/c.http', content: '', description: '' }], warnings: [] }, { outDir: dir, force: true });
    } catch (error) {
      caught = error;
    }
    expect(isDialError(caught) && caught.code).toBe('E_IO');
  });
});
