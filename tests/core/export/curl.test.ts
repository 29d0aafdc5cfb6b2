import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { toCurl } from '../../../src/core/export/curl.js';
import { ansiCQuote, shellQuote } from '../../../src/core/export/shell-quote.js';
import { parseCurlCommand } from '../../../src/core/curl/curl.js';
import type { HttpRequest } from '../../../src/core/http/types.js';

const hasBash = spawnSync('bash', ['-c', 'true']).status === 0;

/** What Bash makes of a quoted word (the real shell, when there is one). */
function bashEcho(word: string): string {
  const result = spawnSync('bash', ['-c', `printf '%s' ${word}`], { encoding: 'utf8' });
  return result.stdout;
}

function roundTrip(request: HttpRequest, multiline = true): HttpRequest {
  return parseCurlCommand(toCurl(request, { multiline })).request;
}

describe('shellQuote', () => {
  it('leaves safe words bare and single-quotes the rest', () => {
    expect(shellQuote('PUT')).toBe('PUT');
    expect(shellQuote('a b')).toBe(`'a b'`);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('x', true)).toBe(`'x'`);
  });

  it("uses $'…' only for control characters other than newline and tab", () => {
    expect(shellQuote('a\nb\tc', true)).toBe(`'a\nb\tc'`);
    expect(shellQuote('a\rb')).toBe(`$'a\\rb'`);
    expect(ansiCQuote("x'\\\x01")).toBe(`$'x\\'\\\\\\x01'`);
  });

  it.runIf(hasBash)('round-trips through the real Bash', () => {
    for (const value of [
      "it's",
      'a "b" $HOME `x` \\n',
      'line1\nline2',
      'cr\r\nlf',
      'esc\x1b[0m',
      'ünï ☃',
      '!history',
    ]) {
      expect(bashEcho(shellQuote(value, true))).toBe(value);
    }
  });
});

