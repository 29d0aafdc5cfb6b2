/**
 * What the second held-out sweep (tests/compat/README.md) found, end to end against a recording
 * server on 127.0.0.1:0: httpyac's JSON config (environments, defaultHeaders), kulala's
 * `$default_headers` and empty `Security.Auth`, httpyac's `$global`, assignments to variables in
 * `{{ }}` blocks, `/* *\/` comments after the headers, `# @ref` to a region of variables, `$dotenv`
 * in httpyac files, kulala's `# @secret` prompt.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-heldout-', files);

const jsonServer = startJsonServer;

describe('httpyac JSON config (.httpyac.json)', () => {
  it('sends its defaultHeaders on every request that does not set them, and reads its environments', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        '.httpyac.json': JSON.stringify({
          defaultHeaders: { 'Content-Type': 'application/json', 'X-Env': '{{envName}}' },
          environments: { $shared: { envName: 'not set' }, $default: { host: server.url }, dev: { envName: 'dev' } },
        }),
        'a.http': `GET /launches\n\n###\nPOST /query\nX-Env: mine\n\n{"a": 1}\n`,
      });
      const none = await runCli(['run', 'a.http'], { cwd: dir });
      expect(none.code, none.stderr).toBe(0);
      const dev = await runCli(['run', 'a.http', '-e', 'dev', '--var', `host=${server.url}`], { cwd: dir });
      expect(dev.code, dev.stderr).toBe(0);
      expect(
        server.requests.map((r) => `${r.method} ${r.url} ${r.headers['content-type']} ${r.headers['x-env']}`),
      ).toEqual([
        'GET /launches application/json not set',
        'POST /query application/json mine',
        'GET /launches application/json dev',
        'POST /query application/json mine',
      ]);
    } finally {
      await server.close();
    }
  });

  it('-e chooses an environment only httpyac files define (env/NAME.env)', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        '.httpyac.json': '{}',
        'env/sample.env': `base=${server.url}\n`,
        'a.http': 'GET {{base}}/x\n',
      });
      const result = await runCli(['run', 'a.http', '-e', 'sample'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/x']);
    } finally {
      await server.close();
    }
  });

  it('a JavaScript config that sets default headers is refused at its line before anything is sent', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'httpyac.config.js': `module.exports = {\n  defaultHeaders: { Accept: process.env.ACCEPT || 'application/json' },\n};\n`,
        'a.http': `# @dialect httpyac\nGET ${server.url}/x\n`,
      });
      const result = await runCli(['run', 'a.http'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stdout + result.stderr).toContain('httpyac.config.js:2');
      expect(result.stdout + result.stderr).toContain(
        'environments and default headers in a JavaScript config are read only where scripts may use Node',
      );
      expect(result.stdout + result.stderr).toContain(`dial trust ${dir}`);
      expect(server.requests).toHaveLength(0);

      // With Node access the config is loaded, as httpyac loads it: its environments and headers apply.
      writeFileSync(
        join(dir, 'httpyac.config.js'),
        `module.exports = {\n  defaultHeaders: { Accept: 'application/json' },\n  environments: { $shared: { p: 'shared' }, dev: { p: 'dev' } },\n};\n`,
      );
      writeFileSync(join(dir, 'a.http'), `# @dialect httpyac\nGET ${server.url}/x?p={{p}}\n`);
      const allowed = await runCli(['run', '--allow-node', 'a.http', '-e', 'dev'], { cwd: dir });
      expect(allowed.code, allowed.stdout + allowed.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.url} ${r.headers.accept}`)).toEqual(['/x?p=dev application/json']);
    } finally {
      await server.close();
    }
  });
});

describe('httpyac JavaScript configs that are one literal (twelfth sweep)', () => {
  it('module.exports = { … } with only literal values is read without Node access, as httpyac reads it', async () => {
    const server = await jsonServer();
    try {
      // The form of iovitz/xianbing's server/.httpyac.js: single quotes, unquoted keys, a `$shared`.
      const dir = workspace({
        '.httpyac.js': `module.exports = {\n  defaultHeaders: {\n    'x-xb-test': "1"\n  },\n  environments: {\n    "$shared": {\n    },\n    "dev": {\n      "host": "${server.url}/api" // the API\n    },\n  }\n}\n`,
        'a.rest': `### status\nGET /status\n`,
      });
      const result = await runCli(['run', 'a.rest', '-e', 'dev'], { cwd: dir });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.url} ${r.headers['x-xb-test']}`)).toEqual(['/api/status 1']);

      // One value that is code makes it a script again: refused before sending without Node access.
      writeFileSync(
        join(dir, '.httpyac.js'),
        `module.exports = {\n  environments: { dev: { host: process.env.HOST } },\n};\n`,
      );
      const refused = await runCli(['run', 'a.rest', '-e', 'dev'], { cwd: dir });
      expect(refused.code).toBe(3);
      expect(refused.stdout + refused.stderr).toContain('.httpyac.js:2');
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});

describe('kulala env files', () => {
  it('$default_headers of $shared and of the environment go on each request that does not set them; "Auth": [] is no configuration', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'http-client.env.json': JSON.stringify({
          $shared: { $default_headers: { Accept: 'application/json', 'X-Token': '{{token}}' } },
          dev: { host: server.url, token: 't-1', $default_headers: { 'X-Dev': '1' }, Security: { Auth: [] } },
        }),
        'a.http': 'GET {{host}}/a\n\n###\nGET {{host}}/b\nAccept: text/plain\n',
      });
      const result = await runCli(['run', 'a.http', '-e', 'dev'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => [r.url, r.headers.accept, r.headers['x-token'], r.headers['x-dev']])).toEqual([
        ['/a', 'application/json', 't-1', '1'],
        ['/b', 'text/plain', 't-1', '1'],
      ]);
    } finally {
      await server.close();
    }
  });

  it('refuses $default_headers that are not an object of headers, at the env file line', async () => {
    const dir = workspace({
      'http-client.env.json': '{\n  "dev": {\n    "$default_headers": ["Accept: x"]\n  }\n}\n',
      'a.http': 'GET http://127.0.0.1:9/a\n',
    });
    const result = await runCli(['run', 'a.http', '-e', 'dev'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('http-client.env.json:3');
    expect(result.stderr).toContain('"$default_headers" of environment \'dev\' must be an object of headers');
  });

  it('# @secret asks for a value defined nowhere (pass --var in a run), and masks it', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({ 'a.http': `# @secret password\nPOST ${server.url}/login\n\n{"p": "{{password}}"}\n` });
      const missing = await runCli(['run', 'a.http'], { cwd: dir });
      expect(missing.stdout + missing.stderr).toContain("no value for @secret variable 'password'");
      expect(server.requests).toHaveLength(0);
      const given = await runCli(['run', 'a.http', '--var', 'password=s3'], { cwd: dir });
      expect(given.code, given.stderr).toBe(0);
      expect(server.requests[0].body.toString()).toBe('{"p": "s3"}');
    } finally {
      await server.close();
    }
  });
});

describe('httpyac scripts and comments', () => {
  it('$global keeps what a block stores for later requests; a block may assign a variable (locally)', async () => {
    const server = await jsonServer((url) => (url === '/export' ? 42 : { args: { a: 'one' } }));
    try {
      const text =
        '# @dialect httpyac\n@x = one\n' +
        `POST ${server.url}/export\n\n{{\n  $global.exportId = response.parsedBody;\n  x = x + 'x';\n}}\n` +
        `###\nGET ${server.url}/export/{{$global.exportId}}?x={{x}}\n`;
      const result = await runCli(['run', 'a.http'], { cwd: workspace({ 'a.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/export', '/export/42?x=one']);
    } finally {
      await server.close();
    }
  });

  it('an expression that is undefined is an error at its line, never the text "undefined"', async () => {
    const server = await jsonServer();
    try {
      const text = `# @dialect httpyac\nGET ${server.url}/a\nAuthorization: Bearer {{$global.foo}}\n`;
      const result = await runCli(['run', 'a.http'], { cwd: workspace({ 'a.http': text }) });
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).toContain('{{$global.foo}} is undefined');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('/* */ after the headers ends them; # @ref to a region of variables runs nothing; $dotenv reads any variable', async () => {
    const server = await jsonServer();
    try {
      const text =
        `/*\n## Intro\n*/\n###\n# @name variables\n@base = {{$dotenv BASE}}\n\n` +
        `### first\n# @ref variables\nGET {{base}}/a\nAccept: application/json\n/*\n## Next\nA sentence with spaces (not a request line).\n*/\n` +
        `###\nGET {{base}}/b\n`;
      const result = await runCli(['run', 'a.http', '--var', `BASE=${server.url}`], {
        cwd: workspace({ '.httpyac.json': '{}', 'a.http': text }),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body.length}`)).toEqual(['GET /a 0', 'GET /b 0']);
    } finally {
      await server.close();
    }
  });
});

describe('httpyac saved responses and the process environment', () => {
  it('a {{@response}} block under a saved response still runs; {{process.env.X}} reads the environment variable X', async () => {
    const server = await jsonServer(() => ({ success: true }));
    try {
      const text =
        `GET ${server.url}/a\nAuthorization: Bearer {{process.env.DIAL_TEST_TOKEN}}\n\nHTTP/1.1 200  - OK\ncontent-type: application/json\n\n{\n  "success": true\n}\n\n` +
        `{{@response\n    $global.foo = response.parsedBody.success\n}}\n\n###\nGET ${server.url}/b\nAuthorization: Bearer {{$global.foo}}\n`;
      const result = await runCli(['run', 'a.http'], {
        cwd: workspace({ 'a.http': text }),
        env: { DIAL_TEST_TOKEN: 'TK' },
      });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.url} ${r.headers.authorization}`)).toEqual([
        '/a Bearer TK',
        '/b Bearer true',
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('httpyac global regions and references', () => {
  it('a {{$guid}} file variable of a global region has one value for the run; # @forceRef runs before the {{ }} block under it', async () => {
    const server = await jsonServer((url) => ({ url }));
    try {
      const text =
        `@session = {{$guid}}\n\n###\n# @name source\nGET ${server.url}/source?s={{session}}\n\n{{\n  exports.seen = response.parsedBody.url;\n}}\n` +
        `###\n# @forceRef source\n{{\n  exports.copy = seen + '-copy';\n}}\nPOST ${server.url}/copy?s={{session}}\n\n{{copy}}\n`;
      const result = await runCli(['run', 'a.http'], { cwd: workspace({ '.httpyac.json': '{}', 'a.http': text }) });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      const session = /s=([0-9a-f-]{36})/.exec(server.requests[0].url)?.[1];
      expect(session).toBeDefined();
      expect(server.requests.map((r) => `${r.method} ${r.url.replace(session!, 'S')}`)).toEqual([
        'GET /source?s=S',
        'GET /source?s=S',
        'POST /copy?s=S',
      ]);
      expect(server.requests[2].body.toString()).toBe(`/source?s=${session}-copy`);
    } finally {
      await server.close();
    }
  });
});

