/**
 * What the eleventh held-out sweep (tests/compat/README.md) found, end to end against a recording
 * server on 127.0.0.1:0: a form body REST Client would percent-encode, in a file that names no
 * tool, is sent as written with a warning at its line; `dial check` reports a multipart part's
 * `< ./file` that does not exist, at that line; `dial run` names that line too.
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep11-', files);

describe('eleventh held-out sweep', () => {
  it('a form body with a space, in a file that names no tool: sent as written, with a warning at the body', async () => {
    const server = await startJsonServer();
    try {
      const dir = workspace({
        'auth.http': [
          `POST ${server.url}/token`,
          'Content-Type: application/x-www-form-urlencoded',
          '',
          'client_id=app',
          '&code=get from previous request',
          '',
          '###',
          `POST ${server.url}/plain`,
          'Content-Type: application/x-www-form-urlencoded',
          '',
          'username=user1&password={{password}}',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'auth.http', '--var', 'password=a b'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('auth.http:4');
      expect(result.stderr).toContain('REST Client percent-encodes');
      // Only the first body warns: the second holds its space in a {{value}}, not in its text.
      expect(result.stderr.match(/percent-encodes/g)).toHaveLength(1);
      expect(server.requests.map((r) => r.body.toString('utf8'))).toEqual([
        'client_id=app&code=get from previous request',
        'username=user1&password=a b',
      ]);

      const check = await runCli(['check', 'auth.http'], { cwd: dir });
      expect(check.stdout + check.stderr).toContain('auth.http:4:1: warning: this form body holds a space');

      // Named for REST Client: encoded, no warning.
      const named = await runCli(['run', 'auth.http', '--var', 'password=a b', '--dialect', 'rest-client'], {
        cwd: dir,
      });
      expect(named.code, named.stderr).toBe(0);
      expect(named.stderr).not.toContain('percent-encodes');
      expect(server.requests[2].body.toString('utf8')).toBe('client_id=app&code=get%20from%20previous%20request');
    } finally {
      await server.close();
    }
  });

  it('a multipart part naming a file that is not there: `check` reports its line, `run` names it and sends nothing for it', async () => {
    const server = await startJsonServer();
    try {
      const dir = workspace({
        'there.txt': 'hello',
        'upload.http': [
          `POST ${server.url}/upload`,
          'Content-Type: multipart/form-data; boundary=B',
          '',
          '--B',
          'Content-Disposition: form-data; name="a"; filename="there.txt"',
          '',
          '< ./there.txt',
          '--B',
          'Content-Disposition: form-data; name="b"; filename="gone.jpg"',
          '',
          '< ./missing/gone.jpg',
          '--B--',
          '',
        ].join('\n'),
      });
      const check = await runCli(['check', 'upload.http'], { cwd: dir });
      expect(check.code).not.toBe(0);
      expect(check.stdout + check.stderr).toContain(
        'upload.http:11:1: error: multipart file not found: ./missing/gone.jpg',
      );
      expect(check.stdout + check.stderr).not.toContain('there.txt');

      const run = await runCli(['run', 'upload.http'], { cwd: dir });
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toContain('upload.http:11');
      expect(server.requests).toHaveLength(0);
    } finally {
      await server.close();
    }
  });
});
