/**
 * What the fourteenth held-out sweep (tests/compat/README.md) found, end to end through bin/dial.js
 * against a recording server on 127.0.0.1:0: an empty `http-client.env.json` beside the private
 * file that holds the environments; env files kept in a folder of their own (`http-client/`) beside
 * the requests' folder (`http/`), which JetBrains reads and dial now reads for `-e NAME`; and
 * `{{$random.integer(100000)}}`, one bound where JetBrains documents two, refused at its line
 * instead of sent as the constant 100000.
 */
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startJsonServer, withServer } from '../helpers/servers.js';

const workspace = (files: Record<string, string>): string => gitWorkspace('dial-sweep14-', files);

describe('fourteenth held-out sweep', () => {
  it('an empty public env file: the private one beside it still gives the environment', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'http/http-client.env.json': '',
        'http/http-client.private.env.json': JSON.stringify({ admin: { providerUrl: server.url, userName: 'admin' } }),
        'http/OpenStack.http': 'GET {{providerUrl}}/v3/users?name={{userName}}\n',
      });
      const result = await runCli(['run', 'http/OpenStack.http', '-e', 'admin'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests.map((r) => r.url)).toEqual(['/v3/users?name=admin']);
      const check = await runCli(['check', 'http/OpenStack.http', '-e', 'admin'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
    }));

  it('env files in a folder of their own beside the requests: read for -e NAME, and by `check`', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'http-client/http-client.env.json': JSON.stringify({ dev: { baseUrl: server.url, accessToken: 'tk' } }),
        'http/reservations.http': 'GET {{baseUrl}}/reservations\nAuthorization: Bearer {{accessToken}}\n',
      });
      const result = await runCli(['run', 'http/reservations.http', '-e', 'dev'], { cwd: dir });
      expect(result.code, result.stderr).toBe(0);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0].url).toBe('/reservations');
      expect(server.requests[0].headers.authorization).toBe('Bearer tk');
      const check = await runCli(['check', 'http/reservations.http', '-e', 'dev'], { cwd: dir });
      expect(check.code, check.stdout + check.stderr).toBe(0);
      // Without -e nothing is read from that folder: the variable stays undefined, at its line.
      const bare = await runCli(['run', 'http/reservations.http'], { cwd: dir });
      expect(bare.code).not.toBe(0);
      expect(bare.stdout + bare.stderr).toContain('reservations.http:1');
      expect(server.requests).toHaveLength(1);
    }));

  it('$random.integer with one bound is refused at its line before the request is sent', () =>
    withServer(startJsonServer(), async (server) => {
      const dir = workspace({
        'moncash.http': [
          `POST ${server.url}/api/transactions`,
          'Content-Type: application/json',
          '',
          '{"trackingRef": "{{$random.integer(100000)}}"}',
          '',
          '###',
          `POST ${server.url}/api/two-bounds`,
          'Content-Type: application/json',
          '',
          '{"trackingRef": {{$random.integer(100000, 999999)}}}',
          '',
        ].join('\n'),
      });
      const result = await runCli(['run', 'moncash.http'], { cwd: dir });
      expect(result.code).not.toBe(0);
      expect(result.stdout + result.stderr).toContain('moncash.http:1');
      expect(result.stdout + result.stderr).toContain('takes two bounds');
      expect(server.requests.map((r) => r.url)).toEqual(['/api/two-bounds']);
      const sent = JSON.parse(server.requests[0].body.toString('utf8')) as { trackingRef: number };
      expect(sent.trackingRef).toBeGreaterThanOrEqual(100000);
      expect(sent.trackingRef).toBeLessThan(999999);
      // `dial check` reports it at the placeholder, without sending anything.
      const check = await runCli(['check', 'moncash.http'], { cwd: dir });
      expect(check.code).toBe(1);
      expect(check.stdout).toContain('moncash.http:4:18: error: {{$random.integer(100000)}}');
      expect(check.stdout).toContain('[dynamic-variable]');
      expect(server.requests).toHaveLength(1);
    }));
});
