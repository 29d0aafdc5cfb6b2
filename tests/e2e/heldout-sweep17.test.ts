/**
 * What the seventeenth held-out sweep (tests/compat/README.md; 40 public `.http`/`.rest` files
 * sampled without regard to their content) met, end to end through bin/dial.js against a recording
 * server on 127.0.0.1:0. The sweep needed no fix: these tests pin readings it found right that no
 * other test covered, written after the sampled files' shapes (not copied from them).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep17-', files);

describe('seventeenth held-out sweep', () => {
  it('`###` lines holding a header or a token are separators only; `####` too; an indented request line is a request', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'request.http': [
          `@host=${server.url}/api`,
          '',
          '### View books',
          '',
          ' GET {{host}}/books',
          '',
          '###    "accessToken":eyJhbGciOiJIUzI1NiJ9.e30.sig',
          '',
          '',
          'POST {{host}}/auth/token/refresh',
          'Content-Type: application/json',
          'Cookie: refreshToken=abc',
          '',
          '',
          '### card',
          'GET {{host}}/shop/1',
          '### Authorization: Bearer old-token',
          '',
          '',
          '####',
          '',
          'DELETE  {{host}}/cards/2/refuse',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'request.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'GET /api/books',
        'POST /api/auth/token/refresh',
        'GET /api/shop/1',
        'DELETE /api/cards/2/refuse',
      ]);
      // The `### Authorization: …` line under the GET is no header of it.
      expect(server.requests[2].headers.authorization).toBeUndefined();
      expect(server.requests[1].headers.cookie).toBe('refreshToken=abc');
      expect(server.requests[1].body.length).toBe(0);
      const check = await runCli(['check', 'request.http'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
    }));

  it('`# …` lines under the headers are dropped and the blank line after them stays in the body, as REST Client reads it', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'test.http': [
          `POST ${server.url}/auth/login`,
          'Content-Type: application/json',
          '',
          '# {',
          '#     "email": "old@example.com",',
          '# }',
          '',
          '{',
          '"email": "new@example.com",',
          '"password": "1234"',
          '}',
          '### local login',
          `GET ${server.url}/user/cards`,
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'test.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /auth/login', 'GET /user/cards']);
      // REST Client drops every comment line of the request first (its Selector), then its parser
      // removes the one blank line under the headers: the second blank line is the body's first.
      expect(server.requests[0].body.toString('utf8')).toBe('\n{\n"email": "new@example.com",\n"password": "1234"\n}');
    }));

  it('request lines with no `###` between them start requests (the file names no tool), with a warning at each line', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'test.http': [
          '#Get all users',
          `GET ${server.url}/api/users`,
          '',
          '#Create a user',
          `POST ${server.url}/api/users`,
          '',
          '# delete a user',
          `DELETE ${server.url}/api/users/:_id`,
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'test.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      // As httpyac reads it; JetBrains, REST Client, kulala and rest.nvim v3 would send one GET with
      // the rest as its body (REST Client then fails: its HTTP client refuses a GET with a body).
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body.length}`)).toEqual([
        'GET /api/users 0',
        'POST /api/users 0',
        'DELETE /api/users/:_id 0',
      ]);
      expect(result.stderr).toMatch(/test\.http:5: line 5 \(POST …\) starts a new request though no `###` is above it/);
      expect(result.stderr).toMatch(/test\.http:8: line 8 \(DELETE …\) starts a new request/);
      expect(result.stderr).toContain('# @dialect jetbrains');
      const check = await runCli(['check', 'test.http'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(check.stdout).toContain('test.http:5:1: warning:');
      expect(check.stdout).toContain('test.http:8:1: warning:');
      // Named JetBrains, it is one GET whose body is the rest, as before.
      const named = workspace({ 'test.http': `# @dialect jetbrains\n${readFileSync(join(dir, 'test.http'), 'utf8')}` });
      const before = server.requests.length;
      const jetbrains = await runCli(['run', 'test.http'], { cwd: named });
      expect(jetbrains.code, jetbrains.stderr).toBe(0);
      expect(server.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['GET /api/users']);
      expect(jetbrains.stderr).toMatch(/test\.http:6: line 6 \(POST …\) looks like a request line/);
    }));

  it('a variable only a git-ignored env file defines is refused at its line by run and check, nothing sent', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        '.gitignore': 'http-client.env.json\n',
        'api.http':
          '### Hello\nGET {{apiUrl}}/hello\n\n### Create\nPOST {{apiUrl}}/product\nContent-Type: application/json\n\n{"code": "X-1"}\n',
      });
      const result = await runCli(['run', 'api.http'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stdout).toContain("error[E_VAR_UNDEFINED] (api.http:2): variable 'apiUrl' is not defined");
      expect(result.stdout).toContain("error[E_VAR_UNDEFINED] (api.http:5): variable 'apiUrl' is not defined");
      const check = await runCli(['check', 'api.http'], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain("api.http:2:5: error: undefined variable 'apiUrl'");
      expect(check.stdout).toContain("api.http:5:6: error: undefined variable 'apiUrl'");
      expect(server.requests).toHaveLength(0);
    }));
});
