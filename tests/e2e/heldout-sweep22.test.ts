/**
 * What the twenty-second held-out sweep (tests/compat/README.md; 40 public `.http`/`.rest` files
 * sampled without regard to their content) met, end to end through bin/dial.js against a recording
 * server on 127.0.0.1:0. The sweep needed no fix: these tests pin readings it found right that no
 * other test covered, written after the sampled files' shapes (not copied from them).
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep22-', files);

describe('twenty-second held-out sweep', () => {
  it('`?`/`&` lines under a request line continue its URL; `HTTP/1.1` at the end of the last one is cut off, the query kept', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'api.http': [
          `GET ${server.url}/first HTTP/1.1`,
          '',
          '###',
          `GET ${server.url}/data`,
          '?user=42',
          '&phone= HTTP/1.1',
          '# 555-0100',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'api.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      // REST Client joins the lines before it cuts the version, so nothing of the query is lost; the
      // `# …` line under them is a comment, not a header.
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /first', 'GET /data?user=42&phone=']);
      expect(server.requests[1].body.toString()).toBe('');
      expect(result.stderr).not.toContain('warning');
      const check = await runCli(['check', 'api.http'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(check.stdout + check.stderr).toContain('0 errors, 0 warnings');
    }));

  it('an indented `@name=value` line and `@name= value` define variables; `#####` lines with text are separators; `# @x = …` is a commented-out variable', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'api.rest': [
          `@server= ${server.url}`,
          ` @other=${server.url}/v2`,
          '# @token = not-a-variable',
          '# sign up',
          'POST {{server}}/signup',
          'Content-Type: application/json',
          '',
          '{ "password": "a#b" }',
          '',
          '##### homepage',
          'GET {{server}}',
          '',
          '##############  TICKETS  ##################',
          'GET {{other}}/tickets/',
          '######## update',
          'PUT {{server}}/tickets/',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'api.rest'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /signup',
        'GET /',
        'GET /v2/tickets/',
        'PUT /tickets/',
      ]);
      expect(server.requests[0].body.toString()).toBe('{ "password": "a#b" }');
      expect(server.requests[1].body.toString()).toBe('');
      // `check` says the `# @token` line above the first request is no metadata any tool knows (a
      // warning), and passes the file; `run` sends the request as written.
      const check = await runCli(['check', 'api.rest'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
      expect(check.stdout + check.stderr).toContain("api.rest:3:1: warning: unknown metadata '@token'");
    }));

  it('a file variable under a bare `###` that reads a named response by a path without `$.` sends the value to every request after it', () =>
    withServer(
      startJsonServer((url) => (url === '/auth/login' ? { data: { token: 'T-123' } } : {})),
      async (server) => {
        const dir = workspace({
          'test.http': [
            '### sample requests (REST Client), top to bottom',
            `@base = ${server.url}/api`,
            '@user = ada',
            '',
            '### login',
            '# @name login',
            `POST ${server.url}/auth/login`,
            'Content-Type: application/json',
            '',
            '{ "username": "{{user}}" }',
            '',
            '###',
            '@token = {{login.response.body.data.token}}',
            '',
            '### who am I',
            'GET {{base}}/me',
            'Authorization: Bearer {{token}}',
            '',
            '### report (a PDF)',
            'GET {{base}}/report/1/print.pdf',
            'Authorization: Bearer {{token}}',
            '',
          ].join('\n'),
        });
        const result = await runCli(['run', 'test.http'], { cwd: dir });
        expect(result.code, result.stderr).toBe(0);
        expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
          'POST /auth/login',
          'GET /api/me',
          'GET /api/report/1/print.pdf',
        ]);
        expect(server.requests[0].body.toString()).toBe('{ "username": "ada" }');
        expect(server.requests[1].headers.authorization).toBe('Bearer T-123');
        expect(server.requests[2].headers.authorization).toBe('Bearer T-123');
      },
    ));
});
