/**
 * Turns parsed request items into an HttpRequest the way HTTPie does: JSON by default,
 * `--form` urlencoded, `--multipart` (or any file upload) multipart; POST when there is
 * data, GET otherwise; default headers a later item can replace (`Accept:x`) or drop (`Accept:`).
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { DialError } from '../errors.js';
import type { HeaderList, HttpRequest, MultipartPart, RequestBody } from '../http/types.js';
import { guessContentType } from '../http/mime.js';
import { JsonSyntaxError, jsonString, parseJson, stringifyJson, type JsonNode } from '../format/json.js';
import type { KeySegment, RequestItem } from './items.js';

export type BodyMode = 'json' | 'form' | 'multipart';

export interface BuildRequestOptions {
  /** Explicit method; inferred when undefined. */
  method?: string;
  /** An absolute http(s) URL (see expandUrl). */
  url: string;
  items: RequestItem[];
  /** From --json/--form/--multipart; default json. */
  mode?: BodyMode;
  /** --json was given explicitly (sets Accept and Content-Type even without data). */
  forceJson?: boolean;
  /** A piped stdin body, already known to be non-empty. */
  stdinBody?: RequestBody;
  /** Folder relative file paths resolve against. */
  cwd: string;
  userAgent: string;
  httpVersion?: '1.1' | '2';
  /** Reads a file for `=@`, `:=@`, `==@`, `:@` (injectable for tests). */
  readFile?: (path: string) => Buffer;
}

