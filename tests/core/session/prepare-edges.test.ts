// session.prepare's less travelled paths: a header name a variable made invalid, a multipart
// part whose file is missing, `# @forceRef` and `promptAgain`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/core/session/index.js';
import { tempDir } from '../../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../../helpers/servers.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((_request, response) => response.end('{}'));
});
afterAll(() => server.close());

function workspace(files: Record<string, string>): string {
  const root = tempDir('dial-prepare-');
  for (const [path, text] of Object.entries(files))
    writeFileSync(join(root, path), text.replaceAll('HOST', server.url));
  return root;
}

describe('session.prepare edges', () => {
  it('a header name that resolves to something other than a token is E_INPUT at its line', async () => {
    const root = workspace({ 'api.http': '### r\nGET HOST/x\n{{h}}: v\n' });
    const session = createSession({ workspaceRoot: root, cliVariables: { h: 'bad name' }, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const error = await dialErrorOf(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_INPUT');
    expect(error.message).toMatch(/'bad name' is not a valid header name \(request 'r' at api\.http:2\)/);
    expect(error.location).toMatchObject({ line: 3, excerpt: '{{h}}: v' });
  });

  it('a multipart part whose file is missing is E_NOT_FOUND at its `< ./file` line', async () => {
    const root = workspace({
      'api.http':
        '### up\nPOST HOST/upload\nContent-Type: multipart/form-data; boundary=XB\n\n--XB\nContent-Disposition: form-data; name="f"; filename="a.txt"\n\n< ./nope.txt\n--XB--\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const error = await dialErrorOf(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_NOT_FOUND');
    expect(error.message).toMatch(/^multipart body: /);
    expect(error.location?.line).toBe(8);
  });

  it('# @forceRef runs the named request again on every prepare, # @ref only once', async () => {
    const root = workspace({
      'api.http':
        '### login\nPOST HOST/login\n\n### once\n# @ref login\nGET HOST/once\n\n### always\n# @forceRef login\nGET HOST/always\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const [, once, always] = file.requests;
    const before = server.requests.length;
    await session.prepare(file, once);
    await session.prepare(file, once);
    await session.prepare(file, always);
    await session.prepare(file, always);
    expect(server.requests.slice(before).map((r) => r.url)).toEqual(['/login', '/login', '/login']);
  });

  it('promptAgain asks the request’s @prompt values again; without it the earlier answer is reused', async () => {
    const root = workspace({ 'api.http': '### r\n# @prompt otp\nGET HOST/{{otp}}\n' });
    let asked = 0;
    const session = createSession({ workspaceRoot: root, processEnv: {}, prompt: async () => `c${++asked}` });
    const file = await session.loadFile(join(root, 'api.http'));
    const [request] = file.requests;
    expect((await session.prepare(file, request)).request.url).toBe(`${server.url}/c1`);
    expect((await session.prepare(file, request)).request.url).toBe(`${server.url}/c1`);
    expect((await session.prepare(file, request, { promptAgain: true })).request.url).toBe(`${server.url}/c2`);
    expect(asked).toBe(2);
  });

  // httpyac's prompt placeholders (alextanhongpin/http-request, tuliocll/httpyac-post-demo in the
  // second held-out sweep): asked with the label; an empty answer takes `$value:`; no prompt, an error.
  it('httpyac {{$input}}, {{$password}} and {{$pick}} ask with their label; a global one is asked once', async () => {
    const root = workspace({
      'api.http':
        '# @dialect httpyac\n@u = {{$input user name? $value: john}}\n\n###\nGET HOST/{{u}}/{{$password the password?}}/{{$pick fruit? $value: apple,orange}}\n',
    });
    const asked: string[] = [];
    const answers: Record<string, string> = { 'user name?': '', 'the password?': 'pw', 'fruit?': 'orange' };
    const session = createSession({
      workspaceRoot: root,
      processEnv: {},
      prompt: async (label, description) => (asked.push(`${label} ${description}`), answers[label]),
    });
    const file = await session.loadFile(join(root, 'api.http'));
    expect((await session.prepare(file, file.requests[0])).request.url).toBe(`${server.url}/john/pw/orange`);
    await session.prepare(file, file.requests[0]);
    expect(asked.filter((line) => line.startsWith('user name?'))).toEqual(['user name? httpyac prompt (empty: john)']);
    expect(asked).toContain('the password? hidden prompt');
    expect(asked).toContain('fruit? httpyac prompt (one of apple,orange)');
    const silent = createSession({ workspaceRoot: root, processEnv: {} });
    const error = await dialErrorOf(silent.prepare(file, file.requests[0]));
    expect(error.message).toContain('{{$input user name? $value: john}} asks for a value, and nobody can answer here');
  });
});
