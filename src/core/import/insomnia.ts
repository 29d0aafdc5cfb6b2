/**
 * `dial import insomnia`: an Insomnia export, v4 (JSON, `"__export_format": 4`, a flat list of
 * resources linked by `parentId`) or v5 (YAML, `type: collection.insomnia.rest/5.0`, a tree
 * under `collection` with `children`), to `.http` files and env files. The base environment
 * becomes `$shared`, sub-environments become environments. Nunjucks variables (`{{ _.host }}`)
 * become dial's `{{host}}`; template tags, scripts, and auth types dial lacks are reported.
 */
import { basename } from 'node:path';
import * as z from 'zod/mini';
import { DialError } from '../errors.js';
import { EnvFiles, SHARED } from './env-writer.js';
import type { DraftBody, ImportDraft } from './http-writer.js';
import type { ImportResult } from './output.js';
import {
  flattenValues,
  parseJsonLocated,
  renderTree,
  requestName,
  withQuery,
  type TreeFolder,
} from './collection-tree.js';
import { loadYaml, readSource, validateSource } from './source-file.js';

const Pair = z.looseObject({
  name: z.optional(z.string()),
  value: z.optional(z.unknown()),
  disabled: z.optional(z.boolean()),
  type: z.optional(z.string()),
  fileName: z.optional(z.string()),
});
const Body = z.optional(
  z.looseObject({
    mimeType: z.optional(z.nullable(z.string())),
    text: z.optional(z.string()),
    params: z.optional(z.array(Pair)),
    fileName: z.optional(z.string()),
  }),
);
const Auth = z.optional(z.looseObject({ type: z.optional(z.string()), disabled: z.optional(z.boolean()) }));
const V4Resource = z.looseObject({
  _id: z.string(),
  _type: z.string(),
  parentId: z.optional(z.nullable(z.string())),
  name: z.optional(z.string()),
  method: z.optional(z.string()),
  url: z.optional(z.string()),
  headers: z.optional(z.array(Pair)),
  parameters: z.optional(z.array(Pair)),
  body: Body,
  authentication: Auth,
  description: z.optional(z.string()),
  data: z.optional(z.unknown()),
  environment: z.optional(z.unknown()),
  isPrivate: z.optional(z.boolean()),
  metaSortKey: z.optional(z.number()),
  preRequestScript: z.optional(z.string()),
  afterResponseScript: z.optional(z.string()),
});
const V4 = z.looseObject({ _type: z.literal('export'), __export_format: z.number(), resources: z.array(V4Resource) });

interface V5Item {
  name?: string;
  url?: string;
  method?: string;
  meta?: { id?: string; sortKey?: number; description?: string };
  headers?: Array<z.infer<typeof Pair>>;
  parameters?: Array<z.infer<typeof Pair>>;
  body?: z.infer<typeof Body>;
  authentication?: z.infer<typeof Auth>;
  environment?: unknown;
  scripts?: { preRequest?: string; afterResponse?: string };
  children?: V5Item[];
  [key: string]: unknown;
}
const V5Item: z.ZodMiniType<V5Item> = z.looseObject({
  name: z.optional(z.string()),
  url: z.optional(z.string()),
  method: z.optional(z.string()),
  meta: z.optional(
    z.looseObject({ id: z.optional(z.string()), sortKey: z.optional(z.number()), description: z.optional(z.string()) }),
  ),
  headers: z.optional(z.array(Pair)),
  parameters: z.optional(z.array(Pair)),
  body: Body,
  authentication: Auth,
  environment: z.optional(z.unknown()),
  scripts: z.optional(z.looseObject({ preRequest: z.optional(z.string()), afterResponse: z.optional(z.string()) })),
  get children() {
    return z.optional(z.array(V5Item));
  },
}) as z.ZodMiniType<V5Item>;
interface V5Env {
  name?: string;
  data?: unknown;
  isPrivate?: boolean;
  meta?: { isPrivate?: boolean };
  subEnvironments?: V5Env[];
}
const V5Env: z.ZodMiniType<V5Env> = z.looseObject({
  name: z.optional(z.string()),
  data: z.optional(z.unknown()),
  isPrivate: z.optional(z.boolean()),
  meta: z.optional(z.looseObject({ isPrivate: z.optional(z.boolean()) })),
  get subEnvironments() {
    return z.optional(z.array(V5Env));
  },
}) as z.ZodMiniType<V5Env>;
const V5 = z.looseObject({
  type: z.string(),
  name: z.optional(z.string()),
  collection: z.optional(z.array(V5Item)),
  environments: z.optional(z.union([V5Env, z.array(V5Env)])),
});