describe('toCurl', () => {
  it('prints a GET with headers one flag per line', () => {
    const command = toCurl({
      method: 'GET',
      url: 'https://api.example.com/items?a=1&b=2',
      headers: [['Accept', 'application/json']],
      body: { kind: 'none' },
    });
    expect(command).toBe(`curl 'https://api.example.com/items?a=1&b=2' \\\n  -H 'Accept: application/json'`);
  });

  it('prints everything on one line when multiline is false', () => {
    const command = toCurl(
      { method: 'DELETE', url: 'http://x/1', headers: [], body: { kind: 'none' } },
      { multiline: false, insecure: true },
    );
    expect(command).toBe(`curl -X DELETE 'http://x/1' -k`);
  });

  it('omits the method when curl implies it and states it otherwise', () => {
    const body = { kind: 'text' as const, text: '{"a":1}' };
    const headers: [string, string][] = [['Content-Type', 'application/json']];
    expect(toCurl({ method: 'POST', url: 'http://x/', headers, body })).not.toContain('-X');
    expect(toCurl({ method: 'PUT', url: 'http://x/', headers, body })).toContain('-X PUT');
    expect(toCurl({ method: 'GET', url: 'http://x/', headers, body })).toContain('-X GET');
    expect(toCurl({ method: 'HEAD', url: 'http://x/', headers: [], body: { kind: 'none' } })).toContain('--head');
    expect(toCurl({ method: 'POST', url: 'http://x/', headers: [], body: { kind: 'none' } })).toContain('-X POST');
  });

  it('writes bodies as --data-raw, --data-binary @file and -F', () => {
    expect(
      toCurl({
        method: 'POST',
        url: 'http://x/',
        headers: [['Content-Type', 'text/plain']],
        body: { kind: 'text', text: "it's" },
      }),
    ).toContain(`--data-raw 'it'\\''s'`);
    const file = toCurl({ method: 'POST', url: 'http://x/', headers: [], body: { kind: 'file', path: './body.json' } });
    expect(file).toContain(`--data-binary '@./body.json'`);
    expect(file).toContain(`-H 'Content-Type: application/json'`);
    const multipart = toCurl({
      method: 'POST',
      url: 'http://x/',
      headers: [],
      body: {
        kind: 'multipart',
        parts: [
          { name: 'title', value: 'hello' },
          { name: 'note', value: 'a;b' },
          { name: 'avatar', filePath: './me.png', contentType: 'image/png' },
          { name: 'doc', filePath: './my file;1.txt', filename: 'doc.txt' },
        ],
      },
    });
    expect(multipart).toContain(`-F 'title=hello'`);
    expect(multipart).toContain(`--form-string 'note=a;b'`);
    expect(multipart).toContain(`-F 'avatar=@./me.png;type=image/png'`);
    expect(multipart).toContain(`-F 'doc=@"./my file;1.txt";filename=doc.txt'`);
    expect(multipart).not.toContain('Content-Type:');
  });

  it('turns off the form Content-Type curl adds when the request has none', () => {
    expect(toCurl({ method: 'POST', url: 'http://x/', headers: [], body: { kind: 'text', text: 'raw' } })).toContain(
      `-H 'Content-Type:'`,
    );
  });

  it('adds --http2, -k, -g for brackets, and sends empty headers with ;', () => {
    const command = toCurl(
      {
        method: 'GET',
        url: 'http://x/?filter[a]=1',
        headers: [['X-Empty', '']],
        body: { kind: 'none' },
        httpVersion: '2',
      },
      { insecure: true },
    );
    expect(command).toContain('--http2');
    expect(command).toContain('-k');
    expect(command).toContain(`-g 'http://x/?filter[a]=1'`);
    expect(command).toContain(`-H 'X-Empty;'`);
  });

  it('reads an expanded multipart body (a .http multipart) back into -F parts', () => {
    const body =
      '--B\r\nContent-Disposition: form-data; name="title"\r\n\r\nHi; there\r\n' +
      '--B\r\nContent-Disposition: form-data; name="doc"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nx,y\n1,2\r\n--B--\r\n';
    const request: HttpRequest = {
      method: 'POST',
      url: 'http://x/up',
      headers: [
        ['Content-Type', 'multipart/form-data; boundary=B'],
        ['X-A', '1'],
      ],
      body: { kind: 'bytes', bytes: Buffer.from(body) },
    };
    const command = toCurl(request);
    expect(command).toBe(
      `curl 'http://x/up' \\\n  -H 'X-A: 1' \\\n  --form-string 'title=Hi; there' \\\n  -F 'doc="x,y\n1,2";type=text/csv;filename=a.csv'`,
    );
    expect(parseCurlCommand(command).request.body).toEqual({
      kind: 'multipart',
      parts: [
        { name: 'title', value: 'Hi; there' },
        { name: 'doc', value: 'x,y\n1,2', contentType: 'text/csv', filename: 'a.csv' },
      ],
    });
    // Binary parts stay bytes.
    const binary = Buffer.concat([
      Buffer.from('--B\r\nContent-Disposition: form-data; name="f"\r\n\r\n'),
      Buffer.from([0, 0xff]),
      Buffer.from('\r\n--B--\r\n'),
    ]);
    expect(toCurl({ ...request, body: { kind: 'bytes', bytes: binary } })).toContain("--data-binary @<(printf -- '--B");
  });

  it('writes binary bodies with NUL bytes through printf', () => {
    const command = toCurl({
      method: 'POST',
      url: 'http://x/',
      headers: [['Content-Type', 'application/octet-stream']],
      body: { kind: 'bytes', bytes: new Uint8Array([0, 1, 0x41, 0x25, 0x27, 0xff]) },
    });
    expect(command).toContain(`--data-binary @<(printf -- '\\x00\\x01A%%'\\''\\xff')`);
  });
});

describe.runIf(hasBash)('printf bodies in the real Bash', () => {
  it('give back every byte', () => {
    const bytes = Buffer.from([...Array(256).keys()]);
    const command = toCurl({
      method: 'POST',
      url: 'http://x/',
      headers: [['Content-Type', 'application/octet-stream']],
      body: { kind: 'bytes', bytes },
    });
    const substitution = /@(<\(printf -- '.*'\))$/s.exec(command)![1];
    const result = spawnSync('bash', ['-c', `cat ${substitution}`]);
    expect(Buffer.compare(result.stdout, bytes)).toBe(0);
  });
});

