import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHttpFile } from '../../../src/core/httpfile/index.js';
import { createResponseView } from '../../../src/core/assert/index.js';
import { ScriptRunner, type ScriptEnvironment } from '../../../src/core/script/index.js';
import { DialError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';

function env(overrides: Partial<ScriptEnvironment> = {}): ScriptEnvironment {
  return {
    globals: new Map(),
    requestVariables: new Map(),
    environment: (name) => ({ host: 'http://h' })[name],
    response: createResponseView({
      status: 200,
      headers: [
        ['Content-Type', 'application/json; charset=utf-8'],
        ['X-A', '1'],
        ['X-A', '2'],
      ],
      durationMs: 5,
      bytes: Buffer.from('{"items":[{"id":7}],"token":"t"}'),
    }),
    ...overrides,
  };
}

function fileWith(handler: string, dir = tempDir()) {
  const text = `### one\nGET http://x/\n\n> {%\n${handler}\n%}\n`;
  return parseHttpFile(text, join(dir, 'a.http'));
}

async function runHandler(code: string, e = env(), runner = new ScriptRunner()) {
  const file = fileWith(code);
  const script = file.requests[0].handlers[0];
  return runner.run(script, file, e);
}

describe('Node-style crypto in the sandbox', () => {
  it("require('crypto').randomBytes(n) gives n random bytes, as a Buffer", async () => {
    const e = env();
    await runHandler(
      "var c = require('crypto'); var a = c.randomBytes(16); client.global.set('hex', a.toString('hex')); client.global.set('b', c.randomBytes(16).toString('hex'));",
      e,
    );
    expect(e.globals.get('hex')).toMatch(/^[0-9a-f]{32}$/);
    expect(e.globals.get('b')).not.toBe(e.globals.get('hex'));
  });
});

describe('script sandbox', () => {
  it('runs client.test with the response API and records passes and failures', async () => {
    const outcome = await runHandler(`
client.test("has items", () => { client.assert(response.body.items.length > 0, "no items"); });
client.test("status", function () { client.assert(response.status === 201, "expected 201"); });
client.test("headers", () => {
  client.assert(response.headers.valueOf("x-a") === "1");
  client.assert(response.headers.valuesOf("X-A").join() === "1,2");
  client.assert(response.contentType.mimeType === "application/json");
  client.assert(response.contentType.charset === "utf-8");
});
client.log("token", response.body.token, {a: 1});`);
    expect(outcome.tests).toEqual([
      { name: 'has items', passed: true },
      { name: 'status', passed: false, message: 'expected 201' },
      { name: 'headers', passed: true },
    ]);
    expect(outcome.logs).toEqual(['token t {"a":1}']);
  });

  it('client.global is shared; request.variables and environment work', async () => {
    const e = env();
    await runHandler('client.global.set("firstId", response.body.items[0].id); request.variables.set("v", 5);', e);
    expect(e.globals.get('firstId')).toBe(7);
    expect(e.requestVariables.get('v')).toBe('5');
    const out = await runHandler(
      'client.test("g", () => { client.assert(client.global.get("firstId") === 7); client.assert(request.environment.get("host") === "http://h"); client.assert(!client.global.isEmpty()); }); client.global.clear("firstId");',
      e,
    );
    expect(out.tests[0].passed).toBe(true);
    expect(e.globals.has('firstId')).toBe(false);
  });

  it('client.assert outside a test fails a check', async () => {
    const outcome = await runHandler('client.assert(false, "top-level check");');
    expect(outcome.tests).toEqual([{ name: 'top-level check', passed: false, message: 'top-level check' }]);
  });

  it('a runtime error points at the .http line', async () => {
    // handler code starts on line 5 of the file; the throw is on its second line = line 6
    const error = await runHandler('const a = 1;\nnull.boom;').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DialError);
    expect((error as DialError).code).toBe('E_SCRIPT');
    expect((error as DialError).location?.line).toBe(6);
    expect((error as DialError).location?.file).toMatch(/a\.http$/);
    expect((error as DialError).message).toMatch(/TypeError/);
  });

  it('a syntax error points at the .http line', async () => {
    const error = (await runHandler('let ok = 1;\nlet = = ;').catch((e: unknown) => e)) as DialError;
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toMatch(/syntax error/);
    expect(error.location?.line).toBe(6);
  });

  it('times out an endless loop and an endless promise', async () => {
    const runner = new ScriptRunner(200);
    const sync = (await runHandler('while (true) {}', env(), runner).catch((e: unknown) => e)) as DialError;
    expect(sync.code).toBe('E_SCRIPT');
    expect(sync.message).toMatch(/timed out/);
    const asyncError = (await runHandler('await new Promise(() => {});', env(), runner).catch(
      (e: unknown) => e,
    )) as DialError;
    expect(asyncError.message).toMatch(/never finished/);
  });

  it('unsupported JetBrains APIs fail with a clear E_SCRIPT message', async () => {
    // $random.integer(n): one bound has no documented meaning (sweep 14), nor an empty range.
    for (const code of ['client.websocket', 'fetch("http://x")', '$random.integer(100000)', '$random.float(5, 5)']) {
      const error = (await runHandler(code).catch((e: unknown) => e)) as DialError;
      expect(error.code, code).toBe('E_SCRIPT');
      expect(error.message, code).toMatch(/is not supported in dial scripts/);
    }
  });

  it('client.exit() ends the script there, also inside client.test, and nothing fails', async () => {
    const outcome = await runHandler(
      'client.log("before");\nclient.test("kept", () => client.assert(true));\nclient.test("ends", () => { client.exit(); });\nclient.log("after");',
    );
    expect(outcome.logs).toEqual(['before']);
    expect(outcome.tests).toEqual([{ name: 'kept', passed: true }]);
  });

  it('jsonPath(): a definite path gives its value (null when absent), any other path the list of matches', async () => {
    const outcome = await runHandler(
      'client.log(jsonPath(response.body, "$.items[0].id"), jsonPath(response.body, "$.nope"), JSON.stringify(jsonPath(response.body, "$.items[*].id")), jsonPath(\'{"a": {"b": 2}}\', "$.a.b"));',
    );
    expect(outcome.logs).toEqual(['7 null [7] 2']);
  });

  it('client.variables (JetBrains 2025.3): global, environment, request and the file variables named literally', async () => {
    const file = parseHttpFile(
      '@who = ann\n@path = /p/{{who}}\n@other = {{login.response.body.$.id}}\n< {%\nclient.variables.request.set("r", client.variables.file.get("path"));\nclient.variables.global.set("g", 1);\nclient.log(client.variables.file.get("who"), client.variables.request.get("r"), client.variables.global.get("g"), client.variables.environment.get("host"), client.variables.file.get("nope"));\n%}\nGET http://x/\n\n###\n< {% client.log(client.variables.file.get("other")); %}\nGET http://x/2\n',
      '/w/v.http',
    );
    const { scriptRequest, trySubstitute } = await import('../../../src/core/script/api.js');
    const request = scriptRequest(file.requests[0], (text) =>
      trySubstitute(text, async (template) => {
        if (template === '{{who}}') return 'ann';
        throw new Error('undefined');
      }),
    );
    const e = env({ response: undefined, request });
    const outcome = await new ScriptRunner().run(file.requests[0].preScripts[0], file, e);
    expect(outcome.logs).toEqual(['ann /p/ann 1 http://h null']);
    expect(e.requestVariables.get('r')).toBe('/p/ann');
    expect(e.globals.get('g')).toBe(1);
    // A file variable that reads another request is not filled in for a script: an error, never null.
    const error = (await new ScriptRunner()
      .run(file.requests[1].preScripts[0], file, env({ response: undefined, request }))
      .catch((err: unknown) => err)) as DialError;
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toContain("client.variables.file.get('other')");
  });

  it('client.global.headers.set/clear fill the map the session reads; bad names and line breaks are errors', async () => {
    const globalHeaders = new Map<string, [string, string]>();
    await runHandler(
      'client.global.headers.set("X-A", "1");\nclient.global.headers.set("Authorization", "Bearer " + response.body.token);\nclient.global.headers.set("x-a", 2);\nclient.global.headers.clear("AUTHORIZATION");',
      env({ globalHeaders }),
    );
    expect([...globalHeaders]).toEqual([['x-a', ['x-a', '2']]]);
    for (const code of ['client.global.headers.set("A B", "1")', 'client.global.headers.set("X", "a\\r\\nB: c")']) {
      const error = (await runHandler(code, env({ globalHeaders })).catch((e: unknown) => e)) as DialError;
      expect(error.code, code).toBe('E_SCRIPT');
    }
  });

  it('request.url / headers / body: as written, and with the known variables filled in', async () => {
    const file = parseHttpFile(
      '< {%\nclient.log(request.url.getRaw(), request.url.tryGetSubstituted(), request.url.startsWith("{{"));\nclient.log(request.headers.findByName("x-k").getRawValue(), request.headers.findByName("X-K").tryGetSubstitutedValue(), request.headers.findByName("nope"), request.headers.all().length);\nclient.log(request.body.getRaw(), request.body.tryGetSubstituted());\n%}\nPOST {{host}}/a\nX-K: {{k}}\n\n{"k": "{{k}}", "m": "{{missing}}"}\n',
      '/w/a.http',
    );
    const values: Record<string, string> = { '{{host}}': 'http://h', '{{k}}': 'v' };
    const { scriptRequest, trySubstitute } = await import('../../../src/core/script/api.js');
    const request = scriptRequest(file.requests[0], (text) =>
      trySubstitute(text, async (template) => {
        if (template in values) return values[template];
        throw new Error('undefined');
      }),
    );
    const outcome = await new ScriptRunner().run(
      file.requests[0].preScripts[0],
      file,
      env({ response: undefined, request }),
    );
    expect(outcome.logs).toEqual([
      '{{host}}/a http://h/a true',
      '{{k}} v null 1',
      '{"k": "{{k}}", "m": "{{missing}}"} {"k": "v", "m": "{{missing}}"}',
    ]);
    // A variable the script sets itself and then reads substituted: an error, never a stale text.
    const late = parseHttpFile(
      '< {%\nrequest.variables.set("k", "late");\nclient.log(request.headers.findByName("X-K").tryGetSubstitutedValue());\n%}\nGET http://h/\nX-K: {{k}}\n',
      '/w/b.http',
    );
    const lateRequest = scriptRequest(late.requests[0], (text) =>
      trySubstitute(text, async () => Promise.reject(new Error('x'))),
    );
    const error = (await new ScriptRunner()
      .run(late.requests[0].preScripts[0], late, env({ response: undefined, request: lateRequest }))
      .catch((e: unknown) => e)) as DialError;
    expect(error.code).toBe('E_SCRIPT');
    expect(error.message).toContain("request.variables.set('k')");
    expect(error.location?.line).toBe(3);
  });

  it('Node access is refused without trust, with the way to allow it', async () => {
    for (const code of ['process.exit(1)', 'require("fs")', 'require("child_process")']) {
      const error = (await runHandler(code, env(), new ScriptRunner(5000, { allowNode: false })).catch(
        (e: unknown) => e,
      )) as DialError;
      expect(error.code, code).toBe('E_SCRIPT');
      expect(error.message, code).toMatch(/needs Node access/);
      expect(error.hint, code).toMatch(/dial trust/);
      expect(error.location?.line, code).toBe(5);
    }
  });

  it('crypto, $random, assert and the pure modules work in the sandbox', async () => {
    const outcome = await runHandler(`
client.test("sha256", () => client.assert(crypto.sha256().updateWithText("abc").digest().toHex() === "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
client.test("hmac", () => client.assert(crypto.hmac.sha256().withTextSecret("k").updateWithText("m").digest().toBase64() === require("crypto").createHmac("sha256", "k").update("m").digest("base64")));
client.test("uuid", () => client.assert(/^[0-9a-f-]{36}$/.test($random.uuid)));
client.test("int", () => { const n = $random.integer(1, 3); client.assert(n >= 1 && n < 3); });
client.test("node assert", () => require("assert").deepStrictEqual(response.body.items, [{ id: 7 }]));
client.test("chai", () => require("chai").expect(response.body).to.have.property("token", "t"));
client.test("chai fails", () => require("chai").expect(1).to.equal(2));
client.test("kulala", () => { assert.same(response.body.token, "t"); assert.jsonHas("items.0.id", 7); });`);
    expect(outcome.tests.map((t) => [t.name, t.passed])).toEqual([
      ['sha256', true],
      ['hmac', true],
      ['uuid', true],
      ['int', true],
      ['node assert', true],
      ['chai', true],
      ['chai fails', false],
      ['kulala', true],
    ]);
    expect(outcome.tests[6].message).toMatch(/expected 1 to equal 2/);
  });

  it('toBase64(true) gives URL-safe base64, as httpyac and JetBrains do', async () => {
    // sha256("test") in base64 holds both '+' and '/': the URL-safe form has '-' and '_' and no padding.
    const e = env();
    await runHandler(
      `
const d = () => crypto.sha256().updateWithText("test", "utf-8").digest();
client.global.set("plain", d().toBase64());
client.global.set("safe", d().toBase64(true));
client.global.set("safe2", d().toUrlSafeBase64());`,
      e,
    );
    expect(e.globals.get('plain')).toBe('n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=');
    expect(e.globals.get('safe')).toBe('n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg');
    expect(e.globals.get('safe2')).toBe('n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg');
  });

  it("Date#toString is Node's text, with the time zone's name (httpyac's {{new Date().toString()}})", async () => {
    const e = env();
    await runHandler('client.global.set("d", new Date(86400000).toString());', e);
    expect(e.globals.get('d')).toBe(new Date(86400000).toString());
  });

  it('a trusted runner gives scripts require and process', async () => {
    const outcome = await runHandler(
      'client.test("node", () => client.assert(typeof require("fs").readFileSync === "function" && typeof process.pid === "number"));',
      env(),
      new ScriptRunner(5000, { allowNode: true }),
    );
    expect(outcome.tests).toEqual([{ name: 'node', passed: true }]);
  });

  it('runs a handler file relative to the .http file and maps its line', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'handler.js'),
      'client.test("from file", () => client.assert(response.status === 200));\n\nundefinedFn();\n',
    );
    const file = parseHttpFile('GET http://x/\n\n> ./handler.js\n', join(dir, 'b.http'));
    const runner = new ScriptRunner();
    const error = (await runner.run(file.requests[0].handlers[0], file, env()).catch((e: unknown) => e)) as DialError;
    expect(error.code).toBe('E_SCRIPT');
    expect(error.location?.file).toBe(join(dir, 'handler.js'));
    expect(error.location?.line).toBe(3);
  });

  it('scripts are isolated from each other but share the context cheaply', async () => {
    const runner = new ScriptRunner();
    await runHandler('var leaked = 1;', env(), runner);
    const out = await runHandler(
      'client.test("no leak", () => client.assert(typeof leaked === "undefined"));',
      env(),
      runner,
    );
    expect(out.tests[0].passed).toBe(true);
  });
});

