/**
 * What the nineteenth held-out sweep (tests/compat/README.md; public `.http`/`.rest` files sampled
 * without regard to their content) found, end to end through bin/dial.js against a recording server
 * on 127.0.0.1:0: a request whose first line holds no method and no URL (a `Content-Type` header put
 * above the request line, a `send Request` note) is one REST Client reads as a GET to that text and
 * cannot send; dial refused the whole file there, sending nothing. Now that request is refused at
 * its line, by `run` and `check`, and the file's other requests are sent.
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep19-', files);

describe('nineteenth held-out sweep', () => {
  it('a header above the request line: that request refused at its line, the others sent', () =>
    withServer(startJsonServer(), async (server) => {
      const text = [
        '###',
        `DELETE ${server.url}/plants/647f HTTP/1.1`,
        '###',
        'Content-Type: application/json',
        `POST ${server.url}/nursery HTTP/1.1`,
        '',
        '{',
        '    "name": "Las tertulia"',
        '}',
        '###',
        `GET ${server.url}/nursery HTTP/1.1`,
        '###',
        `PUT ${server.url}/nursery/6479 HTTP/1.1`,
        'Content-Type: application/json',
        '',
        '{"name": "b"}',
        '',
      ].join('\n');
      const dir = workspace({ 'requests.http': text });
      const result = await runCli(['run', 'requests.http'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stdout + result.stderr).toContain('requests.http:4');
      expect(result.stdout + result.stderr).toContain(
        'unexpected space in the request line\'s URL: "Content-Type: application/json"',
      );
      expect(server.requests.map((r) => `${r.method} ${r.url} ${r.body.toString('utf8')}`)).toEqual([
        'DELETE /plants/647f ',
        'GET /nursery ',
        'PUT /nursery/6479 {"name": "b"}',
      ]);
      const check = await runCli(['check', 'requests.http'], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain(
        'requests.http:4:14: error: unexpected space in the request line\'s URL: "Content-Type: application/json"',
      );
      // dial fmt reads the file whole: it refuses it at that line, as before.
      const fmt = await runCli(['fmt', 'requests.http'], { cwd: dir });
      expect(fmt.code).toBe(3);
      expect(fmt.stderr).toContain('requests.http:4:14');
    }));

  it('`send Request` above each request of a file: each refused at its line, nothing sent', () =>
    withServer(startJsonServer(), async (server) => {
      const text = `send Request\nGET ${server.url}/players/\n###\n\nsend Request\nGET ${server.url}/players/5/\n###`;
      const dir = workspace({ 'app.http': text });
      const result = await runCli(['run', 'app.http'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stdout).toContain('app.http:1');
      expect(result.stdout).toContain('app.http:5');
      expect(server.requests).toEqual([]);
      const check = await runCli(['check', 'app.http'], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('app.http:1:5: error');
      expect(check.stdout).toContain('app.http:5:5: error');
    }));
});
