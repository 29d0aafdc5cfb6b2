/**
 * An auth configuration of `Security.Auth` (JetBrains HTTP Client field names) checked and turned
 * into what the flows need. String fields may hold `{{variables}}`; they are resolved first.
 * Unknown fields, unknown values and missing required fields are refused with the file and line
 * of the configuration, before anything is sent.
 */
import { DialError, type SourceLocation } from '../errors.js';
import type { AuthConfigSource } from '../env/security.js';

export type GrantType = 'authorization_code' | 'client_credentials' | 'device_code' | 'password';

/** Where a custom parameter goes: the authorization (and device authorization) request, the token request, or both. */
export type ParameterUse = 'everywhere' | 'auth' | 'token';

export interface CustomParameter {
  name: string;
  values: string[];
  use: ParameterUse;
}

export interface OAuthConfig {
  name: string;
  grant: GrantType;
  tokenUrl: string;
  authUrl?: string;
  redirectUrl?: string;
  deviceAuthUrl?: string;
  clientId: string;
  clientSecret?: string;
  /** How the client authenticates at the token endpoint (JetBrains "Client Credentials"; default basic). */
  clientAuth: 'basic' | 'in body' | 'none';
  pkce?: { method: 'S256' | 'plain'; verifier?: string };
  scope?: string;
  username?: string;
  password?: string;
  acquireAutomatically: boolean;
  /** `$auth.token` gives the ID token ("Use ID Token": true). */
  useIdToken: boolean;
  /** Lifetime to assume when the server sends no expires_in (seconds; "Expires In"). */
  expiresIn?: number;
  parameters: CustomParameter[];
  /** Where the configuration is written. */
  location: SourceLocation;
}

const GRANTS: Record<string, GrantType | 'implicit'> = {
  'authorization code': 'authorization_code',
  'client credentials': 'client_credentials',
  'device authorization': 'device_code',
  password: 'password',
  implicit: 'implicit',
};

/** Every field dial reads. "Revoke URL" (kulala) is accepted and not used: dial never revokes. */
export const KNOWN_FIELDS = [
  'Type',
  'Grant Type',
  'Auth URL',
  'Token URL',
  'Redirect URL',
  'Device Auth URL',
  'Client ID',
  'Client Secret',
  'Client Credentials',
  'PKCE',
  'Scope',
  'Username',
  'Password',
  'Acquire Automatically',
  'Use ID Token',
  'Expires In',
  'Custom Request Parameters',
  'Revoke URL',
] as const;

/** Resolves `{{…}}` in every string of a JSON value (objects and arrays walked). */
export async function resolveStrings(value: unknown, resolve: (text: string) => Promise<string>): Promise<unknown> {
  if (typeof value === 'string') return value.includes('{{') ? resolve(value) : value;
  if (Array.isArray(value)) return Promise.all(value.map((item) => resolveStrings(item, resolve)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = await resolveStrings(item, resolve);
    return out;
  }
  return value;
}

class ConfigReader {
  constructor(
    private readonly source: AuthConfigSource,
    private readonly fields: Record<string, unknown>,
    private readonly where?: string,
  ) {}

  get location(): SourceLocation {
    return { file: this.source.file, line: this.source.line };
  }

  fail(message: string, hint: string): never {
    const used = this.where ? ` (used by ${this.where})` : '';
    throw new DialError('E_ENV', `auth configuration '${this.source.name}': ${message}${used}`, {
      location: this.location,
      hint,
    });
  }

  string(field: string): string | undefined {
    const value = this.fields[field];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value === 'number') return String(value);
    if (typeof value !== 'string') this.fail(`"${field}" must be a string`, `write "${field}": "…"`);
    return value as string;
  }

  required(field: string, why: string): string {
    return this.string(field) ?? this.fail(`"${field}" is missing`, `${why}: add "${field}": "…"`);
  }

  boolean(field: string, fallback: boolean): boolean {
    const value = this.fields[field];
    if (value === undefined) return fallback;
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    return this.fail(`"${field}" must be true or false`, `write "${field}": ${String(fallback)}`);
  }

  url(field: string, why: string): string {
    const value = this.required(field, why);
    if (!/^https?:\/\//i.test(value)) this.fail(`"${field}" must be an http(s) URL, not '${value}'`, why);
    return value;
  }
}

function grantOf(reader: ConfigReader): GrantType {
  const written = reader.required('Grant Type', 'say how to get the token');
  const grant = GRANTS[written.toLowerCase()];
  if (grant === 'implicit')
    reader.fail(
      'the Implicit grant is not supported',
      'the implicit grant returns the token in a URL fragment no local listener can read; use "Authorization Code" with "PKCE": true',
    );
  if (!grant)
    reader.fail(
      `unknown "Grant Type" '${written}'`,
      'grant types: "Authorization Code", "Client Credentials", "Device Authorization", "Password"',
    );
  return grant as GrantType;
}

function pkceOf(reader: ConfigReader, value: unknown): OAuthConfig['pkce'] {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { method: 'S256' };
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return reader.fail('"PKCE" must be true, false or an object', 'write "PKCE": true');
  const fields = value as Record<string, unknown>;
  for (const key of Object.keys(fields))
    if (key !== 'Code Challenge Method' && key !== 'Code Verifier')
      reader.fail(`unknown PKCE field "${key}"`, 'PKCE fields: "Code Challenge Method", "Code Verifier"');
  const method = String(fields['Code Challenge Method'] ?? 'S256');
  const normal = method.replace(/[-_\s]/g, '').toLowerCase();
  if (normal !== 's256' && normal !== 'plain')
    reader.fail(`unknown "Code Challenge Method" '${method}'`, 'write "S256" or "Plain"');
  const verifier = fields['Code Verifier'];
  if (verifier !== undefined && (typeof verifier !== 'string' || !/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)))
    reader.fail(
      '"Code Verifier" must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~',
      'or leave it out: dial makes one',
    );
  return { method: normal === 'plain' ? 'plain' : 'S256', ...(verifier ? { verifier: verifier as string } : {}) };
}

