/**
 * `{{$auth.token("name")}}` through core/session against real local OAuth 2.0 servers
 * (oauth2-mock-server and an RFC 8628 device server, tests/helpers/oauth-servers.ts): every
 * grant, the token cache (file mode, reuse, refresh, per environment), the errors, and that a
 * printed request (keepReference) never signs in.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, type SessionOptions } from '../../../src/core/session/index.js';
import { DialError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/cli.js';
import {
  startDeviceServer,
  startOAuthServer,
  startProtectedApi,
  type DeviceTestServer,
  type OAuthTestServer,
  type ProtectedApi,
} from '../../helpers/oauth-servers.js';

const SECRET = 'cs-7d1f9e0b2a';
let oauth: OAuthTestServer;
let device: DeviceTestServer;
let api: ProtectedApi;

beforeAll(async () => {
  oauth = await startOAuthServer({ clientId: 'dial-cli', clientSecret: SECRET, users: { ada: 'pw-ada-1815' } });
  device = await startDeviceServer({ clientId: 'tv-app', interval: 0 });
  api = await startProtectedApi([oauth, device]);
});

afterAll(async () => {
  await Promise.all([oauth.close(), device.close(), api.close()]);
});

type Auth = Record<string, Record<string, unknown>>;

interface Setup {
  auth: Auth;
  privateAuth?: Auth;
  privateVars?: Record<string, string>;
  http?: string;
  environment?: string;
  options?: Partial<SessionOptions>;
  cacheFile?: string;
}

function workspace(setup: Setup) {
  const root = tempDir('dial-oauth-');
  const env = setup.environment ?? 'dev';
  writeFileSync(
    join(root, 'http-client.env.json'),
    JSON.stringify({ [env]: { api: api.url, Security: { Auth: setup.auth } } }, null, 2),
  );
  if (setup.privateAuth || setup.privateVars)
    writeFileSync(
      join(root, 'http-client.private.env.json'),
      JSON.stringify({
        [env]: { ...setup.privateVars, ...(setup.privateAuth ? { Security: { Auth: setup.privateAuth } } : {}) },
      }),
    );
  writeFileSync(
    join(root, 'api.http'),
    setup.http ?? '### me\nGET {{api}}/me\nAuthorization: Bearer {{$auth.token("main")}}\n',
  );
  return root;
}

async function open(setup: Setup) {
  const root = workspace(setup);
  const notices: string[] = [];
  const cacheFile = setup.cacheFile ?? join(tempDir('dial-oauth-cache-'), 'oauth-tokens.json');
  const make = (extra: Partial<SessionOptions> = {}) =>
    createSession({
      workspaceRoot: root,
      environment: setup.environment ?? 'dev',
      processEnv: {},
      oauth: { notify: (m) => notices.push(m), openBrowser: (url) => void fetch(url).then((r) => r.text()), cacheFile },
      ...setup.options,
      ...extra,
    });
  const session = make();
  const file = await session.loadFile(join(root, 'api.http'));
  return { root, session, file, notices, cacheFile, make };
}

const clientCredentials = (extra: Record<string, unknown> = {}) => ({
  main: {
    Type: 'OAuth2',
    'Grant Type': 'Client Credentials',
    'Token URL': oauth.tokenUrl,
    'Client ID': 'dial-cli',
    'Client Secret': SECRET,
    Scope: 'read write',
    ...extra,
  },
});

async function expectDialError(promise: Promise<unknown>): Promise<DialError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DialError);
  return error as DialError;
}

describe('$auth.token: client credentials', () => {
  it('gets a token with Basic client authentication, sends it, masks it and caches it (mode 0600)', async () => {
    const before = oauth.tokenRequests.length;
    const { session, file, cacheFile } = await open({ auth: clientCredentials() });
    const exchange = await session.execute(file, file.requests[0]);
    expect(exchange.response.status).toBe(200);
    const request = oauth.tokenRequests[before];
    expect(request.body).toMatchObject({ grant_type: 'client_credentials', scope: 'read write' });
    expect(request.authorization).toBe(`Basic ${Buffer.from(`dial-cli:${SECRET}`).toString('base64')}`);
    expect(request.body.client_secret).toBeUndefined();
    const token = /^Bearer (.+)$/.exec(api.received.at(-1)!)![1];
    expect(oauth.issued.has(token)).toBe(true);
    expect(session.secretValues()).toEqual(expect.arrayContaining([token, SECRET]));
    expect(statSync(cacheFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(cacheFile, 'utf8')).toContain(token);
  });

  it('a second session (a later dial process) reuses the cached token; another environment does not', async () => {
    const cacheFile = join(tempDir('dial-oauth-cache-'), 'oauth-tokens.json');
    const first = await open({ auth: clientCredentials(), cacheFile });
    await first.session.prepare(first.file, first.file.requests[0]);
    const count = oauth.tokenRequests.length;
    const again = first.make();
    const { request } = await again.prepare(first.file, first.file.requests[0]);
    expect(oauth.tokenRequests.length).toBe(count);
    expect(request.headers[0][1]).toMatch(/^Bearer ey/);
    // The same configuration in another environment is another token (cached per environment).
    const envFile = join(first.root, 'http-client.env.json');
    const dev = (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, unknown>).dev;
    writeFileSync(envFile, JSON.stringify({ dev, staging: dev }));
    const staging = createSession({
      workspaceRoot: first.root,
      environment: 'staging',
      processEnv: {},
      oauth: { notify: () => undefined, cacheFile },
    });
    await staging.prepare(first.file, first.file.requests[0]);
    expect(oauth.tokenRequests.length).toBe(count + 1);
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as { tokens: Record<string, unknown> };
    expect(
      Object.keys(cached.tokens)
        .map((key) => (JSON.parse(key) as string[])[1])
        .sort(),
    ).toEqual(['dev', 'staging']);
  });

  it('Basic client authentication form-encodes the id and secret (RFC 6749 2.3.1): a secret with : % + and a space works', async () => {
    const odd = 'p:ss%w+rd x';
    const server = await startOAuthServer({ clientId: 'dial cli', clientSecret: odd });
    try {
      const { session, file } = await open({
        auth: clientCredentials({ 'Token URL': server.tokenUrl, 'Client ID': 'dial cli', 'Client Secret': odd }),
      });
      const { request } = await session.prepare(file, file.requests[0]);
      expect(server.issued.has(request.headers[0][1].slice(7))).toBe(true);
      expect(server.tokenRequests[0].authorization).toBe(
        `Basic ${Buffer.from('dial+cli:p%3Ass%25w%2Brd+x').toString('base64')}`,
      );
    } finally {
      await server.close();
    }
  });

  it('"Client Credentials": "in body" sends the secret in the form; Custom Request Parameters go to the token request', async () => {
    const before = oauth.tokenRequests.length;
    const { session, file } = await open({
      auth: clientCredentials({
        'Client Credentials': 'in body',
        'Custom Request Parameters': {
          audience: { Value: 'https://api.example', Use: 'In Token Request' },
          only_auth: { Value: 'x', Use: 'In Auth Request' },
        },
      }),
    });
    await session.prepare(file, file.requests[0]);
    const request = oauth.tokenRequests[before];
    expect(request.authorization).toBeUndefined();
    expect(request.body).toMatchObject({
      client_id: 'dial-cli',
      client_secret: SECRET,
      audience: 'https://api.example',
    });
    expect(request.body.only_auth).toBeUndefined();
  });

  it('the secret from the private env file, public and private configurations merged field by field', async () => {
    const { session, file } = await open({
      auth: { main: { ...clientCredentials().main, 'Client Secret': undefined } },
      privateAuth: { main: { 'Client Secret': '{{clientSecret}}' } },
      privateVars: { clientSecret: SECRET },
    });
    const prepared = await session.prepare(file, file.requests[0]);
    expect(prepared.request.headers[0][1]).toMatch(/^Bearer ey/);
    expect(prepared.secretValues).toContain(SECRET);
  });

  it('a wrong secret: E_AUTH with the server error and description, at the line of {{$auth.token}}', async () => {
    const { session, file } = await open({
      auth: clientCredentials({ 'Client Secret': 'wrong' }),
      http: '### me\n# a comment\nGET {{api}}/me\nAuthorization: Bearer {{$auth.token("main")}}\n',
    });
    const error = await expectDialError(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_AUTH');
    expect(error.exitCode).toBe(4);
    expect(error.message).toContain('invalid_client: client authentication failed');
    expect(error.location).toMatchObject({ line: 4 });
    expect(error.hint).toContain('Client Secret');
  });
});

describe('$auth.token: password, ID token, refresh', () => {
  const password = (extra: Record<string, unknown> = {}) => ({
    main: {
      Type: 'OAuth2',
      'Grant Type': 'Password',
      'Token URL': oauth.tokenUrl,
      'Client ID': 'dial-cli',
      Username: 'ada',
      Password: 'pw-ada-1815',
      Scope: 'openid profile',
      ...extra,
    },
  });

  it('password grant; $auth.idToken gives the OpenID id_token (a JWT for the user)', async () => {
    const { session, file } = await open({
      auth: password(),
      http: '### me\nGET {{api}}/me\nAuthorization: Bearer {{$auth.token("main")}}\nX-Id: {{$auth.idToken("main")}}\n',
    });
    const { request, secretValues } = await session.prepare(file, file.requests[0]);
    const idToken = request.headers[1][1];
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString('utf8')) as { aud: string };
    expect(payload.aud).toBe('dial-cli');
    expect(secretValues).toEqual(expect.arrayContaining([idToken, 'pw-ada-1815']));
    expect(oauth.tokenRequests.at(-1)!.body).toMatchObject({ grant_type: 'password', username: 'ada' });
  });

  it('a wrong password: E_AUTH invalid_grant', async () => {
    const { session, file } = await open({ auth: password({ Password: 'nope' }) });
    const error = await expectDialError(session.prepare(file, file.requests[0]));
    expect(error.message).toContain('invalid_grant: wrong user name or password');
  });

  it('an expired token is refreshed with its refresh token, not signed in again', async () => {
    const cacheFile = join(tempDir('dial-oauth-cache-'), 'oauth-tokens.json');
    const first = await open({ auth: password(), cacheFile });
    const { request: firstRequest } = await first.session.prepare(first.file, first.file.requests[0]);
    const later = first.make({ oauth: { notify: () => undefined, cacheFile, now: () => Date.now() + 2 * 3600_000 } });
    const { request } = await later.prepare(first.file, first.file.requests[0]);
    const last = oauth.tokenRequests.at(-1)!;
    expect(last.body.grant_type).toBe('refresh_token');
    expect(request.headers[0][1]).not.toBe(firstRequest.headers[0][1]);
    expect(oauth.issued.has(request.headers[0][1].slice(7))).toBe(true);
  });

  it('a short-lived token (expires_in 20 s) is reused within its life, not fetched for every request', async () => {
    const server = await startOAuthServer();
    server.onToken((response) => (response.body.expires_in = 20));
    try {
      const cacheFile = join(tempDir('dial-oauth-cache-'), 'oauth-tokens.json');
      const { session, file } = await open({
        auth: clientCredentials({ 'Token URL': server.tokenUrl }),
        cacheFile,
      });
      await session.prepare(file, file.requests[0]);
      await session.prepare(file, file.requests[0]);
      expect(server.tokenRequests).toHaveLength(1);
      const stored = Object.values(
        (
          JSON.parse(readFileSync(cacheFile, 'utf8')) as {
            tokens: Record<string, { expiresAt: number; obtainedAt: number }>;
          }
        ).tokens,
      )[0];
      expect(stored.expiresAt - stored.obtainedAt).toBe(20_000);
    } finally {
      await server.close();
    }
  });

  it('"Acquire Automatically": false with no cached token: E_AUTH, nothing requested', async () => {
    const before = oauth.tokenRequests.length;
    const { session, file } = await open({ auth: password({ 'Acquire Automatically': false }) });
    const error = await expectDialError(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_AUTH');
    expect(error.message).toContain('Acquire Automatically');
    expect(oauth.tokenRequests.length).toBe(before);
  });
});

describe('$auth.token: authorization code with PKCE, device authorization', () => {
  const code = (extra: Record<string, unknown> = {}) => ({
    main: {
      Type: 'OAuth2',
      'Grant Type': 'Authorization Code',
      'Auth URL': oauth.authUrl,
      'Token URL': oauth.tokenUrl,
      'Client ID': 'dial-cli',
      'Redirect URL': 'http://127.0.0.1/callback',
      PKCE: true,
      Scope: 'openid',
      ...extra,
    },
  });

  it('the sign-in URL is told and opened; the loopback listener takes the code; the verifier matches the S256 challenge', async () => {
    const { session, file, notices } = await open({ auth: code() });
    const { request } = await session.prepare(file, file.requests[0]);
    expect(notices).toHaveLength(1);
    const url = new URL(/open (\S+)/.exec(notices[0])![1]);
    expect(url.origin + url.pathname).toBe(oauth.authUrl);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const exchange = oauth.tokenRequests.at(-1)!.body;
    expect(exchange).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: url.searchParams.get('redirect_uri'),
    });
    expect(exchange.code_verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(oauth.issued.has(request.headers[0][1].slice(7))).toBe(true);
  });

  it('no one signs in: E_TIMEOUT at the {{$auth.token}} line, and the listener is closed', async () => {
    const { session, file } = await open({
      auth: code({ 'Redirect URL': 'http://127.0.0.1:0/cb' }),
      options: { oauth: { notify: () => undefined, interactionTimeoutMs: 300, cacheFile: join(tempDir(), 't.json') } },
    });
    const error = await expectDialError(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_TIMEOUT');
    expect(error.location).toMatchObject({ line: 3 });
  });

  it('a Redirect URL that is not loopback is refused before anything is sent', async () => {
    const { session, file } = await open({ auth: code({ 'Redirect URL': 'https://example.com/cb' }) });
    const error = await expectDialError(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_ENV');
    expect(error.message).toContain('loopback');
  });

  it('device authorization: the user code is told, polling waits for the approval', async () => {
    const before = device.pendingAnswers();
    const { session, file, notices } = await open({
      auth: {
        main: {
          Type: 'OAuth2',
          'Grant Type': 'Device Authorization',
          'Device Auth URL': device.deviceUrl,
          'Token URL': device.tokenUrl,
          'Client ID': 'tv-app',
          'Client Credentials': 'none',
        },
      },
      // The "user" approves only after dial has polled once.
      options: {
        oauth: {
          notify: (m) => notices.push(m),
          openBrowser: (url) => void new Promise((r) => setTimeout(r, 150)).then(() => fetch(url)),
          cacheFile: join(tempDir(), 't.json'),
        },
      },
    });
    const exchange = await session.execute(file, file.requests[0]);
    expect(exchange.response.status).toBe(200);
    expect(notices[0]).toMatch(/open http:\/\/127\.0\.0\.1:\d+\/activate and enter the code [A-F0-9]{4}-[A-F0-9]{4}/);
    expect(device.pendingAnswers()).toBeGreaterThan(before);
  });
});

describe('$auth.token: configuration errors and printing', () => {
  it('an unknown configuration name: E_ENV at the use, naming the known ones', async () => {
    const { session, file } = await open({
      auth: clientCredentials(),
      http: '### me\nGET {{api}}/me?t={{$auth.token("other")}}\n',
    });
    const error = await expectDialError(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_ENV');
    expect(error.message).toContain("no auth configuration 'other' in environment 'dev'");
    expect(error.location).toMatchObject({ line: 2 });
    expect(error.hint).toContain("'main'");
  });

  it('a missing field: E_ENV at the configuration in the env file', async () => {
    const { root, session, file } = await open({
      auth: { main: { Type: 'OAuth2', 'Grant Type': 'Client Credentials', 'Client ID': 'x' } },
    });
    const error = await expectDialError(session.prepare(file, file.requests[0]));
    expect(error.message).toContain('"Token URL" is missing');
    expect(error.location?.file).toBe(join(root, 'http-client.env.json'));
    expect(error.location?.line).toBe(6);
  });

  it.each([
    [{ 'Grant Type': 'Implicit' }, 'Implicit grant is not supported'],
    [{ 'Grant Type': 'Magic' }, `unknown "Grant Type" 'Magic'`],
    [{ Colour: 'red' }, 'unknown field "Colour"'],
    [{ 'Client Credentials': 'jwt' }, `unknown "Client Credentials" 'jwt'`],
  ])('refused before sending: %j', async (extra, message) => {
    const before = oauth.tokenRequests.length;
    const { session, file } = await open({ auth: clientCredentials(extra) });
    const error = await expectDialError(session.prepare(file, file.requests[0]));
    expect(error.message).toContain(message);
    expect(oauth.tokenRequests.length).toBe(before);
  });

  it('a token endpoint that refuses connections: E_CONNREFUSED pointing at the {{$auth.token}} line', async () => {
    const { session, file } = await open({ auth: clientCredentials({ 'Token URL': 'http://127.0.0.1:9/token' }) });
    const error = await expectDialError(session.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_CONNREFUSED');
    expect(error.message).toContain("token endpoint of auth configuration 'main'");
    expect(error.location).toMatchObject({ line: 3 });
  });

  it('"Security" is no variable, and one that is not an object is refused at its line', async () => {
    const { root, session, file } = await open({
      auth: clientCredentials(),
      http: '### x\nGET {{api}}/{{Security}}\n',
    });
    const undefinedError = await expectDialError(session.prepare(file, file.requests[0]));
    expect(undefinedError.message).toContain("variable 'Security' is not defined");
    writeFileSync(join(root, 'http-client.env.json'), '{\n  "dev": {\n    "Security": "oops"\n  }\n}\n');
    const again = createSession({ workspaceRoot: root, environment: 'dev', processEnv: {} });
    const error = await expectDialError(again.prepare(file, file.requests[0]));
    expect(error.code).toBe('E_ENV');
    expect(error.location).toMatchObject({ line: 3 });
  });

  it('printing a request (keepReference: --curl, --offline, the preview) keeps the placeholder and signs in nowhere', async () => {
    const before = oauth.tokenRequests.length;
    const { session, file, cacheFile } = await open({
      auth: clientCredentials(),
      options: { keepReference: () => undefined },
    });
    const { request } = await session.prepare(file, file.requests[0]);
    expect(request.headers[0][1]).toBe('Bearer {{$auth.token("main")}}');
    expect(oauth.tokenRequests.length).toBe(before);
    expect(existsSync(cacheFile)).toBe(false);
  });
});

describe("httpyac's spelling: Authorization: oauth2 [flow] [prefix]", () => {
  const variables = (prefix: string, values: Record<string, string>) =>
    Object.entries(values)
      .map(([name, value]) => `@${prefix}_${name} = ${value}`)
      .join('\n');

  it('client_credentials with a prefix: the header becomes Bearer <token>, the secret masked', async () => {
    const before = oauth.tokenRequests.length;
    const { session, file } = await open({
      auth: {},
      http: `${variables('keycloak', { tokenEndpoint: oauth.tokenUrl, clientId: 'dial-cli', clientSecret: SECRET, scope: 'read' })}\n\n### me\nGET {{api}}/me\nAuthorization: oauth2 client_credentials keycloak\n`,
    });
    const { request, secretValues } = await session.prepare(file, file.requests[0]);
    const token = /^Bearer (.+)$/.exec(request.headers[0][1])![1];
    expect(oauth.issued.has(token)).toBe(true);
    expect(oauth.tokenRequests[before].body).toMatchObject({ grant_type: 'client_credentials', scope: 'read' });
    expect(secretValues).toEqual(expect.arrayContaining([token, SECRET]));
  });

  it('password with the oauth2_ fallback and useAuthorizationHeader false (secret in the form)', async () => {
    const { session, file } = await open({
      auth: {},
      http: `${variables('oauth2', { tokenEndpoint: oauth.tokenUrl, clientId: 'dial-cli', clientSecret: SECRET, username: 'ada', password: 'pw-ada-1815', useAuthorizationHeader: 'false' })}\n@users_username = ada\n\n### me\nGET {{api}}/me\nAuthorization: oauth2 password users\n`,
    });
    const { request } = await session.prepare(file, file.requests[0]);
    expect(oauth.issued.has(request.headers[0][1].slice(7))).toBe(true);
    expect(oauth.tokenRequests.at(-1)!.body).toMatchObject({
      grant_type: 'password',
      username: 'ada',
      client_secret: SECRET,
    });
  });

  it('openid code with usePkce: signs in through the loopback listener (redirectUri port 0: any free port)', async () => {
    const { session, file, notices } = await open({
      auth: {},
      http: `${variables('oauth2', { tokenEndpoint: oauth.tokenUrl, authorizationEndpoint: oauth.authUrl, clientId: 'dial-cli', usePkce: 'true', redirectUri: 'http://127.0.0.1:0/cb' })}\n\n### me\nGET {{api}}/me\nAuthorization: openid code\n`,
    });
    const { request } = await session.prepare(file, file.requests[0]);
    expect(oauth.issued.has(request.headers[0][1].slice(7))).toBe(true);
    const url = new URL(/open (\S+)/.exec(notices[0])![1]);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:[1-9]\d*\/cb$/);
    expect(oauth.tokenRequests.at(-1)!.body.code_verifier).toBeDefined();
  });

  it('a missing variable is named in httpyac words; hybrid and token_exchange are refused; printing keeps the header', async () => {
    const missing = await open({
      auth: {},
      http: '@oauth2_clientId = x\n\n### me\nGET {{api}}/me\nAuthorization: oauth2\n',
    });
    const error = await expectDialError(missing.session.prepare(missing.file, missing.file.requests[0]));
    expect(error.message).toContain('oauth2_tokenEndpoint is missing');
    expect(error.hint).toContain('set the variable oauth2_tokenEndpoint');
    expect(error.location).toMatchObject({ line: 5 });
    for (const header of ['oauth2 hybrid', 'oauth2 code kc token_exchange other']) {
      const refused = await open({ auth: {}, http: `### me\nGET {{api}}/me\nAuthorization: ${header}\n` });
      expect((await expectDialError(refused.session.prepare(refused.file, refused.file.requests[0]))).code).toBe(
        'E_INPUT',
      );
    }
    const printed = await open({
      auth: {},
      http: '### me\nGET {{api}}/me\nAuthorization: oauth2 client_credentials\n',
      options: { keepReference: () => undefined },
    });
    const { request } = await printed.session.prepare(printed.file, printed.file.requests[0]);
    expect(request.headers[0][1]).toBe('oauth2 client_credentials');
  });
});
