/**
 * `dial import postman`: a Postman collection (v2.0 or v2.1) and optionally an environment
 * to `.http` files (one per folder; nested folders become folders on disk) and env files.
 * Postman's `{{var}}` syntax is dial's, so variables are kept as they are.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, posix, relative, resolve, sep, win32 } from 'node:path';
import * as z from 'zod/mini';
import { DialError } from '../errors.js';
import { EnvFiles, SECRET_NAME, SHARED, referencedVariables } from './env-writer.js';
import {
  renderHttpFile,
  slugify,
  uniqueName,
  type DraftBody,
  type DraftPart,
  type ImportDraft,
} from './http-writer.js';
import type { ImportedFile, ImportResult } from './import-result.js';
import { parseJsonSource, readSource, validateSource } from './source-file.js';

// ---- schema (what dial reads; unknown fields are allowed, Postman adds many) ----

const Description = z.optional(z.nullable(z.union([z.string(), z.looseObject({ content: z.optional(z.string()) })])));
const KeyValue = z.looseObject({
  key: z.optional(z.nullable(z.string())),
  value: z.optional(z.unknown()),
  disabled: z.optional(z.boolean()),
  type: z.optional(z.string()),
  src: z.optional(z.unknown()),
  contentType: z.optional(z.string()),
  description: Description,
});
type PmKeyValue = z.infer<typeof KeyValue>;
const AuthParams = z.optional(z.union([z.array(KeyValue), z.record(z.string(), z.unknown())]));
const Auth = z.looseObject({
  type: z.string(),
  basic: AuthParams,
  bearer: AuthParams,
  apikey: AuthParams,
  digest: AuthParams,
  oauth2: AuthParams,
});
type PmAuth = z.infer<typeof Auth>;
const Url = z.union([
  z.string(),
  z.looseObject({
    raw: z.optional(z.string()),
    protocol: z.optional(z.string()),
    host: z.optional(z.union([z.string(), z.array(z.string())])),
    port: z.optional(z.string()),
    path: z.optional(
      z.union([z.string(), z.array(z.union([z.string(), z.looseObject({ value: z.optional(z.string()) })]))]),
    ),
    query: z.optional(z.nullable(z.array(KeyValue))),
    variable: z.optional(z.array(KeyValue)),
  }),
]);
type PmUrl = z.infer<typeof Url>;
const Body = z.looseObject({
  mode: z.optional(z.string()),
  raw: z.optional(z.string()),
  urlencoded: z.optional(z.array(KeyValue)),
  formdata: z.optional(z.array(KeyValue)),
  file: z.optional(z.looseObject({ src: z.optional(z.nullable(z.string())), content: z.optional(z.string()) })),
  graphql: z.optional(z.looseObject({ query: z.optional(z.string()), variables: z.optional(z.unknown()) })),
  options: z.optional(z.looseObject({ raw: z.optional(z.looseObject({ language: z.optional(z.string()) })) })),
  disabled: z.optional(z.boolean()),
});
type PmBody = z.infer<typeof Body>;
const Request = z.union([
  z.string(),
  z.looseObject({
    method: z.optional(z.string()),
    url: z.optional(Url),
    header: z.optional(z.nullable(z.union([z.array(KeyValue), z.string()]))),
    body: z.optional(z.nullable(Body)),
    auth: z.optional(z.nullable(Auth)),
    description: Description,
  }),
]);
const Event = z.looseObject({
  listen: z.string(),
  disabled: z.optional(z.boolean()),
  script: z.optional(z.looseObject({ exec: z.optional(z.union([z.string(), z.array(z.string())])) })),
});
type PmEvent = z.infer<typeof Event>;

interface PmItem {
  name?: string;
  request?: z.infer<typeof Request>;
  item?: PmItem[];
  event?: PmEvent[];
  description?: z.infer<typeof Description>;
  auth?: PmAuth | null;
  variable?: PmKeyValue[];
}
const Item: z.ZodMiniType<PmItem> = z.looseObject({
  name: z.optional(z.string()),
  request: z.optional(Request),
  get item() {
    return z.optional(z.array(Item));
  },
  event: z.optional(z.array(Event)),
  description: Description,
  auth: z.optional(z.nullable(Auth)),
  variable: z.optional(z.array(KeyValue)),
});
const Collection = z.looseObject({
  info: z.looseObject({ name: z.string(), schema: z.optional(z.string()), description: Description }),
  item: z.array(Item),
  event: z.optional(z.array(Event)),
  variable: z.optional(z.array(KeyValue)),
  auth: z.optional(z.nullable(Auth)),
});
type PmCollection = z.infer<typeof Collection>;
const Environment = z.looseObject({
  name: z.optional(z.string()),
  values: z.array(
    z.looseObject({
      key: z.string(),
      value: z.optional(z.unknown()),
      enabled: z.optional(z.boolean()),
      type: z.optional(z.string()),
    }),
  ),
});
type PmEnvironment = z.infer<typeof Environment>;

// ---- helpers ----

function text(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function descriptionLines(description: z.infer<typeof Description>): string[] {
  const value = typeof description === 'string' ? description : description?.content;
  if (!value || !value.trim()) return [];
  return value.replace(/\r\n?/g, '\n').trim().split('\n');
}

function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

// Postman dynamic variables dial knows under another or the same name.
const DYNAMIC: Record<string, string> = {
  $guid: '$guid',
  $randomUUID: '$uuid',
  $timestamp: '$timestamp',
  $isoTimestamp: '$isoTimestamp',
  $randomInt: '$randomInt',
};

/** Encodes a form key/value like Postman does, keeping {{variables}} as they are. */
function formEncode(value: string): string {
  return value
    .split(/(\{\{[^{}]*\}\})/)
    .map((piece, index) => (index % 2 === 1 ? piece : encodeURIComponent(piece).replace(/%20/g, '+')))
    .join('');
}

