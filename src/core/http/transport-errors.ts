/**
 * Turns low-level failures (node:net, node:tls, undici, zlib, fs) into DialErrors with a
 * stable code and a hint (exit 4, docs/cli.md). The original error is kept as `cause`.
 */
import { DialError, isDialError } from '../errors.js';
import { formatDuration } from '../duration.js';

const tlsCodes = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_TLS_HANDSHAKE_TIMEOUT',
  'EPROTO',
  'HOSTNAME_MISMATCH',
]);

const tlsHint =
  'trust the server certificate with --cacert FILE, or skip verification with --insecure (only for testing)';

function codeOf(error: unknown): string | undefined {
  if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'string') {
    return (error as { code: string }).code;
  }
  return undefined;
}

/** The innermost error with a code (undici and fetch wrap the useful one in `cause`). */
function rootWithCode(error: unknown): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const code = codeOf(current);
    if (code && !code.startsWith('UND_ERR_SOCKET')) return current;
    const cause = current instanceof Error ? current.cause : undefined;
    if (!cause) return current;
    current = cause;
  }
  return error;
}

/** Where the failure happened, for messages. */
export interface ErrorContext {
  url: string;
  /** Set when the request went through a proxy. */
  proxy?: string;
}

/** Maps any transport failure to a DialError (DialErrors pass through). */
export function toTransportError(error: unknown, context: ErrorContext): DialError {
  if (isDialError(error)) return error;
  const root = rootWithCode(error);
  const code = codeOf(root) ?? codeOf(error) ?? '';
  const message = root instanceof Error ? root.message : String(root);
  let host = context.url;
  try {
    host = new URL(context.url).host;
  } catch {
    // keep the raw URL
  }
  const via = context.proxy ? ` via proxy ${redactProxy(context.proxy)}` : '';

  if (context.proxy && (/proxy/i.test(message) || (code === 'ECONNREFUSED' && proxyRefused(root, context.proxy)))) {
    return new DialError('E_PROXY', `proxy ${redactProxy(context.proxy)} failed for ${context.url}: ${message}`, {
      hint: 'check --proxy or the HTTP_PROXY / HTTPS_PROXY / NO_PROXY environment variables',
      cause: error,
    });
  }
  if (code === 'ECONNREFUSED') {
    return new DialError('E_CONNREFUSED', `connection refused by ${host}${via} (${context.url})`, {
      hint: 'is the server running and listening on that port?',
      cause: error,
    });
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NONAME') {
    const hostname = safeHostname(context.url);
    return new DialError('E_DNS', `could not resolve host '${hostname}'${via} (${context.url})`, {
      hint:
        code === 'EAI_AGAIN'
          ? 'DNS lookup failed temporarily: check your network connection'
          : 'check the host name in the URL and your network/DNS',
      cause: error,
    });
  }
  if (code === 'DIAL_CONNECT_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return new DialError('E_TIMEOUT', `could not connect to ${host} in time (${context.url})`, {
      hint: 'the host did not answer; check the address, or raise the limit with --timeout',
      cause: error,
    });
  }
  if (
    tlsCodes.has(code) ||
    code.startsWith('ERR_SSL') ||
    code.startsWith('ERR_TLS') ||
    (/certificate|ssl|tls/i.test(message) && !code.startsWith('E_'))
  ) {
    const { reason, hint } = tlsDetails(code, message);
    return new DialError('E_TLS', `TLS error with ${host}: ${reason} (${context.url})`, { hint, cause: error });
  }
  if (
    code === 'ECONNRESET' ||
    (code === 'EPIPE' && !isOutput(error)) ||
    code === 'UND_ERR_SOCKET' ||
    code === 'HPE_INVALID_CONSTANT' ||
    code.startsWith('HPE_') ||
    code === 'ERR_HTTP2_STREAM_ERROR' ||
    code === 'ERR_HTTP2_SESSION_ERROR'
  ) {
    return new DialError('E_CONNRESET', `connection to ${host} closed unexpectedly: ${message} (${context.url})`, {
      hint: code.startsWith('HPE_')
        ? 'the server did not answer with valid HTTP; is it an HTTPS port (try https://)?'
        : 'the server closed the connection; try again, or check that the URL scheme (http/https) matches the server',
      cause: error,
    });
  }
  if (
    code.startsWith('Z_') ||
    code === 'ERR__ERROR' ||
    /incorrect header check|unexpected end of file|Decompression failed/i.test(message)
  ) {
    return new DialError('E_NETWORK', `could not decode the response body from ${host}: ${message}`, {
      hint: 'the body does not match its Content-Encoding; send `Accept-Encoding: identity` to get it raw',
      cause: error,
    });
  }
  if (code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED' || code === 'ERR_STREAM_WRITE_AFTER_END') {
    return new DialError('E_IO', `could not write the response body: ${message}`, { cause: error });
  }
  if (
    code === 'ENOENT' ||
    code === 'EACCES' ||
    code === 'EISDIR' ||
    code === 'ENOSPC' ||
    code === 'EROFS' ||
    code === 'EMFILE'
  ) {
    return new DialError('E_IO', `file error: ${message}`, { cause: error });
  }
  return new DialError('E_NETWORK', `request to ${context.url} failed: ${message || code || 'unknown error'}`, {
    cause: error,
  });
}

