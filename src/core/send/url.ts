/** `dial send` positional arguments: method detection and HTTPie-style URL shorthand. */
import { DialError } from '../errors.js';
import { KNOWN_METHODS } from '../httpfile/methods.js';

/**
 * True when a token is a method: all upper case (GET, PROPFIND, a custom FOO), or a
 * well-known method in any case (`post`). A bare host such as `localhost` never is.
 */
export function isMethodToken(token: string): boolean {
  if (/^[A-Z][A-Z0-9_-]*$/.test(token)) return true;
  return KNOWN_METHODS.has(token.toUpperCase()) && /^[a-zA-Z-]+$/.test(token);
}

/** Splits positionals into method (when given), URL and items. */
export function splitPositionals(args: string[]): { method?: string; url: string; items: string[] } {
  if (args.length === 0)
    throw new DialError('E_USAGE', 'missing URL', {
      hint: 'dial send [METHOD] URL [ITEMS…], e.g. dial send :3000/users name=Ann',
    });
  if (args.length >= 2 && isMethodToken(args[0]))
    return { method: args[0].toUpperCase(), url: args[1], items: args.slice(2) };
  return { url: args[0], items: args.slice(1) };
}

/**
 * Expands URL shorthand: `:3000/x` and `:/x` mean localhost, a missing scheme means
 * `defaultScheme` (http), so `localhost:3000` and `example.com/x` work as typed.
 */
export function expandUrl(text: string, defaultScheme = 'http'): string {
  let url = text.trim();
  if (url === '') throw new DialError('E_USAGE', 'missing URL');
  if (/[\r\n]/.test(url)) throw new DialError('E_HEADER_INJECTION', 'the URL contains a line break');
  if (/^:(?=\d|\/|$|\?)/.test(url)) url = `localhost${url}`;
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:\/\//.test(url)) url = `${defaultScheme}://${url.replace(/^\/\//, '')}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DialError('E_USAGE', `invalid URL '${text}'`, {
      hint: 'write a URL like https://api.example.com/x, example.com/x or :3000/x (localhost)',
    });
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new DialError('E_USAGE', `unsupported URL scheme '${parsed.protocol.slice(0, -1)}' in '${text}'`, {
      hint: /^wss?:$/.test(parsed.protocol)
        ? 'a ws:// URL alone (dial send ws://host/path) opens an interactive WebSocket; a GraphQL subscription or a scripted WebSocket goes in a .http file (GRAPHQL ws://…, WEBSOCKET ws://…)'
        : 'dial speaks http:// and https://',
    });
  }
  return parsed.href;
}

/** A --proxy value (or the proxy setting) as a URL: a bare URL, or HTTPie/xh's `http:http://host:3128`. */
export function normaliseProxy(proxy: string, what = '--proxy'): string {
  const prefixed = /^(?:https?|all):(\w[\w+.-]*:\/\/.*)$/i.exec(proxy);
  const url = prefixed ? prefixed[1] : proxy;
  try {
    new URL(url);
  } catch {
    throw new DialError('E_USAGE', `invalid ${what} '${proxy}'`, { hint: 'e.g. --proxy http://proxy.local:3128' });
  }
  return url;
}
