/**
 * Request references (REST Client): `{{name.response.body.$.token}}`,
 * `{{name.response.body.*}}` (whole body), `{{name.response.headers.X-Id}}`,
 * `{{name.request.body.$.user}}`, `{{name.request.headers.Accept}}`.
 */
import { readFile } from 'node:fs/promises';
import type { Exchange, HttpRequest } from '../http/types.js';
import { DialError } from '../errors.js';
import { queryJsonPath, valueToText } from './jsonpath.js';

export interface ReferenceExpression {
  name: string;
  part: 'request' | 'response';
  /** `response`: httpyac's `<name>Response`, the whole response as JSON (status, headers, body). */
  section: 'body' | 'headers' | 'cookies' | 'response';
  /** `*`, a JSONPath (`$…`), an XPath (`//…`) or a header name. */
  path: string;
}

/** Recognises `name.(request|response).(body|headers)[.path]`; undefined for anything else. */
export function parseReference(expression: string): ReferenceExpression | undefined {
  const cookie = /^([^.\s{}]+)\.response\.cookies\.([^.\s]+)(?:\.value)?$/.exec(expression);
  // kulala: `{{login.response.cookies.session.value}}`, the value of a cookie the response set.
  if (cookie) return { name: cookie[1], part: 'response', section: 'cookies', path: cookie[2] };
  const match = /^([^.\s{}]+)\.(request|response)\.(body|headers)(?:\.(.+)|(\[.+\]))?$/.exec(expression);
  if (!match) return undefined;
  const section = match[3] as 'body' | 'headers';
  // kulala/JetBrains-style `headers['X-Id']` / `headers["X-Id"]` name the header in brackets.
  const bracketed = match[5] ?? (section === 'headers' && match[4]?.startsWith('[') ? match[4] : undefined);
  const quoted = bracketed === undefined ? undefined : /^\[\s*(['"])(.+)\1\s*\]$/.exec(bracketed);
  if (bracketed !== undefined && !quoted && section === 'headers') return undefined;
  const path = quoted
    ? section === 'headers'
      ? quoted[2]
      : `$[${quoted[1]}${quoted[2]}${quoted[1]}]`
    : (match[4] ?? '*');
  return { name: match[1], part: match[2] as 'request' | 'response', section, path };
}

/** What a session remembers of a request that ran. */
export interface RecordedExchange {
  request: HttpRequest;
  exchange: Exchange;
}

async function bodyText(recorded: RecordedExchange, part: 'request' | 'response'): Promise<string> {
  if (part === 'response') {
    const body = recorded.exchange.response.body;
    if (body.kind === 'memory') return body.bytes.toString('utf8');
    if (body.kind === 'file') return readFile(body.path, 'utf8');
    return '';
  }
  const body = recorded.request.body;
  switch (body.kind) {
    case 'text':
      return body.text;
    case 'bytes':
      return Buffer.from(body.bytes).toString('utf8');
    case 'file':
      return readFile(body.path, 'utf8');
    case 'none':
      return '';
    default:
      return recorded.exchange.request.bodyPreview ?? '';
  }
}

function contentTypeOf(recorded: RecordedExchange, part: 'request' | 'response'): string {
  const headers = part === 'response' ? recorded.exchange.response.headers : recorded.request.headers;
  return headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
}

/**
 * Whether a body path is an XPath (REST Client): `asXml.` / `asJson.` force the kind; a path
 * starting with `/` is XPath; on an XML body anything but a JSONPath (`$…`) is XPath.
 */
function bodyPathKind(path: string, contentType: string): { path: string; xml: boolean } {
  if (path.startsWith('asXml.')) return { path: path.slice('asXml.'.length), xml: true };
  if (path.startsWith('asJson.')) return { path: path.slice('asJson.'.length), xml: false };
  if (path.startsWith('/')) return { path, xml: true };
  return { path, xml: !path.startsWith('$') && /[/+]xml\b/i.test(contentType) };
}

/**
 * httpyac's `<name>Response` (the response object its scripts see): status code and message, the
 * headers by lower-case name, the body as text and parsed when it is JSON.
 */
async function wholeResponse(recorded: RecordedExchange): Promise<string> {
  const response = recorded.exchange.response;
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) {
    const key = name.toLowerCase();
    headers[key] = Object.hasOwn(headers, key) ? `${headers[key]}, ${value}` : value;
  }
  const body = await bodyText(recorded, 'response');
  let parsedBody: unknown = body;
  try {
    parsedBody = JSON.parse(body);
  } catch {
    // not JSON: httpyac's parsedBody is the text then
  }
  return JSON.stringify({
    statusCode: response.status,
    statusMessage: response.statusText,
    httpVersion: response.httpVersion,
    headers,
    body,
    parsedBody,
  });
}

/** The value a reference points at, as text. Throws E_VAR_UNDEFINED when it points at nothing. */
export async function evaluateReference(
  reference: ReferenceExpression,
  recorded: RecordedExchange,
  raw: string,
  where: string,
): Promise<string> {
  const missing = (why: string, hint?: string): never => {
    throw new DialError('E_VAR_UNDEFINED', `{{${raw}}}: ${why} (${where})`, { hint });
  };
  if (reference.section === 'cookies') {
    for (const [name, value] of recorded.exchange.response.headers) {
      if (name.toLowerCase() !== 'set-cookie') continue;
      const pair = value.split(';')[0];
      const equals = pair.indexOf('=');
      if (equals > 0 && pair.slice(0, equals).trim() === reference.path) return pair.slice(equals + 1).trim();
    }
    return missing(`the response of '${reference.name}' set no cookie '${reference.path}'`);
  }
  if (reference.section === 'response') return wholeResponse(recorded);
  if (reference.section === 'headers') {
    const headers = reference.part === 'response' ? recorded.exchange.response.headers : recorded.request.headers;
    const wanted = reference.path.toLowerCase();
    const values = headers.filter(([name]) => name.toLowerCase() === wanted).map(([, value]) => value);
    if (values.length === 0) missing(`the ${reference.part} of '${reference.name}' has no header '${reference.path}'`);
    return values.join(', ');
  }
  const text = await bodyText(recorded, reference.part);
  if (reference.path === '*') return text;
  const { path: written, xml } = bodyPathKind(reference.path, contentTypeOf(recorded, reference.part));
  if (xml) {
    const { evaluateXPath, referenceValue } = await import('../xpath.js');
    let value: string | undefined;
    try {
      value = referenceValue(await evaluateXPath(text, written));
    } catch (error) {
      missing(`${(error as Error).message} in the ${reference.part} of '${reference.name}'`);
    }
    if (value === undefined) missing(`${written} matched nothing in the ${reference.part} body of '${reference.name}'`);
    return value!;
  }
  // kulala and JetBrains also read a bare path (`body.token`, `body.items[0].id`) as JSONPath from the root.
  const path = written.startsWith('$') ? written : `$.${written}`;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    missing(`the ${reference.part} body of '${reference.name}' is not JSON`, 'use * for the whole body');
  }
  const matches = await queryJsonPath(json, path);
  if (matches.length === 0) missing(`${path} matched nothing in the ${reference.part} body of '${reference.name}'`);
  return valueToText(matches.length === 1 ? matches[0] : matches);
}
