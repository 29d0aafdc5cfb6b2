/**
 * AWS Signature Version 4 for `Authorization: AWS <key> <secret> [token:…] [region:…] [service:…]`
 * (kulala and httpyac). kulala hands these to `curl --aws-sigv4 aws:amz:REGION:SERVICE -u key:secret`
 * (with `x-amz-security-token` as a header when a token is given); dial signs the same way itself,
 * following AWS's published algorithm:
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 *
 * As curl does, the headers written in the file are signed with `host` and `x-amz-date` (and
 * `x-amz-content-sha256` for S3); headers the engine adds at send time (User-Agent, Accept,
 * Content-Length, cookies from the jar) are sent unsigned.
 */
import { createHash, createHmac } from 'node:crypto';

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region?: string;
  service?: string;
}

export interface AwsSigningInput {
  method: string;
  url: string;
  /** The request's headers as sent (the AWS Authorization line already taken out). */
  headers: Array<[string, string]>;
  /** Hex SHA-256 of the body as sent. */
  payloadHash: string;
}

/** Hex SHA-256 of the empty body. */
export const EMPTY_PAYLOAD_HASH = createHash('sha256').update('').digest('hex');

/**
 * Reads `AWS key secret [token:T] [region:R] [service:S]` (kulala's parser: two words, then
 * optional `name:value` words in any order). Undefined when the value is not in that form.
 */
export function parseAwsAuthorization(value: string): AwsCredentials | undefined {
  const words = value.trim().split(/\s+/);
  if (words.length < 3 || words[0].toLowerCase() !== 'aws') return undefined;
  const credentials: AwsCredentials = { accessKeyId: words[1], secretAccessKey: words[2] };
  for (const word of words.slice(3)) {
    const option = /^(token|region|service):(.+)$/i.exec(word);
    if (!option) return undefined;
    const name = option[1].toLowerCase();
    if (name === 'token') credentials.sessionToken = option[2];
    else if (name === 'region') credentials.region = option[2];
    else credentials.service = option[2];
  }
  return credentials;
}

/**
 * Region and service: those written, else read from an AWS host name as curl does
 * (`SERVICE.REGION.amazonaws.com`); undefined when neither tells.
 */
export function awsScope(credentials: AwsCredentials, url: string): { region: string; service: string } | undefined {
  let { region, service } = credentials;
  const host = new URL(url).hostname.split('.');
  if (host.length >= 4 && host.at(-2) === 'amazonaws' && host.at(-1) === 'com') {
    service ??= host[0];
    region ??= host[1];
  }
  return region && service ? { region, service } : undefined;
}

/** RFC 3986 percent-encoding of everything but the unreserved characters (and `/` when asked). */
function encodeRfc3986(text: string, keepSlash: boolean): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    if (/[A-Za-z0-9\-._~]/.test(char) || (keepSlash && char === '/')) out += char;
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, '%20'));
  } catch {
    return text;
  }
}

/**
 * The canonical URI: S3 signs the path as sent; every other service signs it encoded once more
 * (AWS: "each path segment must be URI-encoded twice, except for Amazon S3"; curl does the same).
 */
export function canonicalUri(pathname: string, service: string): string {
  const path = pathname === '' ? '/' : pathname;
  return service === 's3' ? path : encodeRfc3986(path, true);
}

/** The canonical query string: each name and value encoded, sorted by name, then value. */
export function canonicalQuery(search: string): string {
  const query = search.startsWith('?') ? search.slice(1) : search;
  if (query === '') return '';
  const pairs = query
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      const value = eq < 0 ? '' : pair.slice(eq + 1);
      return [encodeRfc3986(decodeOrKeep(name), false), encodeRfc3986(decodeOrKeep(value), false)];
    });
  pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join('&');
}

/** Lower-case names, trimmed values with inner runs of blanks as one space, repeated names joined by `,`. */
function canonicalHeaders(headers: Array<[string, string]>): { text: string; signed: string } {
  const byName = new Map<string, string[]>();
  for (const [name, value] of headers) {
    const key = name.toLowerCase();
    const values = byName.get(key) ?? [];
    values.push(value.trim().replace(/\s+/g, ' '));
    byName.set(key, values);
  }
  const names = [...byName.keys()].sort();
  return {
    text: names.map((name) => `${name}:${byName.get(name)!.join(',')}\n`).join(''),
    signed: names.join(';'),
  };
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** `YYYYMMDDTHHMMSSZ` */
export function amzDate(now: Date): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

export interface AwsSignature {
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
  authorization: string;
}

/** Signs a request whose headers already hold `x-amz-date` (and any token): the four steps of AWS's guide. */
export function signatureOf(
  input: AwsSigningInput,
  credentials: AwsCredentials,
  scope: { region: string; service: string },
  date: string,
): AwsSignature {
  const url = new URL(input.url);
  const headers = canonicalHeaders(input.headers);
  const canonicalRequest = [
    input.method.toUpperCase(),
    canonicalUri(url.pathname, scope.service),
    canonicalQuery(url.search),
    headers.text,
    headers.signed,
    input.payloadHash,
  ].join('\n');
  const day = date.slice(0, 8);
  const credentialScope = `${day}/${scope.region}/${scope.service}/aws4_request`;
  const stringToSign = [
    'AWS4-HMAC-SHA256',
    date,
    credentialScope,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  const key = hmac(
    hmac(hmac(hmac(`AWS4${credentials.secretAccessKey}`, day), scope.region), scope.service),
    'aws4_request',
  );
  const signature = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  return {
    canonicalRequest,
    stringToSign,
    signature,
    authorization: `AWS4-HMAC-SHA256 Credential=${credentials.accessKeyId}/${credentialScope}, SignedHeaders=${headers.signed}, Signature=${signature}`,
  };
}

/**
 * The headers to send: the request's own, plus `X-Amz-Date`, `X-Amz-Security-Token` (with a token),
 * `X-Amz-Content-Sha256` (S3) and the `Authorization` signature. `host` is signed as the URL gives it
 * unless the file writes a Host header.
 */
export function signedAwsHeaders(
  input: AwsSigningInput,
  credentials: AwsCredentials,
  scope: { region: string; service: string },
  now: Date,
): Array<[string, string]> {
  const date = amzDate(now);
  const headers: Array<[string, string]> = input.headers.filter(
    ([name]) => !/^(x-amz-date|authorization)$/i.test(name),
  );
  headers.push(['X-Amz-Date', date]);
  if (credentials.sessionToken && !headers.some(([name]) => /^x-amz-security-token$/i.test(name)))
    headers.push(['X-Amz-Security-Token', credentials.sessionToken]);
  if (scope.service === 's3' && !headers.some(([name]) => /^x-amz-content-sha256$/i.test(name)))
    headers.push(['X-Amz-Content-Sha256', input.payloadHash]);
  const hasHost = headers.some(([name]) => name.toLowerCase() === 'host');
  const signing = hasHost ? headers : [...headers, ['host', new URL(input.url).host] as [string, string]];
  const { authorization } = signatureOf({ ...input, headers: signing }, credentials, scope, date);
  headers.push(['Authorization', authorization]);
  return headers;
}