describe('toCurl output parses back to the same request', () => {
  const cases: HttpRequest[] = [
    {
      method: 'GET',
      url: 'https://api.example.com/items?q=a%20b&x=1',
      headers: [
        ['Accept', 'application/json'],
        ['X-Quote', `it's "quoted"`],
      ],
      body: { kind: 'none' },
    },
    {
      method: 'POST',
      url: 'http://127.0.0.1:8080/users',
      headers: [['Content-Type', 'application/json']],
      body: { kind: 'text', text: '{\n  "name": "O\'Brien",\n  "tags": ["a", "b"]\n}' },
    },
    {
      method: 'PATCH',
      url: 'http://x/a',
      headers: [['Content-Type', 'text/plain']],
      body: { kind: 'text', text: 'bell\x07 and cr\r\n' },
    },
    {
      method: 'PUT',
      url: 'http://x/upload',
      headers: [['Content-Type', 'application/octet-stream']],
      body: { kind: 'file', path: './data.bin' },
    },
    {
      method: 'POST',
      url: 'http://x/form',
      headers: [],
      body: {
        kind: 'multipart',
        parts: [
          { name: 'title', value: 'hello world' },
          { name: 'semi', value: 'a;b "c"' },
          { name: 'typed', value: 'x;y', contentType: 'text/csv' },
          { name: 'file', filePath: './a b.png', contentType: 'image/png', filename: 'photo.png' },
        ],
      },
    },
    {
      method: 'OPTIONS',
      url: 'http://x/',
      headers: [['Origin', 'http://y']],
      body: { kind: 'none' },
      httpVersion: '2',
    },
    { method: 'GET', url: 'http://x/?a[0]=1', headers: [['X-Empty', '']], body: { kind: 'none' } },
  ];
  for (const [index, request] of cases.entries()) {
    it(`case ${index + 1}: ${request.method} ${request.url}`, () => {
      expect(roundTrip(request)).toEqual(request);
      expect(roundTrip(request, false)).toEqual(request);
    });
  }

  it('prints digest credentials as --digest -u, which parse back to the Digest convention', () => {
    const command = toCurl(
      { method: 'GET', url: 'http://x/', headers: [], body: { kind: 'none' } },
      { digest: { username: 'ada', password: "p w'd" } },
    );
    expect(command).toBe(`curl 'http://x/' \\\n  --digest \\\n  -u 'ada:p w'\\''d'`);
    expect(parseCurlCommand(command).request.headers).toEqual([['Authorization', "Digest ada p w'd"]]);
  });

  it('keeps -k as insecure', () => {
    const parsed = parseCurlCommand(
      toCurl({ method: 'GET', url: 'https://x/', headers: [], body: { kind: 'none' } }, { insecure: true }),
    );
    expect(parsed.insecure).toBe(true);
    expect(parsed.warnings).toEqual([]);
  });

  it('followRedirects adds -L (read back as following), and only then', () => {
    const request: HttpRequest = { method: 'PUT', url: 'http://x/a', headers: [], body: { kind: 'none' } };
    const command = toCurl(request, { followRedirects: true, multiline: false });
    expect(command).toBe(`curl -L -X PUT 'http://x/a'`);
    expect(parseCurlCommand(command).followRedirects).toBe(true);
    expect(parseCurlCommand(command).request).toEqual(request);
    expect(toCurl(request, { followRedirects: false })).not.toContain('-L');
    expect(toCurl(request)).not.toContain('-L');
  });

  it('keepInUrl: those texts stay as written while the rest of the URL is normalised (and -g stops curl globbing them)', () => {
    const kept = '{{login.response.body.$.id}}';
    const command = toCurl(
      { method: 'GET', url: `http://Example.com/a b/${kept}/x?q=${kept}&r=1 2`, headers: [], body: { kind: 'none' } },
      { keepInUrl: [kept] },
    );
    expect(command).toBe(`curl -g 'http://example.com/a%20b/${kept}/x?q=${kept}&r=1%202'`);
    // Without it, the braces are percent-encoded as the engine would send them.
    expect(toCurl({ method: 'GET', url: `http://x/${kept}`, headers: [], body: { kind: 'none' } })).toContain(
      '/%7B%7Blogin.response.body.$.id%7D%7D',
    );
  });
});

describe('toCurl transport options', () => {
  const get: HttpRequest = { method: 'GET', url: 'https://h/x', headers: [], body: { kind: 'none' } };

  it('maps proxy, time limits, redirect limit and TLS files to curl flags, quoted', () => {
    const lines = toCurl(get, {
      followRedirects: true,
      insecure: true,
      proxy: 'http://u:p w@proxy:3128',
      timeoutMs: 30_000,
      connectTimeoutMs: 250,
      maxRedirects: 0,
      caFile: "/ca's.pem",
      certFile: 'C:cert.pem',
      keyFile: '/k.pem',
    }).split(' \\\n  ');
    expect(lines).toEqual([
      "curl -L 'https://h/x'",
      '-k',
      "--cacert '/ca'\\''s.pem'",
      "--cert 'C\\:cert.pem'",
      "--key '/k.pem'",
      "-x 'http://u:p w@proxy:3128'",
      '--max-time 30',
      '--connect-timeout 0.25',
      '--max-redirs 0',
    ]);
  });

  it('leaves out what curl does anyway: no limit, 50 redirects, --max-redirs without -L', () => {
    expect(toCurl(get, { timeoutMs: 0, followRedirects: true, maxRedirects: 50 })).toBe("curl -L 'https://h/x'");
    expect(toCurl(get, { maxRedirects: 3 })).toBe("curl 'https://h/x'");
    expect(toCurl({ ...get, httpVersion: '2' }, { multiline: false })).toBe("curl 'https://h/x' --http2");
  });
});
