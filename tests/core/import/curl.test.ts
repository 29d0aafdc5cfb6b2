import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseCurlCommand, parseCurlCommands } from '../../../src/core/curl/curl.js';
import { importCurl, nameFromUrl } from '../../../src/core/import/curl-import.js';
import { splitBashWords, splitCmdWords, splitShellWords } from '../../../src/core/curl/shell-words.js';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';

const words = (text: string) =>
  splitBashWords(text)
    .filter((word) => !word.operator)
    .map((word) => word.value);

describe('splitBashWords', () => {
  it('handles quotes, escapes and continuations as Bash does', () => {
    expect(words(`curl 'a b' "c \\"d\\" \\$e \\x" f\\ g \\\n  -H x`)).toEqual([
      'curl',
      'a b',
      'c "d" $e \\x',
      'f g',
      '-H',
      'x',
    ]);
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

describe('shell variables', () => {
  it("$NAME and ${NAME}, unquoted or in \"…\", become {{$processEnv NAME}}; '…', \\$ and $'…' stay literal", () => {
    const split = splitBashWords(
      `curl "$BASE/a?x=\${Q}" $HOME/f '$LIT' \\$ESC "\\$ESC2" $'$ANSI' $"$LOC" "cost: $" a$`,
    );
    expect(split.map((word) => word.value)).toEqual([
      'curl',
      '{{$processEnv BASE}}/a?x={{$processEnv Q}}',
      '{{$processEnv HOME}}/f',
      '$LIT',
      '$ESC',
      '$ESC2',
      '$ANSI',
      '{{$processEnv LOC}}',
      'cost: $',
      'a$',
    ]);
    expect(split.map((word) => word.variables ?? [])).toEqual([
      [],
      ['BASE', 'Q'],
      ['HOME'],
      [],
      [],
      [],
      [],
      ['LOC'],
      [],
      [],
    ]);
    expect(split.some((word) => word.kept)).toBe(false);
  });

  it('keeps other expansions as literal text and names them', () => {
    const split = splitBashWords('curl "$(cat t.txt)" `id` $1 ${X:-d} "$$"');
    expect(split.map((word) => word.value)).toEqual(['curl', '$(cat t.txt)', '`id`', '$1', '${X:-d}', '$$']);
    expect(split.flatMap((word) => word.kept ?? [])).toEqual(['$(cat t.txt)', '`id`', '$1', '${X:-d}', '$$']);
  });

  it('parseCurlCommand names each variable in a warning; -u, --data-urlencode and a URL starting with one', () => {
    const parsed = parseCurlCommand(
      `curl "$API/items" -H "Authorization: Bearer \${TOKEN}" -H 'X-Lit: $NOPE' -u "$USER_NAME:$PASS" --data-urlencode "q=$QUERY and more" -G \`whoami\``,
    );
    expect(parsed.request.url).toBe('{{$processEnv API}}/items?q={{$processEnv QUERY}}+and+more');
    expect(parsed.request.headers).toEqual([
      ['Authorization', 'Bearer {{$processEnv TOKEN}}'],
      ['X-Lit', '$NOPE'],
      // Encoded when sent, once the variables are read (the .http Basic convention).
      ['Authorization', 'Basic {{$processEnv USER_NAME}}:{{$processEnv PASS}}'],
    ]);
    expect(parsed.warnings).toEqual([
      ...['API', 'TOKEN', 'USER_NAME', 'PASS', 'QUERY'].map(
        (name) =>
          `$${name}: a shell variable; written as {{$processEnv ${name}}}, which dial reads from its environment when it sends`,
      ),
      '`whoami`: a shell expansion dial cannot do; kept as literal text',
      'several URLs given; only the first ({{$processEnv API}}/items) was imported',
      '--data-urlencode: $QUERY will be sent as is, not URL-encoded as curl would',
    ]);
  });

  it("a file read now (-d @$DIR/x) takes the variable's value now; an unset one is an error", () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'x.txt'), 'from-file');
    const parsed = parseCurlCommand('curl http://x/ -d a=1 -d @$DATA_DIR/x.txt', { env: { DATA_DIR: dir } });
    expect(parsed.request.body).toEqual({ kind: 'text', text: 'a=1&from-file' });
    let caught: unknown;
    try {
      parseCurlCommand('curl http://x/ -d a=1 -d @$DATA_DIR/x.txt', { env: {} });
    } catch (error) {
      caught = error;
    }
    expect(isDialError(caught) && caught.message).toBe(
      '-d @$DATA_DIR/x.txt: the path uses $DATA_DIR, which is not set',
    );
  });

  it('words split by a real shell are already expanded: nothing to convert', () => {
    expect(parseCurlCommand(['curl', 'http://x/$HOME']).request.url).toBe('http://x/$HOME');
  });
});

describe('splitCmdWords (Windows cmd copies)', () => {
  it('reads ^ continuations and ^" quoting', () => {
    const text = 'curl ^"https://x/api?a=1^&b=2^" ^\n  -H ^"accept: */*^" ^\n  --data-raw ^"^{^\\^"a^\\^":1^}^"';
    expect(splitCmdWords(text).map((word) => word.value)).toEqual([
      'curl',
      'https://x/api?a=1&b=2',
      '-H',
      'accept: */*',
      '--data-raw',
      '{"a":1}',
    ]);
    expect(splitShellWords(text).map((word) => word.value)[1]).toBe('https://x/api?a=1&b=2');
  });
});

describe('parseCurlCommand', () => {
  it('maps method, headers and data', () => {
    const { request, warnings } = parseCurlCommand(
      `curl -X PUT https://api.example.com/items/1 -H 'Accept: application/json' -d '{"a":1}' -H 'Content-Type: application/json'`,
    );
    expect(request).toEqual({
      method: 'PUT',
      url: 'https://api.example.com/items/1',
      headers: [
        ['Accept', 'application/json'],
        ['Content-Type', 'application/json'],
      ],
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
    const { request } = parseCurlCommand(
      `curl -G http://x/search?x=1 --data-urlencode 'q=a b&c' --data-urlencode '=é' -d n=2`,
    );
    expect(request).toEqual({
      method: 'GET',
      url: 'http://x/search?x=1&q=a+b%26c&%C3%A9&n=2',
      headers: [],
      body: { kind: 'none' },
    });
  });

  it('--json sets JSON Content-Type and Accept', () => {
    const { request } = parseCurlCommand(`curl --json '{"a":' --json '1}' http://x/`);
    expect(request.body).toEqual({ kind: 'text', text: '{"a":1}' });
    expect(request.headers).toEqual([
      ['Content-Type', 'application/json'],
      ['Accept', 'application/json'],
    ]);
  });

  it('reads @file data: --data-binary keeps a file reference, -d inlines without newlines', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'body.txt'), 'line1\nline2\n');
    expect(parseCurlCommand(`curl http://x/ --data-binary @body.txt`, { cwd: dir }).request.body).toEqual({
      kind: 'file',
      path: 'body.txt',
    });
    expect(parseCurlCommand(`curl http://x/ -d @body.txt -d z=1`, { cwd: dir }).request.body).toEqual({
      kind: 'text',
      text: 'line1line2&z=1',
    });
    expect(parseCurlCommand(`curl http://x/ --data-urlencode name@body.txt`, { cwd: dir }).request.body).toEqual({
      kind: 'text',
      text: 'name=line1%0Aline2%0A',
    });
    expect(() => parseCurlCommand(`curl http://x/ -d @missing.txt -d a=1`, { cwd: dir })).toThrow(
      /cannot read the file/,
    );
  });

  it('maps -F parts (text, file with type and filename, quoted, <file content)', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'note.txt'), 'from a file');
    const { request } = parseCurlCommand(
      `curl http://x/up -F title=Hi -F 'file=@"my;file.png";type=image/png;filename=a.png' -F 'note=<note.txt' --form-string 'raw=@x;y'`,
      { cwd: dir },
    );
    expect(request.method).toBe('POST');
    expect(request.body).toEqual({
      kind: 'multipart',
      parts: [
        { name: 'title', value: 'Hi' },
        { name: 'file', filePath: 'my;file.png', contentType: 'image/png', filename: 'a.png' },
        { name: 'note', value: 'from a file' },
        { name: 'raw', value: '@x;y' },
      ],
    });
  });

  it('maps -u, -b, -A, -e, --oauth2-bearer, -I, --http2, -k, -L, -m, --retry, --url, bundled short flags', () => {
    const parsed = parseCurlCommand(
      `curl -sSLk -u ada:pw -b 'a=1' -b 'b=2' -A agent/1 -e https://ref/ --http2 -m 2.5 --retry 3 --url http://x/me`,
    );
    expect(parsed.request).toEqual({
      method: 'GET',
      url: 'http://x/me',
      httpVersion: '2',
      body: { kind: 'none' },
      headers: [
        ['User-Agent', 'agent/1'],
        ['Referer', 'https://ref/'],
        ['Authorization', `Basic ${Buffer.from('ada:pw').toString('base64')}`],
        ['Cookie', 'a=1; b=2'],
      ],
    });
    expect(parsed).toMatchObject({ insecure: true, followRedirects: true, timeoutMs: 2500, retry: 3, warnings: [] });
    expect(parseCurlCommand(`curl -I http://x/`).request.method).toBe('HEAD');
    expect(parseCurlCommand(`curl -XDELETE -HX-A:1 http://x/`).request).toMatchObject({
      method: 'DELETE',
      headers: [['X-A', '1']],
    });
    expect(parseCurlCommand(`curl --oauth2-bearer tok http://x/`).request.headers).toEqual([
      ['Authorization', 'Bearer tok'],
    ]);
    expect(parseCurlCommand(`curl example.com/a`).request.url).toBe('http://example.com/a');
  });

  it('warns by name about every flag it does not map', () => {
    const { warnings } = parseCurlCommand(
      `curl -v -o out.json --proxy http://p:8080 --max-redirs 3 --frobnicate http://x/ -b cookies.txt`,
    );
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
    expect(parseCurlCommand('curl --digest -u ada:pw http://x/a').request.headers).toEqual([
      ['Authorization', 'Digest ada pw'],
    ]);
    expect(parseCurlCommand(`curl http://x/a?z=1 --url-query 'q=a b' --url-query '+raw=%41'`).request.url).toBe(
      'http://x/a?z=1&q=a+b&raw=%41',
    );
  });

  it('-T uploads a file with PUT', () => {
    expect(parseCurlCommand('curl -T ./a.bin http://x/files/').request).toEqual({
      method: 'PUT',
      url: 'http://x/files/a.bin',
      headers: [],
      body: { kind: 'file', path: './a.bin' },
    });
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
    expect(parsed.map((entry) => [entry.request.url, entry.request.headers])).toEqual([
      ['http://x/a', [['a', '1']]],
      ['http://x/b', [['b', '2']]],
    ]);
    expect(parsed[0].warnings).toEqual([
      `'export T=1' is not a curl command; ignored`,
      `the output piped into 'jq .' is not a curl command; ignored`,
    ]);
    expect(parseCurlCommand('curl http://x/a; curl http://x/b').warnings).toEqual([
      'the text holds 2 curl commands; only the first was used',
    ]);
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
    const result = importCurl(
      `curl -X POST 'https://api.example.com/v1/users?x=1' -H 'Accept: application/json' -H 'Content-Type: application/json' --data-raw '{"name":"Ada"}' -m 5`,
      { cwd: dir, outDir: dir },
    );
    expect(result.files.map((file) => file.path)).toEqual(['users.http']);
    const file = parseHttpFile(result.files[0].content, join(dir, 'users.http'));
    expect(file.requests).toHaveLength(1);
    const node = file.requests[0];
    expect(node).toMatchObject({
      name: 'users',
      method: 'POST',
      url: 'https://api.example.com/v1/users?x=1',
      timeoutMs: 5000,
    });
    expect(node.headers.map((h) => [h.name, h.value])).toEqual([
      ['Accept', 'application/json'],
      ['Content-Type', 'application/json'],
    ]);
    expect(node.body).toMatchObject({ kind: 'inline', text: '{"name":"Ada"}' });
  });

  it('puts a body that cannot be inline (CR, {{, trailing newline) in a side file sent as is', () => {
    const dir = tempDir();
    const result = importCurl(`curl https://x/a -H 'Content-Type: text/plain' --data-raw $'{{not a var}}\\r\\n'`, {
      cwd: dir,
      outDir: dir,
    });
    expect(result.files.map((file) => file.path)).toEqual(['a.http', 'a.a.body.txt']);
    expect(result.files[1].content).toBe('{{not a var}}\r\n');
    const node = parseHttpFile(result.files[0].content, join(dir, 'a.http')).requests[0];
    expect(node.body).toMatchObject({ kind: 'file', path: './a.a.body.txt', substitute: false });
  });

  it('rebases @file paths onto the output folder and writes multipart parts', () => {
    const cwd = tempDir();
    const out = join(cwd, 'out');
    mkdirSync(out);
    const result = importCurl(`curl http://x/upload -F 'title=Report' -F 'doc=@files/r.pdf;type=application/pdf'`, {
      cwd,
      outDir: out,
    });
    const node = parseHttpFile(result.files[0].content, join(out, 'upload.http')).requests[0];
    expect(node.headers.map((h) => [h.name, h.value])).toEqual([
      ['Content-Type', 'multipart/form-data; boundary=WebAppBoundary'],
    ]);
    expect(node.body?.kind === 'inline' && node.body.text).toBe(
      [
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
      ].join('\n'),
    );
  });

  it('an empty -d is a POST without a body (no side file)', () => {
    const dir = tempDir();
    const result = importCurl(`curl -d '' http://x/ping`, { cwd: dir, outDir: dir });
    expect(result.files).toHaveLength(1);
    expect(parseHttpFile(result.files[0].content, 'ping.http').requests[0]).toMatchObject({
      method: 'POST',
      body: undefined,
    });
  });

  it('without -L the request does not follow redirects (# @no-redirect), as curl; with -L it follows (nothing written)', () => {
    const dir = tempDir();
    const request = (command: string) => {
      const { content } = importCurl(command, { cwd: dir, outDir: dir }).files[0];
      return { content, node: parseHttpFile(content, 'r.http').requests[0] };
    };
    const plain = request('curl https://x/a');
    expect(plain.content).toBe('### GET /a\n# @name a\n# @no-redirect\nGET https://x/a\n');
    expect(plain.node.noRedirect).toBe(true);
    for (const command of ['curl -L https://x/a', 'curl --location https://x/a', 'curl -sSL https://x/a']) {
      const followed = request(command);
      expect(followed.content).not.toContain('@no-redirect');
      expect(followed.node.noRedirect).toBe(false);
    }
    expect(request('curl -L --no-location https://x/a').node.noRedirect).toBe(true);
  });

  it('shell variables in the URL, headers and body are read from the environment when sent', () => {
    const dir = tempDir();
    const result = importCurl(
      `curl -L "$BASE/items" -H "Authorization: Bearer $TOKEN" -d "{\\"owner\\":\\"$OWNER\\"}" -H 'Content-Type: application/json'`,
      { cwd: dir, outDir: dir },
    );
    expect(result.files).toHaveLength(1);
    const node = parseHttpFile(result.files[0].content, 'items.http').requests[0];
    expect(node.url).toBe('{{$processEnv BASE}}/items');
    expect(node.headers.map((h) => [h.name, h.value])).toEqual([
      ['Authorization', 'Bearer {{$processEnv TOKEN}}'],
      ['Content-Type', 'application/json'],
    ]);
    // Inline bodies are read with variables.
    expect(node.body).toMatchObject({ kind: 'inline', text: '{"owner":"{{$processEnv OWNER}}"}' });
    expect(result.warnings).toEqual(
      ['BASE', 'TOKEN', 'OWNER'].map(
        (name) =>
          `$${name}: a shell variable; written as {{$processEnv ${name}}}, which dial reads from its environment when it sends`,
      ),
    );
  });

  it('a body with a variable that needs a side file is read with variables (<@); other {{…}} is named', () => {
    const dir = tempDir();
    const result = importCurl(
      `curl -L http://x/t -H 'Content-Type: text/plain' --data-raw $'line\\r\\n'"$NAME"' {{literal}}'`,
      { cwd: dir, outDir: dir },
    );
    expect(result.files.map((file) => file.path)).toEqual(['t.http', 't.t.body.txt']);
    expect(result.files[1].content).toBe('line\r\n{{$processEnv NAME}} {{literal}}');
    expect(parseHttpFile(result.files[0].content, 't.http').requests[0].body).toMatchObject({
      kind: 'file',
      path: './t.t.body.txt',
      substitute: true,
    });
    expect(result.warnings).toContain(
      'the body has shell variables and other {{…}} text, which dial will read as variables too; edit the body before sending',
    );
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
    const result = {
      files: [
        { path: 'a.http', content: 'A', description: '' },
        { path: 'sub/b.http', content: 'B', description: '' },
      ],
      warnings: [],
    };
    writeFileSync(join(dir, 'a.http'), 'old');
    expect(() => writeImport(result, { outDir: dir, force: false })).toThrow(
      /a\.http already exists; nothing was written/,
    );
    expect(existsSync(join(dir, 'sub', 'b.http'))).toBe(false);
    writeImport(result, { outDir: dir, force: true });
    expect(readFileSync(join(dir, 'a.http'), 'utf8')).toBe('A');
    expect(readFileSync(join(dir, 'sub', 'b.http'), 'utf8')).toBe('B');
    expect(() =>
      writeImport(
        { files: [{ path: '../escape.http', content: '', description: '' }], warnings: [] },
        { outDir: dir, force: true },
      ),
    ).toThrow(/outside the output folder/);
    writeFileSync(join(dir, 'blocker'), '');
    let caught: unknown;
    try {
      writeImport(
        { files: [{ path: 'blocker/c.http', content: '', description: '' }], warnings: [] },
        { outDir: dir, force: true },
      );
    } catch (error) {
      caught = error;
    }
    expect(isDialError(caught) && caught.code).toBe('E_IO');
  });
});
