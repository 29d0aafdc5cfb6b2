/**
 * What the fifteenth held-out sweep (tests/compat/README.md: files written for httpyac, kulala and
 * rest.nvim) found, end to end through bin/dial.js against recording servers on 127.0.0.1:0:
 * an httpyac config that hands `api` to a plugin, `cookieJarEnabled: false`, lines under the tests
 * of an httpyac request, `.env.NAME` environments, a regular expression in an httpyac expression,
 * and a kulala file marked only by its `{% -- lua` script.
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, startRecordingServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep15-', files);

/** A server that answers JSON and sets a session cookie on every response. */
function cookieServer(answer: (url: string) => unknown = () => ({ ok: true })) {
  return startRecordingServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.setHeader('set-cookie', 'session=s1; Path=/');
    response.end(JSON.stringify(answer(request.url)));
  });
}

describe('fifteenth held-out sweep: httpyac configs', () => {
  it('a configureHooks that hands api to a plugin registering onRequest is refused at the plugin, before anything is sent', () =>
    withServer(cookieServer(), async (server) => {
      const dir = workspace({
        'test.http': `# @dialect httpyac\nPOST ${server.url}/yaml\n---\nid: 1\n`,
        '.httpyac.js':
          'const plugin = require("./plugin/index");\n\nmodule.exports = {\n  configureHooks: function (api) {\n    plugin(api);\n  },\n};\n',
        'plugin/index.js': 'module.exports = (api) => {\n  api.hooks.onRequest.addHook("yaml", () => {});\n};\n',
      });
      const result = await runCli(['run', 'test.http', '--reporter', 'dot'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stdout).toMatch(/plugin\/index\.js:2\).*onRequest hook, which dial does not run/);
      expect(server.requests).toHaveLength(0);
    }));

  it('a plugin dial can read that only logs is fine; one it cannot read is refused at the call', () =>
    withServer(cookieServer(), async (server) => {
      const logging = workspace({
        'a.http': `# @dialect httpyac\nGET ${server.url}/a\n`,
        '.httpyac.js':
          'const plugin = require("./log");\nmodule.exports = {\n  configureHooks(api) {\n    plugin(api);\n  },\n};\n',
        'log.js': 'module.exports = (api) => {\n  api.hooks.responseLogging.addHook("log", () => {});\n};\n',
      });
      const sent = await runCli(['run', 'a.http'], { cwd: logging });
      expect(sent.code, sent.stderr + sent.stdout).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/a']);

      const opaque = workspace({
        'a.http': `# @dialect httpyac\nGET ${server.url}/b\n`,
        '.httpyac.js':
          'module.exports = {\n  configureHooks: (api) => {\n    require("httpyac-plugin-unknown")(api);\n  },\n};\n',
      });
      const refused = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: opaque });
      expect(refused.code).toBe(3);
      expect(refused.stdout).toMatch(/\.httpyac\.js:3\).*hands httpyac's api to require\("httpyac-plugin-unknown"\)/);
      expect(server.requests.map((r) => r.url)).toEqual(['/a']);
    }));

  it('cookieJarEnabled: false (JS literal or JSON config) sends no cookie a response set; the default jar does', () =>
    withServer(cookieServer(), async (server) => {
      const http = `# @dialect httpyac\n### login\nGET ${server.url}/login\n\n### next\nGET ${server.url}/next\n`;
      const configs: Array<Record<string, string>> = [
        { '.httpyac.js': 'module.exports = {\n  log: { level: "info" },\n  cookieJarEnabled: false,\n};\n' },
        { '.httpyac.json': '{ "cookieJarEnabled": false }\n' },
      ];
      for (const config of configs) {
        server.requests.length = 0;
        const result = await runCli(['run', 'a.http', '--no-cookie-jar'], {
          cwd: workspace({ 'a.http': http, ...config }),
        });
        expect(result.code, result.stderr).toBe(0);
        expect(server.requests.map((r) => [r.url, r.headers.cookie])).toEqual([
          ['/login', undefined],
          ['/next', undefined],
        ]);
      }
      server.requests.length = 0;
      const jar = await runCli(['run', 'a.http', '--no-cookie-jar'], { cwd: workspace({ 'a.http': http }) });
      expect(jar.code, jar.stderr).toBe(0);
      expect(server.requests[1].headers.cookie).toBe('session=s1');
    }));

  it('cookieJarEnabled in a JavaScript config that is more than a literal is refused at its line without Node access', () =>
    withServer(cookieServer(), async (server) => {
      const dir = workspace({
        'a.http': `# @dialect httpyac\nGET ${server.url}/a\n`,
        '.httpyac.js': 'const off = false;\nmodule.exports = {\n  cookieJarEnabled: off,\n};\n',
      });
      const result = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: dir, env: { DIAL_ALLOW_NODE: '' } });
      expect(result.code).toBe(3);
      expect(result.stdout).toMatch(/\.httpyac\.js:3\).*cookieJarEnabled in a JavaScript config/);
      expect(server.requests).toHaveLength(0);
    }));
});

