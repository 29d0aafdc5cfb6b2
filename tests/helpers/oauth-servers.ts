/**
 * Real OAuth 2.0 servers for tests, on 127.0.0.1:0:
 * - `startOAuthServer`: oauth2-mock-server (an OpenID Connect server: client credentials,
 *   password, authorization code with PKCE, refresh tokens, signed JWTs), with the client
 *   secret and users checked here (the mock accepts anyone) and every token request recorded;
 * - `startDeviceServer`: a small RFC 8628 server (device authorization + token endpoint with
 *   authorization_pending / slow_down, approval at the verification URI), which the mock lacks;
 * - `startProtectedApi`: a resource server that answers 200 only to a token one of them issued,
 *   and echoes the Authorization header back (so masking of echoed tokens is tested too).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Server } from 'oauth2-mock-server';

export interface TokenRequest {
  body: Record<string, string>;
  authorization?: string;
}

export interface OAuthTestServer {
  url: string;
  tokenUrl: string;
  authUrl: string;
  /** Every request to the token endpoint, in order. */
  tokenRequests: TokenRequest[];
  /** Access tokens issued (the protected API accepts these). */
  issued: Set<string>;
  close(): Promise<void>;
}

/** oauth2-mock-server's token answer, to change in a test (onToken). */
export interface TokenAnswer {
  body: Record<string, unknown>;
  statusCode: number;
}

export interface MockOAuthServer extends OAuthTestServer {
  /** Changes each token answer before it is sent. */
  onToken(change: (response: TokenAnswer) => void): void;
}

export interface OAuthServerOptions {
  clientId?: string;
  clientSecret?: string;
  users?: Record<string, string>;
}

function basicCredentials(header: string | undefined): [string, string] | undefined {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return undefined;
  const text = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = text.indexOf(':');
  // RFC 6749 section 2.3.1: both halves are form-encoded.
  const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
  return [decode(text.slice(0, colon)), decode(text.slice(colon + 1))];
}

/** oauth2-mock-server with the client secret and the users checked (see the file comment). */
export async function startOAuthServer(options: OAuthServerOptions = {}): Promise<MockOAuthServer> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  const tokenRequests: TokenRequest[] = [];
  const issued = new Set<string>();
  server.service.on(
    'beforeResponse',
    (
      response: { body: Record<string, unknown>; statusCode: number },
      req: IncomingMessage & { body: Record<string, string> },
    ) => {
      const authorization = req.headers.authorization;
      tokenRequests.push({ body: { ...req.body }, ...(authorization ? { authorization } : {}) });
      const basic = basicCredentials(authorization);
      const clientId = basic?.[0] ?? req.body.client_id;
      const secret = basic?.[1] ?? req.body.client_secret;
      const refuse = (error: string, description: string, status = 400) => {
        response.statusCode = status;
        response.body = { error, error_description: description };
      };
      if (options.clientId && clientId !== options.clientId)
        return refuse('invalid_client', `unknown client '${clientId}'`, 401);
      if (options.clientSecret && req.body.grant_type === 'client_credentials' && secret !== options.clientSecret)
        return refuse('invalid_client', 'client authentication failed', 401);
      if (req.body.grant_type === 'password' && options.users && options.users[req.body.username] !== req.body.password)
        return refuse('invalid_grant', 'wrong user name or password');
      issued.add(String(response.body.access_token));
    },
  );
  await server.start(0, '127.0.0.1');
  const url = server.issuer.url!;
  return {
    url,
    tokenUrl: `${url}/token`,
    authUrl: `${url}/authorize`,
    tokenRequests,
    issued,
    close: () => server.stop(),
    onToken: (change) => server.service.on('beforeResponse', change),
  };
}

async function readForm(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export interface DeviceTestServer extends OAuthTestServer {
  deviceUrl: string;
  /** How many times the token endpoint answered authorization_pending. */
  pendingAnswers: () => number;
}

/** An RFC 8628 device authorization server (see the file comment); `interval` in seconds. */
export async function startDeviceServer(options: { clientId: string; interval?: number }): Promise<DeviceTestServer> {
  const tokenRequests: TokenRequest[] = [];
  const issued = new Set<string>();
  const devices = new Map<string, { userCode: string; approved: boolean }>();
  let pending = 0;
  let base = '';
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', base);
      if (request.method === 'GET' && url.pathname === '/activate') {
        const device = [...devices.values()].find((d) => d.userCode === url.searchParams.get('user_code'));
        if (!device) return json(response, 404, { error: 'unknown user code' });
        device.approved = true;
        return response.writeHead(200, { 'content-type': 'text/html' }).end('<p>Device approved.</p>');
      }
      const form = request.method === 'POST' ? await readForm(request) : {};
      if (url.pathname === '/device') {
        if (form.client_id !== options.clientId) return json(response, 401, { error: 'invalid_client' });
        const deviceCode = randomUUID();
        const userCode = `${randomUUID().slice(0, 4)}-${randomUUID().slice(0, 4)}`.toUpperCase();
        devices.set(deviceCode, { userCode, approved: false });
        return json(response, 200, {
          device_code: deviceCode,
          user_code: userCode,
          verification_uri: `${base}/activate`,
          verification_uri_complete: `${base}/activate?user_code=${userCode}`,
          expires_in: 60,
          interval: options.interval ?? 1,
        });
      }
      if (url.pathname === '/token') {
        tokenRequests.push({ body: form });
        if (form.grant_type === 'urn:ietf:params:oauth:grant-type:device_code') {
          const device = devices.get(form.device_code);
          if (!device) return json(response, 400, { error: 'invalid_grant' });
          if (!device.approved) {
            pending++;
            return json(response, 400, { error: 'authorization_pending' });
          }
          devices.delete(form.device_code);
        } else if (form.grant_type !== 'refresh_token') {
          return json(response, 400, { error: 'unsupported_grant_type' });
        }
        const token = `device-at-${randomUUID()}`;
        issued.add(token);
        return json(response, 200, {
          access_token: token,
          token_type: 'Bearer',
          expires_in: 3600,
          refresh_token: `device-rt-${randomUUID()}`,
        });
      }
      json(response, 404, { error: 'not_found' });
    })();
  });
  base = await listen(server);
  return {
    url: base,
    tokenUrl: `${base}/token`,
    authUrl: `${base}/activate`,
    deviceUrl: `${base}/device`,
    tokenRequests,
    issued,
    pendingAnswers: () => pending,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

export interface ProtectedApi {
  url: string;
  /** Authorization headers received, in order. */
  received: string[];
  close(): Promise<void>;
}

/** A resource server accepting only tokens `servers` issued (see the file comment). */
export async function startProtectedApi(servers: Array<{ issued: Set<string> }>): Promise<ProtectedApi> {
  const received: string[] = [];
  const server = createServer((request, response) => {
    const header = request.headers.authorization ?? '';
    received.push(header);
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const queryToken = url.searchParams.get('access_token');
    const ok = [token, queryToken].some((t) => t && servers.some((s) => s.issued.has(t)));
    if (!ok) return json(response, 401, { error: 'invalid_token' });
    json(response, 200, { ok: true, echoed: header || queryToken });
  });
  const url = await listen(server);
  return {
    url,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
