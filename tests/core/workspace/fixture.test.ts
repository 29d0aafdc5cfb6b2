import { cpSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHttpFile, printHttpFile } from '../../../src/core/httpfile/index.js';
import { createSession } from '../../../src/core/session/index.js';
import { discoverHttpFiles, findWorkspaceRoot } from '../../../src/core/workspace/index.js';
import { tempDir } from '../../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../../helpers/servers.js';

const FIXTURE = resolve(import.meta.dirname, '../../fixtures/workspace');

function requestFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => /\.(http|rest)$/.test(p))
    .map((p) => join(dir, p));
}

describe('fixture workspace: round trip', () => {
  const files = requestFiles(FIXTURE);
  it('has the JetBrains, REST Client and nested files', () => {
    expect(files.map((f) => f.slice(FIXTURE.length + 1)).sort()).toEqual([
      'jetbrains.http',
      'nested/nested.http',
      'rest-client.rest',
    ]);
  });
  it.each(files.map((f) => [f.slice(FIXTURE.length + 1), f]))('%s prints back byte for byte', (_name, path) => {
    const text = readFileSync(path, 'utf8');
    expect(printHttpFile(parseHttpFile(text, path))).toBe(text);
    const crlf = text.replace(/\n/g, '\r\n');
    expect(printHttpFile(parseHttpFile(crlf, path))).toBe(crlf);
  });
});

describe('fixture workspace: what the parser reads', () => {
  const jb = parseHttpFile(readFileSync(join(FIXTURE, 'jetbrains.http'), 'utf8'), join(FIXTURE, 'jetbrains.http'));
  const rc = parseHttpFile(readFileSync(join(FIXTURE, 'rest-client.rest'), 'utf8'), join(FIXTURE, 'rest-client.rest'));
  const by = (name: string) => jb.requests.find((r) => r.name === name)!;

  it('names from @name, // @name and ### titles', () => {
    expect(jb.requests.map((r) => r.name)).toEqual([
      'login',
      'List widgets',
      'widget',
      'createFromFile',
      'createFromTemplate',
      'upload',
      'scripted',
      'No method, dynamic variables',
    ]);
    expect(rc.requests.map((r) => r.name)).toEqual(['login', 'profile', 'page', undefined]);
    expect(jb.variables.map((v) => v.name)).toEqual(['contentType', 'token']);
    expect(rc.variables.map((v) => v.name)).toEqual(['baseUrl', 'jsonType', 'page']);
  });

  it('metadata, versions, continuation lines', () => {
    expect(by('login')).toMatchObject({
      tags: ['smoke', 'auth'],
      timeoutMs: 5000,
      httpVersion: 'HTTP/1.1',
      method: 'POST',
    });
    expect(by('List widgets').url).toBe('{{base}}/widgets?limit=10&sort=name');
    expect(by('widget')).toMatchObject({
      noRedirect: true,
      noCookieJar: true,
      retry: { count: 3, delayMs: 500 },
      httpVersion: 'HTTP/2',
    });
    expect(by('upload').secrets).toEqual(['password']);
    expect(by('scripted')).toMatchObject({
      prompts: [{ name: 'otp', description: 'Your one-time code' }],
      skip: { reason: 'flaky upstream' },
    });
    expect(jb.requests.at(-1)).toMatchObject({ method: 'GET', methodExplicit: false });
  });

  it('assertions of every kind', () => {
    expect(
      by('widget').assertions.map(
        (a) =>
          `${a.query}|${a.argument ?? ''}|${a.not}|${a.predicate}|${a.lengthOperator ?? ''}|${a.expected ?? ''}|${a.ignore?.join(',') ?? ''}`,
      ),
    ).toEqual([
      'status||false|==||200|',
      'body|$.name|false|isString|||',
      'body|$.size|true|isNull|||',
      'body|$.tags|false|length|>=|0|',
      'body||false|schema||./schemas/widget.schema.json|',
      'body||false|snapshot|||$.createdAt,$.id',
      'duration||false|<||2000|',
      'js|response.body.size + 1|false|>||1|',
      'body|$.name|false|matches||/^w/i|',
      'header|x-request-id|false|startsWith||req-|',
    ]);
  });

  it('bodies, scripts and redirects', () => {
    expect(by('login').body).toMatchObject({
      kind: 'inline',
      text: '{"user": "{{user}}", "password": "{{password}}"}',
    });
    expect(by('createFromFile').body).toMatchObject({ kind: 'file', path: './bodies/body.json', substitute: false });
    expect(by('createFromTemplate')).toMatchObject({
      body: { kind: 'file', substitute: true },
      outputRedirect: { path: './out/created.json', overwrite: true },
    });
    expect(by('widget').outputRedirect).toMatchObject({ path: './out/widget.json', overwrite: false });
    expect(by('upload').body).toMatchObject({ kind: 'inline' });
    expect((by('upload').body as { text: string }).text).toContain('< ./bodies/upload.txt');
    expect(by('scripted').preScripts.map((s) => s.kind)).toEqual(['inline', 'file']);
    expect(by('scripted').handlers).toMatchObject([{ kind: 'file', path: './scripts/handler.js' }]);
    expect(by('List widgets').handlers[0]).toMatchObject({ kind: 'inline' });
    expect(rc.requests[3].body).toBeUndefined();
  });
});