describe('fifteenth held-out sweep: httpyac files', () => {
  it('a saved response under the tests is skipped; another line there is body text, with a warning', () =>
    withServer(startRecordingServer(), async (server) => {
      const dir = workspace({
        'a.http': [
          '# @dialect httpyac',
          `GET ${server.url}/first`,
          '?? status == 200',
          '',
          'HTTP/1.1 400  - Bad Request',
          'content-type: application/json',
          '',
          '{"message": "old"}',
          '###',
          `GET ${server.url}/second`,
          '?? status == 200',
          '',
          '---',
          '',
          '###',
          `GET ${server.url}/third`,
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'a.http'], { cwd: dir });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      expect(result.stderr).toContain(
        'a.http:13: line 13 (---) comes after the tests or scripts of the request at line 10',
      );
      expect(server.requests.map((r) => [r.url, r.body.toString('utf8')])).toEqual([
        ['/first', ''],
        ['/second', '---'],
        ['/third', ''],
      ]);
    }));

  it('-e NAME reads httpyac’s .env.NAME beside the file', () =>
    withServer(startRecordingServer(), async (server) => {
      const dir = workspace({
        'a.http': '# @dialect httpyac\nGET {{host}}/api?k={{key}}\n',
        '.env': 'key=base\n',
        '.env.production': `host=${server.url}\n`,
      });
      const result = await runCli(['run', 'a.http', '-e', 'production'], { cwd: dir });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/api?k=base']);
    }));

  it('a regular expression in an expression names no variable (no false cycle for @token = …/token=…/)', () =>
    withServer(
      startJsonServer(() => ({ Text: 'click https://x/verify?token=abc123 now' })),
      async (server) => {
        const dir = workspace({
          'a.http': [
            '# @dialect httpyac',
            `GET ${server.url}/message`,
            '',
            '@token = {{response.parsedBody.Text.match(/token=([a-zA-Z0-9\\-_.]+)/)[1]}}',
            '',
            '###',
            `POST ${server.url}/register`,
            'Content-Type: application/json',
            '',
            '{"token": "{{token}}"}',
            '',
          ].join('\n'),
        });
        const result = await runCli(['run', 'a.http'], { cwd: dir });
        expect(result.code, result.stderr + result.stdout).toBe(0);
        expect(server.requests[1].body.toString('utf8')).toBe('{"token": "abc123"}');
      },
    ));
});

describe('fifteenth held-out sweep: kulala', () => {
  it('a file whose only sign is a `{% -- lua` script is read as kulala (the Lua runs, its global is sent)', () =>
    withServer(startRecordingServer(), async (server) => {
      const dir = workspace({
        'a.http': [
          '### one',
          `GET ${server.url}/one`,
          '',
          '> {%',
          '  -- lua',
          '  client.global.test = "from-lua"',
          '%}',
          '',
          '### two',
          `GET ${server.url}/two?t={{test}}`,
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'a.http'], { cwd: dir });
      expect(result.code, result.stderr + result.stdout).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/one', '/two?t=from-lua']);
    }));
});

describe('fifteenth held-out sweep: functions a block exports', () => {
  it('an @import-ed file’s exported functions (arrow, default parameter, method) are called in later expressions and blocks', () =>
    withServer(
      cookieServer((url) =>
        url.startsWith('/menu')
          ? [
              { id: 3, price: 9 },
              { id: 5, price: 2 },
            ]
          : { ok: true },
      ),
      async (server) => {
        const dir = workspace({
          '.httpyac.json': '{ "cookieJarEnabled": false }\n',
          'common/setup.http': [
            `@base_host = ${server.url}`,
            '{{',
            '  exports.refreshCookie = (resp, existing = "") => {',
            '    const raw = resp?.headers?.["set-cookie"];',
            '    if (!raw) return existing;',
            '    return (Array.isArray(raw) ? raw[0] : raw).split(";")[0];',
            '  };',
            '  exports.menu = { cheapest(items) { return items.reduce((a, b) => (b.price < a.price ? b : a)); } };',
            '  exports.where = (path) => `${base_host}${path}`;',
            '}}',
            '',
          ].join('\n'),
          'e01/a.http': [
            '# @import ../common/setup.http',
            '@host = {{base_host}}',
            '',
            '### sign in',
            'POST /auth/login',
            '',
            '@session = {{refreshCookie(response)}}',
            '',
            '### list the menu',
            'GET /menu',
            'Cookie: {{session}}',
            '',
            '{{',
            '  exports.cheap = menu.cheapest(response.parsedBody);',
            '}}',
            '',
            '### place an order',
            'POST {{where("/orders")}}?item={{cheap.id}}',
            'Cookie: {{session}}',
            '',
          ].join('\n'),
        });
        const result = await runCli(['run', 'e01/a.http'], { cwd: dir });
        expect(result.code, result.stderr + result.stdout).toBe(0);
        expect(server.requests.map((r) => [r.method, r.url, r.headers.cookie])).toEqual([
          ['POST', '/auth/login', undefined],
          ['GET', '/menu', 'session=s1'],
          ['POST', '/orders?item=5', 'session=s1'],
        ]);
      },
    ));

  it('a function that reads a name its own block declared, or calls fetch, is refused at file:line when called', () =>
    withServer(startRecordingServer(), async (server) => {
      const dir = workspace({
        'a.http': [
          '# @dialect httpyac',
          '{{',
          '  const BASE = "http://mail/api";',
          '  exports.mailbox = () => BASE + "/messages";',
          '  exports.reset = async () => fetch("http://127.0.0.1:9/reset");',
          '}}',
          '### one',
          `GET ${server.url}/one?m={{mailbox()}}`,
          '',
          '### two',
          '{{',
          '  await reset();',
          '}}',
          `GET ${server.url}/two`,
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /a\.http:8\).*the function mailbox exported at .*a\.http:2 reads BASE of its own block, which dial cannot carry/,
      );
      expect(result.stdout).toMatch(/a\.http:11\).*'fetch' is not supported in dial scripts/);
      expect(server.requests).toHaveLength(0);
    }));
});

describe('fifteenth held-out sweep: httpyac polling', () => {
  it('a # @sleep below # @loop waits before every pass; above it, once before the loop', async () => {
    const times: number[] = [];
    await withServer(
      startJsonServer(() => {
        times.push(Date.now());
        return {};
      }),
      async (server) => {
        const below = workspace({
          'a.http': `# @dialect httpyac\n# @loop for 3\n# @sleep 1000\nGET ${server.url}/poll\n`,
        });
        const result = await runCli(['run', 'a.http'], { cwd: below });
        expect(result.code, result.stderr + result.stdout).toBe(0);
        expect(times).toHaveLength(3);
        expect(times[2] - times[0]).toBeGreaterThanOrEqual(1900);

        times.length = 0;
        const above = workspace({
          'a.http': `# @dialect httpyac\n# @sleep 1000\n# @loop for 3\nGET ${server.url}/poll\n`,
        });
        const once = await runCli(['run', 'a.http'], { cwd: above });
        expect(once.code, once.stderr + once.stdout).toBe(0);
        expect(times).toHaveLength(3);
        // No wait between passes: well under one sleep, with room for a loaded machine.
        expect(times[2] - times[0]).toBeLessThan(1000);
      },
    );
  });

  it('a failed assert in a {{ }} block before the request stops it, as in httpyac; after the response it is a failed test', () =>
    withServer(startRecordingServer(), async (server) => {
      const dir = workspace({
        'a.http': [
          '# @dialect httpyac',
          '{{',
          '  const assert = require("assert");',
          '  assert.equal(1, 2, "the job did not finish");',
          '}}',
          `GET ${server.url}/results`,
          '',
          '###',
          `GET ${server.url}/after`,
          '',
          '{{',
          '  const assert = require("assert");',
          '  assert.equal(response.statusCode, 201, "created");',
          '}}',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/a\.http:2\).*AssertionError: the job did not finish/);
      expect(server.requests.map((r) => r.url)).toEqual(['/after']);
    }));
});

describe('fifteenth held-out sweep: variables under a request', () => {
  it('take their values from that request’s response, as httpyac runs them after it (not from a later one)', () =>
    withServer(
      startRecordingServer((request, response) => {
        response.setHeader('content-type', 'application/json');
        if (request.url === '/login') response.setHeader('set-cookie', 'session=s1; Path=/');
        response.end(JSON.stringify(request.url === '/cart' ? { cart_id: 'c7' } : { other: true }));
      }),
      async (server) => {
        const dir = workspace({
          '.httpyac.json': '{ "cookieJarEnabled": false }\n',
          'a.http': [
            '# @dialect httpyac',
            '{{',
            '  exports.refreshCookie = (resp, existing = "") => {',
            '    const raw = resp?.headers?.["set-cookie"];',
            '    return raw ? (Array.isArray(raw) ? raw[0] : raw).split(";")[0] : existing;',
            '  };',
            '}}',
            '### sign in',
            `POST ${server.url}/login`,
            '',
            '@session = {{refreshCookie(response)}}',
            '',
            '### a cart',
            `POST ${server.url}/cart`,
            'Cookie: {{session}}',
            '',
            '@session = {{refreshCookie(response, session)}}',
            '@cart_id = {{response.parsedBody.cart_id}}',
            '',
            '### account',
            `GET ${server.url}/account`,
            'Cookie: {{session}}',
            '',
            '### items',
            `POST ${server.url}/cart/{{cart_id}}/items`,
            'Cookie: {{session}}',
            '',
          ].join('\n'),
        });
        const result = await runCli(['run', 'a.http'], { cwd: dir });
        expect(result.code, result.stderr + result.stdout).toBe(0);
        expect(server.requests.map((r) => [r.url, r.headers.cookie])).toEqual([
          ['/login', undefined],
          ['/cart', 'session=s1'],
          ['/account', 'session=s1'],
          ['/cart/c7/items', 'session=s1'],
        ]);
      },
    ));
});

describe('fifteenth held-out sweep: httpRegion and httpFile in blocks', () => {
  it('httpRegion.metaData.title may be set (a loop naming its passes), httpFile.fileName read; another metaData change fails the block', () =>
    withServer(startRecordingServer(), async (server) => {
      const dir = workspace({
        'a.http': [
          '# @dialect httpyac',
          '{{',
          '  exports.cases = [["zero", 0], ["five", 5]];',
          '  console.info(httpFile);',
          '}}',
          '###',
          '# @loop for testCase of cases',
          '{{',
          '  httpRegion.metaData.title = testCase[0];',
          '}}',
          `GET ${server.url}/n/{{testCase[1]}}?file={{encodeURIComponent(httpFile.fileName.split("/").pop())}}`,
          '',
          '###',
          '# @noRedirect',
          '{{',
          '  httpRegion.metaData.noRedirect = false;',
          '}}',
          `GET ${server.url}/never`,
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: dir });
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(
        /a\.http:15\).*httpRegion\.metaData\.noRedirect was changed, which dial does not apply/,
      );
      expect(server.requests.map((r) => r.url)).toEqual(['/n/0?file=a.http', '/n/5?file=a.http']);
    }));
});
