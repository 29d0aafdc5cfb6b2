/** `dial check` end to end: findings with file:line:col, GitHub annotations, exit codes. */
import { describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';

function workspace(): string {
  const dir = tempDir('dial-check-');
  mkdirSync(join(dir, '.git'));
  mkdirSync(join(dir, 'lonely'));
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({ dev: { host: 'http://localhost', token: '{{secret}}' }, prod: { host: 'https://x', token: 't' } }),
  );
  writeFileSync(join(dir, 'lonely', 'http-client.env.json'), '{"x": {"a": 1}}\n');
  writeFileSync(
    join(dir, 'api.http'),
    [
      '### login',
      '# @name login',
      '# @nmae oops',
      'POST {{host}}/login',
      'Content-Type: application/json',
      '',
      '{"user": "{{user}}", "n": {{count}}, }',
      '',
      '### again',
      '# @name login',
      '# @ref nobody',
      'GET {{host}}/x?t={{token}}&r={{login.response.body.$.id}}&m={{ghost.response.body.$.id}}',
      'X-Id: {{$uuid}}',
      '< ./missing.json',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'ok.http'),
    '# @name fine\n# @prompt code\nGET {{host}}/fine?c={{code}}&s={{fromScript}}\n\n> {% client.global.set("fromScript", response.body.x); %}\n',
  );
  return dir;
}

