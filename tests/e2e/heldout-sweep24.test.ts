/**
 * What the twenty-fourth held-out sweep (tests/compat/README.md; 40 public `.http`/`.rest` files
 * sampled without regard to their content) met, end to end through bin/dial.js against a recording
 * server on 127.0.0.1:0. The sweep needed no fix: these tests pin readings it found right that no
 * other test covered, written after the sampled files' shapes (not copied from them).
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep24-', files);

describe('twenty-fourth held-out sweep', () => {
  it('` ## note` after the target of a request line: the blank before it is sent as %20, nothing from the `#` on', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'request.http': [
          '### Delete a user',
          `DELETE ${server.url}/users/5 ## pick the user's id `,
          '',
          '### Teams',
          `GET ${server.url}/teams`,
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'request.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      // REST Client and httpyac take the rest of the line as the URL and their URL parser reads the
      // `#` as the start of a fragment, which is never sent; the blank before it stays in the path.
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['DELETE /users/5%20', 'GET /teams']);
      expect(result.stderr).not.toContain('warning');
    }));

  it('a URL line under a `#` comment below a GET, with no `###` above it, is that GET’s body (JetBrains and httpyac read it so)', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'api.http': [
          '### home',
          `${server.url}/`,
          '',
          '### one book',
          `${server.url}/books/7`,
          '',
          '#search genre',
          `${server.url}/genres/`,
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'api.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      // httpyac starts a new request inside a region only at a line with a method; JetBrains reads
      // body text up to the next `###`; both drop the comment line. No tool sends `/genres/`.
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /', 'GET /books/7']);
      expect(server.requests[0].body.toString()).toBe('');
      expect(server.requests[1].body.toString()).toBe(`${server.url}/genres/`);
    }));

  it('an indented header line right under the request line of a `.rest` file is a header', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'requests.rest': [
          `GET ${server.url}/posts`,
          ' Authorization: Bearer abc.def',
          '###',
          '',
          `POST ${server.url}/login`,
          'Content-Type: application/json',
          '',
          '{ "username": "someone" }',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'requests.rest'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /posts', 'POST /login']);
      expect(server.requests[0].headers.authorization).toBe('Bearer abc.def');
      expect(server.requests[0].body.toString()).toBe('');
      expect(server.requests[1].body.toString()).toBe('{ "username": "someone" }');
      const check = await runCli(['check', 'requests.rest'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
    }));

  it('a CRLF file naming no tool: a second blank line above a body is dropped, the body keeps its CRLF', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'api.http': [
          '# Create a "book" object',
          `POST ${server.url}/books HTTP/1.1`,
          'Content-Type: application/json',
          '',
          '',
          '{',
          '  "title": "A title"',
          '}',
          '',
          '###',
          '',
        ].join('\r\n'),
      });
      const result = await runCli(['run', 'api.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['POST /books']);
      expect(server.requests[0].body.toString()).toBe('{\r\n  "title": "A title"\r\n}');
    }));
});