/** A request or folder, whichever version it came from. */
interface Node {
  kind: 'request' | 'folder' | 'other';
  type: string;
  name: string;
  item: V5Item;
  children: Node[];
}

interface Context {
  warnings: string[];
  env: EnvFiles;
}

const SIMPLE_VARIABLE = /\{\{\s*(?:_\.)?([A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*)\s*\}\}/g;

/** Insomnia templates to dial's: plain variables translate, tags and filters are reported. */
function template(text: string, where: string, context: Context): string {
  let out = text.replace(SIMPLE_VARIABLE, (_whole, name: string) => `{{${name}}}`);
  out = out
    .replace(/\{%\s*uuid\b[^%]*%\}/g, '{{$uuid}}')
    .replace(/\{%\s*now\s+'iso-8601'[^%]*%\}/g, '{{$isoTimestamp}}')
    .replace(/\{%\s*now\s+'unix'[^%]*%\}/g, '{{$timestamp}}');
  for (const match of out.matchAll(/\{%[\s\S]*?%\}|\{\{([^{}]*)\}\}/g)) {
    if (match[1] !== undefined && /^[A-Za-z_$][\w$.-]*$/.test(match[1])) continue;
    context.warnings.push(
      `${where}: Insomnia template '${match[0].slice(0, 60)}' has no dial equivalent; kept as text`,
    );
  }
  return out;
}

function enabled(
  pairs: Array<z.infer<typeof Pair>> | undefined,
  where: string,
  context: Context,
): Array<{ name: string; value: string }> {
  return (pairs ?? [])
    .filter((p) => !p.disabled && p.name)
    .map((p) => ({
      name: template(p.name!, where, context),
      value: template(
        typeof p.value === 'string' ? p.value : p.value === undefined ? '' : JSON.stringify(p.value),
        where,
        context,
      ),
    }));
}

function bodyOf(body: V5Item['body'], headers: ImportDraft['headers'], where: string, context: Context): DraftBody {
  if (!body) return { kind: 'none' };
  const mime = body.mimeType ?? '';
  const setType = (value: string) => {
    if (!headers.some((h) => h.name.toLowerCase() === 'content-type')) headers.push({ name: 'Content-Type', value });
  };
  if (body.params && /multipart/i.test(mime)) {
    // Insomnia sets the multipart Content-Type (with boundary) itself; the writer sets ours.
    return {
      kind: 'multipart',
      parts: body.params
        .filter((p) => !p.disabled && p.name)
        .map((p) =>
          p.type === 'file'
            ? { name: p.name!, filePath: p.fileName ?? '' }
            : { name: p.name!, value: template(String(p.value ?? ''), where, context) },
        ),
    };
  }
  if (body.params) {
    setType(mime || 'application/x-www-form-urlencoded');
    return {
      kind: 'text',
      text: enabled(body.params, where, context)
        .map((p) => `${p.name}=${p.value}`)
        .join('&'),
      substitute: true,
    };
  }
  if (body.fileName) return { kind: 'file', path: body.fileName };
  if (body.text === undefined || body.text === '') return { kind: 'none' };
  if (/graphql/i.test(mime)) {
    setType('application/json');
    return { kind: 'text', text: template(body.text, where, context), substitute: true };
  }
  if (mime) setType(mime);
  return { kind: 'text', text: template(body.text, where, context), substitute: true };
}

function authHeader(
  auth: V5Item['authentication'],
  headers: ImportDraft['headers'],
  query: Array<{ name: string; value: string }>,
  where: string,
  context: Context,
): void {
  if (!auth || auth.disabled || !auth.type || auth.type === 'none') return;
  const field = (key: string) => template(String((auth as Record<string, unknown>)[key] ?? ''), where, context);
  const has = (name: string) => headers.some((h) => h.name.toLowerCase() === name.toLowerCase());
  switch (auth.type) {
    case 'bearer':
      if (!has('Authorization'))
        headers.push({ name: 'Authorization', value: `${field('prefix') || 'Bearer'} ${field('token')}` });
      return;
    case 'basic':
    case 'digest':
      if (!has('Authorization'))
        headers.push({
          name: 'Authorization',
          value: `${auth.type === 'basic' ? 'Basic' : 'Digest'} ${field('username')} ${field('password')}`,
        });
      return;
    case 'apikey':
      if ((auth as Record<string, unknown>).addTo === 'queryParams')
        query.push({ name: field('key'), value: field('value') });
      else if (!has(field('key'))) headers.push({ name: field('key'), value: field('value') });
      return;
    default:
      context.warnings.push(`${where}: ${auth.type} authentication is not translated; set the header by hand`);
  }
}

function convertRequest(
  node: Node,
  inheritedAuth: V5Item['authentication'],
  used: Set<string>,
  context: Context,
  path: string,
): ImportDraft {
  const item = node.item;
  const where = `request '${path}${node.name}'`;
  const headers = enabled(item.headers, where, context);
  const query = enabled(item.parameters, where, context);
  const auth = item.authentication && item.authentication.type ? item.authentication : inheritedAuth;
  authHeader(auth, headers, query, where, context);
  const body = bodyOf(item.body, headers, where, context);
  if (item.scripts?.preRequest?.trim()) context.warnings.push(`${where}: its pre-request script is not translated`);
  if (item.scripts?.afterResponse?.trim())
    context.warnings.push(`${where}: its after-response script is not translated`);
  const description = item.meta?.description?.trim();
  return {
    title: node.name,
    name: requestName(node.name, used),
    comments: description ? description.split(/\r?\n/) : [],
    metadata: [],
    method: (item.method ?? 'GET').toUpperCase(),
    url: withQuery(template(item.url ?? '', where, context), query),
    headers,
    body,
  };
}

function folderVariables(node: Node, where: string, context: Context): void {
  for (const [name, value] of flattenValues(node.item.environment)) {
    if (context.env.get(SHARED, name) !== undefined && context.env.get(SHARED, name) !== value)
      context.warnings.push(
        `${where}: folder variable '${name}' differs from another with that name; the first is kept`,
      );
    else context.env.set(SHARED, name, template(value, where, context));
  }
}

function toFolder(node: Node, auth: V5Item['authentication'], context: Context, path: string): TreeFolder {
  const folder: TreeFolder = { name: node.name, description: node.item.meta?.description, requests: [], folders: [] };
  const folderAuth = node.item.authentication?.type ? node.item.authentication : auth;
  const used = new Set<string>();
  folderVariables(node, `folder '${path || node.name}'`, context);
  if (node.kind === 'folder' && (node.item.scripts?.preRequest?.trim() || node.item.scripts?.afterResponse?.trim()))
    context.warnings.push(`folder '${path}${node.name}': its scripts are not translated`);
  for (const child of node.children) {
    if (child.kind === 'request') folder.requests.push(convertRequest(child, folderAuth, used, context, path));
    else if (child.kind === 'folder')
      folder.folders.push(toFolder(child, folderAuth, context, `${path}${child.name}/`));
    else context.warnings.push(`'${path}${child.name}': ${child.type} is not an HTTP request; skipped`);
  }
  return folder;
}

/** v4: resources linked by parentId, in metaSortKey order. */
function treeFromV4(data: z.infer<typeof V4>, context: Context): Node[] {
  const byParent = new Map<string, Array<z.infer<typeof V4Resource>>>();
  for (const resource of data.resources) {
    const key = resource.parentId ?? '';
    byParent.set(key, [...(byParent.get(key) ?? []), resource]);
  }
  const build = (resource: z.infer<typeof V4Resource>): Node => {
    const kind =
      resource._type === 'request'
        ? 'request'
        : resource._type === 'request_group' || resource._type === 'workspace'
          ? 'folder'
          : 'other';
    const children = [...(byParent.get(resource._id) ?? [])]
      .filter((r) => r._type !== 'environment' && r._type !== 'cookie_jar' && r._type !== 'api_spec')
      .sort((a, b) => (a.metaSortKey ?? 0) - (b.metaSortKey ?? 0))
      .map(build);
    const item: V5Item = {
      ...resource,
      meta: { description: resource.description },
      scripts: { preRequest: resource.preRequestScript, afterResponse: resource.afterResponseScript },
    };
    return { kind, type: resource._type, name: resource.name || resource._id, item, children };
  };
  const workspaces = data.resources.filter((r) => r._type === 'workspace');
  for (const environment of data.resources.filter((r) => r._type === 'environment')) {
    const isBase = workspaces.some((w) => w._id === environment.parentId);
    addEnvironment(
      isBase ? SHARED : (environment.name ?? environment._id),
      environment.data,
      Boolean(environment.isPrivate),
      context,
    );
  }
  return workspaces.map(build);
}

function addEnvironment(name: string, data: unknown, isPrivate: boolean, context: Context): void {
  for (const [key, value] of flattenValues(data))
    context.env.set(name, key, template(value, `environment '${name}'`, context), isPrivate || undefined);
}

/** v5: the tree as it is; the base environment and its sub-environments. */
function treeFromV5(data: z.infer<typeof V5>, context: Context): Node[] {
  const build = (item: V5Item): Node => {
    const isRequest = typeof item.method === 'string';
    const isFolder = !isRequest && item.url === undefined;
    return {
      kind: isRequest ? 'request' : isFolder ? 'folder' : 'other',
      type: isRequest ? 'request' : isFolder ? 'folder' : 'a gRPC or WebSocket request',
      name: item.name ?? item.meta?.id ?? 'request',
      item,
      children: (item.children ?? []).map(build),
    };
  };
  const environments = Array.isArray(data.environments)
    ? data.environments
    : data.environments
      ? [data.environments]
      : [];
  for (const base of environments) {
    addEnvironment(SHARED, base.data, false, context);
    for (const sub of base.subEnvironments ?? [])
      addEnvironment(sub.name ?? 'environment', sub.data, Boolean(sub.isPrivate ?? sub.meta?.isPrivate), context);
  }
  if (!data.type.startsWith('collection.insomnia.rest/5'))
    context.warnings.push(`'${data.type}' is not a collection export; reading it as one`);
  return [
    {
      kind: 'folder',
      type: 'workspace',
      name: data.name ?? 'insomnia',
      item: {},
      children: (data.collection ?? []).map(build),
    },
  ];
}

/** Parses YAML with errors that name file:line:col. */
async function parseYamlSource(text: string, file: string): Promise<unknown> {
  const { parse, YAMLParseError } = await loadYaml();
  try {
    return parse(text);
  } catch (error) {
    if (!(error instanceof YAMLParseError)) throw error;
    const position = error.linePos?.[0];
    throw new DialError('E_IMPORT', `Insomnia export is not valid YAML: ${error.message.split('\n')[0]}`, {
      location: {
        file,
        line: position?.line ?? 1,
        col: position?.col,
        excerpt: position ? text.split(/\r?\n/)[position.line - 1] : undefined,
      },
      hint: 'export the collection again from Insomnia (Export → Insomnia v5 or v4 JSON)',
    });
  }
}

/** Reads, validates and converts an Insomnia export file (v4 JSON or v5 YAML). */
export async function importInsomniaFile(path: string): Promise<ImportResult> {
  const text = readSource(path, 'Insomnia export');
  const context: Context = { warnings: [], env: new EnvFiles() };
  let roots: Node[];
  if (/^\s*\{/.test(text)) {
    const raw = parseJsonLocated(text, path, 'Insomnia export');
    const format = (raw as { __export_format?: unknown } | null)?.__export_format;
    if (format !== undefined && format !== 4) {
      throw new DialError('E_IMPORT', `Insomnia export format ${String(format)}; dial reads v4 (JSON) and v5 (YAML)`, {
        location: { file: path, line: 1 },
        hint: 'export again from a current Insomnia',
      });
    }
    roots = treeFromV4(await validateSource(V4, raw, text, path, 'Insomnia v4 export'), context);
  } else {
    roots = treeFromV5(
      await validateSource(V5, await parseYamlSource(text, path), text, path, 'Insomnia v5 export'),
      context,
    );
  }
  if (roots.length === 0)
    throw new DialError('E_IMPORT', 'the Insomnia export holds no workspace or collection', {
      location: { file: path, line: 1 },
      hint: 'export a collection from Insomnia',
    });
  const root: TreeFolder =
    roots.length === 1
      ? toFolder(roots[0], undefined, context, '')
      : {
          name: basename(path).replace(/\.[^.]+$/, ''),
          requests: [],
          folders: roots.map((node) => toFolder(node, undefined, context, `${node.name}/`)),
        };
  return renderTree(root, context.env, context.warnings);
}
