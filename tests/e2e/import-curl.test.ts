/**
 * `dial import curl` end to end: each fixture command is imported by the built CLI, the
 * generated request is sent with `dial send FILE#name` to a recording loopback server, and what the server received is
 * checked against what the command describes — and, when curl is installed, against what the
 * real curl sends for the same command. Then the round trip: the request exported back to
 * curl (`dial export curl`) sends the same request as the original command.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest } from '../helpers/servers.js';
import { parseCurlCommand } from '../../src/core/curl/curl.js';
import { sendRequest } from '../../src/core/http/index.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/import/curl');
const hasCurl = spawnSync('curl', ['--version']).status === 0 && spawnSync('bash', ['-c', 'true']).status === 0;

let server: Awaited<ReturnType<typeof startRecordingServer>>;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
});

interface Expected {
  name: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | RegExp;
  warnings?: RegExp[];
}

const EXPECTED: Record<string, Expected> = {
  '01-get-query.sh': {
    name: 'users',
    method: 'GET',
    url: '/api/v1/users?limit=10&sort=-created',
    headers: { accept: 'application/json' },
    body: '',
  },
  '02-post-json.sh': {
    name: 'users',
    method: 'POST',
    url: '/api/v1/users',
    headers: { 'content-type': 'application/json', authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig' },
    body: '{"name":"Ada Lovelace","email":"ada@example.com","roles":["admin"]}',
  },
  '03-json-flag.sh': {
    name: 'posts',
    method: 'POST',
    url: '/posts',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{"title":"Hello","draft":true}',
  },
  '04-multipart.sh': {
    name: 'upload',
    method: 'POST',
    url: '/upload',
    headers: {},
    body: /name="title"\r\n\r\nQuarterly report\r\n.*name="attachment"; filename="upload\.txt"\r\nContent-Type: text\/plain\r\n\r\nThis file is uploaded\.\nSecond line\.\n\r\n.*name="meta"\r\nContent-Type: application\/json\r\n\r\n\{"year":2026\}\r\n/s,
  },
  '05-get-urlencode.sh': {
    name: 'search',
    method: 'GET',
    url: '/search?q=hello+world+%26+more&page=2&per_page=50',
    headers: {},
    body: '',
  },
  '06-auth-cookies.sh': {
    name: 'me',
    method: 'GET',
    url: '/me',
    headers: {
      authorization: `Basic ${Buffer.from('ada:s3cr3t p@ss').toString('base64')}`,
      'user-agent': 'dial-test/1.0',
      referer: 'https://ref.example/page',
      cookie: 'session=abc123; theme=dark',
    },
  },
  '07-patch-ansi-multi-data.sh': {
    name: 'items',
    method: 'PATCH',
    url: '/items/42',
    headers: { 'x-note': 'tab\there', 'content-type': 'application/x-www-form-urlencoded' },
    body: 'status=done&note=it%27s+ok',
    warnings: [/--max-redirs 5: not supported/, /-k\/--insecure/],
  },
  '08-chrome.sh': {
    name: 'orders',
    method: 'POST',
    url: '/api/v2/orders?include=items',
    headers: {
      accept: 'application/json, text/plain, */*',
      'content-type': 'application/json',
      cookie: '_ga=GA1.1.1234567890.1700000000; session_id=s%3Aabc.def',
      'sec-ch-ua': '"Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"',
      'sec-ch-ua-platform': '"macOS"',
      priority: 'u=1, i',
      'user-agent':
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
    },
    body: `{"note":"it's urgent","items":[{"sku":"A-1","qty":2}]}`,
  },
  '09-firefox.sh': {
    name: 'orders',
    method: 'PUT',
    url: '/api/v2/orders/17',
    headers: {
      'content-type': 'application/json',
      cookie: 'session_id=abc123',
      te: 'trailers',
      'accept-language': 'en-US,en;q=0.5',
      origin: 'https://app.example.com',
    },
    body: '{"status":"shipped","tracking":"1Z999"}',
  },
  '10-data-binary-file.sh': {
    name: 'docs',
    method: 'PUT',
    url: '/docs/7',
    headers: { 'content-type': 'application/json' },
    body: readFileSync(join(FIXTURES, 'payload.json'), 'utf8'),
  },
  '11-chrome-cmd.txt': {
    name: 'search',
    method: 'POST',
    url: '/api/v2/search?q=a&page=1',
    headers: { accept: '*/*', 'content-type': 'application/json' },
    body: '{"term":"shoes"}',
  },
};

