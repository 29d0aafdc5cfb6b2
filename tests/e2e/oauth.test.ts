/**
 * OAuth 2.0 end to end: the built `bin/dial.js` (`send`, `run`) with `Security.Auth` in the env
 * files, against real local servers (oauth2-mock-server, an RFC 8628 device server and a resource
 * server that accepts only issued tokens). The browser is `$BROWSER` = tests/helpers/oauth-user.mjs,
 * an HTTP client playing the user. Tokens never show in output, history or reports, and the
 * cache file is 0600.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, stripAnsi, tempDir } from '../helpers/cli.js';
import {
  startDeviceServer,
  startOAuthServer,
  startProtectedApi,
  type DeviceTestServer,
  type OAuthTestServer,
  type ProtectedApi,
} from '../helpers/oauth-servers.js';

const SECRET = 'cs-e2e-5c0ffee';
const USER_SCRIPT = resolve(import.meta.dirname, '../helpers/oauth-user.mjs');
let oauth: OAuthTestServer;
let device: DeviceTestServer;
let api: ProtectedApi;
let dir: string;

beforeAll(async () => {
  oauth = await startOAuthServer({ clientId: 'dial-cli', clientSecret: SECRET });
  device = await startDeviceServer({ clientId: 'tv-app', interval: 1 });
  api = await startProtectedApi([oauth, device]);
  dir = tempDir('dial-oauth-e2e-');
  const common = { Type: 'OAuth2', 'Token URL': oauth.tokenUrl, 'Client ID': 'dial-cli' };
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify(
      {
        dev: {
          api: api.url,
          Security: {
            Auth: {
              cc: { ...common, 'Grant Type': 'Client Credentials', Scope: 'read' },
              bad: { ...common, 'Grant Type': 'Client Credentials', 'Client Secret': 'wrong' },
              manual: { ...common, 'Grant Type': 'Client Credentials', 'Acquire Automatically': false },
              code: {
                ...common,
                'Grant Type': 'Authorization Code',
                'Auth URL': oauth.authUrl,
                PKCE: true,
                Scope: 'openid',
              },
              device: {
                Type: 'OAuth2',
                'Grant Type': 'Device Authorization',
                'Device Auth URL': device.deviceUrl,
                'Token URL': device.tokenUrl,
                'Client ID': 'tv-app',
                'Client Credentials': 'none',
              },
            },
          },
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    join(dir, 'http-client.private.env.json'),
    JSON.stringify({
      dev: { Security: { Auth: { cc: { 'Client Secret': SECRET }, manual: { 'Client Secret': SECRET } } } },
    }),
  );
  const request = (name: string, auth: string) =>
    `### ${name}\nGET {{api}}/me\nAuthorization: Bearer {{$auth.token("${auth}")}}\n\n?? status == 200\n`;
  writeFileSync(join(dir, 'cc.http'), request('me', 'cc'));
  writeFileSync(join(dir, 'bad.http'), request('me', 'bad'));
  writeFileSync(join(dir, 'manual.http'), request('me', 'manual'));
  writeFileSync(join(dir, 'unknown.http'), 'GET {{api}}/me\nAuthorization: Bearer {{$auth.token("nope")}}\n');
  writeFileSync(
    join(dir, 'httpyac.http'),
    `@kc_tokenEndpoint = ${oauth.tokenUrl}\n@kc_clientId = dial-cli\n@kc_clientSecret = {{$dotenv KC_SECRET}}\n\n` +
      '### me\nGET {{api}}/me\nAuthorization: oauth2 client_credentials kc\n\n?? status == 200\n',
  );
  writeFileSync(join(dir, '.env'), `KC_SECRET=${SECRET}\n`);
  // The second request carries the token in the query string, where no header masking hides it;
  // the third fails an assertion on the echoed token, so the reports show its actual value.
  writeFileSync(
    join(dir, 'code.http'),
    request('me', 'code') +
      '\n### again\nGET {{api}}/me?access_token={{$auth.token("code")}}\n\n?? status == 200\n' +
      '\n### leak\nGET {{api}}/me\nAuthorization: Bearer {{$auth.token("code")}}\n\n?? body $.echoed == "nope"\n',
  );
  writeFileSync(join(dir, 'device.http'), '### me\nGET {{api}}/me?access_token={{$auth.token("device")}}\n');
});

afterAll(async () => {
  await Promise.all([oauth.close(), device.close(), api.close()]);
});

const issuedTokens = () => [...oauth.issued, ...device.issued];
const browser = { BROWSER: `${process.execPath} ${USER_SCRIPT}` };

function expectNoToken(text: string): void {
  for (const token of issuedTokens()) expect(text).not.toContain(token);
  expect(text).not.toContain(SECRET);
}

describe('dial send with {{$auth.token}}', () => {
  it('client credentials: 200 from the API; the token is masked in output and history, cached 0600, reused', async () => {
    const configDir = tempDir('dial-config-');
    const before = oauth.tokenRequests.length;
    const result = await runCli(['send', 'cc.http#me', '-e', 'dev', '-v'], { cwd: dir, configDir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const output = stripAnsi(result.stdout);
    expect(output).toMatch(/200 OK/);
    expect(output).toContain('"echoed":"Bearer ••••"');
    expect(oauth.tokenRequests.length).toBe(before + 1);
    expectNoToken(output);
    const history = readFileSync(join(configDir, 'history.jsonl'), 'utf8');
    expect(history).toContain('/me');
    expectNoToken(history);
    const cache = join(configDir, 'oauth-tokens.json');
    expect(statSync(cache).mode & 0o777).toBe(0o600);

    const again = await runCli(['send', 'cc.http#me', '-e', 'dev'], { cwd: dir, configDir });
    expect(again.code).toBe(0);
    expect(oauth.tokenRequests.length).toBe(before + 1);
  });

  it('a refused client: exit 4, E_AUTH at the {{$auth.token}} line with the server error and a hint; nothing sent to the API', async () => {
    const received = api.received.length;
    const result = await runCli(['send', 'bad.http#me', '-e', 'dev'], { cwd: dir });
    expect(result.code).toBe(4);
    const stderr = stripAnsi(result.stderr);
    expect(stderr).toMatch(
      /^error\[E_AUTH\] \S*bad\.http:3:\d+: the token endpoint refused auth configuration 'bad' \(401\): invalid_client: client authentication failed/m,
    );
    expect(stderr).toMatch(/^hint: check "Client ID", "Client Secret"/m);
    expect(api.received.length).toBe(received);
  });

  it('an unknown configuration: exit 3, E_ENV naming the known ones', async () => {
    const result = await runCli(['send', 'unknown.http', '-e', 'dev'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(stripAnsi(result.stderr)).toMatch(
      /error\[E_ENV\] \S*unknown\.http:2:\d+: no auth configuration 'nope' in environment 'dev'/,
    );
  });

  it('--curl prints the placeholder and signs in nowhere', async () => {
    const before = oauth.tokenRequests.length;
    const result = await runCli(['send', 'cc.http#me', '-e', 'dev', '--curl'], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('{{$auth.token("cc")}}');
    expect(oauth.tokenRequests.length).toBe(before);
  });

  it('in CI without $BROWSER nobody can sign in: the device grant fails at once (E_AUTH, exit 4), nothing asked', async () => {
    const started = Date.now();
    const requests = device.tokenRequests.length;
    const result = await runCli(['send', 'device.http#me', '-e', 'dev'], { cwd: dir, env: { CI: 'true' } });
    expect(result.code).toBe(4);
    expect(stripAnsi(result.stderr)).toMatch(
      /error\[E_AUTH\] \S*device\.http:2:\d+: auth configuration 'device' needs someone to sign in \(Device Authorization\), and CI is set/,
    );
    expect(device.tokenRequests.length).toBe(requests);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('device authorization: the verification URI and user code on stderr; the "user" approves; 200', async () => {
    const configDir = tempDir('dial-config-');
    const result = await runCli(['send', 'device.http#me', '-e', 'dev'], { cwd: dir, configDir, env: browser });
    expect(result.code).toBe(0);
    expect(stripAnsi(result.stderr)).toMatch(
      /^dial: sign in for auth configuration 'device': open http:\/\/127\.0\.0\.1:\d+\/activate and enter the code [A-F0-9]{4}-[A-F0-9]{4}$/m,
    );
    expect(result.stdout).toBe('{"ok":true,"echoed":"••••"}');
    // The token travelled in the query string: history keeps the URL with the token masked.
    const history = readFileSync(join(configDir, 'history.jsonl'), 'utf8');
    expect(history).toContain('/me?access_token=••••');
    expectNoToken(history);
  });
});

describe("httpyac's Authorization: oauth2", () => {
  it('dial run: client credentials from prefixed variables (the secret from .env); nothing leaks', async () => {
    const configDir = tempDir('dial-config-');
    const before = oauth.tokenRequests.length;
    const result = await runCli(
      ['run', 'httpyac.http', '-e', 'dev', '--reporter', `json:${join(configDir, 'r.json')}`],
      {
        cwd: dir,
        configDir,
      },
    );
    expect(result.code).toBe(0);
    expect(oauth.tokenRequests.slice(before).map((r) => r.body.grant_type)).toEqual(['client_credentials']);
    expect(oauth.issued.has(api.received.at(-1)!.slice(7))).toBe(true);
    expectNoToken(result.stdout + result.stderr + readFileSync(join(configDir, 'r.json'), 'utf8'));
  });
});

describe('dial run with {{$auth.token}}', () => {
  it('authorization code + PKCE: the URL on stderr, opened with $BROWSER, signed in once for three requests; reports hold no token', async () => {
    const configDir = tempDir('dial-config-');
    const log = join(tempDir(), 'opened.txt');
    const before = oauth.tokenRequests.length;
    const result = await runCli(
      [
        'run',
        'code.http',
        '-e',
        'dev',
        '--reporter',
        'pretty',
        '--reporter',
        `json:${join(configDir, 'r.json')}`,
        '--reporter',
        `junit:${join(configDir, 'r.xml')}`,
      ],
      { cwd: dir, configDir, env: { ...browser, OAUTH_USER_LOG: log } },
    );
    expect(result.code).toBe(1);
    const stderr = stripAnsi(result.stderr);
    const printed = /^dial: sign in for auth configuration 'code': open (\S+)$/m.exec(stderr)?.[1];
    expect(printed).toBeDefined();
    expect(readFileSync(log, 'utf8').trim()).toBe(printed);
    expect(new URL(printed!).searchParams.get('code_challenge_method')).toBe('S256');
    const grants = oauth.tokenRequests.slice(before).map((r) => r.body.grant_type);
    expect(grants).toEqual(['authorization_code']);
    expect(stripAnsi(result.stdout)).toMatch(/2 passed, 1 failed/);
    expect(stripAnsi(result.stdout)).toContain('Bearer ••••');
    for (const report of ['r.json', 'r.xml']) {
      const text = readFileSync(join(configDir, report), 'utf8');
      expect(text).toContain('Bearer ••••');
      expectNoToken(text);
    }
    expectNoToken(result.stdout + result.stderr);
  });

  it('an expired cached token is refreshed on the next run (no second sign-in)', async () => {
    const configDir = tempDir('dial-config-');
    const first = await runCli(['run', 'code.http', '-e', 'dev', '--grep', 'me|again'], {
      cwd: dir,
      configDir,
      env: browser,
    });
    expect(first.code).toBe(0);
    const cacheFile = join(configDir, 'oauth-tokens.json');
    const cache = JSON.parse(readFileSync(cacheFile, 'utf8')) as { tokens: Record<string, { expiresAt: number }> };
    for (const token of Object.values(cache.tokens)) token.expiresAt = Date.now() - 1000;
    writeFileSync(cacheFile, JSON.stringify(cache));
    const before = oauth.tokenRequests.length;
    const second = await runCli(['run', 'code.http', '-e', 'dev', '--grep', 'me|again'], {
      cwd: dir,
      configDir,
      env: { BROWSER: 'false' },
    });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('sign in');
    expect(oauth.tokenRequests.slice(before).map((r) => r.body.grant_type)).toEqual(['refresh_token']);
    expect(existsSync(cacheFile)).toBe(true);
  });
});

describe('dial auth', () => {
  it('token prints a token the API accepts, cached; login gets a new one; logout forgets them', async () => {
    const configDir = tempDir('dial-config-');
    const token = await runCli(['auth', 'token', 'cc', '-e', 'dev'], { cwd: dir, configDir });
    expect(token.code).toBe(0);
    const value = token.stdout.trim();
    expect(oauth.issued.has(value)).toBe(true);
    const before = oauth.tokenRequests.length;
    expect((await runCli(['auth', 'token', 'cc', '-e', 'dev'], { cwd: dir, configDir })).stdout.trim()).toBe(value);
    expect(oauth.tokenRequests.length).toBe(before);

    const login = await runCli(['auth', 'login', 'cc', '-e', 'dev'], { cwd: dir, configDir });
    expect(login.code).toBe(0);
    expect(login.stderr).toBe("dial: signed in with 'cc' (environment 'dev'); the token is cached\n");
    expect(login.stdout).toBe('');
    expect(oauth.tokenRequests.length).toBe(before + 1);
    const cache = join(configDir, 'oauth-tokens.json');
    // (The mock signs the same claims in the same second into the same JWT: the request count tells.)
    expect(oauth.tokenRequests.at(-1)!.body.grant_type).toBe('client_credentials');

    const logout = await runCli(['auth', 'logout'], { cwd: dir, configDir });
    expect(logout.stderr).toBe('dial: forgot 1 cached token\n');
    expect(Object.keys((JSON.parse(readFileSync(cache, 'utf8')) as { tokens: object }).tokens)).toEqual([]);
  });

  it('"Acquire Automatically": false: a request fails with a hint to `dial auth login`, which makes it work', async () => {
    const configDir = tempDir('dial-config-');
    const refused = await runCli(['send', 'manual.http#me', '-e', 'dev'], { cwd: dir, configDir });
    expect(refused.code).toBe(4);
    expect(stripAnsi(refused.stderr)).toMatch(
      /error\[E_AUTH\] \S*manual\.http:3:\d+: no valid token for auth configuration 'manual'/,
    );
    expect(stripAnsi(refused.stderr)).toContain('hint: get one with `dial auth login manual`');
    expect((await runCli(['auth', 'login', 'manual', '-e', 'dev'], { cwd: dir, configDir })).code).toBe(0);
    const sent = await runCli(['send', 'manual.http#me', '-e', 'dev'], { cwd: dir, configDir });
    expect(sent.code).toBe(0);
    expect(sent.stdout).toContain('"ok":true');
  });

  it('an unknown name: E_ENV without a made-up place, naming the configurations', async () => {
    const result = await runCli(['auth', 'token', 'nope', '-e', 'dev'], { cwd: dir });
    expect(result.code).toBe(3);
    expect(stripAnsi(result.stderr)).toMatch(
      /^error\[E_ENV\]: no auth configuration 'nope' in environment 'dev'\nhint: auth configurations: 'cc', 'bad', 'manual'/,
    );
    expect(result.stdout).toBe('');
  });
});

describe('dial check with {{$auth.token}}', () => {
  it('an auth configuration the environment lacks is an undefined-auth finding; defined ones pass', async () => {
    const missing = await runCli(['check', 'unknown.http', '-e', 'dev'], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      "unknown.http:2:23: error: no auth configuration 'nope' (Security.Auth of the env file) in environment 'dev' [undefined-auth]",
    );
    const fine = await runCli(['check', 'cc.http', 'code.http', '-e', 'dev'], { cwd: dir });
    expect(fine.stdout).toBe('');
    expect(fine.code).toBe(0);
  });
});
