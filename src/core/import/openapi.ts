/**
 * `dial import openapi`: an OpenAPI 3.0/3.1 document to `.http` files, one per tag, with
 * path/query parameters as variables (defaults from examples in the env file), bodies from
 * examples or generated from the schema, servers as environments, security schemes as
 * auth headers with variables. `$ref`s are resolved by swagger-parser (loaded lazily).
 */
import { resolve } from 'node:path';
import * as z from 'zod/mini';
import { DialError } from '../errors.js';
import { EnvFiles, SHARED, referencedVariables } from './env-writer.js';
import {
  renderHttpFile,
  slugify,
  uniqueName,
  type DraftBody,
  type DraftPart,
  type ImportDraft,
} from './http-writer.js';
import type { ImportedFile, ImportResult } from './import-result.js';
import { exampleFromSchema } from './schema-example.js';
import { loadYaml, readSource, validateSource } from './source-file.js';

type Obj = Record<string, unknown>;

const Spec = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.optional(z.string()), description: z.optional(z.string()) }),
  servers: z.optional(
    z.array(
      z.looseObject({
        url: z.string(),
        description: z.optional(z.string()),
        variables: z.optional(z.record(z.string(), z.looseObject({ default: z.unknown() }))),
      }),
    ),
  ),
  paths: z.optional(z.record(z.string(), z.looseObject({}))),
  tags: z.optional(z.array(z.looseObject({ name: z.string(), description: z.optional(z.string()) }))),
  security: z.optional(z.array(z.record(z.string(), z.array(z.string())))),
  components: z.optional(
    z.looseObject({ securitySchemes: z.optional(z.record(z.string(), z.looseObject({ type: z.string() }))) }),
  ),
});

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function obj(value: unknown): Obj | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A variable name from a parameter name (`pet-id` → `pet_id`). */
function variableName(name: string): string {
  const cleaned = name.replace(/[^\w]/g, '_');
  return /^\d/.test(cleaned) ? `_${cleaned}` : cleaned || 'value';
}

function camel(name: string): string {
  const parts = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = parts
    .map((part, index) => (index === 0 ? part[0].toLowerCase() + part.slice(1) : part[0].toUpperCase() + part.slice(1)))
    .join('');
  return /^\d/.test(joined) ? `_${joined}` : joined || 'value';
}