function authParams(auth: PmAuth, type: string): Record<string, string> {
  const params = (auth as Record<string, unknown>)[type];
  const out: Record<string, string> = {};
  if (Array.isArray(params)) {
    for (const param of params as PmKeyValue[]) if (param.key) out[param.key] = text(param.value);
  } else if (params && typeof params === 'object') {
    for (const [key, value] of Object.entries(params)) out[key] = text(value);
  }
  return out;
}

const CONTENT_TYPE_BY_LANGUAGE: Record<string, string> = {
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  text: 'text/plain',
  javascript: 'application/javascript',
};

interface Context {
  env: EnvFiles;
  warnings: string[];
  /** The output file being built (for messages). */
  file: string;
  /** The collection file. */
  source: string;
  /** Files the collection names by a relative path, resolved against its folder: written relative to each .http file. */
  rebase: Set<string>;
}

/**
 * A file a body uploads: Postman's `src`, relative to the collection's folder (as Newman reads
 * it with the collection's folder as working folder), becomes an absolute path here and a
 * path relative to the .http file when written. Absolute paths stay as they are.
 */
function sourceFile(src: string, context: Context, what: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]+:\/\//i.test(src) && !win32.isAbsolute(src)) {
    context.warnings.push(`${what} is a file stored by Postman (${src}); download it and point the path at it`);
    return undefined;
  }
  const absolute = isAbsolute(src) || win32.isAbsolute(src);
  const full = absolute ? src : resolve(dirname(context.source), src);
  if (!absolute) context.rebase.add(full);
  if (!existsSync(full)) context.warnings.push(`${what}: ${full} does not exist; put the file there or edit the path`);
  return full;
}

/** A variable reference for a literal credential: kept in the private env file, referenced by name. */
function credential(context: Context, base: string, value: string, secret: boolean): string {
  if (value.includes('{{')) return value;
  if (value === '') return `{{${base}}}`;
  let name = base;
  for (let n = 2; ; n++) {
    const existing = context.env.get(SHARED, name);
    if (existing === undefined) {
      context.env.set(SHARED, name, value, secret);
      break;
    }
    if (existing === value) break;
    name = `${base}${n}`;
  }
  return `{{${name}}}`;
}

