/**
 * What the sixteenth held-out sweep (tests/compat/README.md; public `.http`/`.rest` files sampled
 * without regard to their content) found, end to end through bin/dial.js against a recording server
 * on 127.0.0.1:0: a mixed-case method (`Get http://…`, REST Client reads it case-insensitively); a
 * pasted curl command whose `-d '{` argument runs over several lines inside its quotes; and a URL
 * whose scheme has no `//` (`http:localhost:3000/x`), which failed only at send time with no line.
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep16-', files);

describe('sixteenth held-out sweep', () => {
  it('`Get http://…` in a .rest file is sent as GET; `check` passes it', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'requests.rest': `Get ${server.url}/task/todo\n\n###\nPOST  ${server.url}/task/todo/new\nContent-Type: application/json\n\n{"text": "bread"}\n`,
      });
      const result = await runCli(['run', 'requests.rest'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /task/todo', 'POST /task/todo/new']);
      const check = await runCli(['check', 'requests.rest'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
    }));

  it("a curl command's JSON quoted over several lines is sent as REST Client sends it", () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'test.http': [
          "curl -X 'POST' \\",
          `  '${server.url}/user/' \\`,
          "  -H 'accept: application/json' \\",
          "  -H 'Content-Type: application/json' \\",
          "  -d '{",
          '  "username": "string",',
          '  "full_name": "string"',
          "}'",
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'test.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests).toHaveLength(1);
      const [sent] = server.requests;
      expect(`${sent.method} ${sent.url}`).toBe('POST /user/');
      expect(sent.headers['content-type']).toBe('application/json');
      expect(sent.headers.accept).toBe('application/json');
      expect(sent.body.toString('utf8')).toBe('{ "username": "string", "full_name": "string"\n}');
      const check = await runCli(['check', 'test.http'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
    }));

  it('`GET http:localhost:PORT/x` is refused at its line by run and check, before anything is sent', () =>
    withServer(startJsonServer(), async (server) => {
      const port = new URL(server.url).port;
      const dir = workspace({
        'requests.http': `### List all flights\nGET http:127.0.0.1:${port}/flights\n\n###\nGET ${server.url}/ok\n`,
      });
      const result = await runCli(['run', 'requests.http'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('requests.http:2:5');
      expect(result.stderr).toContain(`write http://127.0.0.1:${port}/flights`);
      const check = await runCli(['check', 'requests.http'], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('requests.http:2:5: error:');
      expect(server.requests).toHaveLength(0);
    }));
});