function valueText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map(valueText).join(',');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function exampleOf(holder: Obj): unknown {
  if (holder.example !== undefined) return holder.example;
  const examples = obj(holder.examples);
  if (examples) {
    for (const example of Object.values(examples)) {
      const value = obj(example)?.value;
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

function lines(text: unknown): string[] {
  const value = str(text);
  return value && value.trim() ? value.replace(/\r\n?/g, '\n').trim().split('\n') : [];
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, '+');
}

interface Scheme {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
}

interface Context {
  env: EnvFiles;
  warnings: Set<string>;
  schemes: Record<string, Scheme>;
  schemeVariables: Record<string, string[]>;
}

/** Variable names for each security scheme (token, username/password, or one per apiKey). */
function schemeVariables(schemes: Record<string, Scheme>): Record<string, string[]> {
  const bearerLike = Object.entries(schemes).filter(
    ([, s]) =>
      (s.type === 'http' && s.scheme?.toLowerCase() !== 'basic' && s.scheme?.toLowerCase() !== 'digest') ||
      s.type === 'oauth2' ||
      s.type === 'openIdConnect',
  );
  const basicLike = Object.entries(schemes).filter(
    ([, s]) => s.type === 'http' && (s.scheme?.toLowerCase() === 'basic' || s.scheme?.toLowerCase() === 'digest'),
  );
  const out: Record<string, string[]> = {};
  for (const [name] of bearerLike) out[name] = [bearerLike.length === 1 ? 'token' : `${camel(name)}Token`];
  for (const [name] of basicLike)
    out[name] =
      basicLike.length === 1 ? ['username', 'password'] : [`${camel(name)}Username`, `${camel(name)}Password`];
  for (const [name, scheme] of Object.entries(schemes)) if (scheme.type === 'apiKey') out[name] = [camel(name)];
  return out;
}

function applySecurity(
  requirements: unknown,
  draft: ImportDraft,
  query: string[],
  cookies: string[],
  context: Context,
  where: string,
): void {
  if (!Array.isArray(requirements)) return;
  const requirement = requirements.map(obj).find((entry) => entry && Object.keys(entry).length > 0);
  if (!requirement) return;
  for (const name of Object.keys(requirement)) {
    const scheme = context.schemes[name];
    if (!scheme) {
      context.warnings.add(`${where}: security scheme '${name}' is not defined in components.securitySchemes`);
      continue;
    }
    const vars = context.schemeVariables[name] ?? [];
    switch (scheme.type) {
      case 'http': {
        const kind = (scheme.scheme ?? '').toLowerCase();
        if (kind === 'basic' || kind === 'digest') {
          draft.headers.push({
            name: 'Authorization',
            value: `${kind === 'basic' ? 'Basic' : 'Digest'} {{${vars[0]}}} {{${vars[1]}}}`,
          });
        } else {
          if (kind !== 'bearer')
            context.warnings.add(
              `security scheme '${name}' (http ${scheme.scheme}) became 'Authorization: ${scheme.scheme} {{${vars[0]}}}'`,
            );
          draft.headers.push({
            name: 'Authorization',
            value: `${kind === 'bearer' ? 'Bearer' : scheme.scheme} {{${vars[0]}}}`,
          });
        }
        break;
      }
      case 'apiKey': {
        const param = scheme.name ?? name;
        if (scheme.in === 'query') query.push(`${formEncode(param)}={{${vars[0]}}}`);
        else if (scheme.in === 'cookie') cookies.push(`${param}={{${vars[0]}}}`);
        else draft.headers.push({ name: param, value: `{{${vars[0]}}}` });
        break;
      }
      case 'oauth2':
      case 'openIdConnect':
        context.warnings.add(
          `security scheme '${name}' (${scheme.type}) became a Bearer header with {{${vars[0]}}}; getting the token is not converted`,
        );
        draft.headers.push({ name: 'Authorization', value: `Bearer {{${vars[0]}}}` });
        break;
      default:
        context.warnings.add(`security scheme '${name}' (${scheme.type}) is not supported and was not converted`);
    }
  }
}

const PREFERRED_MEDIA = [
  /^application\/json$/i,
  /\+json$/i,
  /json/i,
  /^application\/x-www-form-urlencoded$/i,
  /^multipart\/form-data$/i,
  /^text\/plain$/i,
  /xml/i,
];

function pickMedia(content: Obj): [string, Obj] | undefined {
  const entries = Object.entries(content).filter((entry): entry is [string, Obj] => obj(entry[1]) !== undefined);
  for (const pattern of PREFERRED_MEDIA) {
    const found = entries.find(([type]) => pattern.test(type));
    if (found) return found;
  }
  return entries[0];
}

function isBinary(schema: unknown): boolean {
  const s = obj(schema);
  return Boolean(s && (s.format === 'binary' || s.contentMediaType !== undefined || s.contentEncoding === 'binary'));
}

function buildBody(requestBody: unknown, draft: ImportDraft, context: Context, where: string): DraftBody {
  const body = obj(requestBody);
  const content = obj(body?.content);
  if (!content) return { kind: 'none' };
  const media = pickMedia(content);
  if (!media) return { kind: 'none' };
  const [type, definition] = media;
  const concreteType = type.includes('*') ? (type === '*/*' ? 'application/json' : type.replace('*', 'plain')) : type;
  const example = exampleOf(definition) ?? exampleFromSchema(definition.schema);
  const setType = (): void => {
    draft.headers.push({ name: 'Content-Type', value: concreteType });
  };
  if (/json/i.test(concreteType)) {
    setType();
    return { kind: 'text', text: JSON.stringify(example ?? {}, null, 2), substitute: false };
  }
  if (/^application\/x-www-form-urlencoded$/i.test(concreteType)) {
    setType();
    const fields = obj(example) ?? {};
    return {
      kind: 'text',
      text: Object.entries(fields)
        .map(([key, value]) => `${formEncode(key)}=${formEncode(valueText(value))}`)
        .join('&'),
      substitute: false,
    };
  }
  if (/^multipart\//i.test(concreteType)) {
    const properties = obj(obj(definition.schema)?.properties) ?? {};
    const fields = obj(example) ?? {};
    const encoding = obj(definition.encoding) ?? {};
    const parts: DraftPart[] = [];
    for (const [name, value] of Object.entries(fields)) {
      const contentType = str(obj(encoding[name])?.contentType);
      if (isBinary(properties[name]) || isBinary(obj(properties[name])?.items)) {
        context.warnings.add(
          `${where}: multipart field '${name}' is a file; it was written as ./${name} — point it at the file to upload`,
        );
        parts.push({ name, filePath: `./${name}`, contentType });
      } else {
        parts.push({
          name,
          value: valueText(value),
          contentType: contentType ?? (typeof value === 'object' && value !== null ? 'application/json' : undefined),
        });
      }
    }
    return parts.length > 0 ? { kind: 'multipart', parts } : { kind: 'none' };
  }
  if (
    /^(application\/octet-stream|image\/|audio\/|video\/|application\/pdf)/i.test(concreteType) ||
    isBinary(definition.schema)
  ) {
    setType();
    context.warnings.add(
      `${where}: the ${concreteType} body was written as '< ./body.bin'; point it at the file to send`,
    );
    return { kind: 'file', path: './body.bin' };
  }
  setType();
  if (example === undefined) {
    context.warnings.add(`${where}: no example for the ${concreteType} body; it was left empty`);
    return { kind: 'none' };
  }
  return {
    kind: 'text',
    text: typeof example === 'string' ? example : JSON.stringify(example, null, 2),
    substitute: false,
  };
}

/** Sets a parameter's default (its example) in $shared unless one is there already. */
function defaultFor(context: Context, name: string, parameter: Obj, urlPart: boolean): void {
  if (context.env.get(SHARED, name) !== undefined) return;
  const schema = obj(parameter.schema) ?? obj(Object.values(obj(parameter.content) ?? {}).map(obj)[0]?.schema);
  const example = exampleOf(parameter) ?? exampleFromSchema(schema);
  let value = valueText(example ?? (urlPart ? '1' : 'value'));
  // Values in the URL are sent as written, so keep them URL-safe.
  if (urlPart) value = value.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]/g, (char) => encodeURIComponent(char));
  context.env.set(SHARED, name, value);
}