function command(fixture: string): string {
  return readFileSync(join(FIXTURES, fixture), 'utf8').replaceAll('__BASE__', server.url);
}

/** Runs a Bash command line (a real curl) and returns what the server received. */
async function viaRealCurl(line: string, env?: Record<string, string>): Promise<RecordedRequest> {
  const before = server.requests.length;
  await new Promise<void>((done, fail) => {
    const child = spawn('bash', ['-c', `${line.trim()} -s -o /dev/null`], {
      cwd: FIXTURES,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => (code === 0 ? done() : fail(new Error(`curl exited ${code}: ${stderr}`))));
  });
  expect(server.requests.length).toBe(before + 1);
  return server.requests[before];
}

/** Sends the imported request with `dial send FILE#name` (the built CLI) and returns what the server received. */
async function viaDial(dir: string, name: string): Promise<RecordedRequest> {
  const before = server.requests.length;
  const result = await runCli(['send', `${name}.http#${name}`], { cwd: dir });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  expect(server.requests.length).toBe(before + 1);
  return server.requests[before];
}

/** What curl sends on its own, or varies with the boundary: left out unless the command set it. */
const DEFAULT_HEADERS = new Set([
  'host',
  'user-agent',
  'accept',
  'accept-encoding',
  'connection',
  'content-length',
  'expect',
]);

function normalize(
  request: RecordedRequest,
  explicit: Set<string>,
): { method: string; url: string; headers: Record<string, string>; body: string } {
  const type = String(request.headers['content-type'] ?? '');
  const boundary = /boundary=([^;]+)/.exec(type)?.[1];
  let body = request.body.toString('utf8');
  if (boundary) body = body.split(boundary).join('BOUNDARY');
  const headers: Record<string, string> = {};
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i].toLowerCase();
    if (DEFAULT_HEADERS.has(name) && !explicit.has(name)) continue;
    headers[name] =
      boundary && name === 'content-type'
        ? request.rawHeaders[i + 1].split(boundary).join('BOUNDARY')
        : request.rawHeaders[i + 1];
  }
  return { method: request.method, url: request.url, headers, body };
}

function explicitHeaders(line: string): Set<string> {
  return new Set(parseCurlCommand(line, { cwd: FIXTURES }).request.headers.map(([name]) => name.toLowerCase()));
}

describe('dial import curl: fixtures sent to a real server', () => {
  it('has the ten fixture commands and a cmd copy', () => {
    expect(
      readdirSync(FIXTURES)
        .filter((name) => /^\d\d-/.test(name))
        .sort(),
    ).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [fixture, expected] of Object.entries(EXPECTED)) {
    it(`${fixture}: imports, sends what the command describes${hasCurl && fixture.endsWith('.sh') ? ', same as real curl' : ''}`, async () => {
      const out = tempDir('dial-import-curl-');
      const result = await runCli(['import', 'curl', '-', '-o', out], { cwd: FIXTURES, input: command(fixture) });
      expect(result.stderr.split('\n').filter(Boolean).length).toBe(expected.warnings?.length ?? 0);
      for (const warning of expected.warnings ?? []) expect(result.stderr).toMatch(warning);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`${expected.name}.http (1 request)`);

      const received = await viaDial(out, expected.name);
      expect(received.method).toBe(expected.method);
      expect(received.url).toBe(expected.url);
      for (const [name, value] of Object.entries(expected.headers))
        expect([name, received.headers[name]]).toEqual([name, value]);
      if (typeof expected.body === 'string') expect(received.body.toString('utf8')).toBe(expected.body);
      else if (expected.body) expect(received.body.toString('utf8')).toMatch(expected.body);

      if (hasCurl && fixture.endsWith('.sh')) {
        const line = command(fixture);
        const explicit = explicitHeaders(line);
        const real = await viaRealCurl(line);
        expect(normalize(received, explicit)).toEqual(normalize(real, explicit));
      }
    });
  }
});

