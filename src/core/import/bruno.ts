/**
 * `dial import bruno`: a Bruno collection folder (`bruno.json`, `.bru` request files, folders
 * with an optional `folder.bru`, `collection.bru`, and `environments/*.bru`) to `.http` files
 * and env files. Bruno's `{{var}}` is dial's; `{{process.env.X}}` becomes `{{$processEnv X}}`.
 * Scripts, tests, assertions, post-response variables and auth modes dial lacks are reported.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { DialError } from '../errors.js';
import { EnvFiles, SHARED } from './env-writer.js';
import type { DraftBody, DraftPart, ImportDraft } from './http-writer.js';
import type { ImportResult } from './output.js';
import { parseJsonLocated, renderTree, requestName, withQuery, type TreeFolder } from './collection-tree.js';
import { parseBru, type BruBlock, type BruPair } from './bru-lang.js';
import { readSource } from './source-file.js';

const METHODS = new Set(['get', 'post', 'put', 'delete', 'patch', 'options', 'head', 'connect', 'trace']);
const SKIPPED_DIRS = new Set(['environments', 'node_modules', '.git']);

interface Context {
  warnings: string[];
  env: EnvFiles;
  root: string;
}

/** Auth as a folder or the collection sets it, for requests with `auth: inherit`. */
interface AuthSource {
  mode: string;
  blocks: BruBlock[];
}

function block(blocks: BruBlock[], name: string): BruBlock | undefined {
  return blocks.find((b) => b.name === name);
}

function pairValue(b: BruBlock | undefined, key: string): string | undefined {
  return b?.pairs.find((p) => p.key === key && p.enabled)?.value;
}

function enabled(b: BruBlock | undefined): BruPair[] {
  return (b?.pairs ?? []).filter((p) => p.enabled);
}

/** Bruno variables to dial's (`{{process.env.X}}` is `{{$processEnv X}}`). */
function template(text: string): string {
  return text.replace(/\{\{\s*process\.env\.([\w.-]+)\s*\}\}/g, '{{$processEnv $1}}');
}

function authHeaders(
  source: AuthSource | undefined,
  headers: ImportDraft['headers'],
  query: Array<{ name: string; value: string }>,
  where: string,
  context: Context,
): void {
  if (!source || source.mode === 'none' || source.mode === 'inherit') return;
  const auth = block(source.blocks, `auth:${source.mode}`);
  const field = (key: string) => template(pairValue(auth, key) ?? '');
  const has = (name: string) => headers.some((h) => h.name.toLowerCase() === name.toLowerCase());
  switch (source.mode) {
    case 'bearer':
      if (!has('Authorization')) headers.push({ name: 'Authorization', value: `Bearer ${field('token')}` });
      return;
    case 'basic':
    case 'digest':
      if (!has('Authorization'))
        headers.push({
          name: 'Authorization',
          value: `${source.mode === 'basic' ? 'Basic' : 'Digest'} ${field('username')} ${field('password')}`,
        });
      return;
    case 'apikey':
      if (/query/i.test(field('placement'))) query.push({ name: field('key'), value: field('value') });
      else if (!has(field('key'))) headers.push({ name: field('key'), value: field('value') });
      return;
    default:
      context.warnings.push(`${where}: ${source.mode} auth is not translated; set the header by hand`);
  }
}

/** `@file(a.png|b.png) @contentType(image/png)` → file paths and content type. */
function fileReference(value: string): { paths: string[]; contentType?: string } | undefined {
  const match = /^@file\(([^)]*)\)(?:\s*@contentType\(([^)]*)\))?/.exec(value);
  if (!match) return undefined;
  return { paths: match[1].split('|').filter(Boolean), contentType: match[2] || undefined };
}

