// The saved cookie jar and `send --session`, end to end: the built bin/dial.js run twice (two
// processes) against a real local server, proving what persists, where, and what does not leak.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startHttpServer, type TestServer } from '../helpers/servers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    response.setHeader('content-type', 'application/json');
    if (url.pathname === '/login') {
      const user = url.searchParams.get('user') ?? 'anon';
      response.setHeader('set-cookie', [`sid=${user}-cookie-secret; Path=/; HttpOnly; SameSite=Lax`]);
      response.end('{"ok":true}');
      return;
    }
    if (url.pathname === '/logout') {
      response.setHeader('set-cookie', ['sid=; Max-Age=0; Path=/']);
      response.end('{"ok":true}');
      return;
    }
    response.end(
      JSON.stringify({
        cookie: request.headers.cookie ?? null,
        authorization: request.headers.authorization ?? null,
        team: request.headers['x-team'] ?? null,
      }),
    );
  });
});
afterAll(() => server.close());

/** A workspace with dev and prod environments and login / me / anonymous requests. */
function workspace(): string {
  const root = tempDir('dial-cookies-ws-');
  writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ dev: { user: 'dev' }, prod: { user: 'prod' } }));
  writeFileSync(
    join(root, 'api.http'),
    [
      '### login',
      `GET ${server.url}/login?user={{user}}`,
      '',
      '### me',
      `GET ${server.url}/me`,
      '',
      '### anonymous',
      '# @no-cookie-jar',
      `GET ${server.url}/me`,
      '',
    ].join('\n'),
  );
  writeFileSync(join(root, 'login.http'), `### login\nGET ${server.url}/login?user=runner\n`);
  writeFileSync(
    join(root, 'me.http'),
    `### me\nGET ${server.url}/me\n\n> {%\nclient.test('logged in', () => client.assert(response.body.cookie === 'sid=runner-cookie-secret', String(response.body.cookie)));\n%}\n`,
  );
  return root;
}

function body(stdout: string): { cookie: string | null; authorization: string | null; team: string | null } {
  return JSON.parse(stdout) as { cookie: string | null; authorization: string | null; team: string | null };
}

