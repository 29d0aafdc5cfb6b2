import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

function workspace(files: Record<string, string>): string {
  const dir = tempDir('dial-dialect-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('dialects and refusals from the command line', () => {
  const ambiguous = 'POST http://127.0.0.1:9/a\nContent-Type: text/plain\n\nhello\nGET http://127.0.0.1:9/b\n';

  it('splits at a request line inside a body with a warning where the file names no tool; --dialect decides', async () => {
    const cwd = workspace({ 'a.http': ambiguous });
    const plain = await runCli(['list', 'a.http'], { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('a.http:5');
    expect(plain.stderr).toContain('# @dialect jetbrains');
    expect(plain.stdout.trim().split('\n')).toHaveLength(2);
    const httpyac = await runCli(['list', '--dialect', 'httpyac', 'a.http'], { cwd });
    expect(httpyac.stdout.trim().split('\n')).toHaveLength(2);
    expect(httpyac.stderr).toBe('');
    const jetbrains = await runCli(['list', '--dialect', 'jetbrains', 'a.http'], { cwd });
    expect(jetbrains.stdout.trim().split('\n')).toHaveLength(1);
    expect(jetbrains.stderr).toContain('a.http:5');
    expect(jetbrains.stderr).toContain('# @dialect httpyac');
  });

  it('rejects an unknown --dialect as a usage error', async () => {
    const result = await runCli(['list', '--dialect', 'nope', 'a.http'], {
      cwd: workspace({ 'a.http': 'GET http://x\n' }),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown dialect 'nope'");
  });

  it('refuses a protocol request with file:line before sending, exit 3', async () => {
    const cwd = workspace({
      'g.http': 'GET http://127.0.0.1:9/first\n\n###\nMQTT tcp://127.0.0.1:9\nTopic: a\n',
    });
    const result = await runCli(['run', 'g.http'], { cwd });
    expect(result.code).toBe(3);
    expect(result.stderr).toMatch(/g\.http:4:1: MQTT requests \(MQTT\) are not supported yet/);
  });

  it('never sends a # @disabled request', async () => {
    const cwd = workspace({ 'd.http': '# @disabled\nGET http://127.0.0.1:9/a\n' });
    const send = await runCli(['send', 'd.http'], { cwd });
    expect(send.code).toBe(3);
    expect(send.stderr).toContain('d.http:1');
    const run = await runCli(['run', 'd.http'], { cwd });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('skipped: disabled');
  });

  it("reads httpyac's host from env/.env and a named response as a variable", async () => {
    const server = await startRecordingServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(request.url === '/login' ? '{"token": "t-1", "user": {"id": 7}}' : '{}');
    });
    try {
      const cwd = workspace({
        'api.http':
          '# @name login\nPOST /login\n\nGET /users/{{login.user.id}}\nAuthorization: Bearer {{login.token}}\n',
      });
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(cwd, 'env'));
      writeFileSync(join(cwd, 'env', '.env'), `host=${server.url}\n`);
      mkdirSync(join(cwd, '.git'));
      const result = await runCli(['run', 'api.http'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.headers.authorization ?? ''}`.trim())).toEqual([
        'POST /login',
        'GET /users/7 Bearer t-1',
      ]);
    } finally {
      await server.close();
    }
  });

  it('evaluates httpyac {{ expressions }} in the sandbox, with variables and named responses in scope', async () => {
    const server = await startRecordingServer((request, response) => {
      response.setHeader('content-type', 'application/json');
      response.end(request.method === 'GET' ? '{"a": 1, "list": [2, 3]}' : '{}');
    });
    try {
      const text = `# @dialect httpyac\n@user = ada\n\n# @name one\nGET ${server.url}/one\n\n###\n# @ref one\nPOST ${server.url}/two?n={{one.list.length * 10}}\nX-User: {{user.toUpperCase()}}\n\n{{JSON.stringify(one)}}\n`;
      const cwd = workspace({ 'js.http': text });
      const result = await runCli(['run', 'js.http'], { cwd });
      expect(result.code, result.stderr).toBe(0);
      const post = server.requests[1];
      expect(`${post.method} ${post.url} ${post.headers['x-user']}`).toBe('POST /two?n=20 ADA');
      expect(JSON.parse(post.body.toString())).toEqual({ a: 1, list: [2, 3] });
      const modules = await runCli(['run', 'm.http'], {
        cwd: workspace({ 'm.http': `# @dialect httpyac\nGET ${server.url}/{{require('os').hostname()}}\n` }),
      });
      expect(modules.code).toBe(3);
      expect(modules.stderr).toContain('m.http:2');
    } finally {
      await server.close();
    }
  });

  it('runs httpyac {{ }} blocks before a request: their exports become variables', async () => {
    const server = await startRecordingServer();
    try {
      const text = `# @dialect httpyac\n@user = ada\n\n{{\n  // user comes from the file\n  const stamp = 40 + 2;\n  exports.signature = user + '-' + stamp;\n}}\nGET ${server.url}/signed\nX-Signature: {{signature}}\n`;
      const result = await runCli(['run', 'b.http'], { cwd: workspace({ 'b.http': text }) });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.headers['x-signature'])).toEqual(['ada-42']);
    } finally {
      await server.close();
    }
  });
});
