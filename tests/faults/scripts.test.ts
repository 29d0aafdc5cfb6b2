/**
 * Hostile scripts: every known way out of the old node:vm sandbox, and every kind of endless
 * work, ends in a clean E_SCRIPT naming file:line, within the limit, with nothing written.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHttpFile } from '../../src/core/httpfile/index.js';
import { createResponseView } from '../../src/core/assert/index.js';
import { ScriptRunner, type ScriptEnvironment } from '../../src/core/script/index.js';
import { DialError } from '../../src/core/errors.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';
import { outsideGuard } from './helpers.js';

function env(): ScriptEnvironment {
  return {
    globals: new Map(),
    requestVariables: new Map(),
    environment: () => undefined,
    response: createResponseView({
      status: 200,
      headers: [['Content-Type', 'application/json']],
      durationMs: 1,
      bytes: Buffer.from('{"a":1}'),
    }),
  };
}

async function runHostile(code: string, runner: ScriptRunner): Promise<unknown> {
  const file = parseHttpFile(`GET http://x/\n\n> {%\n${code}\n%}\n`, join(tempDir('dial-fault-'), 'hostile.http'));
  return runner.run(file.requests[0].handlers[0], file, env()).catch((e: unknown) => e);
}

const escapes = (marker: string) => [
  `client.log.constructor('return process')().mainModule.require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`,
  `this.constructor.constructor('return process')().binding('fs')`,
  `response.headers.valueOf.constructor('return process')().exit(9)`,
  `Object.getPrototypeOf(client.global.set).constructor('return require')()('child_process').execSync('touch ${marker}')`,
  `const g = (function () { return this })() || globalThis; g.process.kill(g.process.pid)`,
  `(await import('fs')).writeFileSync(${JSON.stringify(marker)}, 'x')`,
  `new Function('return this')().require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`,
  `client.test.call.call(function () { return this }).process.exit(1)`,
  `const e = new Error(); e.stack; Error.prepareStackTrace = (_, s) => s[0].getThis(); new Error().stack.process.exit(1)`,
];

describe('fault: hostile scripts', () => {
  it('no escape reaches process, the file system or child processes', async () => {
    const guard = outsideGuard();
    const runner = new ScriptRunner(2000, { allowNode: false });
    for (const code of escapes(guard.marker)) {
      const error = (await runHostile(code, runner)) as DialError;
      expect(error, code).toBeInstanceOf(DialError);
      expect(error.code, code).toBe('E_SCRIPT');
      expect(error.location?.file, code).toMatch(/hostile\.http$/);
      expect(error.location?.line, code).toBeGreaterThanOrEqual(3);
    }
    guard.assertUntouched();
  });

  it('the sandbox global holds no host object', async () => {
    const runner = new ScriptRunner(2000, { allowNode: false });
    const out = (await runHostile(
      `client.log(Object.getOwnPropertyNames(globalThis).filter((n) => { try { const v = globalThis[n]; return v && typeof v === 'object' && 'pid' in v; } catch (e) { return false; } }).join(','));
       client.log(typeof client.log.constructor('return typeof process')); client.log(String(typeof WebAssembly));`,
      runner,
    )) as { logs: string[] };
    expect(out.logs[0]).toBe('');
    expect(out.logs[2]).toBe('undefined');
  });

  const loops: Array<[string, string]> = [
    ['synchronous loop', 'for (;;) {}'],
    ['microtask loop', 'Promise.resolve().then(() => { for (;;); });'],
    [
      'endless microtask chain',
      'const again = () => Promise.resolve().then(again); again(); await new Promise(() => {});',
    ],
    ['timer loop', 'setInterval(() => {}, 0); await new Promise(() => {});'],
    ['awaited timer that re-arms forever', 'await new Promise(() => { const t = () => setTimeout(t, 1); t(); });'],
  ];
  for (const [name, code] of loops) {
    it(`a ${name} ends in E_SCRIPT timed out`, async () => {
      const started = Date.now();
      const error = (await runHostile(code, new ScriptRunner(300, { allowNode: false }))) as DialError;
      expect(error.code).toBe('E_SCRIPT');
      expect(error.message).toMatch(/timed out after 0.3 s/);
      expect(Date.now() - started).toBeLessThan(3000);
    });
  }

  const bombs: Array<[string, string, RegExp]> = [
    ['array allocation bomb', 'const a = []; for (;;) a.push({ x: [1, 2, 3] });', /out of memory|timed out/],
    [
      'string doubling bomb',
      'let s = "x"; const keep = []; for (;;) { s += s; keep.push(s); }',
      /out of memory|string too long|timed out/,
    ],
    ['deep recursion', '(function f() { f(); })();', /out of memory|stack overflow|Maximum call stack/],
  ];
  for (const [name, code, pattern] of bombs) {
    it(`a ${name} ends in a clean E_SCRIPT and the runner keeps working`, async () => {
      const runner = new ScriptRunner(2000, { allowNode: false, memoryBytes: 32 * 1024 * 1024 });
      const error = (await runHostile(code, runner)) as DialError;
      expect(error).toBeInstanceOf(DialError);
      expect(error.code).toBe('E_SCRIPT');
      expect(error.message).toMatch(pattern);
      const after = (await runHostile(
        'client.test("still alive", () => client.assert(response.body.a === 1));',
        runner,
      )) as { tests: unknown[] };
      expect(after.tests).toEqual([{ name: 'still alive', passed: true }]);
    });
  }

  it('dial run: an escaping handler is an error at file:line, nothing extra is sent, nothing written', async () => {
    const guard = outsideGuard();
    const server = await startRecordingServer();
    try {
      const dir = tempDir('dial-fault-');
      writeFileSync(
        join(dir, 'api.http'),
        `### one\nGET ${server.url}/one\n\n> {%\n  const p = client.log.constructor('return process')();\n  p.mainModule['req' + 'uire']('fs').writeFileSync(${JSON.stringify(guard.marker)}, 'x');\n%}\n\n### two\nGET ${server.url}/two\n\n> {%\n  Promise.resolve().then(() => { for (;;); });\n%}\n`,
      );
      const result = await runCli(['run', 'api.http'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toMatch(/E_SCRIPT.*api\.http:5.*needs Node access \(process\)/);
      expect(result.stdout + result.stderr).toMatch(/api\.http:1[23].*timed out/);
      expect(result.stdout).toMatch(/0 passed/);
      expect(server.requests.map((r) => r.url)).toEqual(['/one', '/two']);
      guard.assertUntouched();
    } finally {
      await server.close();
    }
  });

  it('Node access: refused by default, granted by --allow-node, DIAL_ALLOW_NODE=1 or dial trust, never by the repository', async () => {
    const guard = outsideGuard();
    const dir = tempDir('dial-fault-');
    const configDir = tempDir('dial-config-');
    const server = await startRecordingServer();
    try {
      writeFileSync(join(dir, 'secret.txt'), 'from-a-file');
      writeFileSync(
        join(dir, 'api.http'),
        `< {%\n  request.variables.set('v', require('fs').readFileSync(__dirnameOf('secret.txt'), 'utf8'));\n%}\nGET ${server.url}/x?v={{v}}\n`.replace(
          "__dirnameOf('secret.txt')",
          JSON.stringify(join(dir, 'secret.txt')),
        ),
      );
      // A repository cannot grant itself trust: a config file or .env inside it changes nothing.
      writeFileSync(join(dir, '.env'), 'DIAL_ALLOW_NODE=1\n');
      writeFileSync(join(dir, 'trusted.json'), JSON.stringify({ folders: [dir] }));
      // Refused before anything is sent: the run checks every script's modules first.
      const refused = await runCli(['run', 'api.http'], { cwd: dir, configDir });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(
        /error\[E_SCRIPT\] .*api\.http:2: the script loads 'fs', which needs Node access; nothing was sent/,
      );
      // The hint names the command with the file's folder filled in.
      expect(refused.stderr).toContain(`run \`dial trust ${dir}\` once (or pass --allow-node`);
      expect(server.requests).toHaveLength(0);

      const flag = await runCli(['run', '--allow-node', 'api.http'], { cwd: dir, configDir });
      expect(flag.code, flag.stdout + flag.stderr).toBe(0);
      const envVar = await runCli(['run', 'api.http'], { cwd: dir, configDir, env: { DIAL_ALLOW_NODE: '1' } });
      expect(envVar.code).toBe(0);
      const trust = await runCli(['trust', dir], { configDir });
      expect(trust.code).toBe(0);
      const trusted = await runCli(['run', 'api.http'], { cwd: dir, configDir });
      expect(trusted.code).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/x?v=from-a-file', '/x?v=from-a-file', '/x?v=from-a-file']);
      await runCli(['trust', '--remove', dir], { configDir });
      expect((await runCli(['run', 'api.http'], { cwd: dir, configDir })).code).toBe(3);
      guard.assertUntouched();
    } finally {
      await server.close();
    }
  });
});