describe('the saved cookie jar', () => {
  it('dial send FILE#login then FILE#me in another process sends the saved cookie; the jar is 0600 and history masks it', async () => {
    const root = workspace();
    const configDir = tempDir('dial-cookies-config-');
    const login = await runCli(['send', 'api.http#login', '-e', 'dev'], { cwd: root, configDir });
    expect(login.code, login.stderr).toBe(0);
    const me = await runCli(['send', 'api.http#me', '-e', 'dev'], { cwd: root, configDir });
    expect(me.code, me.stderr).toBe(0);
    expect(body(me.stdout).cookie).toBe('sid=dev-cookie-secret');

    const jars = readdirSync(join(configDir, 'cookies'));
    expect(jars).toHaveLength(1);
    const jarPath = join(configDir, 'cookies', jars[0]);
    expect(statSync(jarPath).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(jarPath, 'utf8')) as {
      workspace: string;
      environments: Record<string, Array<{ name: string; httpOnly: boolean; sameSite: string }>>;
    };
    expect(saved.environments.dev).toEqual([
      expect.objectContaining({ name: 'sid', value: 'dev-cookie-secret', httpOnly: true, sameSite: 'Lax' }),
    ]);
    // Only the jar holds the value: history masks it in headers and in the echoed body.
    const history = readFileSync(join(configDir, 'history.jsonl'), 'utf8');
    expect(history).toContain('/me');
    expect(history).not.toContain('dev-cookie-secret');
    // Nothing is written into the workspace.
    expect(readdirSync(root).sort()).toEqual(['api.http', 'http-client.env.json', 'login.http', 'me.http']);
  });

  it('a cookie saved under one environment is not sent under another', async () => {
    const root = workspace();
    const configDir = tempDir('dial-cookies-config-');
    expect((await runCli(['send', 'api.http#login', '-e', 'dev'], { cwd: root, configDir })).code).toBe(0);
    const prod = await runCli(['send', 'api.http#me', '-e', 'prod'], { cwd: root, configDir });
    expect(body(prod.stdout).cookie).toBeNull();
    const none = await runCli(['send', 'api.http#me'], { cwd: root, configDir });
    expect(body(none.stdout).cookie).toBeNull();
    const dev = await runCli(['send', 'api.http#me', '-e', 'dev'], { cwd: root, configDir });
    expect(body(dev.stdout).cookie).toBe('sid=dev-cookie-secret');
    // --curl prints the command that sends what dial would: the saved cookie of that environment only.
    const curl = await runCli(['send', '--curl', 'api.http#me', '-e', 'dev'], { cwd: root, configDir });
    expect(curl.stdout).toContain("-H 'Cookie: sid=dev-cookie-secret'");
    const curlProd = await runCli(['send', '--curl', 'api.http#me', '-e', 'prod'], { cwd: root, configDir });
    expect(curlProd.stdout).not.toContain('Cookie');
  });

  it('# @no-cookie-jar and --no-cookie-jar send no saved cookie; a server removes one by expiring it', async () => {
    const root = workspace();
    const configDir = tempDir('dial-cookies-config-');
    await runCli(['send', 'api.http#login', '-e', 'dev'], { cwd: root, configDir });
    const anonymous = await runCli(['send', 'api.http#anonymous', '-e', 'dev'], { cwd: root, configDir });
    expect(body(anonymous.stdout).cookie).toBeNull();
    const flag = await runCli(['send', '--no-cookie-jar', 'api.http#me', '-e', 'dev'], { cwd: root, configDir });
    expect(body(flag.stdout).cookie).toBeNull();
    // A URL send has no jar (nothing changes), and says so when given a jar flag.
    const url = await runCli(['send', '--no-cookie-jar', `${server.url}/logout`], { cwd: root, configDir });
    expect(url.stderr).toContain('--cookie-jar and --no-cookie-jar apply to .http targets');
    expect(body((await runCli(['send', 'api.http#me', '-e', 'dev'], { cwd: root, configDir })).stdout).cookie).toBe(
      'sid=dev-cookie-secret',
    );
    writeFileSync(join(root, 'logout.http'), `GET ${server.url}/logout\n`);
    await runCli(['send', 'logout.http', '-e', 'dev'], { cwd: root, configDir });
    expect(body((await runCli(['send', 'api.http#me', '-e', 'dev'], { cwd: root, configDir })).stdout).cookie).toBe(
      null,
    );
  });

  it('dial run keeps the jar between runs (login.http, then me.http); --no-cookie-jar starts empty', async () => {
    const root = workspace();
    const configDir = tempDir('dial-cookies-config-');
    const first = await runCli(['run', 'login.http'], { cwd: root, configDir });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const second = await runCli(['run', 'me.http'], { cwd: root, configDir });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const isolated = await runCli(['run', '--no-cookie-jar', 'me.http'], { cwd: root, configDir });
    expect(isolated.code).toBe(1);
    expect(isolated.stdout).toContain('logged in');
    // A failed request's report shows its exchange: the saved cookie it sent is masked, also where echoed.
    writeFileSync(join(root, 'fails.http'), `### fails\nGET ${server.url}/me\n\n?? status == 500\n`);
    const failed = await runCli(['run', '--output-failed', '--reporter', 'json:report.json', 'fails.http'], {
      cwd: root,
      configDir,
    });
    expect(failed.code).toBe(1);
    // No terminal reporter: --output-failed writes the exchange to stderr.
    expect(failed.stderr).toContain('"cookie":');
    expect(failed.stderr).not.toContain('runner-cookie-secret');
    expect(readFileSync(join(root, 'report.json'), 'utf8')).not.toContain('runner-cookie-secret');
  });

  it('--cookie-jar FILE keeps the jar in FILE (0600) instead of the config folder', async () => {
    const root = workspace();
    const configDir = tempDir('dial-cookies-config-');
    const jar = join(tempDir('dial-cookies-ci-'), 'jar.json');
    expect((await runCli(['run', '--cookie-jar', jar, 'login.http'], { cwd: root, configDir })).code).toBe(0);
    expect(statSync(jar).mode & 0o777).toBe(0o600);
    expect(() => readdirSync(join(configDir, 'cookies'))).toThrow();
    expect((await runCli(['run', '--cookie-jar', jar, 'me.http'], { cwd: root, configDir })).code).toBe(0);
    expect((await runCli(['run', 'me.http'], { cwd: root, configDir })).code).toBe(1);
  });

  it('dial cookies list masks values; dial cookies clear empties the jar', async () => {
    const root = workspace();
    const configDir = tempDir('dial-cookies-config-');
    await runCli(['send', 'api.http#login', '-e', 'dev'], { cwd: root, configDir });
    const list = await runCli(['cookies', 'list'], { cwd: root, configDir });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('dev');
    expect(list.stdout).toMatch(/sid=•+ {2}127\.0\.0\.1\/ {2}session {2}HttpOnly {2}SameSite=Lax/);
    expect(list.stdout).not.toContain('dev-cookie-secret');
    const json = await runCli(['cookies', 'list', '--all', '--json'], { cwd: tempDir(), configDir });
    expect(json.stdout).not.toContain('dev-cookie-secret');
    expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ workspace: root, environment: 'dev' })]);
    const clear = await runCli(['cookies', 'clear', '-e', 'dev'], { cwd: root, configDir });
    expect(clear.stdout).toContain('removed 1 cookie');
    expect(body((await runCli(['send', 'api.http#me', '-e', 'dev'], { cwd: root, configDir })).stdout).cookie).toBe(
      null,
    );
    expect((await runCli(['cookies', 'list'], { cwd: root, configDir })).stdout).toContain('no saved cookies');
  });
});