function bodyOf(
  mode: string,
  blocks: BruBlock[],
  headers: ImportDraft['headers'],
  where: string,
  context: Context,
): DraftBody {
  const setType = (value: string) => {
    if (!headers.some((h) => h.name.toLowerCase() === 'content-type')) headers.push({ name: 'Content-Type', value });
  };
  const text = (name: string, type: string): DraftBody => {
    const content = block(blocks, name)?.text ?? '';
    if (!content) return { kind: 'none' };
    setType(type);
    return { kind: 'text', text: template(content), substitute: true };
  };
  switch (mode) {
    case 'none':
    case '':
      return { kind: 'none' };
    case 'json':
      return block(blocks, 'body:json') ? text('body:json', 'application/json') : text('body', 'application/json');
    case 'text':
      return text('body:text', 'text/plain');
    case 'xml':
      return text('body:xml', 'application/xml');
    case 'sparql':
      return text('body:sparql', 'application/sparql-query');
    case 'graphql': {
      const query = block(blocks, 'body:graphql')?.text ?? '';
      const variables = block(blocks, 'body:graphql:vars')?.text.trim();
      let parsed: unknown = {};
      try {
        parsed = variables ? JSON.parse(variables) : {};
      } catch {
        context.warnings.push(`${where}: its GraphQL variables are not JSON; sent as {}`);
      }
      setType('application/json');
      return { kind: 'text', text: template(JSON.stringify({ query, variables: parsed }, null, 2)), substitute: true };
    }
    case 'formUrlEncoded': {
      setType('application/x-www-form-urlencoded');
      return {
        kind: 'text',
        text: enabled(block(blocks, 'body:form-urlencoded'))
          .map((p) => `${p.key}=${template(p.value)}`)
          .join('&'),
        substitute: true,
      };
    }
    case 'multipartForm': {
      const parts: DraftPart[] = [];
      for (const pair of enabled(block(blocks, 'body:multipart-form'))) {
        const file = fileReference(pair.value);
        // Bruno's paths are relative to the collection; the .http file is written elsewhere.
        if (file)
          for (const path of file.paths)
            parts.push({ name: pair.key, filePath: resolve(context.root, path), contentType: file.contentType });
        else parts.push({ name: pair.key, value: template(pair.value.replace(/\s*@contentType\([^)]*\)$/, '')) });
      }
      return { kind: 'multipart', parts };
    }
    case 'file': {
      const selected = enabled(block(blocks, 'body:file'))
        .map((p) => fileReference(p.value))
        .find(Boolean);
      if (!selected?.paths[0]) return { kind: 'none' };
      if (selected.contentType) setType(selected.contentType);
      return { kind: 'file', path: resolve(context.root, selected.paths[0]) };
    }
    default:
      context.warnings.push(`${where}: body mode '${mode}' is not translated`);
      return { kind: 'none' };
  }
}

function reportUntranslated(blocks: BruBlock[], where: string, context: Context): void {
  const what: Record<string, string> = {
    'script:pre-request': 'pre-request script',
    'script:post-response': 'post-response script',
    tests: 'tests',
    assert: 'assertions',
    'vars:post-response': 'post-response variables',
  };
  for (const b of blocks) {
    if (what[b.name] && (b.text.trim() || b.pairs.length > 0))
      context.warnings.push(
        `${where}: its ${what[b.name]} (line ${b.line}) ${['tests', 'assert', 'vars:post-response'].includes(b.name) ? 'are' : 'is'} not translated`,
      );
  }
}

function pathParams(url: string, params: BruPair[]): string {
  let out = url;
  for (const param of params)
    out = out.replace(
      new RegExp(`/:${param.key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=/|\\?|#|$)`),
      `/${param.value || `{{${param.key}}}`}`,
    );
  return out;
}

function convertRequest(
  path: string,
  used: Set<string>,
  inherited: AuthSource | undefined,
  context: Context,
): { draft: ImportDraft; seq: number } | undefined {
  const shown = relative(context.root, path) || basename(path);
  const blocks = parseBru(readSource(path, 'Bruno request'), path);
  const meta = block(blocks, 'meta');
  const title = pairValue(meta, 'name') ?? basename(path, '.bru');
  const where = `request '${shown}'`;
  const http = blocks.find((b) => METHODS.has(b.name));
  if (!http) {
    context.warnings.push(`${where}: no HTTP method block (type ${pairValue(meta, 'type') ?? 'unknown'}); skipped`);
    return undefined;
  }
  const headers = enabled(block(blocks, 'headers')).map((p) => ({ name: p.key, value: template(p.value) }));
  const query: Array<{ name: string; value: string }> = [];
  const mode = pairValue(http, 'auth') ?? 'none';
  authHeaders(mode === 'inherit' ? inherited : { mode, blocks }, headers, query, where, context);
  const body = bodyOf(pairValue(http, 'body') ?? 'none', blocks, headers, where, context);
  reportUntranslated(blocks, where, context);
  let url = template(pairValue(http, 'url') ?? '');
  url = pathParams(url, enabled(block(blocks, 'params:path')));
  if (!url.includes('?'))
    query.unshift(
      ...enabled(block(blocks, 'params:query') ?? block(blocks, 'query')).map((p) => ({
        name: p.key,
        value: template(p.value),
      })),
    );
  const docs = block(blocks, 'docs')?.text.trim();
  const seq = Number(pairValue(meta, 'seq'));
  const draft: ImportDraft = {
    title,
    name: requestName(title, used),
    comments: docs ? docs.split('\n') : [],
    metadata: [],
    variables: enabled(block(blocks, 'vars:pre-request')).map((p) => ({
      name: p.key.replace(/^@/, ''),
      value: template(p.value),
    })),
    method: http.name.toUpperCase(),
    url: withQuery(url, query),
    headers,
    body,
  };
  return { draft, seq: Number.isFinite(seq) ? seq : Infinity };
}