describe("JetBrains' request.variables.clear / clearAll / isEmpty (its http-client.pre-request stub)", () => {
  it('clears one variable, then all, and says whether any is left', async () => {
    const e = env({ requestVariables: new Map([['kept', 'k']]) });
    const outcome = await runHandler(
      [
        'request.variables.set("a", "1");',
        'request.variables.clear("a");',
        'client.log(request.variables.get("a"), request.variables.isEmpty());',
        'request.variables.clearAll();',
        'client.log(request.variables.get("kept"), request.variables.isEmpty(), client.variables.request.isEmpty());',
      ].join('\n'),
      e,
    );
    expect(outcome.logs).toEqual(['null false', 'null true true']);
    expect(e.requestVariables.size).toBe(0);
  });
});

describe('timers wait on the real clock (httpyac sleep(ms), setTimeout)', () => {
  it('sleep-like setTimeout really waits, and Date sees the time go by', async () => {
    const e = env();
    const started = Date.now();
    await runHandler(
      'const t0 = Date.now(); await new Promise((done) => setTimeout(done, 250)); client.global.set("spent", String(Date.now() - t0));',
      e,
      new ScriptRunner(2000, { allowNode: false }),
    );
    expect(Number(e.globals.get('spent'))).toBeGreaterThanOrEqual(240);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  it('timers fire in the order of their due time', async () => {
    const e = env();
    await runHandler(
      'const seen = []; await new Promise((done) => { setTimeout(() => { seen.push("b"); done(); }, 60); setTimeout(() => seen.push("a"), 20); }); client.global.set("order", seen.join(""));',
      e,
      new ScriptRunner(2000, { allowNode: false }),
    );
    expect(e.globals.get('order')).toBe('ab');
  });

  it('a timer due after the time limit is refused at once, never run early', async () => {
    const started = Date.now();
    const error = (await runHandler(
      'await new Promise((done) => setTimeout(done, 10000)); client.global.set("ran", "yes");',
      env(),
      new ScriptRunner(1000, { allowNode: false }),
    ).catch((e: unknown) => e)) as DialError;
    expect(error).toBeInstanceOf(DialError);
    expect(error.code).toBe('E_SCRIPT');
    // "due in" counts from when the timer is looked at: a millisecond may have gone by since it was set.
    const due = /timed out after 1 s \(a timer .* due in (\d+) ms, past that limit\)/.exec(error.message);
    expect(due, error.message).not.toBeNull();
    expect(Number(due![1])).toBeGreaterThan(9000);
    expect(Number(due![1])).toBeLessThanOrEqual(10000);
    expect(Date.now() - started).toBeLessThan(900);
  });
});

describe('a wait written as a number past the time limit is refused before sending', () => {
  it('httpyac sleep(10000) in a block: E_SCRIPT at its line; a short one passes', async () => {
    const dir = tempDir();
    const long = parseHttpFile(
      '{{\n  exports.a = 1;\n  await sleep(10_000);\n}}\nGET http://x/?a={{a}}\n',
      join(dir, 'long.http'),
    );
    const error = (await new ScriptRunner(5000, { allowNode: false })
      .checkModules(long)
      .catch((e: unknown) => e)) as DialError;
    expect(error).toBeInstanceOf(DialError);
    expect(error.code).toBe('E_SCRIPT');
    expect(error.location).toEqual({ file: join(dir, 'long.http'), line: 3 });
    expect(error.message).toContain('waits 10000 ms, past the 5 s script time limit');
    const short = parseHttpFile('{{\n  await sleep(200);\n}}\nGET http://x/\n', join(dir, 'short.http'));
    await expect(new ScriptRunner(5000, { allowNode: false }).checkModules(short)).resolves.toBeUndefined();
  });

  it('setTimeout(fn, 60000) in a JetBrains handler: refused at its line', async () => {
    const file = fileWith('setTimeout(() => client.global.set("a", "1"), 60000);');
    const error = (await new ScriptRunner(5000, { allowNode: false })
      .checkModules(file)
      .catch((e: unknown) => e)) as DialError;
    expect(error.code).toBe('E_SCRIPT');
    expect(error.location?.line).toBe(5);
  });
});

describe('URL and URLSearchParams in the sandbox (WHATWG, as Node gives them)', () => {
  it('parses, resolves against a base, reads and changes parts and query parameters', async () => {
    const e = env();
    await runHandler(
      `const u = new URL('/a/b?x=1&y=two%20words#h', 'https://user:pw@example.com:8443/base');
       const out = [u.href, u.origin, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.username, u.searchParams.get('y'), u.searchParams.get('none'), String(u.searchParams.has('x'))];
       u.searchParams.set('x', 'a&b'); u.searchParams.append('z', 'é'); u.searchParams.delete('y');
       out.push(u.toString(), [...u.searchParams.keys()].join(','));
       u.pathname = '/c d'; u.hash = '';
       out.push(u.href, JSON.stringify({ u }), String(URL.canParse('nope')), new URLSearchParams({ q: 'a b', n: 1 }).toString());
       let invalid = ''; try { new URL('not a url'); } catch (err) { invalid = err.name + ': ' + err.message; }
       out.push(invalid);
       client.global.set('out', JSON.stringify(out));`,
      e,
      new ScriptRunner(2000, { allowNode: false }),
    );
    const out = JSON.parse(String(e.globals.get('out'))) as string[];
    const u = new URL('/a/b?x=1&y=two%20words#h', 'https://user:pw@example.com:8443/base');
    expect(out.slice(0, 12)).toEqual([
      u.href,
      u.origin,
      u.host,
      u.hostname,
      u.port,
      u.pathname,
      u.search,
      u.hash,
      u.username,
      'two words',
      null,
      'true',
    ]);
    u.searchParams.set('x', 'a&b');
    u.searchParams.append('z', 'é');
    u.searchParams.delete('y');
    expect(out[12]).toBe(u.toString());
    expect(out[13]).toBe('x,z');
    u.pathname = '/c d';
    u.hash = '';
    expect(out[14]).toBe(u.href);
    expect(out[15]).toBe(JSON.stringify({ u }));
    expect(out.slice(16)).toEqual(['false', 'q=a+b&n=1', 'TypeError: Invalid URL']);
  });
});