function securitySchemesOf(api: Obj): Record<string, Scheme> {
  const components = obj(api.components) ?? {};
  const schemes: Record<string, Scheme> = {};
  for (const [name, value] of Object.entries(obj(components.securitySchemes) ?? {})) {
    const scheme = obj(value);
    if (scheme)
      schemes[name] = {
        type: String(scheme.type),
        scheme: str(scheme.scheme),
        in: str(scheme.in),
        name: str(scheme.name),
      };
  }
  return schemes;
}

/** A server's URL with its variables at their defaults, absolute (relative ones join --base-url or localhost). */
function serverUrl(server: Obj, baseUrl: string | undefined, warnings: Set<string>): string {
  let url = str(server.url)!;
  for (const [name, variable] of Object.entries(obj(server.variables) ?? {}))
    url = url.split(`{${name}}`).join(valueText(obj(variable)?.default));
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
    const base = baseUrl ?? 'http://localhost';
    if (!baseUrl)
      warnings.add(
        `server '${url}' is a relative URL; it was made absolute with http://localhost (pass --base-url to choose)`,
      );
    url = base.replace(/\/+$/, '') + (url.startsWith('/') ? url : `/${url}`);
  }
  return url.replace(/\/+$/, '');
}

/** The environment a server becomes: named after its description, else its host name. */
function serverEnvName(server: Obj, url: string, index: number, used: Set<string>): string {
  const fallback = `server${index + 1}`;
  const description = str(server.description);
  if (description) return uniqueName(slugify(description, fallback), used);
  try {
    return uniqueName(slugify(new URL(url).hostname, fallback), used);
  } catch {
    return uniqueName(fallback, used);
  }
}

