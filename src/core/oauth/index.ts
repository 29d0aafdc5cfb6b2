/**
 * OAuth 2.0 as the JetBrains HTTP Client does it (docs/oauth.md): `{{$auth.token("name")}}` and
 * `{{$auth.idToken("name")}}` get a token for the named `Security.Auth` configuration of the
 * environment. A valid cached token is used as it is; an expired one is refreshed with its
 * refresh token; otherwise (unless "Acquire Automatically" is false) the grant runs: client
 * credentials, password, authorization code (PKCE) or device authorization. Tokens are cached per
 * workspace, environment and name (./token-store.ts) and handed back with every secret the
 * exchange used, so the session masks them wherever the request is shown or stored.
 *
 * The session loads this module on the first `$auth` only.
 */
import { join } from 'node:path';
import { DialError, isDialError, type SourceLocation } from '../errors.js';
import type { AuthConfigSource } from '../env/security.js';
import type { SendOptions } from '../http/types.js';
import { configDir } from '../settings/paths.js';
import { configFingerprint, configSecrets, readConfig, resolveStrings, type OAuthConfig } from './config.js';
import { requestToken, OAuthErrorAnswer, type EndpointContext, type Send, type TokenSet } from './token-endpoint.js';
import { cacheKey, fingerprintHash, TokenStore } from './token-store.js';
import { authorizationCodeGrant, deviceGrant, type UserContext } from './interactive.js';

export { readConfig, type OAuthConfig } from './config.js';

/** What the front end provides: how the user is told and where the browser is. */
export interface OAuthHost {
  /** Tells the user what to do (a URL to open, a code to enter); `dial send`/`run` print it on stderr. */
  notify(message: string): void;
  /** Opens a URL in the user's browser, without waiting on it; leave out where there is none. */
  openBrowser?(url: string): void | Promise<void>;
  /** The token cache file (default: oauth-tokens.json in dial's config folder). */
  cacheFile?: string;
  /** How long to wait for the user to sign in, ms (default 5 minutes). */
  interactionTimeoutMs?: number;
  /** The clock (ms), for tests. */
  now?: () => number;
  /**
   * `auto` (requests): a cached token, else refresh, else the grant unless "Acquire Automatically"
   * is false. `always` (`dial auth token`): the same, whatever "Acquire Automatically" says.
   * `fresh` (`dial auth login`): the grant runs, cache or not.
   */
  acquire?: 'auto' | 'always' | 'fresh';
  /**
   * false: no person is there to sign in (CI without $BROWSER), so the Authorization Code and
   * Device Authorization grants fail at once instead of waiting for the timeout.
   */
  interactive?: boolean;
  /** The signal of the request being sent now: aborting it stops a sign-in that waits (the workbench's esc). */
  signal?: () => AbortSignal | undefined;
}

/** One `{{$auth.token("name")}}` to resolve. */
export interface AuthUse {
  kind: 'token' | 'idToken';
  name: string;
  /** Where it is written. */
  location?: SourceLocation;
  /** "request 'x' at api.http:7", for messages. */
  where: string;
  /** The environment's configurations. */
  configs?: Map<string, AuthConfigSource>;
  environmentName?: string;
  envFiles: string[];
  /** Resolves `{{…}}` in configuration values with the request's variables. */
  resolve: (text: string) => Promise<string>;
}

export interface OAuthClientOptions {
  host: OAuthHost;
  workspaceRoot: string;
  environment?: string;
  sendOptions?: SendOptions;
  processEnv?: Record<string, string | undefined>;
  /** The engine (default core/http sendRequest). */
  send?: Send;
}

export interface AuthValue {
  value: string;
  /** Every secret of the exchange: tokens, client secret, password. */
  secrets: string[];
}

/**
 * How long before expiry a token counts as expired (a request in flight must not carry a dying
 * token): 30 s, or a tenth of the lifetime for a token that lives less than 5 minutes.
 */
const EXPIRY_SKEW_MS = 30_000;

export class OAuthClient {
  private readonly memory = new Map<string, { config: string; token: TokenSet }>();
  private readonly pending = new Map<string, Promise<TokenSet>>();
  private readonly store: TokenStore;
  private readonly now: () => number;

  constructor(private readonly options: OAuthClientOptions) {
    this.now = options.host.now ?? Date.now;
    const cacheFile = options.host.cacheFile ?? defaultCacheFile(options.processEnv);
    this.store = new TokenStore(cacheFile, this.now);
  }

  /** The value of one `$auth` use (see the file comment). */
  async token(use: AuthUse): Promise<AuthValue> {
    const source = use.configs?.get(use.name);
    if (!source) throw this.unknownConfig(use);
    const fields = (await resolveStrings(source.fields, use.resolve)) as Record<string, unknown>;
    const config = readConfig(source, fields, use.where);
    const key = cacheKey(this.options.workspaceRoot, this.options.environment, config.name);
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.obtain(key, config, use).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    const token = await pending;
    const secrets = [token.accessToken, token.idToken, token.refreshToken, ...configSecrets(config)].filter(
      (value): value is string => !!value,
    );
    if (use.kind === 'idToken' || config.useIdToken) {
      if (!token.idToken)
        throw new DialError(
          'E_AUTH',
          `the token response for auth configuration '${config.name}' has no id_token (${use.where})`,
          {
            location: use.location,
            hint: 'an ID token comes with OpenID Connect: add "openid" to "Scope"',
          },
        );
      return { value: token.idToken, secrets };
    }
    return { value: token.accessToken, secrets };
  }

