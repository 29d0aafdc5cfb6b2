/**
 * A VS Code REST Client workspace (`.vscode/settings.json` with `rest-client.*` keys): its files
 * are read as REST Client reads them: a form body percent-encoded as REST Client sends it, a
 * header written twice joined, a written Content-Length dropped, the URL encoded. The same file
 * without the settings is sent as written; `# @dialect jetbrains` overrides the settings. Through
 * the built bin/dial.js against a recording server on 127.0.0.1.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitWorkspace, runCli } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest } from '../helpers/servers.js';

// A Keycloak password grant, as such repositories write it: spaces in the form's values.
const TOKEN = [
  '### token',
  'POST {{host}}/realms/{{realm}}/protocol/openid-connect/token',
  'Content-Type: application/x-www-form-urlencoded',
  'X-Trace: a',
  'x-trace: b',
  '',
  'grant_type=password&client_id=admin-cli&username={{user}}&password=s3cret pass&scope=openid profile|email',
  '',
  '### users',
  'GET {{host}}/admin/realms/{{realm}}/users?q=a b|c',
  '',
  '### note',
  'POST {{host}}/note',
  'Content-Length: 3',
  '',
  'hello',
  '',
].join('\n');

function settings(host: string, extra = ''): string {
  return `{
  // REST Client's environments (JSON with comments, as VS Code writes it)
  "rest-client.environmentVariables": {
    "$shared": { "realm": "demo", "user": "jane doe", },
    "local": { "host": "${host}" },
  },${extra}
  "editor.formatOnSave": true,
}
`;
}

const named = (request: RecordedRequest, name: string): string[] =>
  request.rawHeaders.flatMap((value, i) =>
    i % 2 === 0 && value.toLowerCase() === name ? [`${value}: ${request.rawHeaders[i + 1]}`] : [],
  );

describe('a REST Client workspace (.vscode/settings.json)', () => {
  it('sends the file as REST Client does: form encoded, repeated headers joined, Content-Length dropped, URL encoded', async () => {
    const server = await startRecordingServer();
    try {
      const dir = gitWorkspace('dial-rcws-', {
        '.vscode/settings.json': settings(server.url),
        'keycloak/flows/token.http': TOKEN,
      });
      const run = await runCli(['run', join('keycloak', 'flows', 'token.http'), '-e', 'local'], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toContain('percent-encodes');
      expect(server.requests).toHaveLength(3);
      const [token, users, note] = server.requests;
      expect(token.url).toBe('/realms/demo/protocol/openid-connect/token');
      expect(token.body.toString()).toBe(
        'grant_type=password&client_id=admin-cli&username=jane%20doe&password=s3cret%20pass&scope=openid%20profile%7Cemail',
      );
      expect(named(token, 'x-trace')).toEqual(['X-Trace: a,b']);
      expect(users.url).toBe('/admin/realms/demo/users?q=a%20b%7Cc');
      // The Content-Length written in the file is dropped: the whole body goes.
      expect(note.body.toString()).toBe('hello');
      expect(note.headers['content-length']).toBe('5');
    } finally {
      await server.close();
    }
  });

  it('the same file without the settings is sent as written, with the warning', async () => {
    const server = await startRecordingServer();
    try {
      const dir = gitWorkspace('dial-rcws-none-', { 'keycloak/flows/token.http': TOKEN });
      const vars = ['--var', `host=${server.url}`, '--var', 'realm=demo', '--var', 'user=jane doe'];
      const run = await runCli(['run', join('keycloak', 'flows', 'token.http#token'), ...vars], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain('REST Client percent-encodes');
      const [token] = server.requests;
      expect(token.body.toString()).toBe(
        'grant_type=password&client_id=admin-cli&username=jane doe&password=s3cret pass&scope=openid profile|email',
      );
      expect(named(token, 'x-trace').map((h) => h.toLowerCase())).toEqual(['x-trace: a', 'x-trace: b']);
    } finally {
      await server.close();
    }
  });

  it('`# @dialect jetbrains` in the file overrides the settings', async () => {
    const server = await startRecordingServer();
    try {
      const dir = gitWorkspace('dial-rcws-jb-', {
        '.vscode/settings.json': settings(server.url),
        'token.http': `# @dialect jetbrains\n${TOKEN}`,
      });
      const run = await runCli(['run', 'token.http#token', '-e', 'local'], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      const [token] = server.requests;
      expect(token.body.toString()).toContain('username=jane doe&password=s3cret pass');
      expect(named(token, 'x-trace').map((h) => h.toLowerCase())).toEqual(['x-trace: a', 'x-trace: b']);
    } finally {
      await server.close();
    }
  });

  it('rest-client.formParamEncodingStrategy "always" and "never" are followed', async () => {
    const server = await startRecordingServer();
    try {
      const always = gitWorkspace('dial-rcws-always-', {
        '.vscode/settings.json': settings(server.url, '\n  "rest-client.formParamEncodingStrategy": "always",'),
        'token.http': TOKEN,
      });
      const never = gitWorkspace('dial-rcws-never-', {
        '.vscode/settings.json': settings(server.url, '\n  "rest-client.formParamEncodingStrategy": "never",'),
        'token.http': TOKEN,
      });
      for (const dir of [always, never]) {
        const run = await runCli(['run', 'token.http#token', '-e', 'local'], { cwd: dir });
        expect(run.code, run.stderr).toBe(0);
      }
      expect(server.requests[0].body.toString()).toBe(
        'grant_type=password&client_id=admin-cli&username=jane%20doe&password=s3cret%20pass&scope=openid%20profile%7Cemail',
      );
      expect(server.requests[1].body.toString()).toBe(
        'grant_type=password&client_id=admin-cli&username=jane doe&password=s3cret pass&scope=openid profile|email',
      );
      // Both still REST Client's: the repeated header joined.
      expect(named(server.requests[1], 'x-trace')).toEqual(['X-Trace: a,b']);
    } finally {
      await server.close();
    }
  });

  it('a settings.json that does not parse: a warning naming it, the file read as before', async () => {
    const server = await startRecordingServer();
    try {
      const dir = gitWorkspace('dial-rcws-broken-', {
        '.vscode/settings.json': '{\n  "rest-client.environmentVariables": {\n    "local": {}\n  "x": 1\n}\n',
        'token.http': TOKEN,
      });
      const vars = ['--var', `host=${server.url}`, '--var', 'realm=demo', '--var', 'user=jane doe'];
      const run = await runCli(['run', 'token.http#token', ...vars], { cwd: dir });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/settings\.json:4/);
      expect(run.stderr).toContain('does not parse');
      expect(server.requests[0].body.toString()).toContain('username=jane doe');
    } finally {
      await server.close();
    }
  });
});