/** servers -> environments with baseUrl; $shared.baseUrl is --base-url or the first server. */
function addServerEnvironments(api: Obj, baseUrl: string | undefined, context: Context): void {
  const { env, warnings } = context;
  const servers = (Array.isArray(api.servers) ? api.servers : [])
    .map(obj)
    .filter((server): server is Obj => Boolean(server && str(server.url)));
  const usedEnvNames = new Set<string>();
  const serverUrls: string[] = [];
  for (const [index, server] of servers.entries()) {
    const url = serverUrl(server, baseUrl, warnings);
    serverUrls.push(url);
    env.set(serverEnvName(server, url, index, usedEnvNames), 'baseUrl', url, false);
  }
  const sharedBase = baseUrl?.replace(/\/+$/, '') ?? serverUrls[0];
  if (!sharedBase) warnings.add('the document has no servers; baseUrl is http://localhost (pass --base-url to choose)');
  env.set(SHARED, 'baseUrl', sharedBase ?? 'http://localhost', false);
}

function tagDescriptionsOf(api: Obj): Map<string, string[]> {
  const tagDescriptions = new Map<string, string[]>();
  for (const tag of Array.isArray(api.tags) ? api.tags : []) {
    const entry = obj(tag);
    if (entry && str(entry.name)) tagDescriptions.set(str(entry.name)!, lines(entry.description));
  }
  return tagDescriptions;
}

/** The operation's parameters; operation ones override path-level ones with the same name and location. */
function operationParameters(pathItem: Obj, operation: Obj): Map<string, Obj> {
  const pathParameters = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
  const parameters = new Map<string, Obj>();
  for (const parameter of [...pathParameters, ...(Array.isArray(operation.parameters) ? operation.parameters : [])]) {
    const p = obj(parameter);
    if (p && str(p.name) && str(p.in)) parameters.set(`${p.in}:${p.name}`, p);
  }
  return parameters;
}

/** Where the parameters went: the path with {{variables}}, the query and cookie pairs, optional query names. */
interface PlacedParameters {
  urlPath: string;
  query: string[];
  optionalQuery: string[];
  cookies: string[];
}

/**
 * Places each parameter as a {{variable}} (path, query, header, cookie), with its example as the
 * default in $shared. Optional ones without an example are left out (query ones named in a comment).
 */
function placeParameters(
  path: string,
  parameters: Map<string, Obj>,
  draft: ImportDraft,
  context: Context,
): PlacedParameters {
  const placed: PlacedParameters = { urlPath: path, query: [], optionalQuery: [], cookies: [] };
  for (const parameter of parameters.values()) {
    const name = str(parameter.name)!;
    const variable = variableName(name);
    const wanted =
      parameter.required === true ||
      exampleOf(parameter) !== undefined ||
      obj(parameter.schema)?.example !== undefined ||
      obj(parameter.schema)?.default !== undefined;
    switch (parameter.in) {
      case 'path':
        placed.urlPath = placed.urlPath.split(`{${name}}`).join(`{{${variable}}}`);
        defaultFor(context, variable, parameter, true);
        break;
      case 'query':
        if (wanted) {
          placed.query.push(`${/^[\w.\-~[\]]+$/.test(name) ? name : encodeURIComponent(name)}={{${variable}}}`);
          defaultFor(context, variable, parameter, true);
        } else {
          placed.optionalQuery.push(name);
        }
        break;
      case 'header':
        if (/^(accept|content-type|authorization)$/i.test(name)) break;
        if (wanted) {
          draft.headers.push({ name, value: `{{${variable}}}` });
          defaultFor(context, variable, parameter, false);
        }
        break;
      case 'cookie':
        if (wanted) {
          placed.cookies.push(`${name}={{${variable}}}`);
          defaultFor(context, variable, parameter, false);
        }
        break;
    }
  }
  return placed;
}

