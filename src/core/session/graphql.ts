/**
 * GraphQL requests become ordinary HTTP POSTs when they are prepared: `GRAPHQL url`
 * (JetBrains), `X-Request-Type: GraphQL` (REST Client, kulala) and httpyac `query`/`mutation`
 * bodies all reach here with a JSON payload `{query, operationName?, variables?}` built by the
 * parser (httpfile/parse.ts). This adds what the parser cannot do: the `Content-Type`, the
 * `< ./fragment.graphql` lines of a query (files read relative to the .http file), and a clear
 * error when the variables are not JSON once their `{{…}}` are resolved.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DialError } from '../errors.js';
import type { HttpRequest } from '../http/types.js';
import type { RequestNode } from '../httpfile/types.js';

/** `< ./fragments.graphql` on a line of its own inside a query. */
const INCLUDE_RE = /^[ \t]*<[ \t]+(\S.*?)[ \t]*$/gm;

interface GraphqlPayload {
  query: string;
  operationName?: string;
  variables?: unknown;
}

export interface GraphqlContext {
  /** The folder of the .http file (include paths are relative to it). */
  dir: string;
  /** The file as messages name it. */
  fileLabel: string;
}

/**
 * The payload the parser built, `{"query":"…","operationName":"…","variables":…}`, with its
 * `{{…}}` still in place: the query and operation name as the JSON strings JSON.stringify wrote
 * (their placeholders as text inside them) and the variables spliced in as written. undefined
 * for any other text.
 */
export function graphqlTemplateParts(
  text: string,
): { query: string; operationName?: string; variables?: string } | undefined {
  const query = jsonStringAt(text, '{"query":');
  if (!query) return undefined;
  let at = query.end;
  let operationName: string | undefined;
  const name = jsonStringAt(text.slice(at), ',"operationName":');
  if (name) {
    operationName = name.value;
    at += name.end;
  }
  if (text.slice(at) === '}') return { query: query.value, operationName };
  const variables = ',"variables":';
  if (!text.startsWith(variables, at) || !text.endsWith('}')) return undefined;
  return { query: query.value, operationName, variables: text.slice(at + variables.length, -1) };
}

