/**
 * httpyac files end to end (built CLI against real servers on 127.0.0.1:0): `{{ }}` blocks before
 * and after requests, global and `{{+ }}` blocks, `# @import`, `gql < file`, CONNECT, and the
 * refusals before anything is sent.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { generateCertificate, startHttpsServer, startRecordingServer } from '../helpers/servers.js';
import { startTestProxy } from '../helpers/proxy.js';

function workspace(files: Record<string, string>): string {
  const dir = tempDir('dial-httpyac-');
  mkdirSync(join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const HY = '# @dialect httpyac\n';

async function jsonServer(answer: (url: string) => unknown) {
  return startRecordingServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(answer(request.url)));
  });
}

describe('httpyac {{ }} blocks', () => {
  it('runs a block before the request (request, crypto) and one after it (response, test, exports for later requests)', async () => {
    const server = await jsonServer((url) => (url === '/login' ? { token: 'T-9', user: { id: 4 } } : { ok: true }));
    try {
      const text =
        `${HY}{{\n  const crypto = require('crypto');\n  exports.sig = crypto.createHmac('sha256', 'k').update(request.method + ' ' + request.url).digest('hex').slice(0, 8);\n}}\n` +
        `POST ${server.url}/login\nX-Sig: {{sig}}\n\n{"user": "ada"}\n\n` +
        `{{\n  test('has a token', () => { if (!response.parsedBody.token) throw new Error('no token'); });\n  test.status(200);\n  exports.token = response.parsedBody.token;\n  exports.userId = response.user.id;\n}}\n\n` +
        `GET ${server.url}/users/{{userId}}\nAuthorization: Bearer {{token}}\n\n{{\n  test.status(201);\n}}\n`;
      const result = await runCli(['run', 'a.http'], { cwd: workspace({ 'a.http': text }) });
      // test.status(201) fails: a failed test (exit 1), after everything was sent.
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toContain('response status is 200 (expected: 201)');
      const [login, users] = server.requests;
      const { createHmac } = await import('node:crypto');
      expect(login.headers['x-sig']).toBe(
        createHmac('sha256', 'k').update(`POST ${server.url}/login`).digest('hex').slice(0, 8),
      );
      expect(JSON.parse(login.body.toString())).toEqual({ user: 'ada' });
      expect(`${users.url} ${users.headers.authorization}`).toBe('/users/4 Bearer T-9');
    } finally {
      await server.close();
    }
  });

  it('a failed assert in a block is a failed test; Buffer and btoa work in expressions', async () => {
    const server = await jsonServer(() => ({ authenticated: false }));
    try {
      const text = `${HY}@user = doe\n@password = pw\n\nGET ${server.url}/a\nAuthorization: Basic {{Buffer.from(user + ":" + password).toString('base64')}}\nX-B: {{btoa(user)}}\n\n{{\n  const assert = require('assert');\n  assert.equal(response.parsedBody.authenticated, true, 'Basic Auth works');\n}}\n`;
      const result = await runCli(['run', 'b.http'], { cwd: workspace({ 'b.http': text }) });
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toContain('Basic Auth works');
      expect(server.requests[0].headers.authorization).toBe(`Basic ${Buffer.from('doe:pw').toString('base64')}`);
      expect(server.requests[0].headers['x-b']).toBe(Buffer.from('doe').toString('base64'));
    } finally {
      await server.close();
    }
  });

  it('global blocks run once before the requests, {{+ }} blocks before each, {{@response}} after each', async () => {
    const server = await jsonServer((url) => ({ url }));
    try {
      const text =
        `${HY}{{\n  exports.startedAt = 'once-' + String(1 + 1);\n}}\n{{@response\n  exports.lastUrl = response.parsedBody.url;\n}}\n###\n` +
        `{{+\n  exports.counter = (typeof counter === 'undefined' ? 0 : Number(counter)) + 1;\n}}\n` +
        `GET ${server.url}/one?s={{startedAt}}&n={{counter}}\n\n###\nGET ${server.url}/two?last={{lastUrl}}&n={{counter}}\n`;
      const result = await runCli(['run', 'g.http'], { cwd: workspace({ 'g.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/one?s=once-2&n=1', '/two?last=/one?s=once-2&n=1&n=2']);
    } finally {
      await server.close();
    }
  });

  it('refuses a block that loads an npm package, and {{require(…)}}, before sending anything (exit 3)', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const block = await runCli(['run', 'm.http'], {
        cwd: workspace({
          'm.http': `${HY}GET ${server.url}/a\n\n###\n{{\n  const _ = require('lodash');\n  exports.id = _.uniqueId();\n}}\nGET ${server.url}/b\n`,
        }),
      });
      expect(block.code).toBe(3);
      expect(block.stderr).toMatch(/m\.http:6.*'lodash'/);
      const inline = await runCli(['run', 'f.http'], {
        cwd: workspace({
          'f.http': `${HY}GET ${server.url}/a\n\nPOST ${server.url}/b\n\n{"name": "{{require('faker').name.findName()}}"}\n`,
        }),
      });
      expect(inline.code).toBe(3);
      expect(inline.stderr).toMatch(/f\.http:6.*'faker'/);
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});

describe('httpyac # @import, gql files, CONNECT', () => {
  it('# @import makes the other file’s named requests and variables available; @ref runs them once', async () => {
    const server = await jsonServer((url) => (url === '/login' ? { token: 'tk' } : {}));
    try {
      const cwd = workspace({
        'auth.http': `${HY}@tenant = acme\n\n# @name login\nPOST ${server.url}/login\n\n###\n# @name unused\nGET ${server.url}/unused\n`,
        'main.http': `${HY}# @import ./auth.http\n###\n# @ref login\nGET ${server.url}/a?t={{login.token}}&tenant={{tenant}}\n\n###\n# @ref login\nGET ${server.url}/b\n`,
      });
      const result = await runCli(['run', 'main.http'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /login',
        'GET /a?t=tk&tenant=acme',
        'GET /b',
      ]);
      const missing = await runCli(['run', 'x.http'], {
        cwd: workspace({ 'x.http': `${HY}# @import ./nope.http\nGET ${server.url}/c\n` }),
      });
      expect(missing.code).not.toBe(0);
      expect(missing.stdout + missing.stderr).toMatch(/x\.http:2.*@import: cannot read \.\/nope\.http/s);
    } finally {
      await server.close();
    }
  });

  it('gql name < ./file sends the file’s query with the variables after it', async () => {
    const server = await jsonServer(() => ({ data: {} }));
    try {
      const cwd = workspace({
        'q.gql': 'query one($id: ID!) { item(id: $id) { ...F } }',
        'g.http': `${HY}fragment F on Item {\n  name\n}\n\nPOST ${server.url}/graphql\nContent-Type: application/json\n\ngql one < ./q.gql\n\n{"id": "{{id}}"}\n`,
      });
      const result = await runCli(['run', 'g.http', '--var', 'id=7'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(JSON.parse(server.requests[0].body.toString())).toEqual({
        query: 'query one($id: ID!) { item(id: $id) { ...F } }\nfragment F on Item {\n  name\n}',
        operationName: 'one',
        variables: { id: '7' },
      });
    } finally {
      await server.close();
    }
  });

  it('sends CONNECT, shows the answer and closes the tunnel, then goes on', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.end('{}');
    });
    server.on('connect', (request, socket) => {
      seen.push(`CONNECT ${request.url}`);
      socket.end('HTTP/1.1 200 Connection Established\r\n\r\n');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const result = await runCli(['run', 'c.http'], {
        cwd: workspace({ 'c.http': `${HY}CONNECT ${origin}/connect\n\nGET ${origin}/after\n` }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(seen).toEqual(['CONNECT /connect', 'GET /after']);
    } finally {
      await new Promise<void>((done) => server.close(() => done()));
    }
  });

  it('# @loop sends once per pass ($index, the item), # @sleep waits, # @jwt parses tokens for the scripts', async () => {
    const token = `x.${Buffer.from('{"sub":"ada"}').toString('base64url')}.y`;
    const server = await jsonServer((url) => (url?.startsWith('/login') ? { token } : {}));
    try {
      const text = `${HY}{{\n  exports.items = [{ "id": 7 }, { "id": 8 }];\n}}\n###\n# @loop for item of items\nGET ${server.url}/of?id={{item.id}}&i={{$index}}\n\n###\n# @loop for 2\n# @sleep 50\nGET ${server.url}/for?i={{$index}}\n\n###\n# @jwt token\nPOST ${server.url}/login\n\n{{\n  exports.subject = response.parsedBody.token_parsed.sub;\n}}\n\nGET ${server.url}/me?sub={{subject}}\n`;
      const cwd = workspace({ 'l.http': text });
      const result = await runCli(['run', 'l.http'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual([
        '/of?id=7&i=0',
        '/of?id=8&i=1',
        '/for?i=0',
        '/for?i=1',
        '/login',
        '/me?sub=ada',
      ]);
      const send = await runCli(['send', 'l.http#2'], { cwd });
      expect(send.code).toBe(3);
      expect(send.stderr).toMatch(/l\.http:10.*# @loop/s);
    } finally {
      await server.close();
    }
  });

  it("this.name, this['name'] and this[`name${$index}`] read httpyac's variables object; a computed key is refused before sending", async () => {
    const server = await jsonServer((url) => ({
      args: { item: new URL(url ?? '/', 'http://x').searchParams.get('item') },
    }));
    try {
      const text =
        `${HY}@user = ada\n{{\n  exports.data = ['alpha', 'beta'];\n  exports.seen = [];\n}}\n###\n# @loop for item of data\n# @name pass\nGET ${server.url}/a?item={{item}}\n\n` +
        `{{\n  exports.seen = [...this.seen, this[\`pass\${$index}\`].args.item];\n}}\n\n###\n` +
        `{{\n  exports.who = this['user'] + '-' + String(this.nothing) + '-' + this.seen.join('+');\n}}\nGET ${server.url}/b?who={{who}}&n={{ this.seen.length }}\n`;
      const result = await runCli(['run', 't.http'], { cwd: workspace({ 't.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual([
        '/a?item=alpha',
        '/a?item=beta',
        '/b?who=ada-undefined-alpha+beta&n=2',
      ]);
      const computed = `${HY}@k = user\n@user = ada\nGET ${server.url}/c\n\n{{\n  const key = k;\n  exports.v = this[key];\n}}\n`;
      const refused = await runCli(['run', 'c.http'], { cwd: workspace({ 'c.http': computed }) });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/c\.http:8.*this\[…\] with a computed key/s);
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it("$httpyac.execute('name') in a block above the request runs that request first; other $httpyac calls are refused before sending", async () => {
    let n = 0;
    const server = await jsonServer(() => ({ n: ++n }));
    try {
      const text = `${HY}# @name count\nGET ${server.url}/count\n\n###\n{{\n  await $httpyac.execute('count');\n}}\nPOST ${server.url}/use\n\n{{count.n}}\n`;
      const cwd = workspace({
        'e.http': text,
        'i.http': `${HY}{{\n  await $httpyac.import('./e.http');\n}}\nGET ${server.url}/i\n`,
      });
      const result = await runCli(['run', 'e.http'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body}`)).toEqual([
        'GET /count ',
        'GET /count ',
        'POST /use 2',
      ]);
      const refused = await runCli(['run', 'i.http'], { cwd });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toMatch(/i\.http:3.*\$httpyac API/s);
      expect(server.requests).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('a request whose # @ref was cancelled (exports.$cancel) is skipped too, as httpyac does; nothing is sent', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const text = `${HY}# @name login\n{{\n  exports.$cancel = true;\n}}\nGET ${server.url}/login\n\n###\n# @ref login\nGET ${server.url}/me\n\n###\nGET ${server.url}/free\n`;
      const result = await runCli(['run', 'r.http'], { cwd: workspace({ 'r.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(
        /0 passed, 0 failed, 0 errored, 2 skipped|1 passed, 0 failed, 0 errored, 2 skipped/,
      );
      expect(server.requests.map((r) => r.url)).toEqual(['/free']);
    } finally {
      await server.close();
    }
  });

  it('# @import two levels deep: c imports b, whose # @ref names a request of a (imported by c too)', async () => {
    const server = await startRecordingServer((request, response) => {
      // As httpbin's /get: the request's headers echoed in the JSON body (httpyac's getA is the parsed body).
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ headers: { 'X-Foo': request.headers['x-foo'] } }));
    });
    try {
      const cwd = workspace({
        'a.http': `${HY}# @name getA\nGET ${server.url}/a\nX-Foo: A`,
        'b.http': `${HY}# @import ./a.http\n###\n# @name getB\n# @ref getA\nGET ${server.url}/b\nX-Foo: B-{{getA.headers["X-Foo"]}}`,
        'c.http': `${HY}# @import ./a.http\n# @import ./b.http\n\n###\n# @name getC\n# @ref getB\nGET ${server.url}/c\nX-Foo: C-{{getB.headers["X-Foo"]}}`,
      });
      const result = await runCli(['run', 'c.http'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.url} ${String(r.headers['x-foo'])}`)).toEqual([
        '/a A',
        '/b B-A',
        '/c C-B-A',
      ]);
    } finally {
      await server.close();
    }
  });

  it('# @loop while re-evaluates its condition before each pass; {{counter.index++}} changes the exported object; $index in the blocks after', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const text =
        `${HY}{{\n  exports.expression = { index: 0 };\n}}\n###\n# @loop while expression.index < 3\n# @name w\nGET ${server.url}/w?item={{6 + expression.index++}}\n\n` +
        `{{\n  console.info('pass ' + $index);\n}}\n\n###\nGET ${server.url}/after?i={{expression.index}}\n`;
      const result = await runCli(['run', 'w.http', '-v'], { cwd: workspace({ 'w.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/w?item=6', '/w?item=7', '/w?item=8', '/after?i=3']);
      expect(result.stdout).toContain('pass 2');
    } finally {
      await server.close();
    }
  });

  it('# @loop while whose condition never turns false stops at 1,000 passes with an error at the loop line', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const text = `${HY}{{\n  exports.c = { i: 0 };\n}}\n###\n# @loop while c.i >= 0\nGET ${server.url}/x\n`;
      const result = await runCli(['run', 'f.http', '--reporter', 'dot'], { cwd: workspace({ 'f.http': text }) });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/E_SCRIPT.*f\.http:6.*after 1000 passes/s);
      expect(server.requests).toHaveLength(1000);
    } finally {
      await server.close();
    }
  });

  it('@x = {{y}} is filled in where it is defined, @x := {{y}} where it is used; @x = "v" loses its opening quote only', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const text =
        `${HY}@bar = bar\n@fixed = foo{{bar}}\n@lazy := foo{{bar}}\n@later = x{{notYet}}\n@quoted = "q"\n###\nGET ${server.url}/one?f={{fixed}}&l={{lazy}}\n\n` +
        `###\n@bar = bar2\n@notYet = y\nGET ${server.url}/two?f={{fixed}}&l={{lazy}}&n={{later}}&q={{quoted}}\n`;
      const result = await runCli(['run', 'v.http'], { cwd: workspace({ 'v.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('v.http:6: httpyac drops the opening quote of @quoted only');
      expect(server.requests.map((r) => r.url)).toEqual([
        '/one?f=foobar&l=foobar',
        `/two?f=foobar&l=foobar2&n=xy&q=${encodeURIComponent('q"')}`,
      ]);
      // --var stays in charge of a name a fixed variable uses.
      server.requests.length = 0;
      await runCli(['run', 'v.http', '--var', 'bar=cli'], { cwd: workspace({ 'v.http': text }) });
      expect(server.requests[1].url).toContain('/two?f=foocli&l=foocli');
    } finally {
      await server.close();
    }
  });

  it('a config hook that changes what httpyac sends, or an httpyac plugin in package.json, is refused before anything is sent', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const http = `GET ${server.url}/a\n`;
      const hooked = workspace({
        'a.http': http,
        'httpyac.config.js':
          "module.exports = {\n  configureHooks(api) {\n    api.hooks.onRequest.addHook('coffee', (request) => { request.headers['X-Coffee'] = 'milk'; });\n  },\n};\n",
      });
      const config = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: hooked });
      expect(config.code).toBe(3);
      expect(config.stdout).toMatch(/httpyac\.config\.js:3\).*onRequest hook, which dial does not run/);
      // A hook that only logs is no reason to stop.
      const logging = workspace({
        'a.http': http,
        'httpyac.config.js':
          "module.exports = {\n  configureHooks(api) {\n    api.hooks.responseLogging.addHook('quiet', () => {});\n  },\n};\n",
      });
      expect((await runCli(['run', 'a.http'], { cwd: logging })).code).toBe(0);
      // An httpyac plugin that is not installed is skipped by httpyac too; an installed one with an onRequest hook is refused.
      const plugin = workspace({
        'a.http': http,
        'package.json':
          '{\n  "name": "x",\n  "dependencies": {\n    "httpyac-plugin-absent": "^1.0.0",\n    "httpyac-plugin-coffee": "./coffee"\n  }\n}\n',
      });
      mkdirSync(join(plugin, 'coffee'));
      writeFileSync(
        join(plugin, 'coffee', 'index.js'),
        "module.exports = (api) => {\n  api.hooks.onRequest.addHook('coffee', (request) => {\n    request.headers['X-Coffee'] = 'milk';\n  });\n};\n",
      );
      const plugged = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: plugin });
      expect(plugged.code).toBe(3);
      expect(plugged.stdout).toMatch(/coffee[/\\]index\.js:2\).*httpyac-plugin-coffee \(httpyac plugin\).*onRequest/);
      writeFileSync(
        join(plugin, 'coffee', 'index.js'),
        "module.exports = (api) => { api.hooks.responseLogging.addHook('q', () => {}); };\n",
      );
      expect((await runCli(['run', 'a.http'], { cwd: plugin })).code).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/a', '/a']);
    } finally {
      await server.close();
    }
  });

  it('{{$xpath:name //path}} reads the named request’s XML answer, {{$xpath //path}} the last one; nothing selected is an error', async () => {
    const server = await startRecordingServer((request, response) => {
      response.setHeader('content-type', 'application/xml');
      response.end('<slideshow author="Yours Truly"><slide>a</slide><slide>b</slide></slideshow>');
    });
    try {
      const text = `${HY}### foo\nGET ${server.url}/xml\n\n###\n# @ref foo\nGET ${server.url}/a?q={{$xpath:foo //@author}}&s={{$xpath //slide}}\n\n###\n# @ref foo\nGET ${server.url}/b?q={{$xpath:foo //none}}\n`;
      const result = await runCli(['run', 'x.http', '--reporter', 'dot'], { cwd: workspace({ 'x.http': text }) });
      expect(result.code).toBe(3);
      expect(result.stdout).toContain("'//none' selects nothing");
      expect(server.requests.map((r) => r.url)).toEqual(['/xml', '/a?q=Yours%20Truly&s=[%22a%22,%22b%22]']);
    } finally {
      await server.close();
    }
  });

  it('# @disabled condition is JavaScript evaluated before the send; @x = {{false}} is a boolean, @n = {{1+1}} a number', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const text = `${HY}@callRequest = {{false}}\n@n = {{1+1}}\n###\n# @disabled !callRequest\nGET ${server.url}/a\n\n###\n# @disabled callRequest\nGET ${server.url}/b?n={{n + 1}}\n`;
      const cwd = workspace({ 'd.http': text });
      const result = await runCli(['run', 'd.http'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/1 passed, 0 failed, 0 errored, 1 skipped/);
      expect(server.requests.map((r) => r.url)).toEqual(['/b?n=3']);
      // dial send does not evaluate it: refused at the line rather than sent.
      const send = await runCli(['send', 'd.http#1'], { cwd });
      expect(send.code).toBe(3);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('...defaultHeaders spreads an object variable into headers', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const text = `${HY}@user = ada\n{{\n  exports.defaultHeaders = { 'Accept': 'text/html', 'X-User': \`u-\${user}\` };\n}}\nGET ${server.url}/h\n...defaultHeaders\nX-Own: 1\n`;
      const result = await runCli(['run', 'h.http'], { cwd: workspace({ 'h.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      const { headers } = server.requests[0];
      expect([headers.accept, headers['x-user'], headers['x-own']]).toEqual(['text/html', 'u-ada', '1']);
      expect(server.requests[0].body.toString()).toBe('');
    } finally {
      await server.close();
    }
  });

  it('`response` in a later request is the file’s last response; exports.$cancel skips; require("uuid") works', async () => {
    const server = await jsonServer((url) => (url === '/info' ? { img: '/comics/a.png' } : {}));
    try {
      const text =
        `${HY}GET ${server.url}/info\n\n###\nGET ${server.url}{{response.parsedBody.img}}\n\n###\n{{\n  exports.$cancel = true;\n}}\nGET ${server.url}/never\n\n###\n` +
        `{{\n  const uuid = require('uuid');\n  exports.id = uuid.v4();\n}}\nGET ${server.url}/id?q={{id}}\n`;
      const result = await runCli(['run', 'r.http'], { cwd: workspace({ 'r.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      const urls = server.requests.map((r) => r.url);
      expect(urls.slice(0, 2)).toEqual(['/info', '/comics/a.png']);
      expect(urls[2]).toMatch(/^\/id\?q=[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
      expect(urls).toHaveLength(3);
      expect(result.stdout).toMatch(/1 skipped/);
    } finally {
      await server.close();
    }
  });

  it('a file with rooted targets and no Host header is httpyac’s: {{host}}, a split per request line, \\{\\{escapes\\}\\}, Basic user:password at the last colon', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const text = `@host=${server.url}\n@user = john doe\n###\nGET /a HTTP/1.1\nGET /b HTTP/1.1\nAuthorization: Basic {{user}}:pw\n\nPOST /c\n{"t": "My \\{\\{verb\\}\\}"}\n`;
      const result = await runCli(['run', 'h.http'], { cwd: workspace({ 'h.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /a', 'GET /b', 'POST /c']);
      expect(server.requests[1].headers.authorization).toBe(`Basic ${Buffer.from('john doe:pw').toString('base64')}`);
      expect(server.requests[2].body.toString()).toBe('{"t": "My {{verb}}"}');
    } finally {
      await server.close();
    }
  });

  it('# @proxy sends that request through the proxy', async () => {
    const server = await jsonServer(() => ({}));
    const proxy = await startTestProxy();
    try {
      const text = `${HY}# @proxy {{proxyUrl}}\nGET ${server.url}/via\n\n###\nGET ${server.url}/direct\n`;
      const result = await runCli(['run', 'p.http', '--var', `proxyUrl=${proxy.url}`], {
        cwd: workspace({ 'p.http': text }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(proxy.seen).toEqual([`${server.url}/via`]);
      expect(server.requests.map((r) => r.url)).toEqual(['/via', '/direct']);
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  it('X-ClientCert: cert: … key: … presents a client certificate and is not sent as a header', async () => {
    const client = await generateCertificate('client');
    const seen: Array<{ subject?: string; header?: string }> = [];
    const server = await startHttpsServer(
      (request, response) => {
        const socket = request.socket as import('node:tls').TLSSocket;
        seen.push({
          subject: socket.getPeerCertificate()?.subject?.CN as string | undefined,
          header: request.headers['x-clientcert'] as string,
        });
        response.end('{}');
      },
      undefined,
      { requestCert: true },
    );
    try {
      const cwd = workspace({});
      writeFileSync(join(cwd, 'c.crt'), client.cert);
      writeFileSync(join(cwd, 'c.key'), client.key);
      writeFileSync(join(cwd, 'c.http'), `${HY}GET ${server.url}/mtls\nX-ClientCert: cert: ./c.crt key: ./c.key\n`);
      const result = await runCli(['run', 'c.http', '--insecure'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(seen).toEqual([{ subject: 'client', header: undefined }]);
    } finally {
      await server.close();
    }
  });

  it('a block before the request may change it: headers, URL and body are sent as it left them', async () => {
    const server = await jsonServer(() => ({}));
    try {
      const text = `${HY}@who = ada\n{{\n  request.headers['X-Sig'] = 'sig-' + request.method;\n  delete request.headers['X-Drop'];\n  request.url = request.url + '?signed=1';\n  request.body = JSON.stringify({ wrapped: JSON.parse(request.body) });\n}}\nPOST ${server.url}/s\nX-Drop: 1\nX-Who: {{who}}\n\n{"a": "{{who}}"}\n`;
      const result = await runCli(['run', 's.http'], { cwd: workspace({ 's.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      const [sent] = server.requests;
      expect(sent.url).toBe('/s?signed=1');
      expect([sent.headers['x-sig'], sent.headers['x-drop'], sent.headers['x-who']]).toEqual([
        'sig-POST',
        undefined,
        'ada',
      ]);
      expect(JSON.parse(sent.body.toString())).toEqual({ wrapped: { a: 'ada' } });
    } finally {
      await server.close();
    }
  });

  it('{{nameResponse.headers.x}} is a header of the named request’s response', async () => {
    const server = await startRecordingServer((request, response) => {
      response.setHeader('x-trace', 'tr-1');
      response.end('{}');
    });
    try {
      const text = `${HY}# @name first\nGET ${server.url}/one\n\n###\n# @ref first\nGET ${server.url}/two?t={{firstResponse.headers.x-trace}}\n`;
      const result = await runCli(['run', 'n.http'], { cwd: workspace({ 'n.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/one', '/two?t=tr-1']);
    } finally {
      await server.close();
    }
  });

  it('a request named `get user` is the variable getUser, and runs once', async () => {
    const server = await jsonServer((url) => (url === '/user' ? { id: 5 } : {}));
    try {
      const text = `${HY}# @name get user\nGET ${server.url}/user\n\n###\nGET ${server.url}/orders?user={{getUser.id}}\n`;
      const result = await runCli(['run', 'u.http'], { cwd: workspace({ 'u.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/user', '/orders?user=5']);
    } finally {
      await server.close();
    }
  });
});
