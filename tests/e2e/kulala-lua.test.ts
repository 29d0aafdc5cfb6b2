// kulala's Lua scripts (`-- lua`) through the built CLI: kulala's own recipe (cookies into
// client.global, read back as {{variables}}), request.environment, assert, skip and replay in
// `dial run`, `dial send FILE#name`, and a script refused before anything is sent.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };

beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === '/forbidden') response.statusCode = 403;
    if (request.url === '/login' && request.method === 'GET')
      response.setHeader('set-cookie', ['XSRF-TOKEN=tok%3D%3D; Path=/', 'laravel_session=first; HttpOnly']);
    if (request.url === '/login' && request.method === 'POST')
      response.setHeader('set-cookie', ['laravel_session=authenticated; HttpOnly']);
    let json: unknown = null;
    try {
      json = JSON.parse(request.body.toString('utf8'));
    } catch {
      // not JSON
    }
    // As echo.kulala.app: the JSON body sent comes back under `json`.
    response.end(JSON.stringify({ url: request.url, results: [{ desc: 'a' }, { desc: 'b' }], json }));
  });
});
afterAll(() => server.close());

function workspace(lines: string[]): string {
  const root = tempDir('dial-kulala-lua-');
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, 'api.http'), lines.join('\n').replaceAll('HOST', server.url));
  return root;
}

/** The requests the server got since `before`, as `METHOD url`. */
const since = (before: number) => server.requests.slice(before);

