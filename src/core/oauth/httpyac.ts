/**
 * httpyac's spelling of OAuth 2.0: `Authorization: oauth2 [flow] [prefix]` (or `openid …`). The
 * configuration is in variables named `prefix_name` (falling back to `oauth2_name`):
 * tokenEndpoint, authorizationEndpoint, deviceCodeEndpoint, clientId, clientSecret, scope,
 * username, password, redirectUri, usePkce, useAuthorizationHeader, audience, resource. It is
 * turned into the JetBrains fields core/oauth reads, so both spellings share the grants, the
 * cache and the checks; the header becomes `Bearer <access token>`, as httpyac sends it.
 */
import { DialError, type SourceLocation } from '../errors.js';
import type { AuthConfigSource } from '../env/security.js';

/** `oauth2 client_credentials keycloak`, `openid code`, `oauth2` alone (client credentials). */
export const HTTPYAC_AUTH =
  /^\s*(openid|oauth2)(?:\s+(client(?:_credentials)?|(?:authorization_)?code|device(?:_code)?|password|implicit|hybrid))?(?:\s+([^\s]+))?(?:\s+(token_exchange)\s+\S+)?\s*$/i;

const GRANTS: Record<string, string> = {
  client: 'Client Credentials',
  client_credentials: 'Client Credentials',
  code: 'Authorization Code',
  authorization_code: 'Authorization Code',
  device: 'Device Authorization',
  device_code: 'Device Authorization',
  password: 'Password',
  implicit: 'Implicit',
};

const FIELDS: Record<string, string> = {
  tokenEndpoint: 'Token URL',
  authorizationEndpoint: 'Auth URL',
  deviceCodeEndpoint: 'Device Auth URL',
  clientId: 'Client ID',
  clientSecret: 'Client Secret',
  scope: 'Scope',
  username: 'Username',
  password: 'Password',
};

/** A configuration error in httpyac's words: the variables to set instead of JetBrains field names. */
export function inHttpyacWords(error: DialError, prefix = 'oauth2'): DialError {
  const rename = (text: string) =>
    Object.entries({ ...FIELDS, redirectUri: 'Redirect URL' }).reduce(
      (out, [name, field]) => out.replaceAll(`"${field}"`, `${prefix}_${name}`),
      text,
    );
  return new DialError(error.code, rename(error.message), {
    ...(error.location && { location: error.location }),
    ...(error.hint && { hint: rename(error.hint).replace(/: add ([\w]+): "…"$/, ': set the variable $1') }),
    cause: error,
  });
}

/** httpyac's redirect when none is set. */
const DEFAULT_REDIRECT = 'http://localhost:3000/callback';

/**
 * The auth configuration an httpyac `Authorization: oauth2 …` header names. `lookup` gives a
 * variable's value, or undefined when it is defined nowhere.
 */
export async function httpyacAuthSource(
  header: string,
  lookup: (name: string) => Promise<string | undefined>,
  location: SourceLocation,
): Promise<AuthConfigSource> {
  const match = HTTPYAC_AUTH.exec(header)!;
  const flow = (match[2] ?? 'client_credentials').toLowerCase();
  const prefix = match[3];
  if (flow === 'hybrid' || match[4])
    throw new DialError(
      'E_INPUT',
      `httpyac's OAuth 2.0 ${match[4] ? 'token exchange' : 'hybrid flow'} is not supported`,
      {
        location,
        hint: 'use client_credentials, password, code (with oauth2_usePkce) or device_code',
      },
    );
  const value = async (name: string) =>
    (prefix ? await lookup(`${prefix}_${name}`) : undefined) ?? lookup(`oauth2_${name}`);
  const fields: Record<string, unknown> = { Type: 'OAuth2', 'Grant Type': GRANTS[flow] };
  for (const [name, field] of Object.entries(FIELDS)) {
    const text = await value(name);
    if (text) fields[field] = text;
  }
  if (fields['Grant Type'] === 'Authorization Code')
    fields['Redirect URL'] = (await value('redirectUri')) || DEFAULT_REDIRECT;
  if (['true', '1'].includes((await value('usePkce')) ?? '')) fields.PKCE = true;
  if (['false', '0'].includes((await value('useAuthorizationHeader')) ?? '')) fields['Client Credentials'] = 'in body';
  const parameters: Record<string, string> = {};
  for (const name of ['audience', 'resource']) {
    const text = await value(name);
    if (text) parameters[name] = text;
  }
  if (Object.keys(parameters).length) fields['Custom Request Parameters'] = parameters;
  return {
    name: `${prefix ?? 'oauth2'} (httpyac ${flow})`,
    fields,
    file: location.file,
    line: location.line,
    privateFields: new Set(),
  };
}