/** The JSON media type of the first 2xx response, for the Accept header. */
function acceptedType(operation: Obj): string | undefined {
  const responses = obj(operation.responses) ?? {};
  const successType = Object.entries(responses).find(([status]) => /^2/.test(status));
  return successType
    ? Object.keys(obj(obj(successType[1])?.content) ?? {}).find((type) => /json/i.test(type))
    : undefined;
}

/** One operation as a request draft: name, comments, tags, URL with parameters, auth, Accept, body. */
function operationDraft(
  api: Obj,
  path: string,
  method: (typeof METHODS)[number],
  pathItem: Obj,
  operation: Obj,
  used: Set<string>,
  context: Context,
): ImportDraft {
  const where = `${method.toUpperCase()} ${path}`;
  const tags = Array.isArray(operation.tags)
    ? operation.tags.filter((tag): tag is string => typeof tag === 'string')
    : [];
  const operationId = str(operation.operationId);
  const baseName = operationId
    ? operationId.replace(/[^\w-]+/g, '-').replace(/^-+|-+$/g, '') || slugify(where)
    : slugify(`${method} ${path}`);
  const draft: ImportDraft = {
    title: (str(operation.summary) ?? where).replace(/\s+/g, ' ').trim(),
    name: uniqueName(baseName, used),
    comments: [],
    metadata: [],
    method: method.toUpperCase(),
    url: '',
    headers: [],
    body: { kind: 'none' },
  };
  if (operation.deprecated === true) draft.comments.push('Deprecated.');
  draft.comments.push(...lines(operation.description));
  if (tags.length > 0) draft.metadata.push({ key: 'tag', value: tags.map((tag) => slugify(tag, 'tag')).join(' ') });

  const { urlPath, query, optionalQuery, cookies } = placeParameters(
    path,
    operationParameters(pathItem, operation),
    draft,
    context,
  );
  if (optionalQuery.length > 0) draft.comments.push(`Optional query parameters: ${optionalQuery.join(', ')}`);
  applySecurity(operation.security ?? api.security, draft, query, cookies, context, where);
  if (cookies.length > 0) draft.headers.push({ name: 'Cookie', value: cookies.join('; ') });
  draft.url = `{{baseUrl}}${urlPath.startsWith('/') ? '' : '/'}${urlPath}${query.length > 0 ? `?${query.join('&')}` : ''}`;
  const accept = acceptedType(operation);
  if (accept) draft.headers.push({ name: 'Accept', value: accept });
  draft.body = buildBody(operation.requestBody, draft, context, where);
  return draft;
}

/** Every operation as a draft, grouped by its first tag ('default' without one), in document order. */
function draftsByTag(api: Obj, context: Context): Map<string, ImportDraft[]> {
  const groups = new Map<string, { drafts: ImportDraft[]; used: Set<string> }>();
  let operationServersWarned = false;
  for (const [path, item] of Object.entries(obj(api.paths) ?? {})) {
    const pathItem = obj(item) ?? {};
    for (const method of METHODS) {
      const operation = obj(pathItem[method]);
      if (!operation) continue;
      if ((operation.servers || pathItem.servers) && !operationServersWarned) {
        operationServersWarned = true;
        context.warnings.add('servers set on paths or operations are not used; every request uses {{baseUrl}}');
      }
      const firstTag = Array.isArray(operation.tags)
        ? operation.tags.find((tag): tag is string => typeof tag === 'string')
        : undefined;
      const group = firstTag ?? 'default';
      if (!groups.has(group)) groups.set(group, { drafts: [], used: new Set() });
      const { drafts, used } = groups.get(group)!;
      drafts.push(operationDraft(api, path, method, pathItem, operation, used, context));
    }
  }
  return new Map([...groups].map(([tag, { drafts }]) => [tag, drafts]));
}

