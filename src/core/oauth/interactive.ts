/**
 * The two grants that need the user: Authorization Code (with PKCE when configured) through a
 * loopback redirect listener on 127.0.0.1 (RFC 8252, section 7.3), and Device Authorization (RFC 8628)
 * with polling. The user is told what to do through `notify` (the commands print it on stderr)
 * and the page is opened with `openBrowser` when the host has one; neither is waited on, so
 * nothing blocks on a browser: the listener or the polling waits, up to `timeoutMs`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { DialError } from '../errors.js';
import type { OAuthConfig } from './config.js';
import {
  addCustomParameters,
  answerError,
  OAuthErrorAnswer,
  postForm,
  requestToken,
  type EndpointContext,
  type TokenSet,
} from './token-endpoint.js';

export interface UserContext extends EndpointContext {
  notify: (message: string) => void;
  openBrowser?: (url: string) => void | Promise<void>;
  /** How long to wait for the user, ms. */
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** Opens a URL without waiting on it and without letting a failing opener fail the sign-in. */
function open(context: UserContext, url: string): void {
  try {
    void Promise.resolve(context.openBrowser?.(url)).catch(() => undefined);
  } catch {
    // No browser: the URL is printed; that is enough.
  }
}

function timeoutError(config: OAuthConfig, context: UserContext, what: string): DialError {
  return new DialError(
    'E_TIMEOUT',
    `no ${what} for auth configuration '${config.name}' within ${Math.round(context.timeoutMs / 1000)} s`,
    { location: context.location, hint: 'open the printed URL and finish signing in, then send again' },
  );
}

