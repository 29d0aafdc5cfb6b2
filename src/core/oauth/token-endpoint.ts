/**
 * Talking to the authorization server: form POSTs to the token and device authorization
 * endpoints (RFC 6749 section 4, RFC 8628 section 3.1), client authentication as the configuration says, and
 * the answers read into tokens or an E_AUTH that shows the server's `error` and
 * `error_description`. Requests go through dial's own engine, so --proxy, TLS and timeouts apply.
 */
import { readFile } from 'node:fs/promises';
import { DialError, isDialError, type SourceLocation } from '../errors.js';
import type { Exchange, HttpRequest, SendOptions } from '../http/types.js';
import { basicAuthorization } from '../http/basic-auth.js';
import type { OAuthConfig } from './config.js';

/** A token response, as kept in the cache. */
export interface TokenSet {
  accessToken: string;
  tokenType?: string;
  idToken?: string;
  refreshToken?: string;
  scope?: string;
  /** Epoch ms; undefined: the server gave no lifetime (kept for this process only). */
  expiresAt?: number;
  /** Epoch ms when it was issued (with expiresAt: its lifetime). */
  obtainedAt?: number;
}

export type Send = (request: HttpRequest, options: SendOptions) => Promise<Exchange>;

export interface EndpointContext {
  send: Send;
  sendOptions: SendOptions;
  now: () => number;
  /** Where `{{$auth.token(…)}}` is written, for errors. */
  location?: SourceLocation;
}

/** An OAuth error answer (`{"error": "authorization_pending"}`…), for the device flow's polling. */
export class OAuthErrorAnswer extends Error {
  constructor(
    readonly error: string,
    readonly description: string | undefined,
    readonly status: number,
  ) {
    super(description ? `${error}: ${description}` : error);
  }
}

async function bodyText(exchange: Exchange): Promise<string> {
  const body = exchange.response.body;
  if (body.kind === 'memory') return body.bytes.toString('utf8');
  if (body.kind === 'file') return readFile(body.path, 'utf8');
  return '';
}

const formEncode = (text: string) => new URLSearchParams({ a: text }).toString().slice(2);

/** Adds the custom parameters meant for `where` to a form. */
export function addCustomParameters(form: URLSearchParams, config: OAuthConfig, where: 'auth' | 'token'): void {
  for (const parameter of config.parameters)
    if (parameter.use === 'everywhere' || parameter.use === where)
      for (const value of parameter.values) form.append(parameter.name, value);
}

/** POSTs a form to an endpoint of the server, authenticating the client as configured; returns the parsed JSON answer. */
export async function postForm(
  url: string,
  form: URLSearchParams,
  config: OAuthConfig,
  context: EndpointContext,
  what: string,
): Promise<Record<string, unknown>> {
  const headers: Array<[string, string]> = [
    ['Content-Type', 'application/x-www-form-urlencoded'],
    ['Accept', 'application/json'],
  ];
  // RFC 6749 section 2.3.1: the id and secret are form-encoded before they are joined (as
  // openid-client does), so a `:` or `%` in a secret reaches the server intact.
  if (config.clientAuth === 'basic' && config.clientSecret !== undefined)
    headers.push(['Authorization', basicAuthorization(formEncode(config.clientId), formEncode(config.clientSecret))]);
  else {
    form.set('client_id', config.clientId);
    if (config.clientAuth === 'in body' && config.clientSecret !== undefined)
      form.set('client_secret', config.clientSecret);
  }
  const exchange = await context
    .send(
      { method: 'POST', url, headers, body: { kind: 'text', text: form.toString() } },
      {
        ...context.sendOptions,
        cookieJar: undefined,
        followRedirects: false,
        bodyTarget: { kind: 'buffer', maxBodyBytes: 1024 * 1024 },
      },
    )
    .catch((error: unknown) => {
      // A transport failure (refused, DNS, TLS, timeout) points at the `{{$auth.token}}` that needed it.
      if (!isDialError(error) || error.location) throw error;
      throw new DialError(error.code, `${error.message} (${what} of auth configuration '${config.name}')`, {
        location: context.location,
        hint: error.hint,
        cause: error,
      });
    });
  const text = await bodyText(exchange);
  const status = exchange.response.status;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  const answer =
    data !== null && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : undefined;
  if (answer && typeof answer.error === 'string')
    throw new OAuthErrorAnswer(
      answer.error,
      typeof answer.error_description === 'string' ? answer.error_description : undefined,
      status,
    );
  if (status < 200 || status >= 300 || !answer) {
    const excerpt = text.trim().slice(0, 200).replace(/\s+/g, ' ');
    throw new DialError(
      'E_AUTH',
      `the ${what} at ${url} answered ${status}${answer ? '' : ' without a JSON body'}${excerpt ? `: ${excerpt}` : ''} (auth configuration '${config.name}')`,
      {
        location: context.location,
        hint: `check "${what === 'token endpoint' ? 'Token URL' : 'Device Auth URL'}" in the env file`,
      },
    );
  }
  return answer;
}

