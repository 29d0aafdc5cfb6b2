import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, readTextFile, type SessionOptions } from '../../../src/core/session/index.js';
import { tempDir } from '../../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../../helpers/servers.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    if (request.url === '/login') {
      response.setHeader('content-type', 'application/json');
      response.setHeader('x-id', 'abc-1');
      response.end(
        JSON.stringify({
          token: `tok-${server.requests.filter((r) => r.url === '/login').length}`,
          user: { name: 'ada' },
        }),
      );
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end(
      JSON.stringify({
        url: request.url,
        auth: request.headers.authorization ?? null,
        body: request.body.toString('utf8'),
      }),
    );
  });
});
afterAll(() => server.close());

function workspace(files: Record<string, string>): string {
  const root = tempDir('dial-session-');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text.replaceAll('HOST', server.url));
  }
  return root;
}

async function prepared(files: Record<string, string>, name: string, options: Partial<SessionOptions> = {}) {
  const root = workspace(files);
  const session = createSession({ workspaceRoot: root, processEnv: {}, ...options });
  const file = await session.loadFile(join(root, 'api.http'));
  const node = file.requests.find((r) => r.name === name)!;
  return { session, file, node, result: await session.prepare(file, node) };
}

describe('lookup order (each level beats the next)', () => {
  const env = JSON.stringify({ dev: { v: 'env', host: 'HOST' } });
  const files = (fileVar: boolean, envVar: boolean, dotenv: boolean): Record<string, string> => ({
    'api.http': `${fileVar ? '@v = file\n' : ''}### r\nGET {{host}}/x?v={{v}}\n`,
    'http-client.env.json': envVar ? env : JSON.stringify({ dev: { host: 'HOST' } }),
    ...(dotenv ? { '.env': 'v=dotenv\n' } : {}),
  });

  it('1. --var beats script values', async () => {
    const root = workspace(files(true, true, true));
    const session = createSession({
      workspaceRoot: root,
      environment: 'dev',
      cliVariables: { v: 'cli' },
      processEnv: {},
    });
    session.globals.set('v', 'global');
    const file = await session.loadFile(join(root, 'api.http'));
    expect(
      (await session.prepare(file, file.requests[0], { requestVariables: new Map([['v', 'script']]) })).request.url,
    ).toBe(`${server.url}/x?v=cli`);
  });

  it('2. script values (request.variables, then client.global) beat file variables', async () => {
    const root = workspace(files(true, true, true));
    const session = createSession({ workspaceRoot: root, environment: 'dev', processEnv: {} });
    session.globals.set('v', 'global');
    const file = await session.loadFile(join(root, 'api.http'));
    expect(
      (await session.prepare(file, file.requests[0], { requestVariables: new Map([['v', 'script']]) })).request.url,
    ).toMatch(/v=script$/);
    expect((await session.prepare(file, file.requests[0])).request.url).toMatch(/v=global$/);
  });

  it('3. file variables beat the environment', async () => {
    const { result } = await prepared(files(true, true, true), 'r', { environment: 'dev' });
    expect(result.request.url).toMatch(/v=file$/);
  });

  it('4. the environment beats .env', async () => {
    const { result } = await prepared(files(false, true, true), 'r', { environment: 'dev' });
    expect(result.request.url).toMatch(/v=env$/);
  });

  it('5. .env is the last implicit level, and its values are secret', async () => {
    const { result } = await prepared(files(false, false, true), 'r', { environment: 'dev' });
    expect(result.request.url).toMatch(/v=dotenv$/);
    expect(result.secretValues).toContain('dotenv');
  });

  it('6. the process environment is never read implicitly', async () => {
    const root = workspace(files(false, false, false));
    const session = createSession({ workspaceRoot: root, environment: 'dev', processEnv: { v: 'process' } });
    const file = await session.loadFile(join(root, 'api.http'));
    const error = await dialErrorOf(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_VAR_UNDEFINED');
    expect(error.hint).toContain('{{$processEnv v}}');
  });

  it('file variables apply from their declaration on, and may reference other variables', async () => {
    const { session, file } = await prepared(
      {
        'api.http':
          '@base = HOST\n@url = {{base}}/{{path}}\n### a\n@path = a\nGET {{url}}\n### b\nGET {{url}}\n### c\n@path = c\nGET {{url}}\n',
      },
      'a',
    );
    expect((await session.prepare(file, file.requests[1])).request.url).toBe(`${server.url}/a`);
    expect((await session.prepare(file, file.requests[2])).request.url).toBe(`${server.url}/c`);
  });
});

describe('unresolved variables, cycles, injection', () => {
  it('an undefined variable names the variable, the request and where it looked', async () => {
    const root = workspace({
      'api.http': '### r\nGET HOST/{{missing}}\n',
      'http-client.env.json': '{"staging": {"missing": "x"}}',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const error = await dialErrorOf(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_VAR_UNDEFINED');
    expect(error.exitCode).toBe(3);
    expect(error.message).toBe("variable 'missing' is not defined (request 'r' at api.http:2)");
    expect(error.location).toMatchObject({
      file: join(root, 'api.http'),
      line: 2,
      col: server.url.length + 6,
      excerpt: `GET ${server.url}/{{missing}}`,
    });
    expect(error.hint).toContain('file variables of api.http');
    expect(error.hint).toContain('select one with -e staging');
  });

  it('points at a placeholder inside a file variable, and refuses an unclosed {{', async () => {
    const root = workspace({ 'api.http': '@url = HOST/{{nope}}\n### r\nGET {{url}}\n### s\nGET HOST/{{open\n' });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const error = await dialErrorOf(session.prepare(file, file.requests[0]));
    expect(error.location).toMatchObject({ line: 1, col: server.url.length + 9 });
    const unclosed = await dialErrorOf(session.prepare(file, file.requests[1]));
    expect(unclosed.code).toBe('E_VAR_UNDEFINED');
    expect(unclosed.message).toContain('unclosed {{ in the URL');
    expect(unclosed.location?.line).toBe(5);
  });

  it('a variable cycle is E_VAR_CYCLE naming the chain', async () => {
    const root = workspace({ 'api.http': '@a = {{b}}\n@b = x{{a}}\n### r\nGET HOST/{{a}}\n' });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const error = await dialErrorOf(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_VAR_CYCLE');
    expect(error.message).toContain('a -> b -> a');
  });

  it('a file variable naming itself takes the environment value; REST Client files keep the cycle', async () => {
    const env = JSON.stringify({ dev: { token: 'envtok', userId: 'u1' } });
    const text = '@token = {{token}}\n@userId = id-{{userId}}\n### r\nGET HOST/{{userId}}?t={{token}}\n';
    const root = workspace({ 'api.http': text, 'http-client.env.json': env });
    const session = createSession({ workspaceRoot: root, environment: 'dev', processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    expect((await session.prepare(file, file.requests[0])).request.url).toBe(`${server.url}/id-u1?t=envtok`);
    // a value set by client.global.set comes before the file variable, as before
    session.globals.set('token', 'globaltok');
    expect((await session.prepare(file, file.requests[0])).request.url).toBe(`${server.url}/id-u1?t=globaltok`);

    // defined nowhere below the file: undefined, saying why
    const bare = workspace({ 'api.http': '@token = {{token}}\n### r\nGET HOST/{{token}}\n' });
    const bareSession = createSession({ workspaceRoot: bare, processEnv: {} });
    const bareFile = await bareSession.loadFile(join(bare, 'api.http'));
    const undefinedError = await dialErrorOf(bareSession.prepare(bareFile, bareFile.requests[0]));
    expect(undefinedError.code).toBe('E_VAR_UNDEFINED');
    expect(undefinedError.hint).toContain("the file variable 'token' refers to itself");

    // an environment value naming itself is still a cycle
    const looping = workspace({
      'api.http': '@token = {{token}}\n### r\nGET HOST/{{token}}\n',
      'http-client.env.json': JSON.stringify({ dev: { token: 'x{{token}}' } }),
    });
    const loopSession = createSession({ workspaceRoot: looping, environment: 'dev', processEnv: {} });
    const loopFile = await loopSession.loadFile(join(looping, 'api.http'));
    expect((await dialErrorOf(loopSession.prepare(loopFile, loopFile.requests[0]))).code).toBe('E_VAR_CYCLE');

    // REST Client sends {{token}} unresolved there: dial refuses instead
    const rest = workspace({ 'api.http': `# @dialect rest-client\n${text}`, 'http-client.env.json': env });
    const restSession = createSession({ workspaceRoot: rest, environment: 'dev', processEnv: {} });
    const restFile = await restSession.loadFile(join(rest, 'api.http'));
    const cycle = await dialErrorOf(restSession.prepare(restFile, restFile.requests[0]));
    expect(cycle.code).toBe('E_VAR_CYCLE');
    expect(cycle.hint).toContain('REST Client sends {{');
  });

  it('CR/LF in a header value after substitution is refused', async () => {
    const root = workspace({ 'api.http': '### r\nGET HOST/x\nX-Evil: {{v}}\n' });
    const session = createSession({ workspaceRoot: root, cliVariables: { v: 'a\r\nInjected: 1' }, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const error = await dialErrorOf(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_HEADER_INJECTION');
    expect(error.location).toMatchObject({ line: 3, excerpt: 'X-Evil: {{v}}' });
    expect(server.requests.some((r) => r.headers.injected)).toBe(false);
  });

  it('CR/LF in the URL is refused', async () => {
    const root = workspace({ 'api.http': '### r\nGET HOST/{{v}}\n' });
    const session = createSession({ workspaceRoot: root, cliVariables: { v: 'x\nHost: evil' }, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    expect((await dialErrorOf(session.prepare(file, file.requests[0]))).code).toBe('E_HEADER_INJECTION');
  });

  it('@prompt without a prompt function or --var is an error naming the flag', async () => {
    const root = workspace({ 'api.http': '### r\n# @prompt otp Your code\nGET HOST/{{otp}}\n' });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const error = await dialErrorOf(session.prepare(file, file.requests[0]));
    expect(error.hint).toContain('--var otp=');
    const asked: string[] = [];
    const prompting = createSession({
      workspaceRoot: root,
      processEnv: {},
      prompt: async (name, description) => (asked.push(`${name}:${description}`), '1234'),
    });
    expect((await prompting.prepare(file, file.requests[0])).request.url).toBe(`${server.url}/1234`);
    await prompting.prepare(file, file.requests[0]);
    expect(asked).toEqual(['otp:Your code']);
  });
});

describe('request references against a real server', () => {
  const API = `@host = HOST
### login
POST {{host}}/login
Content-Type: application/json

{"user": "ada"}

### me
# @name me
GET {{host}}/me?token={{login.response.body.$.token}}&id={{login.response.headers.X-Id}}&user={{login.request.body.$.user}}&name={{login.response.body.$.user.name}}
Authorization: Bearer {{login.response.body.$.token}}

### whole
GET {{host}}/whole?b={{login.response.body.*}}
`;

  it('runs a referenced request first, once, and reads body, headers and the request body', async () => {
    const before = server.requests.length;
    const root = workspace({ 'api.http': API });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const me = file.requests.find((r) => r.name === 'me')!;
    const exchange = await session.execute(file, me);
    const seen = server.requests.slice(before);
    expect(seen.map((r) => r.url.split('?')[0])).toEqual(['/login', '/me']);
    const loginCount = server.requests.filter((r) => r.url === '/login').length;
    const token = `tok-${loginCount}`;
    expect(seen[1].url).toBe(`/me?token=${token}&id=abc-1&user=ada&name=ada`);
    expect(seen[1].headers.authorization).toBe(`Bearer ${token}`);
    expect(exchange.response.status).toBe(200);
    // a second request referencing login does not run it again
    await session.execute(
      file,
      file.requests.find((r) => r.name === 'whole')!,
    );
    expect(server.requests.slice(before).filter((r) => r.url === '/login')).toHaveLength(1);
    expect(decodeURIComponent(server.requests.at(-1)!.url)).toContain(`"token":"${token}"`);
    expect(session.hasRun(file, file.requests[0])).toBe(true);
  });

  it('a reference cycle between requests is E_VAR_CYCLE naming the chain', async () => {
    const root = workspace({
      'api.http': '### a\nGET HOST/a?x={{b.response.body.*}}\n\n### b\nGET HOST/b?x={{a.response.body.*}}\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const error = await dialErrorOf(session.execute(file, file.requests[0]));
    expect(error.code).toBe('E_VAR_CYCLE');
    expect(error.message).toContain('a -> b -> a');
  });

  it('a reference to an unknown request or an empty JSONPath is E_VAR_UNDEFINED', async () => {
    const root = workspace({
      'api.http': `${API}\n### bad\nGET HOST/x?{{nobody.response.body.$.a}}\n\n### empty\nGET HOST/x?{{login.response.body.$.nothing}}\n`,
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const bad = await dialErrorOf(
      session.prepare(
        file,
        file.requests.find((r) => r.name === 'bad')!,
      ),
    );
    expect(bad.message).toContain("no request named 'nobody'");
    const empty = await dialErrorOf(
      session.prepare(
        file,
        file.requests.find((r) => r.name === 'empty')!,
      ),
    );
    expect(empty.message).toContain('$.nothing matched nothing');
  });

  it('# @ref name runs the named request first (httpyac), once', async () => {
    const before = server.requests.length;
    const root = workspace({ 'api.http': `${API}\n### after\n# @ref login\nGET HOST/after\n` });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    await session.execute(
      file,
      file.requests.find((r) => r.name === 'after')!,
    );
    await session.execute(
      file,
      file.requests.find((r) => r.name === 'after')!,
    );
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/login', '/after', '/after']);
  });

  it('runReference lets the runner run references its way', async () => {
    const root = workspace({ 'api.http': API });
    const ran: string[] = [];
    const session = createSession({
      workspaceRoot: root,
      processEnv: {},
      runReference: async (file, node) => {
        ran.push(node.name!);
        await session.execute(file, node);
      },
    });
    const file = await session.loadFile(join(root, 'api.http'));
    await session.prepare(
      file,
      file.requests.find((r) => r.name === 'me')!,
    );
    expect(ran).toEqual(['login']);
  });
});

describe('bodies, metadata and secrets', () => {
  it('resolves inline bodies, < file (as is) and <@ file (substituted) relative to the .http file', async () => {
    const root = workspace({
      'sub/api.http':
        '@who = ada\n### inline\nPOST HOST/a\n\n{"u": "{{who}}"}\n\n### file\nPOST HOST/a\n\n< ./body.json\n\n### tpl\nPOST HOST/a\n\n<@ ./body.json\n\n### missing\nPOST HOST/a\n\n< ./nope.json\n',
      'sub/body.json': '{"u": "{{who}}"}',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'sub/api.http'));
    const [inline, asFile, tpl, missing] = file.requests;
    expect((await session.prepare(file, inline)).request.body).toEqual({ kind: 'text', text: '{"u": "ada"}' });
    expect((await session.prepare(file, asFile)).request.body).toEqual({
      kind: 'file',
      path: join(root, 'sub/body.json'),
    });
    expect((await session.prepare(file, tpl)).request.body).toEqual({ kind: 'text', text: '{"u": "ada"}' });
    const error = await dialErrorOf(session.prepare(file, missing));
    expect(error.code).toBe('E_NOT_FOUND');
    expect(error.location?.line).toBe(20);
  });

  it('sends a multipart body with a file part, CRLF framed', async () => {
    const root = workspace({
      'api.http':
        '### up\nPOST HOST/upload\nContent-Type: multipart/form-data; boundary=XB\n\n--XB\nContent-Disposition: form-data; name="title"\n\n{{title}}\n--XB\nContent-Disposition: form-data; name="f"; filename="a.txt"\nContent-Type: text/plain\n\n< ./a.txt\n--XB--\n',
      'a.txt': 'file content',
    });
    const session = createSession({ workspaceRoot: root, cliVariables: { title: 'hello' }, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    await session.execute(file, file.requests[0]);
    const sent = server.requests.at(-1)!;
    expect(sent.body.toString()).toBe(
      '--XB\r\nContent-Disposition: form-data; name="title"\r\n\r\nhello\r\n--XB\r\nContent-Disposition: form-data; name="f"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nfile content\r\n--XB--\r\n',
    );
  });

  it('maps metadata to send options and the HTTP version', async () => {
    const { result } = await prepared(
      {
        'api.http':
          '### r\n# @timeout 2s\n# @connection-timeout 2 m\n# @no-redirect\n# @no-cookie-jar\nGET HOST/x HTTP/2\n',
      },
      'r',
    );
    expect(result.overrides).toEqual({
      timeoutMs: 2000,
      connectTimeoutMs: 120_000,
      followRedirects: false,
      cookieJar: undefined,
    });
    expect('cookieJar' in result.overrides).toBe(true);
    expect(result.request.httpVersion).toBe('2');
  });

  it('completes scheme-less URLs and /path + Host', async () => {
    const { session, file } = await prepared(
      { 'api.http': '### a\nGET 127.0.0.1:9/x\n### b\nGET /y\nHost: example.com\n' },
      'a',
    );
    expect((await session.prepare(file, file.requests[0])).request.url).toBe('http://127.0.0.1:9/x');
    expect((await session.prepare(file, file.requests[1])).request.url).toBe('http://example.com/y');
  });

  it('collects secret values: private env file, .env, @secret, $processEnv', async () => {
    const root = workspace({
      'api.http':
        '### r\n# @secret apiKey\nGET HOST/x?k={{apiKey}}&t={{token}}&p={{pub}}&d={{dot}}&e={{$processEnv PE}}\n',
      'http-client.env.json': '{"dev": {"pub": "public-value", "apiKey": "key-123"}}',
      'http-client.private.env.json': '{"dev": {"token": "private-tok"}}',
      '.env': 'dot=dot-secret\n',
    });
    const session = createSession({ workspaceRoot: root, environment: 'dev', processEnv: { PE: 'proc-secret' } });
    const file = await session.loadFile(join(root, 'api.http'));
    const { secretValues } = await session.prepare(file, file.requests[0]);
    expect(secretValues.sort()).toEqual(['dot-secret', 'key-123', 'private-tok', 'proc-secret']);
    expect(session.secretValues().sort()).toEqual(['dot-secret', 'key-123', 'private-tok', 'proc-secret']);
    expect(await session.environments()).toEqual(['dev']);
  });

  it('resolveTemplate uses the request scope', async () => {
    const { session, file, node } = await prepared({ 'api.http': '@n = 5\n### r\nGET HOST/x\n' }, 'r');
    expect(await session.resolveTemplate('{"n": {{n}}}', file, node)).toBe('{"n": 5}');
  });

  it('loadFile caches and reports a missing file as E_NOT_FOUND', async () => {
    const root = workspace({ 'api.http': 'GET HOST/x\n' });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    expect(await session.loadFile(join(root, 'api.http'))).toBe(await session.loadFile(join(root, 'api.http')));
    expect((await dialErrorOf(session.loadFile(join(root, 'nope.http')))).code).toBe('E_NOT_FOUND');
  });
});

describe('session.loadFile', () => {
  it('reads and parses a file once, and refuses what it cannot read with E_NOT_FOUND, as a rejection', async () => {
    const root = tempDir('dial-load-');
    writeFileSync(join(root, 'api.http'), 'GET http://127.0.0.1:9/a\n\n###\nGET http://127.0.0.1:9/b\n');
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    expect(file.requests.map((request) => request.url)).toEqual(['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b']);
    expect(await session.loadFile(join(root, 'api.http'))).toBe(file);

    // Never a synchronous throw: the caller gets a promise that rejects.
    const missing = session.loadFile(join(root, 'missing.http'));
    expect(missing).toBeInstanceOf(Promise);
    const error = await dialErrorOf(missing);
    expect(error.code).toBe('E_NOT_FOUND');
    expect(error.message).toContain('no such file');

    mkdirSync(join(root, 'folder.http'));
    expect((await dialErrorOf(session.loadFile(join(root, 'folder.http')))).code).toBe('E_NOT_FOUND');

    // A parse error rejects too (E_PARSE with the file and line), read at once or not.
    writeFileSync(join(root, 'bad.http'), 'GET http://127.0.0.1:9/a\n\n?? status ==\n');
    const bad = session.loadFile(join(root, 'bad.http'));
    expect(bad).toBeInstanceOf(Promise);
    const parseError = await dialErrorOf(bad);
    expect(parseError.code).toBe('E_PARSE');
    expect(parseError.location?.file).toBe(join(root, 'bad.http'));
  });
});

describe('readTextFile', () => {
  it('gives a small file at once, a larger one through fs/promises, and rejects with the error of a file it cannot read', async () => {
    const root = tempDir('dial-read-');
    writeFileSync(join(root, 'api.http'), 'GET http://127.0.0.1:9/é\n');
    expect(await readTextFile(join(root, 'api.http'))).toBe('GET http://127.0.0.1:9/é\n');
    // Past the 1 MiB read at once: the same text, read asynchronously.
    const big = `# ${'x'.repeat(1024 * 1024 + 10)}\nGET http://127.0.0.1:9/b\n`;
    writeFileSync(join(root, 'big.http'), big);
    expect(await readTextFile(join(root, 'big.http'))).toBe(big);

    // Never a synchronous throw: a promise that rejects with the file system's error and its code.
    const missing = readTextFile(join(root, 'missing.http'));
    expect(missing).toBeInstanceOf(Promise);
    await expect(missing).rejects.toMatchObject({ code: 'ENOENT' });
    mkdirSync(join(root, 'folder.http'));
    await expect(readTextFile(join(root, 'folder.http'))).rejects.toMatchObject({ code: 'EISDIR' });
  });
});