/** Folder-level settings (`folder.bru` / `collection.bru`): name, auth, and headers (reported, not copied). */
function folderSettings(
  path: string,
  inherited: AuthSource | undefined,
  where: string,
  context: Context,
): { name?: string; auth?: AuthSource } {
  if (!existsSync(path)) return { auth: inherited };
  const blocks = parseBru(readSource(path, 'Bruno folder settings'), path);
  const mode = pairValue(block(blocks, 'auth'), 'mode');
  if (enabled(block(blocks, 'headers')).length > 0)
    context.warnings.push(`${where}: headers set for the whole folder are not copied into its requests`);
  for (const variable of enabled(block(blocks, 'vars:pre-request')))
    context.env.set(SHARED, variable.key.replace(/^@/, ''), template(variable.value));
  reportUntranslated(blocks, where, context);
  return {
    name: pairValue(block(blocks, 'meta'), 'name'),
    auth: mode && mode !== 'inherit' ? { mode, blocks } : inherited,
  };
}

function walkFolder(dir: string, name: string, inherited: AuthSource | undefined, context: Context): TreeFolder {
  const settings = folderSettings(
    join(dir, 'folder.bru'),
    inherited,
    `folder '${relative(context.root, dir)}'`,
    context,
  );
  const folder: TreeFolder = { name: settings.name ?? name, requests: [], folders: [] };
  const entries = readdirSync(dir).sort();
  const requests: Array<{ seq: number; draft: ImportDraft }> = [];
  const used = new Set<string>();
  for (const entry of entries) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) {
      if (!SKIPPED_DIRS.has(entry) && !entry.startsWith('.'))
        folder.folders.push(walkFolder(path, entry, settings.auth, context));
      continue;
    }
    if (!entry.endsWith('.bru') || entry === 'folder.bru' || entry === 'collection.bru') continue;
    const converted = convertRequest(path, used, settings.auth, context);
    if (converted) requests.push(converted);
  }
  folder.requests = requests.sort((a, b) => a.seq - b.seq).map((r) => r.draft);
  return folder;
}

function readEnvironments(root: string, context: Context): void {
  const dir = join(root, 'environments');
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir)
    .filter((e) => e.endsWith('.bru'))
    .sort()) {
    const path = join(dir, entry);
    const name = basename(entry, '.bru');
    const blocks = parseBru(readSource(path, 'Bruno environment'), path);
    for (const variable of enabled(block(blocks, 'vars')))
      context.env.set(name, variable.key, template(variable.value));
    for (const secret of block(blocks, 'vars:secret')?.values ?? []) {
      context.warnings.push(
        `environment '${name}': secret '${secret.replace(/^~/, '')}' has no value in the collection (Bruno keeps secret values outside it); set it in http-client.private.env.json`,
      );
    }
  }
}

/** Reads a Bruno collection folder and converts it. */
export async function importBrunoCollection(root: string): Promise<ImportResult> {
  let isFolder = false;
  try {
    isFolder = statSync(root).isDirectory();
  } catch {
    throw new DialError('E_NOT_FOUND', `cannot read the Bruno collection ${root}: no such folder`, {
      hint: 'give the folder that holds bruno.json',
    });
  }
  if (!isFolder)
    throw new DialError('E_IMPORT', `${root} is a file; a Bruno collection is a folder`, {
      location: { file: root, line: 1 },
      hint: 'give the folder that holds bruno.json',
    });
  const configPath = join(root, 'bruno.json');
  if (!existsSync(configPath))
    throw new DialError('E_IMPORT', `${root} holds no bruno.json; it is not a Bruno collection`, {
      hint: 'give the folder that holds bruno.json',
    });
  const config = parseJsonLocated(readSource(configPath, 'Bruno collection'), configPath, 'bruno.json') as {
    name?: unknown;
  } | null;
  const context: Context = { warnings: [], env: new EnvFiles(), root: resolve(root) };
  readEnvironments(root, context);
  const collection = folderSettings(join(root, 'collection.bru'), undefined, 'the collection', context);
  const tree = walkFolder(
    root,
    typeof config?.name === 'string' && config.name ? config.name : basename(root),
    collection.auth,
    context,
  );
  tree.name = typeof config?.name === 'string' && config.name ? config.name : basename(root);
  return renderTree(tree, context.env, context.warnings);
}