describe('dial check on files the tools accept', () => {
  it('an unknown # @word and two ### titles alike are warnings; one letter off a known key is an error', async () => {
    const dir = workspace({
      'a.http': '#@host= http://localhost:3333/\n### Register\nGET http://x/a\n\n### Register\n# @mq\nGET http://x/b\n',
      'b.http': '# @nmae x\nGET http://x/c\n',
    });
    const ok = await runCli(['check', 'a.http'], { cwd: dir });
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toContain("warning: unknown metadata '@mq' [unknown-metadata]");
    expect(ok.stdout).toContain(
      "warning: the request at line 2 has the same title 'Register'; a reference to it by name is ambiguous [duplicate-name]",
    );
    const typo = await runCli(['check', 'b.http'], { cwd: dir });
    expect(typo.code).toBe(1);
    expect(typo.stdout).toContain("error: unknown metadata '@nmae' (did you mean '@name'?)");
  });

  it('a variable set by client.global.set in a < ./pre-request.js script file is defined for dial check', async () => {
    const dir = workspace({
      'pre-request.js': 'client.global.set("BONOBO", "bar");\n',
      'a.http': '< ./pre-request.js\nPOST http://x/post\nContent-Type: application/json\n\n{"key": "{{BONOBO}}"}\n',
      'b.http': 'POST http://x/post\n\n{"key": "{{OTHER}}"}\n',
    });
    const ok = await runCli(['check', 'a.http'], { cwd: dir });
    expect(ok.code, ok.stdout).toBe(0);
    const missing = await runCli(['check', 'b.http'], { cwd: dir });
    expect(missing.stdout).toContain("undefined variable 'OTHER'");
  });

  it("a kulala # @env-stdin-cmd NAME defines NAME for dial check; a file with no request says so, not 'no match'", async () => {
    const dir = workspace({
      'a.http':
        '# @env-stdin-cmd CTX jq -r \'.json.ctx\'\nPOST http://x/post\n\n###\nPOST http://x/post\n\n{"c": "{{CTX}}"}\n',
      'shared.http': '### Shared\n@a = 1\n',
    });
    const ok = await runCli(['check', 'a.http'], { cwd: dir });
    expect(ok.stdout).not.toContain("undefined variable 'CTX'");
    const empty = await runCli(['run', 'shared.http'], { cwd: dir });
    expect(empty.code).toBe(0);
    expect(empty.stderr).toContain('hold no request to send');
  });

  it('rest.nvim dialect: < ./in.json is sent with its variables filled in and a type guessed from its name', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'in.json': '{"foo": "{{bar}}"}\n',
        'a.http': `# @dialect rest.nvim\n@bar=baz\n###\nPOST ${server.url}/a\n\n< ./in.json\n\n###\nPOST ${server.url}/b\n\n<@ ./in.json\n`,
      });
      const result = await runCli(['run', 'a.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      const [filled, raw] = server.requests.slice(-2);
      expect(filled.body.toString()).toBe('{"foo": "baz"}\n');
      expect(filled.headers['content-type']).toBe('application/json');
      expect(raw.body.toString()).toBe('{"foo": "{{bar}}"}\n');
      expect(raw.headers['content-type']).toBe('application/json');
    } finally {
      await server.close();
    }
  });

  it('a file naming no dialect whose < or <@ body file holds {{…}} is warned on with file:line by check, run and send (rest.nvim reads both the other way round)', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'in.json': '{"foo": "{{bar}}"}\n',
        'plain.json': '{"foo": 1}\n',
        'a.http': `@bar=baz\n###\nPOST ${server.url}/a\n\n< ./in.json\n\n###\nPOST ${server.url}/b\n\n<@ ./in.json\n\n###\nPOST ${server.url}/c\n\n< ./plain.json\n`,
        'named.http': `# @dialect rest-client\n###\nPOST ${server.url}/d\n\n< ./in.json\n`,
      });
      const check = await runCli(['check', 'a.http'], { cwd: dir });
      expect(check.stdout).toContain('a.http:5:1: warning: `< ./in.json` holds {{…}}');
      expect(check.stdout).toContain(
        'a.http:10:1: warning: `<@ ./in.json` holds {{…}}: dial fills its variables in, as REST Client, httpyac and kulala do; rest.nvim sends it as it is',
      );
      expect(check.stdout).not.toContain('plain.json');
      const run = await runCli(['run', 'a.http'], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('warning: ');
      expect(run.stderr).toContain('a.http:5: `< ./in.json` holds {{…}}');
      expect(run.stderr).toContain('# @dialect rest.nvim');
      // The default reading is unchanged: `<` as it is, `<@` with its variables.
      const [raw, filled] = server.requests.slice(-3);
      expect(raw.body.toString()).toBe('{"foo": "{{bar}}"}\n');
      expect(filled.body.toString()).toBe('{"foo": "baz"}\n');
      const send = await runCli(['send', 'a.http:3'], { cwd: dir });
      expect(send.stderr).toContain('a.http:5: `< ./in.json` holds {{…}}');
      const named = await runCli(['run', 'named.http'], { cwd: dir });
      expect(named.code, named.stderr).toBe(0);
      expect(named.stderr).not.toContain('holds {{…}}');
    } finally {
      await server.close();
    }
  });

  it("a file declared JetBrains' fills the variables of a < ./file body in (text files; binary ones go as they are)", async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'in.json': '{"foo": "{{bar}}"}\n',
        'raw.bin': '',
        'a.http': `# @dialect jetbrains\n@bar=baz\n###\nPOST ${server.url}/a\n\n< ./in.json\n\n###\nPOST ${server.url}/b\n\n< ./raw.bin\n`,
      });
      // Not UTF-8 and holding `{{`: sent byte for byte.
      writeFileSync(join(dir, 'raw.bin'), Buffer.from([0xff, 0x7b, 0x7b, 0x78, 0x7d, 0x7d, 0xfe]));
      const result = await runCli(['run', 'a.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain('holds {{…}}');
      const [filled, binary] = server.requests.slice(-2);
      expect(filled.body.toString()).toBe('{"foo": "baz"}\n');
      expect([...binary.body]).toEqual([0xff, 0x7b, 0x7b, 0x78, 0x7d, 0x7d, 0xfe]);
    } finally {
      await server.close();
    }
  });

  it('a form body with blanks around = or & in a file naming no dialect is warned on (rest.nvim removes them)', async () => {
    const dir = workspace({
      'f.http':
        'POST http://x/post\nContent-Type: application/x-www-form-urlencoded\n\nkey1 = value1 &\nkey2 = value2\n\n###\nPOST http://x/post\nContent-Type: application/x-www-form-urlencoded\n\na=1&b=2\n',
      'r.http':
        '# @dialect rest.nvim\nPOST http://x/post\nContent-Type: application/x-www-form-urlencoded\n\nkey1 = value1 &\nkey2 = value2\n',
    });
    const result = await runCli(['check', 'f.http', 'r.http'], { cwd: dir });
    expect(result.stdout).toContain('f.http:4:1: warning: this form body has blanks around `=` or `&`');
    expect(result.stdout).not.toContain('f.http:11:');
    expect(result.stdout).not.toContain('r.http');
  });

  it("kulala's display-only keys (# @jq, # @accept chunked, # @kulala-openapi-explorer) are known, not warned on", async () => {
    const dir = workspace({
      'k.http':
        '# @jq { "u": .username }\nPOST http://x/post\n\n###\n# @accept chunked\nPOST http://x/index\n\n###\n# @kulala-openapi-explorer\nGET http://x/openapi.json\n',
    });
    const result = await runCli(['check', 'k.http'], { cwd: dir });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).not.toContain('unknown metadata');
  });

  it('httpyac files: names from .httpyac.json environments, exports of {{ }} blocks and loop variables are defined', async () => {
    const dir = workspace({
      '.httpyac.json': JSON.stringify({ environments: { $shared: { envName: 'x' }, dev: { user: 'ada' } } }),
      'a.http':
        '{{\n  exports.token = "t";\n}}\n###\n# @name list\nGET http://x/list?u={{user}}&e={{envName}}\n\n' +
        '###\n# @name item\n# @loop for doc of list.docs\nGET http://x/items/{{ doc.id }}?t={{token}}\n\n' +
        '###\nGET http://x/again/{{ item1.id }}?m={{missing}}\n',
    });
    const result = await runCli(['check', 'a.http', '-e', 'dev'], { cwd: dir });
    expect(result.stdout).toBe(
      "a.http:14:37: error: undefined variable 'missing' in environment 'dev' [undefined-variable]\n",
    );
  });
});