describe("kulala's Lua scripts in dial run", () => {
  it("kulala's XSRF recipe: cookies into client.global, sent back as {{variables}}", async () => {
    // kulala.nvim docs (MIT), recipes: "Laravel XSRF token", with localhost:8000 as the test server.
    const root = workspace([
      '### Acquire_XSRF_TOKEN',
      '',
      'GET HOST/login',
      '',
      '> {%',
      '  -- lua',
      '  client.global.token = response.cookies["XSRF-TOKEN"].value',
      '  client.global.decoded_token = vim.uri_decode(client.global.token)',
      '  client.global.session = response.cookies["laravel_session"].value',
      '%}',
      '',
      '### Authentication',
      '',
      'POST HOST/login',
      'Content-Type: application/json',
      'X-Xsrf-Token: {{decoded_token}}',
      'Cookie: XSRF-TOKEN={{token}}',
      'Cookie: laravel_session={{session}}',
      '',
      '{',
      '  "email": "mail@mail.com"',
      '}',
      '',
      '> {%',
      '  -- lua',
      '  -- save the new set authenticated session',
      '  client.global.session = response.cookies["laravel_session"].value',
      '%}',
      '',
      '### Dashboard',
      '',
      'GET HOST/dashboard',
      'Cookie: laravel_session={{session}}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [login, auth, dashboard] = since(before);
    expect(login.method).toBe('GET');
    expect(auth.headers['x-xsrf-token']).toBe('tok==');
    expect(auth.headers.cookie).toContain('XSRF-TOKEN=tok%3D%3D');
    expect(auth.headers.cookie).toContain('laravel_session=first');
    // (dial's cookie jar adds the XSRF cookie too, as curl's jar does under kulala.)
    expect(dashboard.headers.cookie).toContain('laravel_session=authenticated');
    expect(dashboard.headers.cookie).not.toContain('laravel_session=first');
  });

  it('request.environment, assert, request.skip and request.replay with request.iteration()', async () => {
    const root = workspace([
      '### one',
      'POST HOST/post',
      '',
      '> {%',
      '  -- lua',
      '  client.global.results = response.json.results',
      '  assert(response.response_code == 200, "status is 200")',
      '  assert.same(response.json.url, "/nope", "url")',
      '%}',
      '',
      '### two',
      '< {%',
      '  -- lua',
      '  local item = client.global.results[request.iteration()]',
      '  if not item then return request.skip() end',
      '  request.environment.path = "get?" .. item.desc',
      '%}',
      'GET HOST/{{path}}',
      '',
      '> {%',
      '  -- lua',
      '  client.log("sent " .. request.environment.path)',
      '  request.replay()',
      '%}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http', '--reporter', 'json'], { cwd: root });
    expect(result.code).toBe(1);
    expect(since(before).map((request) => request.url)).toEqual(['/post', '/get?a', '/get?b']);
    const report = JSON.parse(result.stdout) as {
      files: Array<{ requests: Array<{ status: string; assertions: Array<{ source: string; passed: boolean }> }> }>;
    };
    const [one, two] = report.files[0].requests;
    expect(one.assertions.map((a) => [a.source, a.passed])).toEqual([
      ['status is 200', true],
      ['url', false],
    ]);
    expect(two.status).toBe('passed');
  });

  it("kulala's 'Changing JSON body' recipe: request.body_raw and request.url_raw in a pre-request script", async () => {
    // kulala.nvim docs (MIT), lua-scripts: "Changing JSON body of a request", plus a url_raw change.
    const root = workspace([
      '@page = 2',
      '',
      '### Change JSON body',
      '',
      '< {%',
      '  -- lua',
      '  local json = require("kulala.utils.json")',
      '  local body = json.parse(request.body)',
      '',
      '  body.your_var = "whatever"',
      '  request.body_raw = json.encode(body)',
      '  request.url_raw = request.url_raw .. "?page={{page}}"',
      '%}',
      '',
      'POST HOST/post HTTP/1.1',
      '',
      '{',
      '  "your_var": "original_value"',
      '}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [sent] = since(before);
    expect(sent.url).toBe('/post?page=2');
    expect(JSON.parse(sent.body.toString('utf8'))).toEqual({ your_var: 'whatever' });
  });

  it("kulala's 'Iterating over results' recipe: client.responses, request.iteration(), url_raw, skip, replay", async () => {
    // kulala.nvim docs (MIT), lua-scripts: "Iterating over results and making requests for each item".
    const root = workspace([
      '### Request_one',
      '',
      'POST HOST/post HTTP/1.1',
      'Accept: application/json',
      'Content-Type: application/json',
      '',
      '{',
      '  "results": [',
      '    { "id": 1, "desc": "some_username" },',
      '    { "id": 2, "desc": "another_username" }',
      '  ]',
      '}',
      '',
      '### Request_two',
      '',
      '< {%',
      '  -- lua',
      '  local response = client.responses["Request_one"].json -- get body of the response decoded as json',
      '  if not response then return end',
      '',
      '  local item = response.json.results[request.iteration()]',
      '  if not item then return request.skip() end   -- skip if no more items',
      '',
      '  client.log(item)',
      '  request.url_raw = request.environment.url .. "?" .. item.desc',
      '%}',
      '',
      '@url = HOST/get',
      'GET {{url}}',
      '',
      '> {%',
      '  -- lua',
      '  request.replay()',
      '%}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(since(before).map((request) => `${request.method} ${request.url}`)).toEqual([
      'POST /post',
      'GET /get?some_username',
      'GET /get?another_username',
    ]);
  });

  it('response.url, response.method, response.duration (ns) and request.body_computed, as kulala documents them', async () => {
    const root = workspace([
      '@who = ann',
      '### form',
      'POST HOST/form?x=1',
      'Content-Type: application/x-www-form-urlencoded',
      '',
      'name={{who}}&age=3',
      '',
      '> {%',
      '  -- lua',
      '  client.log("url " .. response.url)',
      '  client.log("method " .. response.method)',
      '  client.log("computed " .. request.body_computed)',
      '  client.log("raw " .. request.body_raw)',
      '  assert.is_true(type(response.duration) == "number" and response.duration > 0, "duration")',
      '  assert.is_true(response.duration == math.floor(response.duration), "whole ns")',
      '%}',
      '',
      '### graphql',
      'GRAPHQL HOST/graphql',
      '',
      'query { a }',
      '',
      '> {%',
      '  -- lua',
      '  client.log(request.body_computed)',
      '%}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http', '--reporter', 'json'], { cwd: root });
    expect(since(before).map((request) => request.url)).toEqual(['/form?x=1', '/graphql']);
    const report = JSON.parse(result.stdout) as {
      files: Array<{
        requests: Array<{
          status: string;
          logs?: string[];
          error?: { message: string };
          assertions: Array<{ source: string; passed: boolean }>;
        }>;
      }>;
    };
    const [form, graphql] = report.files[0].requests;
    expect(form.logs).toEqual([
      `url ${server.url}/form?x=1`,
      'method POST',
      'computed name=ann&age=3',
      'raw name={{who}}&age=3',
    ]);
    expect(form.assertions.map((a) => [a.source, a.passed])).toEqual([
      ['duration', true],
      ['whole ns', true],
    ]);
    // kulala's body_computed of a GraphQL request is the JSON payload it builds: not given, an error at the line.
    expect(graphql.status).toBe('errored');
    expect(JSON.stringify(graphql)).toContain('request.body_computed is not provided by dial');
  });

  it('refuses, before sending anything, a Lua script that changes a header (file:line)', async () => {
    const root = workspace([
      '### one',
      'GET HOST/first',
      '',
      '### two',
      '< {%',
      '  -- lua',
      '  request.headers_raw["X-A"] = "b"',
      '%}',
      'GET HOST/second',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(3);
    expect(since(before)).toEqual([]);
    expect(result.stderr).toContain('api.http:7');
    expect(result.stderr).toContain('changes request.headers_raw');
  });

  it("a handler's request.url_raw and request.environment are what request.replay() sends (kulala's lua-scripts doc)", async () => {
    const root = workspace([
      '@TOKEN = Foo',
      '',
      '### guarded',
      'POST HOST/forbidden',
      'Authorization: Bearer {{TOKEN}}',
      'Content-Type: application/json',
      '',
      '{"a": 1}',
      '',
      '> {%',
      '  -- lua',
      '  if response.response_code == 403 then',
      '    request.url_raw = "HOST/other_endpoint"',
      '    request.environment.TOKEN = "Bar"',
      '    request.replay()',
      '  end',
      '%}',
      '',
    ]);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(0);
    expect(since(before).map((r) => `${r.method} ${r.url} ${r.headers.authorization} ${r.body.toString()}`)).toEqual([
      'POST /forbidden Bearer Foo {"a": 1}',
      'POST /other_endpoint Bearer Bar {"a": 1}',
    ]);
  });

  it('refuses, before sending anything, a handler that sets request.url_raw but never replays', async () => {
    const root = workspace(['GET HOST/first', '', '> {%', '  -- lua', '  request.url_raw = "HOST/x"', '%}', '']);
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(3);
    expect(since(before)).toEqual([]);
    expect(result.stderr).toContain('api.http:5');
    expect(result.stderr).toContain('changes request.url_raw');
  });

  it("kulala's recipe: a handler reads and writes http-client.env.json with kulala.utils.fs; a path out of the folder is refused before sending", async () => {
    const root = workspace([
      'POST HOST/post',
      'Content-Type: application/json',
      '',
      '> {%',
      '  -- lua',
      '  local fs = require("kulala.utils.fs")',
      '  local vars = fs.read_json("http-client.env.json")',
      '  vars.dev.my_var = "hello world"',
      '  fs.write_json("http-client.env.json", vars, true)',
      '%}',
      '',
    ]);
    writeFileSync(join(root, 'http-client.env.json'), '{"dev": {"a": "1"}}');
    const before = server.requests.length;
    const result = await runCli(['run', 'api.http'], { cwd: root });
    expect(result.code).toBe(0);
    expect(since(before).length).toBe(1);
    expect(JSON.parse(readFileSync(join(root, 'http-client.env.json'), 'utf8'))).toEqual({
      dev: { a: '1', my_var: 'hello world' },
    });

    const escape = workspace([
      'GET HOST/x',
      '',
      '> {%',
      '  -- lua',
      '  require("kulala.utils.fs").write_file("../x.txt", "y")',
      '%}',
      '',
    ]);
    const check = await runCli(['run', 'api.http'], { cwd: escape });
    expect(check.code).toBe(3);
    expect(since(before).length).toBe(1);
    expect(check.stderr).toContain('api.http:5');
    expect(check.stderr).toContain("outside the .http file's folder");
  });

  it('dial send FILE#name runs the Lua handler (logs and tests shown)', async () => {
    const root = workspace([
      '### one',
      'GET HOST/one',
      '',
      '> {%',
      '  -- lua',
      '  client.log("code " .. response.response_code)',
      '  assert.body_has("results", "has results")',
      '%}',
      '',
    ]);
    const result = await runCli(['send', 'api.http#one'], { cwd: root });
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).toContain('code 200');
    expect(result.stdout + result.stderr).toContain('has results');
  });
});