/** Where the listener listens: the Redirect URL's port on loopback, or any free port. */
function redirectTarget(config: OAuthConfig): { url: URL; port: number } {
  const written = config.redirectUrl ?? 'http://127.0.0.1/callback';
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    throw new DialError('E_ENV', `auth configuration '${config.name}': "Redirect URL" '${written}' is not a URL`, {
      location: config.location,
      hint: 'write "Redirect URL": "http://127.0.0.1:8910/callback"',
    });
  }
  const host = url.hostname.replace(/^\[|]$/g, '');
  if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '::1'].includes(host))
    throw new DialError(
      'E_ENV',
      `auth configuration '${config.name}': dial receives the sign-in on a loopback address, and "Redirect URL" is '${written}'`,
      {
        location: config.location,
        hint: 'register and write a loopback redirect such as "Redirect URL": "http://127.0.0.1:8910/callback" (any port works with most providers)',
      },
    );
  return { url, port: url.port ? Number(url.port) : 0 };
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as { port: number }).port);
    });
  });
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><meta charset="utf-8"><title>${title}</title><p>${text}</p>`;

/** Starts the listener; `code` resolves with the authorization code of the callback that carries `state`. */
async function startListener(config: OAuthConfig, state: string) {
  const target = redirectTarget(config);
  let settle!: { resolve: (code: string) => void; reject: (error: unknown) => void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== target.url.pathname || (!url.searchParams.has('code') && !url.searchParams.has('error'))) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    if (url.searchParams.get('state') !== state) {
      response
        .writeHead(400, { 'content-type': 'text/html' })
        .end(PAGE('dial', 'This sign-in is not the one dial is waiting for.'));
      return;
    }
    const error = url.searchParams.get('error');
    if (error) {
      response.writeHead(200, { 'content-type': 'text/html' }).end(PAGE('dial', 'Sign-in failed; see the terminal.'));
      const description = url.searchParams.get('error_description') ?? undefined;
      settle.reject(new OAuthErrorAnswer(error, description, 302));
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/html' })
      .end(PAGE('dial', 'Signed in. You can close this tab and go back to dial.'));
    settle.resolve(url.searchParams.get('code')!);
  };
  const server = createServer(handler);
  let port: number;
  try {
    port = await listen(server, target.port, '127.0.0.1');
  } catch (error) {
    throw new DialError(
      'E_IO',
      `cannot listen on 127.0.0.1:${target.port} for the sign-in of '${config.name}': ${(error as Error).message}`,
      {
        location: config.location,
        hint: 'another program uses that port; pick another one in "Redirect URL" (and register it)',
        cause: error,
      },
    );
  }
  // `localhost` may resolve to ::1 first: listen there too when it can (best effort).
  let v6: Server | undefined;
  if (target.url.hostname === 'localhost') {
    v6 = createServer(handler);
    await listen(v6, port, '::1').catch(() => (v6 = undefined));
  }
  const redirect = new URL(target.url.href);
  redirect.port = String(port);
  return {
    code,
    // A port written in the Redirect URL is registered with the provider: sent exactly as written.
    redirectUri: config.redirectUrl && target.port !== 0 ? config.redirectUrl : redirect.href,
    close: () => {
      server.closeAllConnections();
      server.close();
      v6?.closeAllConnections();
      v6?.close();
    },
  };
}

/** Waits for `promise`, failing at the timeout or the abort. */
async function withDeadline<T>(promise: Promise<T>, context: UserContext, onTimeout: () => DialError): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(onTimeout()), context.timeoutMs);
        onAbort = () => reject(new DialError('E_CANCELLED', 'cancelled'));
        context.signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onAbort) context.signal?.removeEventListener('abort', onAbort);
  }
}

/** The Authorization Code grant: sign-in in the browser, the code caught on loopback, exchanged for tokens. */
export async function authorizationCodeGrant(config: OAuthConfig, context: UserContext): Promise<TokenSet> {
  const state = base64url(randomBytes(16));
  const verifier = config.pkce ? (config.pkce.verifier ?? base64url(randomBytes(32))) : undefined;
  const listener = await startListener(config, state);
  try {
    const url = new URL(config.authUrl!);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', config.clientId);
    url.searchParams.set('redirect_uri', listener.redirectUri);
    if (config.scope) url.searchParams.set('scope', config.scope);
    url.searchParams.set('state', state);
    if (config.pkce && verifier) {
      const challenge =
        config.pkce.method === 'S256' ? base64url(createHash('sha256').update(verifier).digest()) : verifier;
      url.searchParams.set('code_challenge', challenge);
      url.searchParams.set('code_challenge_method', config.pkce.method);
    }
    addCustomParameters(url.searchParams, config, 'auth');
    context.notify(`dial: sign in for auth configuration '${config.name}': open ${url.href}`);
    open(context, url.href);
    let code: string;
    try {
      code = await withDeadline(listener.code, context, () => timeoutError(config, context, 'sign-in'));
    } catch (error) {
      if (error instanceof OAuthErrorAnswer) throw answerError(error, config, 'authorization server', context.location);
      throw error;
    }
    const fields: Record<string, string> = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: listener.redirectUri,
    };
    if (verifier) fields.code_verifier = verifier;
    return await requestToken(config, fields, context);
  } finally {
    listener.close();
  }
}

/** Waits `ms`, or until `signal` aborts; the abort listener goes when the wait ends (polling adds one per wait). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** The Device Authorization grant: a user code shown, the token endpoint polled until the user approves. */
export async function deviceGrant(config: OAuthConfig, context: UserContext): Promise<TokenSet> {
  const form = new URLSearchParams();
  if (config.scope) form.set('scope', config.scope);
  addCustomParameters(form, config, 'auth');
  let answer: Record<string, unknown>;
  try {
    answer = await postForm(config.deviceAuthUrl!, form, config, context, 'device authorization endpoint');
  } catch (error) {
    if (error instanceof OAuthErrorAnswer)
      throw answerError(error, config, 'device authorization endpoint', context.location);
    throw error;
  }
  const deviceCode = answer.device_code;
  const verification = answer.verification_uri ?? answer.verification_url;
  if (typeof deviceCode !== 'string' || typeof verification !== 'string' || typeof answer.user_code !== 'string')
    throw new DialError(
      'E_AUTH',
      `the device authorization endpoint of '${config.name}' answered without device_code, user_code and verification_uri`,
      {
        location: context.location,
        hint: 'check "Device Auth URL"',
      },
    );
  const complete = typeof answer.verification_uri_complete === 'string' ? answer.verification_uri_complete : undefined;
  context.notify(
    `dial: sign in for auth configuration '${config.name}': open ${verification} and enter the code ${answer.user_code}`,
  );
  open(context, complete ?? verification);
  let interval = Math.max(0, Number(answer.interval ?? 5)) * 1000;
  const lifetime = Number(answer.expires_in) > 0 ? Number(answer.expires_in) * 1000 : context.timeoutMs;
  const deadline = context.now() + Math.min(lifetime, context.timeoutMs);
  for (;;) {
    if (context.signal?.aborted) throw new DialError('E_CANCELLED', 'cancelled');
    try {
      return await requestToken(
        config,
        { grant_type: 'urn:ietf:params:oauth:grant-type:device_code', device_code: deviceCode },
        context,
      );
    } catch (error) {
      const answerErr = error instanceof DialError ? error.cause : undefined;
      if (!(answerErr instanceof OAuthErrorAnswer)) throw error;
      if (answerErr.error === 'slow_down') interval += 5000;
      else if (answerErr.error !== 'authorization_pending') throw error;
    }
    if (context.now() + interval > deadline) throw timeoutError(config, context, 'device sign-in');
    await sleep(interval, context.signal);
  }
}
