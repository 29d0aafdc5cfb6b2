// rest.nvim's Lua scripts (`# @lang=lua` in a rest.nvim file): its script context as its
// lua/rest-nvim/script/lua.lua builds it, run in dial's Lua sandbox (the real wasmoon worker).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { createResponseView } from '../../../src/core/assert/index.js';
import { ScriptRunner, type ScriptEnvironment } from '../../../src/core/script/index.js';
import { scriptRequest } from '../../../src/core/script/api.js';
import { dialErrorOf, dialErrorThrownBy } from '../../helpers/dial-error.js';
import { tempDir } from '../../helpers/cli.js';

function env(overrides: Partial<ScriptEnvironment> = {}): ScriptEnvironment {
  return {
    globals: new Map<string, unknown>([['token', 't0k']]),
    requestVariables: new Map(),
    environment: (name) => ({ base: 'http://h' })[name],
    processEnv: { HOME: '/home/me' },
    response: createResponseView({
      status: 201,
      statusText: 'Created',
      headers: [
        ['Content-Type', 'application/json'],
        ['Set-Cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ],
      durationMs: 5,
      bytes: Buffer.from('{"id":3,"name":"x","nested":{"n":1.5}}'),
    }),
    ...overrides,
  };
}

function fileWith(code: string, kind: '<' | '>') {
  const text =
    kind === '>'
      ? `@fileVar = from-file\n### one\nGET http://x/posts\n\n# @lang=lua\n> {%\n${code}\n%}\n`
      : `@fileVar = from-file\n### one\n# @lang lua\n< {%\n${code}\n%}\n\nGET http://x/posts/{{postId}}\n`;
  return parseHttpFile(text, join(tempDir(), 'a.http'));
}

const runner = new ScriptRunner(3000, { memoryBytes: 32 * 1024 * 1024 });

async function run(code: string, kind: '<' | '>' = '>', e = env()) {
  const file = fileWith(code, kind);
  expect(file.dialect).toBe('rest.nvim');
  const node = file.requests[0];
  const script = kind === '>' ? node.handlers[0] : node.preScripts[0];
  expect(script).toMatchObject({ kind: 'inline', lua: 'rest.nvim' });
  if (kind === '<') delete e.response;
  e.request = scriptRequest(node as never, async (text) => text.replace('{{fileVar}}', 'from-file'));
  await runner.checkModules(file);
  return { outcome: await runner.run(script, file, e), env: e, line: script.span.line };
}

describe("rest.nvim's Lua handler scripts", () => {
  it("rest.nvim's own example: vim.json.decode(response.body), client.global.set of a number", async () => {
    const { env: e, outcome } = await run(
      [
        'local body = vim.json.decode(response.body)',
        'client.global.set("postId", body.id)',
        'client.global.set("ratio", body.nested.n)',
        'print(response.status.code, response.status.text, response.headers["content-type"][1], #response.headers["set-cookie"])',
        'print(client.global.get("postId"), client.global.get("token"), client.global.get("HOME"), client.global.get("nothing") == "")',
      ].join('\n'),
    );
    // Neovim's vim.env holds text: a number is written as Vim prints it.
    expect(e.globals.get('postId')).toBe('3');
    expect(e.globals.get('ratio')).toBe('1.5');
    expect(outcome.logs).toEqual(['201\tCreated\tapplication/json\t2', '3\tt0k\t/home/me\ttrue']);
  });

  it('vim.env reads and writes the same variables as client.global', async () => {
    const { env: e } = await run('vim.env.fromEnv = vim.env["token"] .. "!"\nclient.global.set("token", nil)');
    expect(e.globals.get('fromEnv')).toBe('t0k!');
    expect(e.globals.has('token')).toBe(false);
  });

  it("a handler's request.variables.set stays in the script (rest.nvim drops the request's context)", async () => {
    const { env: e, outcome } = await run('request.variables.set("x", "1")\nprint(request.variables.get("x"))');
    expect(outcome.logs).toEqual(['1']);
    expect(e.requestVariables.has('x')).toBe(false);
  });

  it("assert is Lua's own: a false value ends the script with its message at the line", async () => {
    const error = await dialErrorOf(run('local n = 1\nassert(response.status.code == 200, "not 200")'));
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toContain('not 200');
    expect(error.location?.line).toBe(8);
  });
});

describe("rest.nvim's Lua pre-request scripts", () => {
  it('request.variables.set gives this request a variable; get resolves as rest.nvim does', async () => {
    const { env: e, outcome } = await run(
      [
        'request.variables.set("postId", "3")',
        'print(request.variables.get("postId"), request.variables.get("fileVar"), request.variables.get("base"))',
        'print(request.variables.get("token"), request.variables.get("HOME"), request.variables.get("unknown") == "")',
      ].join('\n'),
      '<',
    );
    expect(e.requestVariables.get('postId')).toBe('3');
    expect(outcome.logs).toEqual(['3\tfrom-file\thttp://h', 't0k\t/home/me\ttrue']);
  });

  it('a value that is not a string is an error, as vim.validate makes it in rest.nvim', async () => {
    const error = await dialErrorOf(run('request.variables.set("postId", 3)', '<'));
    expect(error.message).toContain('value: expected string, got number');
  });

  it('there is no client and no response before the send', async () => {
    const error = await dialErrorOf(run('client.global.set("a", "b")', '<'));
    expect(error.message).toMatch(/client/);
    expect(error.location?.line).toBe(5);
  });

  it('a name computed at run time is an error, not a guess', async () => {
    const error = await dialErrorOf(run('local n = "post" .. "Id"\nprint(request.variables.get(n))', '<'));
    expect(error.message).toContain('names literally');
  });
});

describe('what reaches past the sandbox is refused before anything is sent', () => {
  it.each([
    ['response.body = "x"', 'changes the response'],
    ['vim.fn.system("ls")', 'vim.fn'],
    ['local f = io.open("/etc/passwd")', "'io'"],
    ['local u = require("rest-nvim.utils")', 'require('],
    ['print(response.status.version)', 'response.status.version'],
    ['vim.api.nvim_echo({}, true, {})', 'vim.api'],
    ['print(response.statistics.total_time)', 'response.statistics'],
  ])('%s', async (code, what) => {
    const error = await dialErrorOf(run(`local ok = 1\n${code}`));
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toContain(what);
    expect(error.message).toContain('nothing was sent');
    expect(error.location?.line).toBe(8);
  });
});

describe('the dialect decides', () => {
  it('`# @lang=lua` in a file named as JetBrains is refused at the script line', async () => {
    const error = dialErrorThrownBy(() =>
      parseHttpFile('# @dialect jetbrains\nGET http://x/\n\n# @lang=lua\n> {%\nprint(1)\n%}\n', 'a.http'),
    );
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toContain("scripts in 'lua' are not supported");
    expect(error.message).toContain('# @dialect rest.nvim');
    expect(error.location?.line).toBe(5);
  });

  it('a kulala `-- lua` script without `# @lang=lua` in a rest.nvim file is refused (rest.nvim would not run it)', async () => {
    const error = dialErrorThrownBy(() =>
      parseHttpFile('# @dialect rest.nvim\nGET http://x/\n\n> {%\n-- lua\nprint(1)\n%}\n', 'a.http'),
    );
    expect(error.message).toContain('# @lang=lua');
  });
});