const jsonAccept = 'application/json, */*;q=0.5';
const tokenPattern = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Builds the request an item list describes; throws DialErrors for bad items or unreadable files. */
export function buildRequest(options: BuildRequestOptions): HttpRequest {
  const read = options.readFile ?? ((path: string) => readFileSync(path));
  const readText = (item: RequestItem, path: string): string => readItemFile(read, resolve(options.cwd, path), item.source).toString('utf8');

  const userHeaders: HeaderList = [];
  const removed = new Set<string>();
  let url = new URL(options.url);
  const queryParts: string[] = [];
  const dataItems: Array<Extract<RequestItem, { kind: 'data' | 'json' }>> = [];
  const fileItems: Array<Extract<RequestItem, { kind: 'file' }>> = [];
  let bodyFile: Extract<RequestItem, { kind: 'body-file' }> | undefined;

  for (const item of options.items) {
    switch (item.kind) {
      case 'header': {
        checkHeaderName(item.name, item.source);
        const value = item.fromFile ? readText(item, item.value).replace(/\r?\n$/, '') : item.value;
        checkHeaderValue(value, item.source);
        userHeaders.push([item.name, value]);
        break;
      }
      case 'header-empty':
        checkHeaderName(item.name, item.source);
        userHeaders.push([item.name, '']);
        break;
      case 'header-remove':
        checkHeaderName(item.name, item.source);
        removed.add(item.name.toLowerCase());
        break;
      case 'query': {
        const value = item.fromFile ? readText(item, item.value) : item.value;
        queryParts.push(`${encodeURIComponent(item.name)}=${encodeURIComponent(value)}`);
        break;
      }
      case 'data':
      case 'json':
        dataItems.push(item);
        break;
      case 'file':
        fileItems.push(item);
        break;
      case 'body-file':
        if (bodyFile) throw new DialError('E_USAGE', `only one @file body can be sent (got '${bodyFile.source}' and '${item.source}')`);
        bodyFile = item;
        break;
    }
  }
  if (queryParts.length > 0) {
    const existing = url.search.length > 1 ? `${url.search.slice(1)}&` : '';
    url.search = `?${existing}${queryParts.join('&')}`;
    url = new URL(url.href);
  }

  let mode: BodyMode = options.mode ?? 'json';
  // A file upload only makes sense as multipart (HTTPie needs --form; we switch for you).
  if (fileItems.length > 0 && mode !== 'multipart') {
    if (options.forceJson) throw new DialError('E_USAGE', `file upload '${fileItems[0].source}' cannot be sent as JSON`, { hint: 'drop --json, or send the file as the whole body with @file' });
    mode = 'multipart';
  }
  const hasData = dataItems.length > 0 || fileItems.length > 0;
  if ((bodyFile || options.stdinBody) && hasData) {
    const what = bodyFile ? `@${bodyFile.path}` : 'piped stdin';
    throw new DialError('E_USAGE', `a request body from ${what} cannot be mixed with data fields`, { hint: bodyFile ? 'send either @file or fields' : 'pass --ignore-stdin to send only the fields' });
  }
  if (bodyFile && options.stdinBody) {
    throw new DialError('E_USAGE', `both piped stdin and @${bodyFile.path} give a body`, { hint: 'pass --ignore-stdin to send the file' });
  }

  let body: RequestBody = { kind: 'none' };
  let contentType: string | undefined;
  if (bodyFile) {
    const path = resolve(options.cwd, bodyFile.path);
    checkFile(path, bodyFile.source);
    body = { kind: 'file', path };
    contentType = options.forceJson ? 'application/json' : mode === 'form' ? 'application/x-www-form-urlencoded; charset=utf-8' : guessContentType(path);
  } else if (options.stdinBody) {
    if (mode === 'multipart') throw new DialError('E_USAGE', 'piped stdin cannot be sent as multipart', { hint: 'pass --ignore-stdin, or upload a file with field@path' });
    body = options.stdinBody;
    contentType = mode === 'form' ? 'application/x-www-form-urlencoded; charset=utf-8' : 'application/json';
  } else if (hasData) {
    if (mode === 'json') {
      body = { kind: 'text', text: stringifyJson(buildJson(dataItems, readText)) };
      contentType = 'application/json';
    } else if (mode === 'form') {
      const form = new URLSearchParams();
      for (const item of dataItems) {
        if (item.kind === 'json') throw new DialError('E_USAGE', `raw JSON field '${item.source}' cannot be sent as a form`, { hint: 'drop --form to send JSON, or use field=value' });
        form.append(item.key, item.fromFile ? readText(item, item.value) : item.value);
      }
      body = { kind: 'text', text: form.toString() };
      contentType = 'application/x-www-form-urlencoded; charset=utf-8';
    } else {
      const parts: MultipartPart[] = [];
      for (const item of dataItems) {
        if (item.kind === 'json') throw new DialError('E_USAGE', `raw JSON field '${item.source}' cannot be sent as multipart`, { hint: 'use field=value, or drop --multipart' });
        parts.push({ name: item.key, value: item.fromFile ? readText(item, item.value) : item.value });
      }
      for (const item of fileItems) {
        const path = resolve(options.cwd, item.path);
        // Fail now (exit 3) rather than halfway through the upload.
        checkFile(path, item.source);
        parts.push({ name: item.key, filePath: path, filename: basename(path), contentType: item.contentType ?? guessContentType(path) });
      }
      body = { kind: 'multipart', parts };
    }
  }

  const method = options.method ?? (body.kind === 'none' ? 'GET' : 'POST');
  if (!tokenPattern.test(method)) throw new DialError('E_USAGE', `invalid method '${method}'`, { hint: 'a method is a token such as GET, POST or PROPFIND' });

  const jsonish = options.forceJson || (mode === 'json' && hasData) || contentType === 'application/json';
  const defaults: HeaderList = [
    ['User-Agent', options.userAgent],
    ['Accept', jsonish ? jsonAccept : '*/*'],
  ];
  if (contentType) defaults.push(['Content-Type', contentType]);
  const userNames = new Set(userHeaders.map(([name]) => name.toLowerCase()));
  const headers: HeaderList = [...defaults.filter(([name]) => !userNames.has(name.toLowerCase())), ...userHeaders].filter(
    ([name]) => !removed.has(name.toLowerCase()),
  );

  const request: HttpRequest = { method, url: url.href, headers, body };
  if (options.httpVersion) request.httpVersion = options.httpVersion;
  // The engine adds its own defaults (User-Agent, Accept, Accept-Encoding…); ask it not to.
  if (removed.size > 0) request.omitHeaders = [...removed];
  return request;
}

