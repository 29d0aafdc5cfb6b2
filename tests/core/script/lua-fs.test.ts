// kulala.utils.fs in dial's Lua sandbox: reads and writes in the .http file's folder (and below),
// written atomically; every way out of that folder is refused with E_SCRIPT at the script's line.
import { existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { ScriptRunner, type ScriptEnvironment } from '../../../src/core/script/index.js';
import { scriptRequest } from '../../../src/core/script/api.js';
import { DialError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';

const runner = new ScriptRunner(3000, { memoryBytes: 32 * 1024 * 1024 });

/** A workspace: `outside/` next to `api/`, where the .http file is. */
function workspace(): { root: string; dir: string } {
  const root = tempDir('dial-lua-fs-');
  const dir = join(root, 'api');
  mkdirSync(dir);
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'outside', 'secret.txt'), 'top secret');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({ dev: { host: 'http://127.0.0.1' }, prod: { host: 'https://x' } }, null, 2),
  );
  return { root, dir };
}

async function run(dir: string, code: string): Promise<ScriptEnvironment> {
  const text = `GET http://x/\n\n> {%\n  -- lua\n${code}\n%}\n`;
  const file = parseHttpFile(text, join(dir, 'api.http'));
  const node = file.requests[0];
  const env: ScriptEnvironment = {
    globals: new Map(),
    requestVariables: new Map(),
    environment: () => undefined,
    control: {},
  };
  env.request = scriptRequest(node as never, async (t) => t);
  await runner.checkModules(file);
  await runner.run(node.handlers[0], file, env);
  return env;
}

async function refusal(dir: string, code: string): Promise<DialError> {
  try {
    await run(dir, code);
  } catch (error) {
    expect(error).toBeInstanceOf(DialError);
    return error as DialError;
  }
  throw new Error('expected a refusal');
}

describe('kulala.utils.fs in Lua scripts', () => {
  it("kulala's recipe: read_json, change, write_json (pretty) in the .http file's folder", async () => {
    const { dir } = workspace();
    const env = await run(
      dir,
      [
        '  local fs = require("kulala.utils.fs")',
        '  local vars = fs.read_json("http-client.env.json")',
        '  vars.dev.my_var = "hello world"',
        '  fs.write_json("http-client.env.json", vars, true)',
        '  client.global.back = fs.read_json("http-client.env.json").dev.my_var',
        '  client.global.missing = tostring(fs.read_file("./nope.txt"))',
        '  client.global.exists = fs.file_exists("http-client.env.json")',
      ].join('\n'),
    );
    const written = readFileSync(join(dir, 'http-client.env.json'), 'utf8');
    expect(JSON.parse(written)).toEqual({
      dev: { host: 'http://127.0.0.1', my_var: 'hello world' },
      prod: { host: 'https://x' },
    });
    expect(written).toContain('\n  "dev": {\n    "host"');
    expect(env.globals.get('back')).toBe('hello world');
    expect(env.globals.get('missing')).toBe('nil');
    expect(env.globals.get('exists')).toBe(true);
    // Atomic: no temp file left beside it.
    expect(readdirSync(dir)).toEqual(['http-client.env.json']);
  });

  it('write_file creates, appends, and writes into a sub-folder', async () => {
    const { dir } = workspace();
    mkdirSync(join(dir, 'out'));
    await run(
      dir,
      [
        '  local fs = require("kulala.utils.fs")',
        '  fs.write_file("out/token.txt", "a")',
        '  fs.write_file("out/token.txt", "b", true)',
        '  local name = "out/" .. "computed.txt"',
        '  fs.write_file(name, "c")',
      ].join('\n'),
    );
    expect(readFileSync(join(dir, 'out', 'token.txt'), 'utf8')).toBe('ab');
    expect(readFileSync(join(dir, 'out', 'computed.txt'), 'utf8')).toBe('c');
  });

  it.each([
    ['a relative path up and out', 'fs.write_file("../outside/x.txt", "pwned")', 'outside the .http file'],
    ['an absolute path', 'fs.write_file("/tmp/dial-lua-fs-escape.txt", "pwned")', 'outside the .http file'],
    ['a read of a file outside', 'local s = fs.read_file("../outside/secret.txt")', 'outside the .http file'],
    ['a .git folder', 'fs.write_file(".git/hooks/pre-commit", "rm -rf ~")', 'inside a .git folder'],
    ['a read by a computed path', 'local p = "../outside/secret.txt"\n  local s = fs.read_file(p)', 'string literal'],
    ['a function dial does not give', 'fs.delete_file("http-client.env.json")', 'delete_file'],
  ])('refuses %s before the script runs (E_SCRIPT at its line)', async (_what, line, message) => {
    const { root, dir } = workspace();
    mkdirSync(join(dir, '.git', 'hooks'), { recursive: true });
    const error = await refusal(dir, `  local fs = require("kulala.utils.fs")\n  ${line}`);
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toContain(message);
    expect(error.location?.line).toBe(6 + (line.match(/\n/g)?.length ?? 0));
    expect(existsSync(join(root, 'outside', 'x.txt'))).toBe(false);
    expect(existsSync('/tmp/dial-lua-fs-escape.txt')).toBe(false);
    expect(existsSync(join(dir, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('refuses a computed path that leaves the folder when the script ends, and writes nothing there', async () => {
    const { root, dir } = workspace();
    const error = await refusal(
      dir,
      '  local fs = require("kulala.utils.fs")\n  local up = ".."\n  fs.write_file(up .. "/outside/x.txt", "pwned")',
    );
    expect(error.message).toContain('outside the .http file');
    expect(existsSync(join(root, 'outside', 'x.txt'))).toBe(false);
  });

  it('follows symlinks: a link in the folder that points out is refused for reads and writes', async () => {
    const { root, dir } = workspace();
    symlinkSync(join(root, 'outside'), join(dir, 'link'));
    symlinkSync(join(root, 'outside', 'secret.txt'), join(dir, 'secret-link.txt'));
    const write = await refusal(dir, '  local fs = require("kulala.utils.fs")\n  fs.write_file("link/x.txt", "pwned")');
    expect(write.message).toContain('outside the .http file');
    const read = await refusal(
      dir,
      '  local fs = require("kulala.utils.fs")\n  local s = fs.read_file("secret-link.txt")',
    );
    expect(read.message).toContain('outside the .http file');
    const overwrite = await refusal(
      dir,
      '  local fs = require("kulala.utils.fs")\n  local n = "secret-link.txt"\n  fs.write_file(n, "pwned")',
    );
    expect(overwrite.message).toContain('outside the .http file');
    expect(readFileSync(join(root, 'outside', 'secret.txt'), 'utf8')).toBe('top secret');
    expect(existsSync(join(root, 'outside', 'x.txt'))).toBe(false);
  });
});
