// `dial echo`'s /digest-auth route answered by `dial send -a … --auth-type digest`: both
// sides of RFC 7616 from dial, each checked against the other and a wrong password refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startEchoServer, type EchoServer } from '../../src/core/echo/server.js';

describe('digest auth against dial echo', () => {
  let echo: EchoServer;
  beforeAll(async () => {
    echo = await startEchoServer({ port: 0 });
  });
  afterAll(() => echo.close());

  it.each(['', '/MD5', '/SHA-256'])('authenticates with the right password (algorithm%s)', async (algorithm) => {
    const result = await runCli([
      'send',
      '-a',
      'ann:secret',
      '--auth-type',
      'digest',
      `${echo.url}/digest-auth/auth/ann/secret${algorithm}`,
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ authenticated: true, user: 'ann' });
  });

  it('is refused with the wrong password (401, exit 1 with --check-status)', async () => {
    const result = await runCli([
      'send',
      '--check-status',
      '-a',
      'ann:wrong',
      '--auth-type',
      'digest',
      `${echo.url}/digest-auth/auth/ann/secret`,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('E_HTTP_STATUS');
    expect(result.stdout).toContain('"authenticated": false');
  });

  // `Authorization: Digest user password` in a .http file: `dial send FILE#name` answered the
  // challenge while `dial run` sent the request without any Authorization (a 401).
  it.each([
    ['right', 'secret', 0, '✓ auth.http › digest  200'],
    ['wrong', 'nope', 1, 'status 401'],
  ])(
    'dial run answers the challenge of Authorization: Digest in a .http file (%s password)',
    async (_case, password, code, shown) => {
      const dir = tempDir('dial-digest-run-');
      writeFileSync(
        join(dir, 'auth.http'),
        `### digest\nGET ${echo.url}/digest-auth/auth/ann/secret\nAuthorization: Digest ann ${password}\n\n` +
          `> {%\n  client.test('ok', () => client.assert(response.status === 200, 'status ' + response.status));\n%}\n`,
      );
      const result = await runCli(['run', 'auth.http'], { cwd: dir });
      expect(result.code, result.stderr).toBe(code);
      expect(result.stdout + result.stderr).toContain(shown);
    },
  );
});
