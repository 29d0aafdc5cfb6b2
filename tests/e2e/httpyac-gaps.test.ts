/**
 * httpyac constructs the held-out sweeps stopped at, end to end (built CLI against a recording
 * server on 127.0.0.1:0): `??` lines httpyac does not read as tests, tests of queries it lacks,
 * and prompts in a run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';
import { startTestProxy } from '../helpers/proxy.js';

function workspace(files: Record<string, string>): string {
  const dir = tempDir('dial-httpyac-gaps-');
  mkdirSync(join(dir, '.git'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

async function recorder() {
  return startRecordingServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end('{"token": "t"}');
  });
}

describe('httpyac ?? lines in a run', () => {
  it('sends `?? status 200` as body text, as httpyac does, and fails a test of a query httpyac lacks', async () => {
    const server = await recorder();
    try {
      const text =
        `# @dialect httpyac\n@host = ${server.url}\n### get\nGET /books/1\nContent-Type: application/json\n\n?? status 200\n\n` +
        `### todos\nPOST /todos\nContent-Type: application/json\n\n{"text": "x"}\n\n?? status == 200\n?? typeof response.parsedBody.token === "string"\n?? Number.isInteger(response.parsedBody.ID)\n`;
      const result = await runCli(['run', 'a.http', '--reporter', 'dot'], { cwd: workspace({ 'a.http': text }) });
      expect(result.code, result.stderr).toBe(1);
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body.toString()}`)).toEqual([
        'GET /books/1 ?? status 200',
        'POST /todos {"text": "x"}\n\n?? Number.isInteger(response.parsedBody.ID)',
      ]);
      expect(result.stderr).toMatch(/a\.http:7: line 7 \(\?\? status 200\) is no httpyac test/);
      expect(result.stdout).toContain("httpyac has no 'typeof' assertion query");
    } finally {
      await server.close();
    }
  });
});

describe('httpyac prompts in a run', () => {
  it('refuses a prompt before anything of the file is sent, and runs with --var answering a prompted variable', async () => {
    const server = await recorder();
    try {
      const dir = workspace({
        'a.http': `# @dialect httpyac\nGET ${server.url}/first\n\n###\nGET ${server.url}/p/{{$input product id $value: 1}}\n`,
        'b.http': `# @dialect httpyac\n@u = {{$input user $value: john}}\n@auth = {{u}}:x\nGET ${server.url}/first\n\n###\nGET ${server.url}/b\nAuthorization: Basic {{auth}}\n`,
      });
      const a = await runCli(['run', 'a.http'], { cwd: dir });
      expect(a.code).toBe(3);
      expect(a.stderr).toMatch(
        /a\.http:5: \{\{\$input product id \$value: 1\}\} asks for a value, and a run cannot ask; nothing was sent/,
      );
      const b = await runCli(['run', 'b.http'], { cwd: dir });
      expect(b.code).toBe(3);
      expect(b.stderr).toMatch(/b\.http:2: .*\(variable 'u'\); nothing was sent/);
      expect(b.stderr).toContain('pass --var u=…');
      expect(server.requests).toHaveLength(0);
      const answered = await runCli(['run', 'b.http', '--var', 'u=ann'], { cwd: dir });
      expect(answered.code, answered.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/first', '/b']);
      expect(server.requests[1].headers.authorization).toBe(`Basic ${Buffer.from('ann:x').toString('base64')}`);
    } finally {
      await server.close();
    }
  });
});

describe('dial check on httpyac expressions', () => {
  it('knows JavaScript globals and `<name>Response` in httpyac files', async () => {
    const dir = workspace({
      'a.http':
        '# @dialect httpyac\n@user = u\n# @name json\nGET http://127.0.0.1:1/json\n\n###\n# @ref json\nPOST http://127.0.0.1:1/anything\nAuthorization: Basic {{Buffer.from(user + ":x").toString("base64")}}\n\n{{jsonResponse.headers.server}}\n',
    });
    const result = await runCli(['check', 'a.http'], { cwd: dir });
    expect(result.stdout + result.stderr).not.toMatch(/undefined variable/);
    expect(result.code, result.stdout + result.stderr).toBe(0);
  });
});

describe('httpyac {{@request}} blocks', () => {
  it('run on the final request (URL complete, variables filled in); what they change is sent', async () => {
    const server = await recorder();
    try {
      const text =
        `# @dialect httpyac\n@host = ${server.url}\n@tok = abc\n# @name authentication\n{{@request\n  let authtoken = request.headers.Authorization;\n  delete request.headers.Authorization;\n  request.body = JSON.stringify({ Token: authtoken.replace('Bearer ', ''), url: request.url });\n}}\n` +
        `POST /AuthenticateByToken\nAuthorization: Bearer {{tok}}\nContent-Type: application/json\n\n{"x": 1}\n\n###\nGET /two\n\n###\n{{+request\n  request.headers['X-Sig'] = request.method + ' ' + request.url;\n}}\n`;
      const result = await runCli(['run', 'a.http'], { cwd: workspace({ 'a.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      const [auth, two] = server.requests;
      expect(auth.headers.authorization).toBeUndefined();
      expect(JSON.parse(auth.body.toString())).toEqual({ Token: 'abc', url: `${server.url}/AuthenticateByToken` });
      expect(auth.headers['x-sig']).toBe(`POST ${server.url}/AuthenticateByToken`);
      expect(two.headers['x-sig']).toBe(`GET ${server.url}/two`);
    } finally {
      await server.close();
    }
  });
});

describe('httpyac metadata in its own spelling', () => {
  it('# @noRedirect does not follow; # @noProxy goes direct whatever HTTP_PROXY says', async () => {
    const server = await startRecordingServer((request, response) => {
      if (request.url === '/redir') {
        response.writeHead(302, { location: '/target' });
        response.end();
        return;
      }
      response.end('{}');
    });
    const proxy = await startTestProxy();
    try {
      const text = `# @dialect httpyac\n# @noRedirect\nGET ${server.url}/redir\n\n###\n# @noProxy\nGET ${server.url}/direct\n\n###\nGET ${server.url}/via\n`;
      const result = await runCli(['run', 'a.http', '--reporter', 'dot'], {
        cwd: workspace({ 'a.http': text }),
        env: { HTTP_PROXY: proxy.url, NO_PROXY: '' },
      });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/redir', '/direct', '/via']);
      expect(proxy.seen).toEqual([`${server.url}/redir`, `${server.url}/via`]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });
});