function parametersOf(reader: ConfigReader, value: unknown): CustomParameter[] {
  if (value === undefined) return [];
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return reader.fail('"Custom Request Parameters" must be an object', 'write {"audience": "https://api"}');
  const out: CustomParameter[] = [];
  const texts = (name: string, item: unknown): string[] => {
    const list = Array.isArray(item) ? item : [item];
    if (!list.every((v) => typeof v === 'string' || typeof v === 'number'))
      reader.fail(`custom parameter '${name}' must be a string or a list of strings`, 'or {"Value": …, "Use": …}');
    return list.map(String);
  };
  for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
    if (item !== null && typeof item === 'object' && !Array.isArray(item)) {
      const { Value, Use } = item as Record<string, unknown>;
      const uses: Record<string, ParameterUse> = {
        everywhere: 'everywhere',
        'in auth request': 'auth',
        'in token request': 'token',
      };
      const use = uses[String(Use ?? 'Everywhere').toLowerCase()];
      if (!use)
        reader.fail(
          `custom parameter '${name}': unknown "Use" '${String(Use)}'`,
          'write "Everywhere", "In Auth Request" or "In Token Request"',
        );
      out.push({ name, values: texts(name, Value), use });
    } else {
      out.push({ name, values: texts(name, item), use: 'everywhere' });
    }
  }
  return out;
}

/** Checks a resolved configuration (see the file comment). */
export function readConfig(source: AuthConfigSource, fields: Record<string, unknown>, where?: string): OAuthConfig {
  const reader = new ConfigReader(source, fields, where);
  for (const field of Object.keys(fields))
    if (!(KNOWN_FIELDS as readonly string[]).includes(field))
      reader.fail(`unknown field "${field}"`, `fields: ${KNOWN_FIELDS.map((f) => `"${f}"`).join(', ')}`);
  const type = reader.string('Type') ?? 'OAuth2';
  if (type.toLowerCase() !== 'oauth2') reader.fail(`unknown "Type" '${type}'`, 'the one type is "OAuth2"');
  const grant = grantOf(reader);
  const clientAuthText = (reader.string('Client Credentials') ?? 'basic').toLowerCase();
  if (clientAuthText !== 'basic' && clientAuthText !== 'in body' && clientAuthText !== 'none')
    reader.fail(`unknown "Client Credentials" '${clientAuthText}'`, 'write "basic" (the default), "in body" or "none"');
  const expiresText = fields['Expires In'];
  const expiresIn = expiresText === undefined ? undefined : Number(expiresText);
  if (expiresIn !== undefined && !(Number.isFinite(expiresIn) && expiresIn > 0))
    reader.fail('"Expires In" must be a number of seconds', 'write "Expires In": 3600');
  const config: OAuthConfig = {
    name: source.name,
    grant,
    tokenUrl: reader.url('Token URL', 'every grant exchanges at the token endpoint'),
    clientId: reader.required('Client ID', 'every grant names the client'),
    clientAuth: clientAuthText as OAuthConfig['clientAuth'],
    acquireAutomatically: reader.boolean('Acquire Automatically', true),
    useIdToken: reader.boolean('Use ID Token', false),
    parameters: parametersOf(reader, fields['Custom Request Parameters']),
    location: reader.location,
  };
  const optional = {
    clientSecret: reader.string('Client Secret'),
    scope: reader.string('Scope'),
    redirectUrl: reader.string('Redirect URL'),
    expiresIn,
    pkce: pkceOf(reader, fields.PKCE),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(config, { [key]: value });
  if (grant === 'authorization_code')
    config.authUrl = reader.url('Auth URL', 'the Authorization Code grant signs in there');
  if (grant === 'device_code')
    config.deviceAuthUrl = reader.url('Device Auth URL', 'the Device Authorization grant asks for a user code there');
  if (grant === 'password') {
    config.username = reader.required('Username', 'the Password grant sends the user name');
    config.password = reader.required('Password', 'the Password grant sends the password');
  }
  if (grant === 'client_credentials' && config.clientAuth !== 'none')
    config.clientSecret ??= reader.required('Client Secret', 'the Client Credentials grant authenticates the client');
  return config;
}

/** The values of a configuration that are secrets wherever they show up. */
export function configSecrets(config: OAuthConfig): string[] {
  return [config.clientSecret, config.password, config.pkce?.verifier].filter((v): v is string => !!v);
}

/** Identifies what a cached token was obtained with: a change of these asks for a new token. */
export function configFingerprint(config: OAuthConfig): string {
  return JSON.stringify([
    config.grant,
    config.tokenUrl,
    config.authUrl ?? '',
    config.deviceAuthUrl ?? '',
    config.clientId,
    config.scope ?? '',
    config.username ?? '',
    config.parameters,
  ]);
}