describe('dial check', () => {
  it('reports each problem at file:line:col and exits 1', async () => {
    const dir = workspace();
    const result = await runCli(['check', '--var', 'count=1'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        "api.http:3:1: error: unknown metadata '@nmae' (did you mean '@name'?) [unknown-metadata]",
        "api.http:7:11: error: undefined variable 'user' in every environment (dev, prod) [undefined-variable]",
        'api.http:7:38: error: invalid JSON body: Expected double-quoted property name [invalid-json]',
        // `# @ref` makes this an httpyac file, where a `# @name` used twice is accepted: a warning.
        "api.http:9:1: warning: a request named 'login' is already defined at line 1; httpyac allows it (`{{login}}` is the latest response, `# @ref login` runs the first) [duplicate-name]",
        "api.http:11:1: error: @ref names request 'nobody', which no .http file of the workspace defines [missing-request]",
        "api.http:12:18: error: undefined variable 'secret' (used by 'token') in environment 'dev' [undefined-variable]",
        "api.http:12:61: error: {{ghost.response.body.$.id}} refers to request 'ghost', which no .http file of the workspace defines [missing-request]",
        'api.http:14:1: error: body file not found: ./missing.json [missing-file]',
        'lonely/http-client.env.json:1:1: warning: no .http file reads this env file (only files in its folder and below do) [env-file]',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toBe('7 errors, 2 warnings in 2 files\n');
  });

  it('--reporter github writes workflow annotations; -e checks one environment', async () => {
    const dir = workspace();
    const result = await runCli(['check', 'api.http', '-e', 'prod', '--reporter', 'github'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      "::error file=api.http,line=7,col=27,title=dial check undefined-variable::undefined variable 'count' in environment 'prod'\n",
    );
    expect(result.stdout).toContain('::warning file=lonely/http-client.env.json,line=1,col=1,');
    expect(result.stdout).not.toContain("'secret'");
  });

  it('a clean file exits 0; an env file that does not parse is an error at its line', async () => {
    const dir = workspace();
    const clean = await runCli(['check', 'ok.http'], { cwd: dir });
    expect(clean.stdout).toContain('lonely/http-client.env.json');
    expect(clean.code).toBe(0);
    writeFileSync(join(dir, 'lonely', 'http-client.env.json'), '{\n  "x": {"a": 1}\n  "y": {}\n}\n');
    const broken = await runCli(['check', 'ok.http'], { cwd: dir });
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^lonely\/http-client\.env\.json:3:3: error: invalid JSON: .* \[env-file\]$/m);
  });

  it('a file that does not parse is reported, and the others are still checked', async () => {
    const dir = workspace();
    writeFileSync(join(dir, 'broken.http'), 'GET http://a\nAccept: x\noops\n');
    const result = await runCli(['check', 'broken.http', 'ok.http'], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^broken\.http:3:\d+: error: .* \[parse\]$/m);
  });

  it('a folder without request files: exit 3', async () => {
    const result = await runCli(['check', 'lonely'], { cwd: workspace() });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('no .http or .rest files in lonely');
  });

  it('an unknown reporter is a usage error', async () => {
    const result = await runCli(['check', '--reporter', 'xml'], { cwd: workspace() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown reporter 'xml'");
  });

  it('metadata the parser acts on (@dialect, @sse-count, @sse-timeout, @graphql, @lang, kulala @curl-…, @env-json-key) is not "unknown"', async () => {
    const dir = workspace();
    writeFileSync(
      join(dir, 'streams.http'),
      [
        '# @dialect kulala',
        '# @sse-count 2',
        '# @sse-timeout 5s',
        'SSE http://localhost/sse',
        '',
        '### query',
        '# @graphql',
        '# @lang js',
        '# @curl-compressed',
        '# @curl-max-time 5',
        'POST http://localhost/graphql',
        '# @env-json-key ROOM_ID json.id',
        '',
        'query { hello }',
        '',
      ].join('\n'),
    );
    const result = await runCli(['check', 'streams.http'], { cwd: dir });
    expect(result.stdout).not.toContain('unknown-metadata');
    expect(result.stdout).not.toContain('streams.http');
    expect(result.code).toBe(0);
  });
  it('two `###` titles alike are a warning (a `# @name` twice stays an error); the parser warnings are shown', async () => {
    const dir = tempDir('dial-check-');
    mkdirSync(join(dir, '.git'));
    writeFileSync(
      join(dir, 'titles.http'),
      [
        '### Send POST request with json body',
        'POST http://localhost/a',
        '',
        '### Send POST request with json body',
        'POST http://localhost/b',
        '',
        '###',
        'GET http://localhost/c',
        'Accept: application/json',
        '',
        'GET http://localhost/d',
        '',
      ].join('\n'),
    );
    const result = await runCli(['check', 'titles.http'], { cwd: dir });
    expect(result.stdout).toBe(
      [
        "titles.http:4:1: warning: the request at line 1 has the same title 'Send POST request with json body'; a reference to it by name is ambiguous [duplicate-name]",
        'titles.http:11:1: warning: line 11 (GET …) starts a new request though no `###` is above it: JetBrains and REST Client would send it as part of the body of the request at line 8 [parse]',
        '',
      ].join('\n'),
    );
    expect(result.code).toBe(0);
  });

  it('names set through client.variables.global / .request (JetBrains 2025.3) count as defined', async () => {
    const dir = tempDir('dial-check-');
    writeFileSync(
      join(dir, 'v.http'),
      '< {%\n  client.variables.global.set("g", "1");\n  client.variables.request.set("r", "2");\n%}\nGET http://x/api?g={{g}}&r={{r}}&m={{m}}\n',
    );
    const result = await runCli(['check', 'v.http'], { cwd: dir });
    expect(result.stdout).toBe("v.http:5:36: error: undefined variable 'm' [undefined-variable]\n");
  });

  it('a WebSocket body is checked message by message, not as one JSON text', async () => {
    const dir = tempDir('dial-check-');
    writeFileSync(
      join(dir, 'ws.http'),
      'WEBSOCKET ws://x/ws\nContent-Type: application/json\n\n===\n{"a": 1}\n=== wait-for-server\n{"b": {{n}}}\n===\n{"c": }\n',
    );
    const result = await runCli(['check', 'ws.http', '--var', 'n=2'], { cwd: dir });
    expect(result.stdout).toContain('ws.http:9:7: error: invalid JSON WebSocket message');
    expect(result.stdout).not.toContain('ws.http:4:');
    expect(result.stdout).not.toContain('ws.http:7:');
  });
});