describe('dial send --session', () => {
  it('keeps headers, -a credentials and cookies between sends to a host; the file is 0600 and history masks it', async () => {
    const configDir = tempDir('dial-session-config-');
    const cwd = tempDir();
    const first = await runCli(
      ['send', '--session', 'ann', '-a', 'ann:pw-session-secret', `${server.url}/login?user=ann`, 'X-Team:blue'],
      { cwd, configDir },
    );
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(['send', '--session', 'ann', `${server.url}/me`], { cwd, configDir });
    expect(body(second.stdout)).toEqual({
      cookie: 'sid=ann-cookie-secret',
      authorization: `Basic ${Buffer.from('ann:pw-session-secret').toString('base64')}`,
      team: 'blue',
    });
    // Another host's session of the same name is another session.
    const other = await runCli(['send', '--session', 'ann', `${server.url.replace('127.0.0.1', 'localhost')}/me`], {
      cwd,
      configDir,
    });
    expect(body(other.stdout)).toEqual({ cookie: null, authorization: null, team: null });

    const file = join(configDir, 'sessions', `127.0.0.1_${server.port}`, 'ann.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toContain('pw-session-secret');
    const history = readFileSync(join(configDir, 'history.jsonl'), 'utf8');
    expect(history).not.toContain('pw-session-secret');
    expect(history).not.toContain('ann-cookie-secret');

    const shown = await runCli(['sessions', 'show', 'ann', '--host', `127.0.0.1:${server.port}`], { cwd, configDir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('X-Team');
    expect(shown.stdout).not.toContain('pw-session-secret');
    expect(shown.stdout).not.toContain('ann-cookie-secret');
    const list = await runCli(['sessions', 'list'], { cwd, configDir });
    expect(list.stdout).toContain(`127.0.0.1_${server.port}  ann  1 header, 1 cookie, basic auth`);
  });

  it('--session-read-only uses the session without saving; sessions clear removes it; a .http target refuses --session', async () => {
    const configDir = tempDir('dial-session-config-');
    const cwd = tempDir();
    await runCli(['send', '--session', 's', `${server.url}/login?user=first`], { cwd, configDir });
    const readOnly = await runCli(
      ['send', '--session-read-only', 's', `${server.url}/login?user=second`, 'X-Team:red'],
      {
        cwd,
        configDir,
      },
    );
    expect(readOnly.code).toBe(0);
    const after = await runCli(['send', '--session', 's', `${server.url}/me`], { cwd, configDir });
    expect(body(after.stdout)).toEqual({ cookie: 'sid=first-cookie-secret', authorization: null, team: null });

    const missing = await runCli(['sessions', 'clear', 'nobody'], { cwd, configDir });
    expect(missing.code).toBe(3);
    const clear = await runCli(['sessions', 'clear', 's'], { cwd, configDir });
    expect(clear.stdout).toContain('removed 1 session');
    expect((await runCli(['sessions', 'show', 's'], { cwd, configDir })).code).toBe(3);

    const root = workspace();
    const refused = await runCli(['send', '--session', 's', 'api.http#me'], { cwd: root, configDir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--session is for URL sends');
    const both = await runCli(['send', '--session', 'a', '--session-read-only', 'b', `${server.url}/me`], {
      cwd,
      configDir,
    });
    expect(both.code).toBe(2);
  });
});