function applyAuth(auth: PmAuth | undefined, draft: ImportDraft, context: Context, where: string): void {
  if (!auth || auth.type === 'noauth' || auth.type === 'inherit') return;
  const params = authParams(auth, auth.type);
  const hasHeader = (name: string) => draft.headers.some((header) => header.name.toLowerCase() === name.toLowerCase());
  switch (auth.type) {
    case 'bearer':
      if (!hasHeader('Authorization'))
        draft.headers.push({
          name: 'Authorization',
          value: `Bearer ${credential(context, 'token', params.token ?? '', true)}`,
        });
      return;
    case 'basic':
    case 'digest': {
      const user = credential(context, 'username', params.username ?? '', false);
      const password = credential(context, 'password', params.password ?? '', true);
      if (!hasHeader('Authorization'))
        draft.headers.push({
          name: 'Authorization',
          value: `${auth.type === 'basic' ? 'Basic' : 'Digest'} ${user} ${password}`,
        });
      return;
    }
    case 'apikey': {
      const key = params.key || 'X-API-Key';
      const value = credential(context, 'apiKey', params.value ?? '', true);
      if (params.in === 'query') draft.url += `${draft.url.includes('?') ? '&' : '?'}${formEncode(key)}=${value}`;
      else if (!hasHeader(key)) draft.headers.push({ name: key, value });
      return;
    }
    case 'oauth2': {
      const token = credential(context, 'accessToken', params.accessToken ?? '', true);
      if (!hasHeader('Authorization')) draft.headers.push({ name: 'Authorization', value: `Bearer ${token}` });
      context.warnings.push(
        `${where}: OAuth 2.0 auth became a Bearer header with {{${token.slice(2, -2)}}}; getting the token is not converted`,
      );
      return;
    }
    default:
      context.warnings.push(`${where}: '${auth.type}' auth is not supported and was not converted`);
  }
}

function buildUrl(url: PmUrl | undefined, draft: Pick<ImportDraft, 'variables'>): string {
  if (url === undefined) return '';
  if (typeof url === 'string') return url.replace(/(^|[^:/])\/:([A-Za-z_][\w-]*)/g, '$1/{{$2}}');
  let base = url.raw ?? '';
  if (!base) {
    const host = Array.isArray(url.host) ? url.host.join('.') : (url.host ?? '');
    const path = Array.isArray(url.path)
      ? url.path.map((segment) => (typeof segment === 'string' ? segment : (segment.value ?? ''))).join('/')
      : (url.path ?? '');
    base = `${url.protocol ? `${url.protocol}://` : ''}${host}${url.port ? `:${url.port}` : ''}${path ? `/${path.replace(/^\//, '')}` : ''}`;
  }
  let withoutQuery = base.split('?')[0].split('#')[0];
  let query = base.includes('?') ? base.slice(base.indexOf('?') + 1).split('#')[0] : '';
  if (url.query) {
    // The query list knows which parameters are disabled; raw may still carry them.
    query = url.query
      .filter((param) => !param.disabled && param.key !== undefined && param.key !== null)
      .map((param) =>
        param.value === undefined || param.value === null ? param.key! : `${param.key}=${text(param.value)}`,
      )
      .join('&');
  }
  // Postman path variables (:id) become {{id}}, their values request variables.
  const pathVariables = new Map(
    (url.variable ?? []).filter((variable) => variable.key).map((variable) => [variable.key!, text(variable.value)]),
  );
  withoutQuery = withoutQuery.replace(/\/:([A-Za-z_][\w-]*)/g, (_, name: string) => {
    const value = pathVariables.get(name);
    if (value !== undefined && value !== '') {
      draft.variables ??= [];
      if (!draft.variables.some((variable) => variable.name === name)) draft.variables.push({ name, value });
    }
    return `/{{${name}}}`;
  });
  return query ? `${withoutQuery}?${query}` : withoutQuery;
}