describe('round trip: import curl, then export curl', () => {
  for (const fixture of Object.keys(EXPECTED).filter((name) => name.endsWith('.sh'))) {
    it(`${fixture}: the exported command sends the same request as the original`, async () => {
      const out = tempDir('dial-roundtrip-');
      const imported = await runCli(['import', 'curl', '-', '-o', out], { cwd: FIXTURES, input: command(fixture) });
      expect(imported.code).toBe(0);
      const name = EXPECTED[fixture].name;
      const exportedRun = await runCli(['export', 'curl', `${name}.http#${name}`], { cwd: out });
      expect(exportedRun.stderr).toBe('');
      expect(exportedRun.code).toBe(0);
      const exported = exportedRun.stdout;
      const original = command(fixture);
      const explicit = explicitHeaders(original);
      if (hasCurl) {
        const sentByOriginal = await viaRealCurl(original);
        const sentByExport = await viaRealCurl(exported);
        expect(normalize(sentByExport, explicit)).toEqual(normalize(sentByOriginal, explicit));
      } else {
        // Without curl: both commands parsed by dial's importer and sent by the engine.
        const send = async (line: string) => {
          const before = server.requests.length;
          await sendRequest(parseCurlCommand(line, { cwd: FIXTURES }).request, {});
          return server.requests[before];
        };
        expect(normalize(await send(exported), explicit)).toEqual(normalize(await send(original), explicit));
      }
    });
  }
});