describe('Emacs restclient.el files (eighth sweep)', () => {
  it('sends one request per `#`-separated block, with `:name` variables put in, and nothing else', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'restclient.http': [
          '# -*- restclient -*-',
          `:base = ${server.url}/api`,
          '#',
          '# Get a customer',
          'GET :base/customers/3333',
          'Accept: application/json',
          '',
          '# Post works too, entity just goes after an empty line.',
          'POST :base/customers',
          'Content-Type: application/json',
          '',
          '{"customer": {"name": "Minion Dave"}}',
          '',
          '# invalid post',
          'POST :base/customers',
          'Content-Type: application/json',
          '',
          '{}',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'restclient.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).not.toContain('warning');
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body.toString('utf8')}`)).toEqual([
        'GET /api/customers/3333 ',
        'POST /api/customers {"customer": {"name": "Minion Dave"}}',
        'POST /api/customers {}',
      ]);
    } finally {
      await server.close();
    }
  });

  it('an Emacs Lisp variable is refused at its line before anything is sent', async () => {
    const server = await jsonServer();
    try {
      const dir = workspace({
        'restclient.http': `# -*- restclient -*-\n:jwt := (my-token)\n#\nGET ${server.url}/me\nAuthorization: Bearer :jwt\n`,
      });
      const result = await runCli(['run', 'restclient.http'], { cwd: dir });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('restclient.http:2');
      expect(result.stderr).toContain('Emacs Lisp');
      expect(server.requests).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