/** Checks a file streamed at send time exists and is readable, without reading it. */
function checkFile(path: string, source: string): void {
  try {
    if (statSync(path).isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    accessSync(path, constants.R_OK);
  } catch (error) {
    throw fileError(error, path, source);
  }
}

function readItemFile(read: (path: string) => Buffer, path: string, source: string): Buffer {
  try {
    return read(path);
  } catch (error) {
    throw fileError(error, path, source);
  }
}

function fileError(error: unknown, path: string, source: string): DialError {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new DialError('E_NOT_FOUND', `'${source}': no such file ${path}`, { cause: error });
  if (code === 'EISDIR') return new DialError('E_INPUT', `'${source}': ${path} is a folder, not a file`, { cause: error });
  return new DialError('E_INPUT', `'${source}': cannot read ${path} (${code ?? String(error)})`, { cause: error });
}

function checkHeaderName(name: string, source: string): void {
  if (!tokenPattern.test(name)) {
    throw new DialError('E_USAGE', `'${source}': '${name}' is not a valid header name`, { hint: 'header names are tokens: letters, digits and !#$%&\'*+-.^_`|~' });
  }
}

function checkHeaderValue(value: string, source: string): void {
  if (/[\r\n\0]/.test(value)) throw new DialError('E_HEADER_INJECTION', `'${source}': header values cannot contain line breaks`);
}

/** Builds the JSON body from data fields, nesting `a[b][0]` keys (HTTPie 3 nested JSON). */
export function buildJson(
  items: Array<Extract<RequestItem, { kind: 'data' | 'json' }>>,
  readText: (item: RequestItem, path: string) => string = (_item, path) => readFileSync(path, 'utf8'),
): JsonNode {
  let root: JsonNode | undefined;
  for (const item of items) {
    let value: JsonNode;
    if (item.kind === 'data') value = jsonString(item.fromFile ? readText(item, item.value) : item.value);
    else {
      const text = item.fromFile ? readText(item, item.value) : item.value;
      try {
        value = parseJson(text);
      } catch (error) {
        if (!(error instanceof JsonSyntaxError)) throw error;
        // An item is a command-line argument (exit 2); a file it names is input (exit 3).
        const where = item.fromFile ? ` in ${item.value}` : '';
        throw new DialError(item.fromFile ? 'E_INPUT' : 'E_USAGE', `'${item.source}': invalid JSON${where}: ${error.message}`, {
          hint: "quote the value for your shell, e.g. 'tags:=[\"a\",\"b\"]'; use field=value for a plain string",
        });
      }
    }
    root = setPath(root, item.path, value, item.source);
  }
  return root ?? { type: 'object', entries: [] };
}

const describe = (node: JsonNode): string => (node.type === 'boolean' ? 'a boolean' : node.type === 'array' || node.type === 'object' ? `an ${node.type}` : `a ${node.type}`);
const containerFor = (segment: KeySegment): JsonNode =>
  segment.kind === 'key' ? { type: 'object', entries: [] } : { type: 'array', items: [] };

function setPath(root: JsonNode | undefined, path: KeySegment[], value: JsonNode, source: string): JsonNode {
  const top = root ?? containerFor(path[0]);
  let cursor: JsonNode = top;
  let walked = '';
  const conflict = (wanted: 'object' | 'array'): never => {
    // Items that disagree about the body's shape are a bad argument (exit 2, docs/cli.md).
    throw new DialError('E_USAGE', `'${source}': ${walked === '' ? 'the body' : `'${walked}'`} is ${describe(cursor)}, so it cannot be used as an ${wanted}`, {
      hint: 'each nested key must agree on whether a level is an object (a[b]) or an array (a[0], a[])',
    });
  };
  for (let i = 0; i < path.length; i++) {
    const segment = path[i];
    const last = i === path.length - 1;
    if (segment.kind === 'key') {
      if (cursor.type !== 'object') return conflict('object');
      const keyRaw = JSON.stringify(segment.name);
      let entry = cursor.entries.find((e) => e.keyRaw === keyRaw);
      if (last) {
        // Last one wins, in the place the key first appeared.
        if (entry) entry.value = value;
        else cursor.entries.push({ keyRaw, value });
        break;
      }
      if (!entry) {
        entry = { keyRaw, value: containerFor(path[i + 1]) };
        cursor.entries.push(entry);
      }
      walked += walked === '' && i === 0 ? segment.name : `[${segment.name}]`;
      cursor = entry.value;
    } else if (segment.kind === 'index') {
      if (cursor.type !== 'array') return conflict('array');
      while (cursor.items.length <= segment.index) cursor.items.push({ type: 'null' });
      if (last) {
        cursor.items[segment.index] = value;
        break;
      }
      if (cursor.items[segment.index].type === 'null') cursor.items[segment.index] = containerFor(path[i + 1]);
      walked += `[${segment.index}]`;
      cursor = cursor.items[segment.index];
    } else {
      if (cursor.type !== 'array') return conflict('array');
      if (last) {
        cursor.items.push(value);
        break;
      }
      const next = containerFor(path[i + 1]);
      cursor.items.push(next);
      walked += `[${cursor.items.length - 1}]`;
      cursor = next;
    }
  }
  return top;
}
