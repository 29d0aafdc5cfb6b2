/**
 * What the twentieth held-out sweep (tests/compat/README.md; public `.http`/`.rest` files sampled
 * without regard to their content) found, end to end through bin/dial.js against a recording server
 * on 127.0.0.1:0: a method-less request line whose URL holds a space
 * (`http://…/pesquisarcontatos/nome/anderson motta`), which REST Client and httpyac send with the
 * space percent-encoded; dial refused the whole file, sending nothing.
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep20-', files);

describe('twentieth held-out sweep', () => {
  it('a method-less URL with a space is sent %20-encoded; `check` passes the file', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'test.http': `${server.url}/contatos\n\n###\n\n${server.url}/pesquisarcontatos/nome/anderson motta`,
      });
      const result = await runCli(['run', 'test.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
        'GET /contatos',
        'GET /pesquisarcontatos/nome/anderson%20motta',
      ]);
      const check = await runCli(['check', 'test.http'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
    }));

  it('a method-less line with a space not starting with a scheme is refused at its line, that request only (sweep 19)', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({ 'test.http': `GET ${server.url}/a\n\n###\nfetch ${server.url}/b\n` });
      const result = await runCli(['run', 'test.http'], { cwd: dir });
      expect(result.code).toBe(3);
      expect(result.stdout).toContain('error[E_PARSE] (test.http:4)');
      expect(server.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['GET /a']);
      const check = await runCli(['check', 'test.http'], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('test.http:4:6');
    }));
});