  private unknownConfig(use: AuthUse): DialError {
    const known = [...(use.configs?.keys() ?? [])];
    const env = use.environmentName ? `environment '${use.environmentName}'` : 'the $shared environment';
    return new DialError('E_ENV', `no auth configuration '${use.name}' in ${env} (${use.where})`, {
      location: use.location,
      hint: known.length
        ? `auth configurations: ${known.map((name) => `'${name}'`).join(', ')}`
        : `add "Security": {"Auth": {"${use.name}": {"Type": "OAuth2", …}}} to the environment in ${use.envFiles.length ? use.envFiles.join(', ') : 'http-client.env.json'}${use.environmentName ? '' : ', or select an environment with -e'}`,
    });
  }

  private valid(token: TokenSet | undefined): boolean {
    if (!token) return false;
    if (token.expiresAt === undefined) return true;
    const lifetime = token.obtainedAt === undefined ? Infinity : token.expiresAt - token.obtainedAt;
    return token.expiresAt - Math.min(EXPIRY_SKEW_MS, lifetime / 10) > this.now();
  }

  private async obtain(key: string, config: OAuthConfig, use: AuthUse): Promise<TokenSet> {
    const fingerprint = fingerprintHash(configFingerprint(config));
    const mode = this.options.host.acquire ?? 'auto';
    if (mode === 'fresh')
      return this.save(key, fingerprint, await this.acquire(config, await this.endpointContext(use)));
    const inMemory = this.memory.get(key);
    if (inMemory?.config === fingerprint && this.valid(inMemory.token)) return inMemory.token;
    const stored = await this.store.get(key);
    const cached = stored?.config === fingerprint ? stored : undefined;
    if (cached && this.valid(cached)) {
      this.memory.set(key, { config: fingerprint, token: cached });
      return cached;
    }
    if (!config.acquireAutomatically && mode === 'auto')
      throw new DialError(
        'E_AUTH',
        `no valid token for auth configuration '${config.name}'${cached ? ' (the cached one expired)' : ''}, and "Acquire Automatically" is false (${use.where})`,
        {
          location: use.location,
          hint: `get one with \`dial auth login ${config.name}\`, or set "Acquire Automatically": true in ${config.location.file}:${config.location.line}`,
        },
      );
    const context = await this.endpointContext(use);
    let token: TokenSet | undefined;
    if (cached?.refreshToken) token = await this.refresh(config, cached, context);
    token ??= await this.acquire(config, context);
    return this.save(key, fingerprint, token);
  }

  private async save(key: string, fingerprint: string, token: TokenSet): Promise<TokenSet> {
    this.memory.set(key, { config: fingerprint, token });
    await this.store.set(key, { ...token, config: fingerprint });
    return token;
  }

  /** A refreshed token, or undefined when the server no longer takes the refresh token (then the grant runs again). */
  private async refresh(
    config: OAuthConfig,
    cached: TokenSet,
    context: EndpointContext,
  ): Promise<TokenSet | undefined> {
    try {
      return await requestToken(
        config,
        { grant_type: 'refresh_token', refresh_token: cached.refreshToken! },
        context,
        cached,
      );
    } catch (error) {
      if (isDialError(error) && error.code === 'E_AUTH' && error.cause instanceof OAuthErrorAnswer) return undefined;
      throw error;
    }
  }

  private acquire(config: OAuthConfig, context: UserContext): Promise<TokenSet> {
    if (
      this.options.host.interactive === false &&
      (config.grant === 'authorization_code' || config.grant === 'device_code')
    )
      throw new DialError(
        'E_AUTH',
        `auth configuration '${config.name}' needs someone to sign in (${config.grant === 'device_code' ? 'Device Authorization' : 'Authorization Code'}), and CI is set`,
        {
          location: context.location,
          hint: 'in CI use the Client Credentials or Password grant, or set BROWSER to a program that signs in',
        },
      );
    switch (config.grant) {
      case 'client_credentials':
        return requestToken(config, { grant_type: 'client_credentials' }, context);
      case 'password':
        return requestToken(
          config,
          { grant_type: 'password', username: config.username!, password: config.password! },
          context,
        );
      case 'authorization_code':
        return authorizationCodeGrant(config, context);
      case 'device_code':
        return deviceGrant(config, context);
    }
  }

  private async endpointContext(use: AuthUse): Promise<UserContext> {
    const send = this.options.send ?? (await import('../http/index.js')).sendRequest;
    const host = this.options.host;
    return {
      send,
      sendOptions: this.options.sendOptions ?? {},
      now: this.now,
      location: use.location,
      notify: (message) => host.notify(message),
      ...(host.openBrowser ? { openBrowser: (url: string) => host.openBrowser!(url) } : {}),
      timeoutMs: host.interactionTimeoutMs ?? 5 * 60_000,
      signal: host.signal?.(),
    };
  }
}

export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
  return new OAuthClient(options);
}

/** The default token cache file for a process environment. */
export function defaultCacheFile(env?: Record<string, string | undefined>): string {
  return join(configDir(env), 'oauth-tokens.json');
}

/**
 * Forgets cached tokens (`dial auth logout`): those of `workspaceRoot` (every workspace when
 * undefined), of `environment` and `name` when given. Answers how many were dropped.
 */
export function forgetTokens(
  cacheFile: string,
  filter: { workspaceRoot?: string; environment?: string; name?: string },
): Promise<number> {
  return new TokenStore(cacheFile, Date.now).removeWhere((key) => {
    const [root, environment, name] = JSON.parse(key) as [string, string, string];
    return (
      (filter.workspaceRoot === undefined || root === filter.workspaceRoot) &&
      (filter.environment === undefined || environment === filter.environment) &&
      (filter.name === undefined || name === filter.name)
    );
  });
}