/** The E_AUTH for an error answer of the server. */
export function answerError(
  error: OAuthErrorAnswer,
  config: OAuthConfig,
  what: string,
  location?: SourceLocation,
): DialError {
  const hints: Record<string, string> = {
    invalid_client: 'check "Client ID", "Client Secret" and "Client Credentials" (basic or in body)',
    invalid_grant:
      'the code, refresh token or user credentials were refused; check "Username"/"Password" or sign in again',
    unauthorized_client: 'the client may not use this grant type; check "Grant Type" and the client registration',
    invalid_scope: 'check "Scope"',
    access_denied: 'the sign-in was denied',
    expired_token: 'the device code expired before the sign-in finished; send again',
  };
  return new DialError(
    'E_AUTH',
    `the ${what} refused auth configuration '${config.name}' (${error.status}): ${error.message}`,
    { location, hint: hints[error.error] ?? 'see the error the server gave', cause: error },
  );
}

/** Reads a token answer; `previous` keeps a refresh token the server did not send again. */
export function tokenSetOf(
  answer: Record<string, unknown>,
  config: OAuthConfig,
  now: number,
  previous?: TokenSet,
): TokenSet {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const accessToken = text(answer.access_token);
  if (!accessToken)
    throw new DialError(
      'E_AUTH',
      `the token endpoint answered without an access_token (auth configuration '${config.name}')`,
      {
        location: config.location,
        hint: 'check "Token URL": it must be the OAuth 2.0 token endpoint',
      },
    );
  const lifetime = Number(answer.expires_in ?? config.expiresIn);
  const set: TokenSet = { accessToken };
  const fields = {
    tokenType: text(answer.token_type),
    idToken: text(answer.id_token),
    refreshToken: text(answer.refresh_token) ?? previous?.refreshToken,
    scope: text(answer.scope),
    expiresAt: Number.isFinite(lifetime) && lifetime > 0 ? now + lifetime * 1000 : undefined,
    obtainedAt: now,
  };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) Object.assign(set, { [key]: value });
  return set;
}

/** One token request: `grant_type` and its fields, plus scope and the custom token parameters. */
export async function requestToken(
  config: OAuthConfig,
  fields: Record<string, string>,
  context: EndpointContext,
  previous?: TokenSet,
): Promise<TokenSet> {
  const form = new URLSearchParams(fields);
  // The scope was asked for at the authorization (code) or device authorization request already.
  const scoped = fields.grant_type === 'client_credentials' || fields.grant_type === 'password';
  if (config.scope && scoped) form.set('scope', config.scope);
  addCustomParameters(form, config, 'token');
  try {
    const answer = await postForm(config.tokenUrl, form, config, context, 'token endpoint');
    return tokenSetOf(answer, config, context.now(), previous);
  } catch (error) {
    if (error instanceof OAuthErrorAnswer) throw answerError(error, config, 'token endpoint', context.location);
    throw error;
  }
}