function buildBody(body: PmBody | null | undefined, draft: ImportDraft, context: Context, where: string): DraftBody {
  if (!body || body.disabled || !body.mode) return { kind: 'none' };
  const setType = (type: string): void => {
    if (!draft.headers.some((header) => header.name.toLowerCase() === 'content-type'))
      draft.headers.push({ name: 'Content-Type', value: type });
  };
  switch (body.mode) {
    case 'raw': {
      if (!body.raw) return { kind: 'none' };
      const language = body.options?.raw?.language;
      if (language && CONTENT_TYPE_BY_LANGUAGE[language]) setType(CONTENT_TYPE_BY_LANGUAGE[language]);
      return { kind: 'text', text: body.raw, substitute: true };
    }
    case 'urlencoded': {
      const fields = (body.urlencoded ?? []).filter((field) => !field.disabled && field.key);
      if (fields.length === 0) return { kind: 'none' };
      setType('application/x-www-form-urlencoded');
      return {
        kind: 'text',
        text: fields.map((field) => `${formEncode(field.key!)}=${formEncode(text(field.value))}`).join('&'),
        substitute: true,
      };
    }
    case 'formdata': {
      const parts: DraftPart[] = [];
      for (const field of body.formdata ?? []) {
        if (field.disabled || !field.key) continue;
        if (field.type === 'file') {
          const sources = Array.isArray(field.src) ? field.src : [field.src];
          const src = sources.find((source): source is string => typeof source === 'string' && source !== '');
          if (!src) {
            context.warnings.push(
              `${where}: form field '${field.key}' has no file chosen; it was written as ./${field.key} — point it at the file to upload`,
            );
          }
          if (sources.length > 1)
            context.warnings.push(`${where}: form field '${field.key}' has several files; only the first was imported`);
          const path = src === undefined ? undefined : sourceFile(src, context, `${where}: form field '${field.key}'`);
          parts.push({ name: field.key, filePath: path ?? `./${field.key}`, contentType: field.contentType });
        } else {
          parts.push({ name: field.key, value: text(field.value), contentType: field.contentType });
        }
      }
      return parts.length > 0 ? { kind: 'multipart', parts } : { kind: 'none' };
    }
    case 'file': {
      const src = body.file?.src;
      if (src) {
        const path = sourceFile(src, context, `${where}: the body file`);
        return { kind: 'file', path: path ?? `./${slugify(src.split(/[\\/]/).pop() ?? '', 'body')}` };
      }
      if (body.file?.content) return { kind: 'text', text: body.file.content, substitute: true };
      context.warnings.push(`${where}: the file body has no file chosen; it was left empty`);
      return { kind: 'none' };
    }
    case 'graphql': {
      const query = body.graphql?.query ?? '';
      let variables: unknown = body.graphql?.variables;
      if (typeof variables === 'string') {
        try {
          variables = variables.trim() ? JSON.parse(variables) : undefined;
        } catch {
          context.warnings.push(`${where}: the GraphQL variables are not valid JSON and were left out`);
          variables = undefined;
        }
      }
      setType('application/json');
      return {
        kind: 'text',
        text: JSON.stringify(variables === undefined ? { query } : { query, variables }, null, 2),
        substitute: true,
      };
    }
    default:
      context.warnings.push(`${where}: body mode '${body.mode}' is not supported and was not imported`);
      return { kind: 'none' };
  }
}

function scriptComments(events: PmEvent[] | undefined, context: Context, where: string): string[] {
  const lines: string[] = [];
  for (const event of events ?? []) {
    if (event.disabled) continue;
    const exec = event.script?.exec;
    const code = (Array.isArray(exec) ? exec : exec ? exec.split('\n') : []).filter(
      (line, index, all) => line.trim() !== '' || (index > 0 && index < all.length - 1),
    );
    if (code.every((line) => line.trim() === '')) continue;
    const kind =
      event.listen === 'prerequest'
        ? 'pre-request script'
        : event.listen === 'test'
          ? 'test script'
          : `${event.listen} script`;
    context.warnings.push(`${where}: Postman ${kind} not converted (kept as comments)`);
    lines.push(`Postman ${kind} (not converted):`, ...code.map((line) => `  ${line}`));
  }
  return lines;
}