/** A readable TLS failure reason and the hint that fits it. */
function tlsDetails(code: string, message: string): { reason: string; hint: string } {
  // OpenSSL messages look like "write EPROTO 80AC...:error:0A00010B:SSL routines:func:wrong version number:file:line:".
  const openssl = /SSL routines:[^:]*:([^:]+)/.exec(message);
  const reason = (openssl ? openssl[1] : message).trim();
  if (/wrong version number|packet length too long|unknown protocol/i.test(reason)) {
    return {
      reason: `the server does not speak TLS on this port (${reason})`,
      hint: 'if the server is plain HTTP, use an http:// URL',
    };
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') {
    return {
      reason,
      hint: 'the certificate names another host: use a host name it covers, or skip verification with --insecure (only for testing)',
    };
  }
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') {
    return {
      reason,
      hint: 'the server certificate is outside its validity dates (check the clock); --insecure skips verification (only for testing)',
    };
  }
  if (/certificate required|bad certificate|unknown ca|alert/i.test(reason)) {
    return {
      reason,
      hint: 'the server may require a client certificate: pass --cert FILE and --key FILE (and --cacert for its CA)',
    };
  }
  return { reason, hint: tlsHint };
}

function isOutput(error: unknown): boolean {
  return Boolean(error && typeof error === 'object' && 'dialOutput' in error);
}

function proxyRefused(root: unknown, proxy: string): boolean {
  try {
    const proxyUrl = new URL(proxy);
    const port = root && typeof root === 'object' && 'port' in root ? String((root as { port: unknown }).port) : '';
    return port === (proxyUrl.port || (proxyUrl.protocol === 'https:' ? '443' : '80'));
  } catch {
    return false;
  }
}

function safeHostname(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** A proxy URL without its password, for messages. */
export function redactProxy(proxy: string): string {
  try {
    const url = new URL(proxy);
    if (url.password) url.password = '••••';
    return url.toString().replace(/\/$/, '');
  } catch {
    return proxy;
  }
}

/** The error for the total time limit. */
export function timeoutError(url: string, timeoutMs: number, proxy?: string): DialError {
  return new DialError(
    'E_TIMEOUT',
    `request timed out after ${formatDuration(timeoutMs)} (${url}${proxy ? ` via proxy ${redactProxy(proxy)}` : ''})`,
    {
      hint: 'raise the limit with --timeout (e.g. --timeout 60s), or --timeout 0 for none',
    },
  );
}

/** The error for a cancelled request. */
export function cancelledError(url: string): DialError {
  return new DialError('E_CANCELLED', `request cancelled (${url})`);
}
