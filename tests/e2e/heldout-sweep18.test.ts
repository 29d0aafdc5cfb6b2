/**
 * What the eighteenth held-out sweep (tests/compat/README.md; public `.http`/`.rest` files sampled
 * without regard to their content) found, end to end through bin/dial.js against a recording server
 * on 127.0.0.1:0: in a REST Client file, a request the tool cannot read (a JSON body right under the
 * headers) or cannot send (a GET with a body: got refuses one; `@name = value` lines under a GET are
 * its body there) is refused at its line while the file's other requests are sent, as REST Client
 * sends them; blank lines after the first one under the headers start a REST Client body; and
 * `@name = value` lines under a request in a file naming no tool are variables, with a warning.
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep18-', files);

describe('eighteenth held-out sweep', () => {
  it('a JSON body right under the headers in a .rest file: that request refused at its line, the others sent', () =>
    withServer(startJsonServer(), async (server) => {
      const text = [
        '### Getting Things Done',
        `GET ${server.url}/books`,
        '',
        '### register ',
        `POST ${server.url}/auth/register `,
        'Content-Type: application/json',
        '{',
        '  "username": "ayoub"',
        '}',
        '',
        '### Clean Code',
        `POST ${server.url}/books`,
        'Content-Type: application/json',
        '',
        '{"title": "Clean Code"}',
        '',
      ].join('\n');
      const dir = workspace({ 'api.rest': text });
      const result = await runCli(['run', 'api.rest'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stdout + result.stderr).toContain('api.rest:7');
      expect(result.stdout + result.stderr).toContain('line 7 starts the body without a blank line after the headers');
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body.toString('utf8')}`)).toEqual([
        'GET /books ',
        'POST /books {"title": "Clean Code"}',
      ]);
      const check = await runCli(['check', 'api.rest'], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain(
        'api.rest:7:1: error: line 7 starts the body without a blank line after the headers',
      );
      // dial fmt reads the file whole: it refuses it at that line, as before, and leaves it as it is.
      const fmt = await runCli(['fmt', 'api.rest'], { cwd: dir });
      expect(fmt.code).toBe(3);
      expect(fmt.stderr).toContain('api.rest:7:1');
    }));

  it('`@name = value` lines under a GET in a .rest file are its body for REST Client, which cannot send it: refused there', () =>
    withServer(startJsonServer(), async (server) => {
      const host = new URL(server.url).host;
      const text = [
        `@hostname = ${host}`,
        '',
        '###',
        'GET http://{{hostname}}/api HTTP/1.1',
        '',
        '@name=冯凯迪',
        '',
        '#2019/7/7 00:00:00',
        '@beginTimeStamp=1562725726',
        '',
        '###获得某人的记录',
        'GET http://{{hostname}}/api/record',
        '    ?name={{name}}',
        '    &beginTimeStamp={{beginTimeStamp}}',
        '',
      ].join('\n');
      const dir = workspace({ 'test.rest': text });
      const result = await runCli(['run', 'test.rest'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stdout + result.stderr).toContain('test.rest:6');
      expect(result.stdout + result.stderr).toContain('REST Client cannot send a GET request with a body');
      // The variables are still the file's, as in REST Client: the second request reads them.
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'GET /api/record?name=%E5%86%AF%E5%87%AF%E8%BF%AA&beginTimeStamp=1562725726',
      ]);
      const check = await runCli(['check', 'test.rest'], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('test.rest:6:1: error: REST Client cannot send a GET request with a body');
    }));

  it('two blank lines before a .rest body: the second is the body’s first line, as REST Client sends it', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'api.rest': `POST ${server.url}/api/send-otp HTTP/1.1\nContent-Type: application/json\n\n\n{\n    "phone" : "+91"\n}\n`,
      });
      const result = await runCli(['run', 'api.rest'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.body.toString('utf8'))).toEqual(['\n{\n    "phone" : "+91"\n}']);
    }));

  it('`@name = value` lines under a request in a file naming no tool: variables, not body, with a warning at the line', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'test.http': `POST ${server.url}/api\n\n@id = 7\n\n###\nGET ${server.url}/items/{{id}}\n`,
      });
      const result = await runCli(['run', 'test.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('test.http:3: @id under the request at line 1 is read as a file variable');
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body.length}`)).toEqual([
        'POST /api 0',
        'GET /items/7 0',
      ]);
      const check = await runCli(['check', 'test.http'], { cwd: dir });
      expect(check.code, check.stdout).toBe(0);
      expect(check.stdout).toContain('test.http:3:1: warning: @id under the request at line 1');
    }));
});
