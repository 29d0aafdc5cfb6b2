/**
 * What the twenty-first held-out sweep (tests/compat/README.md; public `.http`/`.rest` files sampled
 * without regard to their content) found, end to end through bin/dial.js against a recording server
 * on 127.0.0.1:0, both in `.rest` files, whose tool is REST Client:
 * - `curl '…' HTTP/1.1` (a request line's version word after a curl URL) and `curl curl '…'`: REST
 *   Client takes the first word after `curl` as the URL, so it sends the first and cannot send the
 *   second; dial refused the whole file at the first, sending nothing.
 * - `GET http:localhost//`: REST Client's HTTP client reads `http:host` with Node's URL parser as
 *   `http://host`; dial refused it.
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep21-', files);

describe('twenty-first held-out sweep', () => {
  it('`curl URL HTTP/1.1` is sent without the word, warned; `curl curl URL` is refused at its line, that request only', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'test.rest': `curl '${server.url}/communes?nom=clermont&limit=5' HTTP/1.1\n###\n\ncurl curl '${server.url}/communes?codePostal=78000'\n`,
      });
      const result = await runCli(['run', 'test.rest'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /communes?nom=clermont&limit=5']);
      expect(result.stderr).toContain('test.rest:1: `HTTP/1.1` after the URL of a curl command');
      expect(result.stdout).toContain('error[E_PARSE] (test.rest:4)');
      expect(result.stdout).toContain('written twice');
      const check = await runCli(['check', 'test.rest'], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('test.rest:1:1: warning: `HTTP/1.1`');
      expect(check.stdout).toContain('test.rest:4:1: error: `curl` written twice');
      expect(server.requests).toHaveLength(1);
    }));

  it('`GET http:HOST:PORT//` in a .rest file goes to http://HOST:PORT// with a warning; in a .http file it is still refused', () =>
    withServer(startJsonServer(), async (server) => {
      const bare = server.url.replace('http://', 'http:');
      const dir = workspace({ 'requests.rest': `GET ${bare}//\n`, 'requests.http': `GET ${bare}/a\n` });
      const result = await runCli(['run', 'requests.rest'], { cwd: dir });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET //']);
      expect(result.stderr).toContain(`sent to ${server.url}//, as REST Client's HTTP client`);
      const check = await runCli(['check', 'requests.rest'], { cwd: dir });
      expect(check.code, check.stdout).toBe(0);
      expect(check.stdout).toContain('requests.rest:1:1: warning:');
      const other = await runCli(['run', 'requests.http'], { cwd: dir });
      expect(other.code).toBe(3);
      expect(other.stderr).toContain('requests.http:1:5');
      expect(server.requests).toHaveLength(1);
    }));
});