describe('dial import curl: command line forms', () => {
  it('-o - prints the .http text; words after -- are the command; unmapped flags are warnings on stderr', async () => {
    const printed = await runCli([
      'import',
      'curl',
      `curl -v -X DELETE 'http://127.0.0.1:1/items/9' -H 'X-A: 1'`,
      '-o',
      '-',
    ]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(
      '### DELETE /items/9\n# @name items\n# @no-redirect\nDELETE http://127.0.0.1:1/items/9\nX-A: 1\n',
    );
    expect(printed.stderr).toBe('warning: -v: an output option of curl; ignored (the request is unchanged)\n');

    const out = tempDir('dial-import-argv-');
    const argv = await runCli([
      'import',
      'curl',
      '-o',
      out,
      '--',
      '-X',
      'POST',
      'http://127.0.0.1:1/notes',
      '-d',
      'text=hi there',
    ]);
    expect(argv.code).toBe(0);
    expect(argv.stdout).toBe(`wrote ${join(out, 'notes.http')} (1 request)\n`);
    expect(readFileSync(join(out, 'notes.http'), 'utf8')).toContain(
      'POST http://127.0.0.1:1/notes\nContent-Type: application/x-www-form-urlencoded\n\ntext=hi there\n',
    );
  });

  it('refuses to overwrite (exit 3, E_EXISTS) unless --force; not curl or no URL is exit 3 E_IMPORT', async () => {
    const out = tempDir('dial-import-exists-');
    expect((await runCli(['import', 'curl', 'curl http://127.0.0.1:1/a', '-o', out])).code).toBe(0);
    const again = await runCli(['import', 'curl', 'curl -X POST http://127.0.0.1:1/a', '-o', out]);
    expect(again.code).toBe(3);
    expect(again.stderr).toMatch(/^error\[E_EXISTS\]: .*a\.http already exists; nothing was written/);
    expect(readFileSync(join(out, 'a.http'), 'utf8')).toContain('GET http://127.0.0.1:1/a');
    expect((await runCli(['import', 'curl', 'curl -X POST http://127.0.0.1:1/a', '-o', out, '--force'])).code).toBe(0);
    expect(readFileSync(join(out, 'a.http'), 'utf8')).toContain('POST http://127.0.0.1:1/a');

    const wget = await runCli(['import', 'curl', 'wget http://x/', '-o', out]);
    expect(wget.code).toBe(3);
    expect(wget.stderr).toMatch(/^error\[E_IMPORT\]: not a curl command \(it starts with 'wget'\)/);
    const quote = await runCli(['import', 'curl', "curl 'http://x/", '-o', out]);
    expect(quote.code).toBe(3);
    expect(quote.stderr).toMatch(/^error\[E_IMPORT\] <curl>:1:6: unterminated single-quoted string/);
  });
});

describe('dial import curl: what curl does that a .http file must be told', () => {
  it('without -L the imported request stops at a redirect, as curl does; with -L it follows', async () => {
    const redirecting = await startRecordingServer((request, response) => {
      if (request.url === '/start') {
        response.writeHead(302, { location: '/target' });
        response.end();
      } else {
        response.end('arrived');
      }
    });
    try {
      for (const [flags, expected] of [
        ['', ['/start']],
        ['-L ', ['/start', '/target']],
      ] as const) {
        const out = tempDir('dial-import-redirect-');
        const imported = await runCli(['import', 'curl', `curl ${flags}${redirecting.url}/start`, '-o', out]);
        expect(imported.code).toBe(0);
        expect(readFileSync(join(out, 'start.http'), 'utf8').includes('# @no-redirect')).toBe(flags === '');
        const before = redirecting.requests.length;
        const sent = await runCli(['send', 'start.http#start', '--print', 'h'], { cwd: out });
        expect(sent.code).toBe(0);
        expect(sent.stdout.split('\n')[0]).toBe(flags === '' ? 'HTTP/1.1 302 Found' : 'HTTP/1.1 200 OK');
        expect(redirecting.requests.slice(before).map((request) => request.url)).toEqual(expected);
      }
    } finally {
      await redirecting.close();
    }
  });

  it('shell variables become {{$processEnv NAME}}, named in warnings, and are read when the request is sent', async () => {
    const line = `curl "$DIAL_T_BASE/items?who=$DIAL_T_USER" -H "Authorization: Bearer \${DIAL_T_TOKEN}" -H 'X-Literal: $DIAL_T_TOKEN' --json "{\\"owner\\": \\"$DIAL_T_USER\\"}"`;
    const out = tempDir('dial-import-vars-');
    const imported = await runCli(['import', 'curl', '-', '-o', out], { input: line });
    expect(imported.code).toBe(0);
    expect(imported.stderr).toBe(
      ['DIAL_T_BASE', 'DIAL_T_USER', 'DIAL_T_TOKEN']
        .map(
          (name) =>
            `warning: $${name}: a shell variable; written as {{$processEnv ${name}}}, which dial reads from its environment when it sends\n`,
        )
        .join(''),
    );
    const http = readFileSync(join(out, 'items.http'), 'utf8');
    expect(http).toContain(
      'POST {{$processEnv DIAL_T_BASE}}/items?who={{$processEnv DIAL_T_USER}}\nAuthorization: Bearer {{$processEnv DIAL_T_TOKEN}}\nX-Literal: $DIAL_T_TOKEN\n',
    );

    const env = { DIAL_T_BASE: server.url, DIAL_T_USER: 'ada', DIAL_T_TOKEN: 'tok-123' };
    const before = server.requests.length;
    const sent = await runCli(['send', 'items.http#items'], { cwd: out, env });
    expect(sent.stderr).toBe('');
    expect(sent.code).toBe(0);
    const received = server.requests[before];
    expect(received).toMatchObject({
      method: 'POST',
      url: '/items?who=ada',
      headers: { authorization: 'Bearer tok-123', 'x-literal': '$DIAL_T_TOKEN', 'content-type': 'application/json' },
    });
    expect(received.body.toString()).toBe('{"owner": "ada"}');

    if (hasCurl) {
      // The same line run by Bash and the real curl, with the same environment.
      const explicit = explicitHeaders(line);
      expect(normalize(received, explicit)).toEqual(normalize(await viaRealCurl(line, env), explicit));
    }
  });
});