describe('fixture workspace: resolution against a real server', () => {
  let server: TestServer & { requests: RecordedRequest[] };
  let root: string;
  beforeAll(async () => {
    server = await startRecordingServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.setHeader('x-request-id', 'req-42');
      response.end(
        JSON.stringify(request.url.endsWith('/login') ? { token: 'tok-from-login' } : { ok: true, items: [{ id: 7 }] }),
      );
    });
    root = tempDir('dial-fixture-');
    cpSync(FIXTURE, root, { recursive: true });
  });
  afterAll(() => server.close());

  it('resolves every construct of the REST Client file, running login once for the references', async () => {
    const session = createSession({
      workspaceRoot: root,
      environment: 'dev',
      cliVariables: { host: server.url },
      processEnv: { DIAL_FIXTURE_PATH: '/opt/x' },
    });
    const file = await session.loadFile(join(root, 'rest-client.rest'));
    const before = server.requests.length;
    const profile = await session.prepare(file, file.requests[1]);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/v1/login']);
    expect(JSON.parse(server.requests.at(-1)!.body.toString())).toEqual({ user: 'ada', password: 'dev-password-xyz' });
    expect(profile.request.url).toBe(`${server.url}/v1/me`);
    expect(profile.request.headers).toEqual([
      ['Authorization', 'Bearer tok-from-login'],
      ['X-Login-Id', 'req-42'],
      ['X-User', 'ada'],
    ]);
    const page = await session.prepare(file, file.requests[2]);
    expect(page.request.url).toBe(`${server.url}/v1/items?page=2&secret=from-dotenv-456`);
    const headers = Object.fromEntries(page.request.headers);
    expect(headers['X-Guid']).toMatch(/^[0-9a-f-]{36}$/);
    expect(headers.Date).toMatch(/GMT$/);
    expect(headers['X-Path']).toBe('/opt/x');
    expect(session.secretValues()).toEqual(expect.arrayContaining(['dev-password-xyz', 'from-dotenv-456']));
    expect((await session.prepare(file, file.requests[3])).request).toMatchObject({
      method: 'DELETE',
      body: { kind: 'none' },
    });
  });

  it('resolves the JetBrains file: env chain, $shared, private values, bodies, prompts, dynamic variables', async () => {
    const session = createSession({
      workspaceRoot: root,
      environment: 'dev',
      cliVariables: { host: server.url, otp: '123456' },
      processEnv: {},
    });
    session.globals.set('firstId', 7);
    const file = await session.loadFile(join(root, 'jetbrains.http'));
    const by = (name: string) => file.requests.find((r) => r.name === name)!;
    const login = await session.prepare(file, by('login'));
    expect(login.request.headers).toEqual([
      ['Content-Type', 'application/json'],
      ['User-Agent', 'dial-fixture'],
    ]);
    expect(login.request.httpVersion).toBe('1.1');
    const widget = await session.prepare(file, by('widget'));
    expect(widget.request).toMatchObject({
      url: `${server.url}/v1/widgets/7`,
      httpVersion: '2',
      headers: [['X-Api-Key', 'shared-api-key-123']],
    });
    expect(widget.secretValues).toContain('shared-api-key-123');
    expect((await session.prepare(file, by('createFromFile'))).request.body).toEqual({
      kind: 'file',
      path: join(root, 'bodies/body.json'),
    });
    const template = (await session.prepare(file, by('createFromTemplate'))).request.body as { text: string };
    expect(JSON.parse(template.text)).toMatchObject({ user: 'ada' });
    const upload = (await session.prepare(file, by('upload'))).request.body as { kind: string; bytes: Uint8Array };
    expect(upload.kind).toBe('bytes');
    expect(Buffer.from(upload.bytes).toString()).toContain("ada's upload\r\n--WebAppBoundary\r\n");
    expect(Buffer.from(upload.bytes).toString()).toContain('hello from a file part\n\r\n--WebAppBoundary--');
    const scripted = await session.prepare(file, by('scripted'), {
      requestVariables: new Map([
        ['nonce', 'n-1'],
        ['traceId', 't-1'],
      ]),
    });
    expect(scripted.request.url).toBe(`${server.url}/v1/echo?nonce=n-1&otp=123456`);
    const dynamic = await session.prepare(file, file.requests.at(-1)!);
    expect(dynamic.request.url).toMatch(
      new RegExp(`^${server.url}/v1/time\\?ts=\\d{10}&iso=\\d{4}-.+Z&day=\\d{4}-\\d\\d-\\d\\d&n=\\d$`),
    );
    expect(Object.fromEntries(dynamic.request.headers)['X-Region']).toBe('eu west');
  });

  it('a nearer env file wins over the root one', async () => {
    const session = createSession({ workspaceRoot: root, environment: 'dev', processEnv: {} });
    const file = await session.loadFile(join(root, 'nested/nested.http'));
    expect((await session.prepare(file, file.requests[0])).request.url).toBe('http://127.0.0.1:4011/v1/nested');
    const prod = createSession({ workspaceRoot: root, environment: 'prod', processEnv: {} });
    expect((await prod.prepare(file, file.requests[0])).request.url).toBe('https://api.example.com/v1/nested');
  });

  it('discovery honours the fixture .gitignore; the root is the nearest env file folder', async () => {
    mkdirSync(join(root, 'generated'), { recursive: true });
    writeFileSync(join(root, 'generated/gen.http'), 'GET http://x\n');
    writeFileSync(join(root, 'scratch.local.http'), 'GET http://x\n');
    const found = (await discoverHttpFiles(root)).map((f) => f.slice(root.length + 1));
    expect(found).toEqual(['jetbrains.http', 'nested/nested.http', 'rest-client.rest']);
    expect(findWorkspaceRoot(root)).toBe(root);
    // nested/ holds its own http-client.env.json, so started there it is a root of its own
    expect(findWorkspaceRoot(join(root, 'nested'))).toBe(join(root, 'nested'));
  });
});