/** Converts a dereferenced OpenAPI 3.x document. */
export function convertOpenApi(api: Obj, options: { baseUrl?: string; source: string }): ImportResult {
  const env = new EnvFiles();
  const warnings = new Set<string>();
  const schemes = securitySchemesOf(api);
  const context: Context = { env, warnings, schemes, schemeVariables: schemeVariables(schemes) };
  const title = str((obj(api.info) ?? {}).title) ?? 'API';
  addServerEnvironments(api, options.baseUrl, context);
  const tagDescriptions = tagDescriptionsOf(api);
  const groups = draftsByTag(api, context);

  const files: ImportedFile[] = [];
  const usedFiles = new Set<string>(['http-client.env', 'http-client.private.env']);
  let requestCount = 0;
  const missing = new Set<string>();
  for (const [tag, drafts] of groups) {
    const path = `${uniqueName(slugify(tag, 'default'), usedFiles)}.http`;
    const preamble = [tag === 'default' ? title : `${title}: ${tag}`, ...(tagDescriptions.get(tag) ?? [])];
    const { text, sideFiles } = renderHttpFile(drafts, { filePath: path, preamble });
    files.push(
      { path, content: text, description: `${drafts.length} request${drafts.length === 1 ? '' : 's'}` },
      ...sideFiles,
    );
    requestCount += drafts.length;
    for (const name of referencedVariables(text)) if (!env.defines(name)) missing.add(name);
  }
  if (requestCount === 0) warnings.add(`${options.source}: the document has no operations under paths`);
  files.push(...env.files());
  const notes = [
    `${requestCount} request${requestCount === 1 ? '' : 's'} in ${groups.size} file${groups.size === 1 ? '' : 's'}`,
  ];
  if (missing.size > 0)
    notes.push(`variables to define (in http-client.private.env.json or with --var): ${[...missing].join(', ')}`);
  return { files, warnings: [...warnings], notes };
}

/** Reads (YAML or JSON), validates, dereferences and converts an OpenAPI document. */
export async function importOpenApiFile(path: string, options: { baseUrl?: string } = {}): Promise<ImportResult> {
  const text = readSource(path, 'OpenAPI document');
  const { parseDocument } = await loadYaml();
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: false });
  if (document.errors.length > 0) {
    const error = document.errors[0];
    const position = error.linePos?.[0];
    throw new DialError(
      'E_IMPORT',
      `OpenAPI document is not valid YAML or JSON: ${error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`,
      {
        location: {
          file: path,
          line: position?.line ?? 1,
          col: position?.col,
          excerpt: position ? text.split('\n')[position.line - 1] : undefined,
        },
        hint: 'fix the syntax at that place',
      },
    );
  }
  const raw = document.toJS({ maxAliasCount: 1000 }) as unknown;
  const top = obj(raw);
  if (top && str(top.swagger)) {
    throw new DialError('E_IMPORT', `this is a Swagger ${str(top.swagger)} document; dial reads OpenAPI 3.0 and 3.1`, {
      location: { file: path, line: 1 },
      hint: 'convert it to OpenAPI 3 first (e.g. with swagger2openapi or editor.swagger.io)',
    });
  }
  const spec = await validateSource(Spec, raw, text, path, 'OpenAPI document');
  if (!/^3\.[01]\./.test(spec.openapi)) {
    throw new DialError('E_IMPORT', `OpenAPI version '${spec.openapi}' is not supported; dial reads 3.0 and 3.1`, {
      location: { file: path, line: 1 },
      hint: 'the document must start with openapi: 3.0.x or 3.1.x',
    });
  }
  const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
  let api: Obj;
  try {
    // Remote $refs are not fetched: an import never touches the network.
    api = (await SwaggerParser.dereference(
      resolve(path),
      structuredClone(raw) as never,
      {
        resolve: { http: false },
        dereference: { circular: true },
      } as never,
    )) as unknown as Obj;
  } catch (error) {
    throw new DialError(
      'E_IMPORT',
      `cannot resolve the $refs of the OpenAPI document: ${(error as Error).message.split('\n')[0]}`,
      {
        location: { file: path, line: 1 },
        hint: 'check that every $ref points at something that exists (remote URLs are not fetched)',
        cause: error,
      },
    );
  }
  return convertOpenApi(api, { baseUrl: options.baseUrl, source: path });
}