/** The JSON string right after `prefix` at the start of text, decoded, and where it ends. */
function jsonStringAt(text: string, prefix: string): { value: string; end: number } | undefined {
  if (!text.startsWith(prefix) || text[prefix.length] !== '"') return undefined;
  for (let k = prefix.length + 1; k < text.length; k++) {
    if (text[k] === '\\') k++;
    else if (text[k] === '"') {
      try {
        return { value: JSON.parse(text.slice(prefix.length, k + 1)) as string, end: k + 1 };
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/**
 * The GraphQL payload with its variables filled in as REST Client fills them: it puts `{{…}}` in
 * place before it builds the JSON (createGraphQlBody), so a value spliced into the query (or the
 * operation name) is a string's content there, its quotes and line breaks escaped (JetBrains'
 * order is not verified; it is the only reading that gives valid JSON). The variables block is
 * filled in as written (it is JSON text already).
 */
export async function graphqlPayloadText(
  parts: { query: string; operationName?: string; variables?: string },
  resolve: (template: string) => Promise<string>,
): Promise<string> {
  const query = await resolve(parts.query);
  const operationName = parts.operationName === undefined ? undefined : await resolve(parts.operationName);
  const head = JSON.stringify({ query, ...(operationName === undefined ? {} : { operationName }) });
  if (parts.variables === undefined) return head;
  return `${head.slice(0, -1)},"variables":${await resolve(parts.variables)}}`;
}

/** The HTTP request a GraphQL request node is sent as. */
export async function graphqlHttpRequest(
  request: HttpRequest,
  node: RequestNode,
  context: GraphqlContext,
): Promise<HttpRequest> {
  // `GRAPHQL ws://…` is a subscription, sent by the WebSocket sender (http/websocket) as it is.
  if (/^wss?:\/\//i.test(request.url)) return request;
  if (node.graphqlAs === 'rest-client') return restClientGraphql(request, node, context);
  if (node.graphqlAs === 'rest.nvim') return restNvimGraphql(request, node, context);
  const headers = request.headers.slice();
  if (!headers.some(([name]) => name.toLowerCase() === 'content-type'))
    headers.push(['Content-Type', 'application/json']);
  if (!headers.some(([name]) => name.toLowerCase() === 'accept'))
    headers.push(['Accept', 'application/graphql-response+json, application/json']);
  const method = request.method === 'GRAPHQL' ? 'POST' : request.method;
  const body = request.body;
  if (body.kind === 'file') {
    // `< ./query.graphql` as the whole body: the file holds the query.
    const query = await readInclude(body.path, node, context, node.body?.span.line ?? node.requestLineSpan.line);
    return { ...request, method, headers, body: { kind: 'text', text: JSON.stringify({ query }) } };
  }
  if (body.kind !== 'text') return { ...request, method, headers };
  const line = node.body?.span.line ?? node.requestLineSpan.line;
  const payload = parsePayload(body.text, context, line);
  const included = await withIncludes(payload.query, node, context, line);
  if (included === payload.query) return { ...request, method, headers };
  payload.query = included;
  return { ...request, method, headers, body: { kind: 'text', text: JSON.stringify(payload) } };
}

/**
 * REST Client's GraphQL request (its httpRequestParser's createGraphQlBody): the headers as written
 * (it adds neither `Content-Type` nor `Accept`), the method as written, and the payload
 * JSON.stringify({query, operationName, variables}) of the variables parsed: compact JSON.
 */
async function restClientGraphql(
  request: HttpRequest,
  node: RequestNode,
  context: GraphqlContext,
): Promise<HttpRequest> {
  const line = node.body?.span.line ?? node.requestLineSpan.line;
  if (request.body.kind === 'file') {
    // `< ./query.graphql` as the whole body: the file is the query, with no variables.
    const query = await readInclude(request.body.path, node, context, line);
    const operationName = /^\s*query\s+([^@{(\s]+)/i.exec(query)?.[1];
    const headers = request.headers.filter(([name]) => name.toLowerCase() !== 'x-request-type');
    const text = JSON.stringify({ query, operationName, variables: {} });
    return { ...request, headers, body: { kind: 'text', text } };
  }
  if (request.body.kind !== 'text') return request;
  const payload = parsePayload(request.body.text, context, line);
  payload.query = await withIncludes(payload.query, node, context, line);
  return { ...request, body: { kind: 'text', text: JSON.stringify(payload) } };
}

/**
 * rest.nvim's `GRAPHQL url` (its parser's graphql_body): POST of vim.json.encode({query, variables})
 * (no operationName; no variables key when none), through curl `--data-raw`, so with curl's
 * `Content-Type: application/x-www-form-urlencoded` unless the file writes one, and no Accept added.
 */
async function restNvimGraphql(request: HttpRequest, node: RequestNode, context: GraphqlContext): Promise<HttpRequest> {
  if (request.body.kind !== 'text') return { ...request, method: 'POST' };
  const line = node.body?.span.line ?? node.requestLineSpan.line;
  const { query, variables } = parsePayload(request.body.text, context, line);
  const headers = request.headers.slice();
  if (!headers.some(([name]) => name.toLowerCase() === 'content-type'))
    headers.push(['Content-Type', 'application/x-www-form-urlencoded']);
  const text = JSON.stringify(variables === undefined ? { query } : { query, variables });
  return { ...request, method: 'POST', headers, body: { kind: 'text', text } };
}

function parsePayload(text: string, context: GraphqlContext, line: number): GraphqlPayload {
  try {
    const payload = JSON.parse(text) as GraphqlPayload;
    if (typeof payload?.query === 'string') return payload;
  } catch (error) {
    throw new DialError('E_INPUT', `the GraphQL variables are not valid JSON: ${(error as Error).message}`, {
      location: { file: context.fileLabel, line },
      hint: 'write the variables as a JSON object after a blank line below the query, e.g. {"id": "{{id}}"}',
      cause: error,
    });
  }
  throw new DialError('E_INPUT', 'the GraphQL body has no query', {
    location: { file: context.fileLabel, line },
    hint: 'write the query (or mutation) below the headers, then its JSON variables after a blank line',
  });
}

/** The query with each `< path` line replaced by that file's text. */
async function withIncludes(query: string, node: RequestNode, context: GraphqlContext, line: number): Promise<string> {
  if (!query.includes('<')) return query;
  const matches = [...query.matchAll(INCLUDE_RE)];
  if (matches.length === 0) return query;
  let out = '';
  let from = 0;
  for (const match of matches) {
    out += query.slice(from, match.index);
    out += (await readInclude(match[1], node, context, line)).replace(/\r?\n$/, '');
    from = match.index + match[0].length;
  }
  return out + query.slice(from);
}

async function readInclude(path: string, node: RequestNode, context: GraphqlContext, line: number): Promise<string> {
  const absolute = resolve(context.dir, path);
  try {
    return await readFile(absolute, 'utf8');
  } catch (error) {
    throw new DialError('E_NOT_FOUND', `GraphQL file not found: ${absolute}`, {
      location: { file: context.fileLabel, line },
      hint: `paths in \`< ./file.graphql\` are relative to the .http file (request at line ${node.requestLineSpan.line})`,
      cause: error,
    });
  }
}