function convertRequest(item: PmItem, inherited: PmAuth | undefined, used: Set<string>, context: Context): ImportDraft {
  const title = oneLine(item.name ?? '') || 'request';
  const where = `${context.file}#${title}`;
  const request = typeof item.request === 'string' ? { url: item.request } : (item.request ?? {});
  const draft: ImportDraft = {
    title,
    name: uniqueName(slugify(title), used),
    comments: [],
    metadata: [],
    method: (('method' in request ? request.method : undefined) ?? 'GET').toUpperCase(),
    url: '',
    headers: [],
    body: { kind: 'none' },
  };
  draft.url = buildUrl(request.url, draft);
  if (!draft.url)
    throw new DialError('E_IMPORT', `request '${title}' has no URL`, {
      location: { file: context.source, line: 1 },
      hint: 'give the request a URL in Postman and export again',
    });
  const description = 'description' in request ? request.description : undefined;
  draft.comments.push(...descriptionLines(item.description ?? description));

  const header = 'header' in request ? request.header : undefined;
  const headers: PmKeyValue[] =
    typeof header === 'string'
      ? header
          .split(/\r?\n/)
          .filter((line) => line.includes(':'))
          .map((line) => ({
            key: line.slice(0, line.indexOf(':')).trim(),
            value: line.slice(line.indexOf(':') + 1).trim(),
          }))
      : (header ?? []);
  for (const entry of headers) {
    if (!entry.key) continue;
    if (entry.disabled) {
      draft.comments.push(`disabled in Postman: ${entry.key}: ${text(entry.value)}`);
      continue;
    }
    if (!/^(?:[!#$%&'*+.^_`|~0-9A-Za-z-]|\{\{[^{}]*\}\})+$/.test(entry.key)) {
      context.warnings.push(`${where}: header name '${entry.key}' is not valid and was left out`);
      continue;
    }
    draft.headers.push({ name: entry.key, value: text(entry.value) });
  }
  const auth = 'auth' in request && request.auth && request.auth.type !== 'inherit' ? request.auth : inherited;
  applyAuth(auth ?? undefined, draft, context, where);
  draft.body = buildBody('body' in request ? request.body : undefined, draft, context, where);
  draft.comments.push(...scriptComments(item.event, context, where));
  return draft;
}

interface OutputFile {
  path: string;
  drafts: ImportDraft[];
  preamble: string[];
}

/** A file path as a .http file in `dir` writes it: relative when the collection's was. */
function pathFrom(dir: string, path: string, rebase: Set<string>): string {
  return rebase.has(path) ? relative(dir, path).split(sep).join('/') : path;
}

/** A body with the collection's relative file paths made relative to `dir`. */
function bodyFrom(dir: string, body: DraftBody, rebase: Set<string>): DraftBody {
  if (body.kind === 'file') return { ...body, path: pathFrom(dir, body.path, rebase) };
  if (body.kind === 'multipart')
    return {
      kind: 'multipart',
      parts: body.parts.map((part) =>
        part.filePath === undefined ? part : { ...part, filePath: pathFrom(dir, part.filePath, rebase) },
      ),
    };
  return body;
}

export interface ConvertPostmanOptions {
  /** The folder the files will be written to (default: the current folder, as for the CLI). */
  outDir?: string;
}

/** The collection's variables into `$shared`, the environment's into an environment of its name. */
function addVariables(env: EnvFiles, collection: PmCollection, environment: PmEnvironment | undefined): void {
  for (const variable of collection.variable ?? []) {
    if (!variable.key || variable.disabled) continue;
    env.set(SHARED, variable.key, text(variable.value), variable.type === 'secret' || SECRET_NAME.test(variable.key));
  }
  if (!environment) return;
  const name = oneLine(environment.name ?? '') || 'postman';
  for (const value of environment.values) {
    if (value.enabled === false) continue;
    env.set(name, value.key, text(value.value), value.type === 'secret' || SECRET_NAME.test(value.key));
  }
}

/** Postman dynamic variables with another name in dial (`{{$randomUUID}}` -> `{{$uuid}}`), renamed in place. */
function renameDynamicVariables(outputs: OutputFile[]): void {
  const rename = (value: string): string =>
    value.replace(/\{\{\s*(\$[A-Za-z]+)\s*\}\}/g, (whole, name: string) =>
      DYNAMIC[name] && DYNAMIC[name] !== name ? `{{${DYNAMIC[name]}}}` : whole,
    );
  for (const output of outputs) {
    for (const draft of output.drafts) {
      draft.url = rename(draft.url);
      draft.headers = draft.headers.map((header) => ({ name: header.name, value: rename(header.value) }));
      if (draft.body.kind === 'text') draft.body = { ...draft.body, text: rename(draft.body.text) };
      if (draft.body.kind === 'multipart')
        draft.body = {
          kind: 'multipart',
          parts: draft.body.parts.map((part) =>
            part.value === undefined ? part : { ...part, value: rename(part.value) },
          ),
        };
    }
  }
}

/** Variables used but defined nowhere (for a note telling the user what to set); warns about dynamic variables dial lacks. */
function undefinedVariables(outputs: OutputFile[], env: EnvFiles, warnings: string[]): Set<string> {
  const missing = new Set<string>();
  const unsupportedDynamic = new Set<string>();
  for (const output of outputs) {
    for (const draft of output.drafts) {
      const all = JSON.stringify(draft);
      for (const match of all.matchAll(/\{\{\s*(\$[A-Za-z]+)/g))
        if (
          !(match[1] in DYNAMIC) &&
          !['$uuid', '$processEnv', '$dotenv', '$datetime', '$localDatetime'].includes(match[1])
        )
          unsupportedDynamic.add(match[1]);
      for (const name of referencedVariables(all)) {
        if (!env.defines(name) && !(draft.variables ?? []).some((variable) => variable.name === name))
          missing.add(name);
      }
    }
  }
  if (unsupportedDynamic.size > 0)
    warnings.push(
      `Postman dynamic variables dial does not have: ${[...unsupportedDynamic].join(', ')} (replace them before sending)`,
    );
  return missing;
}

/**
 * Converts a parsed collection (and environment) to files; `file` is the collection's path
 * (relative file paths in it belong to its folder; it names the source in messages).
 */
export function convertPostman(
  collection: PmCollection,
  environment: PmEnvironment | undefined,
  file: string,
  options: ConvertPostmanOptions = {},
): ImportResult {
  const warnings: string[] = [];
  const env = new EnvFiles();
  const context: Context = { env, warnings, file, source: resolve(file), rebase: new Set() };
  addVariables(env, collection, environment);

  const outputs: OutputFile[] = [];
  const usedFileNames = new Map<string, Set<string>>();
  const fileName = (dir: string, name: string): string => {
    if (!usedFileNames.has(dir)) usedFileNames.set(dir, new Set());
    return uniqueName(slugify(name, 'folder'), usedFileNames.get(dir)!);
  };

  const fileOf = (requests: PmItem[], path: string, auth: PmAuth | undefined, preamble: string[]): void => {
    const used = new Set<string>();
    outputs.push({
      path,
      preamble,
      drafts: requests.map((item) => convertRequest(item, auth, used, { ...context, file: path })),
    });
  };
  // A folder's own requests go in <dir><slug>.http, its subfolders in <dir><slug>/.
  const walkFolder = (folder: PmItem, dir: string, inherited: PmAuth | undefined): void => {
    const folderName = oneLine(folder.name ?? '') || 'folder';
    const slug = fileName(dir, folderName);
    const auth = folder.auth && folder.auth.type !== 'inherit' ? folder.auth : inherited;
    for (const variable of folder.variable ?? []) {
      if (variable.key && !variable.disabled) env.set(SHARED, variable.key, text(variable.value));
    }
    const preamble = [
      folderName,
      ...descriptionLines(folder.description),
      ...scriptComments(folder.event, context, `folder '${folderName}'`),
    ];
    const items = folder.item ?? [];
    const direct = items.filter((item) => item.item === undefined);
    if (direct.length > 0) fileOf(direct, `${dir}${slug}.http`, auth, preamble);
    for (const sub of items.filter((item) => item.item !== undefined)) walkFolder(sub, `${dir}${slug}/`, auth);
  };

  const collectionName = oneLine(collection.info.name) || 'collection';
  const collectionAuth = collection.auth ?? undefined;
  const rootRequests = collection.item.filter((item) => item.item === undefined);
  if (rootRequests.length > 0) {
    const preamble = [
      collectionName,
      ...descriptionLines(collection.info.description),
      ...scriptComments(collection.event, context, 'the collection'),
    ];
    fileOf(rootRequests, `${fileName('', collectionName)}.http`, collectionAuth, preamble);
  } else {
    scriptComments(collection.event, context, 'the collection');
  }
  for (const folder of collection.item.filter((item) => item.item !== undefined))
    walkFolder(folder, '', collectionAuth);

  renameDynamicVariables(outputs);

  const files: ImportedFile[] = [];
  let requestCount = 0;
  const outDir = options.outDir ?? process.cwd();
  for (const output of outputs) {
    // Upload paths are written relative to the .http file, where it will be written.
    const dir = resolve(outDir, posix.dirname(output.path));
    const drafts = output.drafts.map((draft) => ({ ...draft, body: bodyFrom(dir, draft.body, context.rebase) }));
    const { text: content, sideFiles } = renderHttpFile(drafts, { filePath: output.path, preamble: output.preamble });
    requestCount += output.drafts.length;
    files.push(
      {
        path: output.path,
        content,
        description: `${output.drafts.length} request${output.drafts.length === 1 ? '' : 's'}`,
      },
      ...sideFiles,
    );
  }
  files.push(...env.files());

  const missing = undefinedVariables(outputs, env, warnings);
  const notes = [
    `${requestCount} request${requestCount === 1 ? '' : 's'} in ${outputs.length} file${outputs.length === 1 ? '' : 's'}`,
  ];
  if (missing.size > 0)
    notes.push(`variables to define (in http-client.private.env.json or with --var): ${[...missing].join(', ')}`);
  return { files, warnings, notes };
}

/** Reads, validates and converts a collection file (and an environment file). */
export async function importPostmanFiles(
  collectionPath: string,
  environmentPath?: string,
  options: ConvertPostmanOptions = {},
): Promise<ImportResult> {
  const collectionText = readSource(collectionPath, 'Postman collection');
  const raw = parseJsonSource(collectionText, collectionPath, 'Postman collection');
  if (raw && typeof raw === 'object' && 'requests' in raw && !('item' in raw)) {
    throw new DialError('E_IMPORT', 'this is a Postman v1 collection; dial reads v2.0 and v2.1', {
      location: { file: collectionPath, line: 1 },
      hint: 'in Postman, export the collection again as "Collection v2.1"',
    });
  }
  const collection = await validateSource(Collection, raw, collectionText, collectionPath, 'Postman collection');
  const schema = collection.info.schema ?? '';
  const warnings: string[] = [];
  if (schema && !/v2\.[01]\.\d/.test(schema))
    warnings.push(`${collectionPath}: schema '${schema}' is not v2.0/v2.1; imported as v2.1`);
  let environment: PmEnvironment | undefined;
  if (environmentPath !== undefined) {
    const environmentText = readSource(environmentPath, 'Postman environment');
    environment = await validateSource(
      Environment,
      parseJsonSource(environmentText, environmentPath, 'Postman environment'),
      environmentText,
      environmentPath,
      'Postman environment',
    );
  }
  const result = convertPostman(collection, environment, resolve(collectionPath), options);
  result.warnings.unshift(...warnings);
  return result;
}
