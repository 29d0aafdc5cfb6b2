// rest.nvim's Lua scripts through the built CLI against a real server: a `# @lang=lua` handler
// that hands a value to the next request through client.global, a pre-request script's
// request.variables, rest.nvim 0.x's `{% %}` script with its context, and a script that reaches
// past the sandbox refused before anything is sent.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.setHeader('x-trace', 'abc');
    response.end(JSON.stringify({ id: 42, name: 'ada', path: request.url }));
  });
});
afterAll(() => server.close());

function workspace(lines: string[]): string {
  const root = tempDir('dial-restnvim-lua-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), lines.join('\n').replaceAll('HOST', server.url));
  return root;
}

const since = (before: number) => server.requests.slice(before).map((request) => request.url);

describe("rest.nvim's Lua scripts in dial run", () => {
  it('a handler passes a value on with client.global.set; a pre-request script sets a request variable', async () => {
    const root = workspace([
      '### find the user',
      'GET HOST/users/first',
      '',
      '# @lang=lua',
      '> {%',
      'local user = vim.json.decode(response.body)',
      'assert(response.status.code == 200)',
      'client.global.set("userId", user.id)',
      'client.global.set("trace", response.headers["x-trace"][1])',
      '%}',
      '',
      '### page through their posts',
      '# @lang lua',
      '< {%',
      'request.variables.set("page", tostring(2 * 3))',
      '%}',
      'GET HOST/users/{{userId}}/posts?page={{page}}&trace={{trace}}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(since(before)).toEqual(['/users/first', '/users/42/posts?page=6&trace=abc']);
  });

  it('rest.nvim 0.x: the {% %} script under the request, with context.result and context.set_env', async () => {
    const root = workspace([
      'GET HOST/posts/1',
      '',
      '{%',
      'local body = context.json_decode(context.result.body)',
      'context.set_env("postId", body.id)',
      '%}',
      '',
      '###',
      'GET HOST/posts/{{postId}}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(since(before)).toEqual(['/posts/1', '/posts/42']);
  });

  it("a body written without Content-Type goes with curl's form type, as rest.nvim's --data-raw sends it", async () => {
    const root = workspace(['# @dialect rest.nvim', 'POST HOST/raw', '', 'Hello world!', '']);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code, result.stderr).toBe(0);
    const [sent] = server.requests.slice(before);
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.body.toString()).toBe('Hello world!');
  });

  it('a JSON body goes trimmed; one that does not parse is not sent, as rest.nvim refuses it', async () => {
    const root = workspace([
      '# @dialect rest.nvim',
      '@n = 1',
      '### good',
      'POST HOST/json',
      'Content-Type: application/json',
      '',
      '{',
      '  "n": {{n}}',
      '}',
      '',
      '### broken',
      'POST HOST/json',
      '',
      '{ "n": {{n}}, }',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('api.http:14');
    expect(result.stdout + result.stderr).toContain('rest.nvim does not send it');
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].body.toString()).toBe('{\n  "n": 1\n}');
  });

  it('a script that reaches past the sandbox is refused at its line; nothing is sent', async () => {
    const root = workspace(['GET HOST/one', '', '# @lang=lua', '> {%', 'local out = vim.fn.system("id")', '%}', '']);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(3);
    expect(result.stdout + result.stderr).toContain('api.http:5');
    expect(result.stdout + result.stderr).toContain('vim.fn');
    expect(server.requests.length).toBe(before);
  });
});
