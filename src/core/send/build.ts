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

type DataItem = Extract<RequestItem, { kind: 'data' | 'json' }>;
type FileItem = Extract<RequestItem, { kind: 'file' }>;
type BodyFileItem = Extract<RequestItem, { kind: 'body-file' }>;
type ReadItemText = (item: RequestItem, path: string) => string;

/** The items sorted by where they go: headers (set or removed), query pairs, body fields, files. */
interface SortedItems {
  userHeaders: HeaderList;
  removed: Set<string>;
  queryParts: string[];
  dataItems: DataItem[];
  fileItems: FileItem[];
  bodyFile?: BodyFileItem;
}

/** Sorts the items, checking header names and values and reading `:@` / `==@` files now. */
function sortItems(items: RequestItem[], readText: ReadItemText): SortedItems {
  const sorted: SortedItems = { userHeaders: [], removed: new Set(), queryParts: [], dataItems: [], fileItems: [] };
  for (const item of items) {
    switch (item.kind) {
      case 'header': {
        checkHeaderName(item.name, item.source);
        const value = item.fromFile ? readText(item, item.value).replace(/\r?\n$/, '') : item.value;
        checkHeaderValue(value, item.source);
        sorted.userHeaders.push([item.name, value]);
        break;
      }
      case 'header-empty':
        checkHeaderName(item.name, item.source);
        sorted.userHeaders.push([item.name, '']);
        break;
      case 'header-remove':
        checkHeaderName(item.name, item.source);
        sorted.removed.add(item.name.toLowerCase());
        break;
      case 'query': {
        const value = item.fromFile ? readText(item, item.value) : item.value;
        sorted.queryParts.push(`${encodeURIComponent(item.name)}=${encodeURIComponent(value)}`);
        break;
      }
      case 'data':
      case 'json':
        sorted.dataItems.push(item);
        break;
      case 'file':
        sorted.fileItems.push(item);
        break;
      case 'body-file':
        if (sorted.bodyFile)
          throw new DialError(
            'E_USAGE',
            `only one @file body can be sent (got '${sorted.bodyFile.source}' and '${item.source}')`,
          );
        sorted.bodyFile = item;
        break;
    }
  }
  return sorted;
}

/** The URL with the `name==value` pairs appended to its query. */
function urlWithQuery(url: URL, queryParts: string[]): URL {
  if (queryParts.length === 0) return url;
  const existing = url.search.length > 1 ? `${url.search.slice(1)}&` : '';
  url.search = `?${existing}${queryParts.join('&')}`;
  return new URL(url.href);
}

/** The body mode: the one asked for, switched to multipart by a file upload; refuses bodies from two sources. */
function bodyModeFor(options: BuildRequestOptions, sorted: SortedItems): BodyMode {
  const { fileItems, bodyFile } = sorted;
  let mode: BodyMode = options.mode ?? 'json';
  // A file upload only makes sense as multipart (HTTPie needs --form; we switch for you).
  if (fileItems.length > 0 && mode !== 'multipart') {
    if (options.forceJson)
      throw new DialError('E_USAGE', `file upload '${fileItems[0].source}' cannot be sent as JSON`, {
        hint: 'drop --json, or send the file as the whole body with @file',
      });
    mode = 'multipart';
  }
  const hasData = sorted.dataItems.length > 0 || fileItems.length > 0;
  if ((bodyFile || options.stdinBody) && hasData) {
    const what = bodyFile ? `@${bodyFile.path}` : 'piped stdin';
    throw new DialError('E_USAGE', `a request body from ${what} cannot be mixed with data fields`, {
      hint: bodyFile ? 'send either @file or fields' : 'pass --ignore-stdin to send only the fields',
    });
  }
  if (bodyFile && options.stdinBody) {
    throw new DialError('E_USAGE', `both piped stdin and @${bodyFile.path} give a body`, {
      hint: 'pass --ignore-stdin to send the file',
    });
  }
  return mode;
}

interface BuiltBody {
  body: RequestBody;
  contentType?: string;
}

const FORM_TYPE = 'application/x-www-form-urlencoded; charset=utf-8';

/** The body the data fields and file uploads make in the given mode. */
function fieldsBody(mode: BodyMode, sorted: SortedItems, cwd: string, readText: ReadItemText): BuiltBody {
  const { dataItems, fileItems } = sorted;
  switch (mode) {
    case 'json':
      return {
        body: { kind: 'text', text: stringifyJson(buildJson(dataItems, readText)) },
        contentType: 'application/json',
      };
    case 'form': {
      const form = new URLSearchParams();
      for (const item of dataItems) {
        if (item.kind === 'json')
          throw new DialError('E_USAGE', `raw JSON field '${item.source}' cannot be sent as a form`, {
            hint: 'drop --form to send JSON, or use field=value',
          });
        form.append(item.key, item.fromFile ? readText(item, item.value) : item.value);
      }
      return { body: { kind: 'text', text: form.toString() }, contentType: FORM_TYPE };
    }
    case 'multipart': {
      const parts: MultipartPart[] = [];
      for (const item of dataItems) {
        if (item.kind === 'json')
          throw new DialError('E_USAGE', `raw JSON field '${item.source}' cannot be sent as multipart`, {
            hint: 'use field=value, or drop --multipart',
          });
        parts.push({ name: item.key, value: item.fromFile ? readText(item, item.value) : item.value });
      }
      for (const item of fileItems) {
        const path = resolve(cwd, item.path);
        // Fail now (exit 3) rather than halfway through the upload.
        checkFile(path, item.source);
        parts.push({
          name: item.key,
          filePath: path,
          filename: basename(path),
          contentType: item.contentType ?? guessContentType(path),
        });
      }
      return { body: { kind: 'multipart', parts }, contentType: undefined };
    }
  }
}

/** The body and its Content-Type: from @file, else piped stdin, else the fields, else none. */
function requestBody(
  options: BuildRequestOptions,
  mode: BodyMode,
  sorted: SortedItems,
  readText: ReadItemText,
): BuiltBody {
  const { bodyFile } = sorted;
  if (bodyFile) {
    const path = resolve(options.cwd, bodyFile.path);
    checkFile(path, bodyFile.source);
    const contentType = options.forceJson ? 'application/json' : mode === 'form' ? FORM_TYPE : guessContentType(path);
    return { body: { kind: 'file', path }, contentType };
  }
  if (options.stdinBody) {
    if (mode === 'multipart')
      throw new DialError('E_USAGE', 'piped stdin cannot be sent as multipart', {
        hint: 'pass --ignore-stdin, or upload a file with field@path',
      });
    return { body: options.stdinBody, contentType: mode === 'form' ? FORM_TYPE : 'application/json' };
  }
  if (sorted.dataItems.length > 0 || sorted.fileItems.length > 0)
    return fieldsBody(mode, sorted, options.cwd, readText);
  return { body: { kind: 'none' } };
}

/** dial's default headers, replaced by user headers of the same name and dropped by `Name:` items. */
function requestHeaders(
  options: BuildRequestOptions,
  sorted: SortedItems,
  jsonish: boolean,
  contentType: string | undefined,
): HeaderList {
  const { userHeaders, removed } = sorted;
  const defaults: HeaderList = [
    ['User-Agent', options.userAgent],
    ['Accept', jsonish ? jsonAccept : '*/*'],
  ];
  if (contentType) defaults.push(['Content-Type', contentType]);
  const userNames = new Set(userHeaders.map(([name]) => name.toLowerCase()));
  return [...defaults.filter(([name]) => !userNames.has(name.toLowerCase())), ...userHeaders].filter(
    ([name]) => !removed.has(name.toLowerCase()),
  );
}

/** Builds the request an item list describes; throws DialErrors for bad items or unreadable files. */
export function buildRequest(options: BuildRequestOptions): HttpRequest {
  const read = options.readFile ?? ((path: string) => readFileSync(path));
  const readText: ReadItemText = (item, path) =>
    readItemFile(read, resolve(options.cwd, path), item.source).toString('utf8');
  const base = new URL(options.url);
  const sorted = sortItems(options.items, readText);
  const url = urlWithQuery(base, sorted.queryParts);
  const mode = bodyModeFor(options, sorted);
  const { body, contentType } = requestBody(options, mode, sorted, readText);

  const method = options.method ?? (body.kind === 'none' ? 'GET' : 'POST');
  if (!tokenPattern.test(method))
    throw new DialError('E_USAGE', `invalid method '${method}'`, {
      hint: 'a method is a token such as GET, POST or PROPFIND',
    });
  const hasData = sorted.dataItems.length > 0 || sorted.fileItems.length > 0;
  const jsonish = Boolean(options.forceJson) || (mode === 'json' && hasData) || contentType === 'application/json';
  const headers = requestHeaders(options, sorted, jsonish, contentType);

  const request: HttpRequest = { method, url: url.href, headers, body };
  if (options.httpVersion) request.httpVersion = options.httpVersion;
  // The engine adds its own defaults (User-Agent, Accept, Accept-Encoding…); ask it not to.
  if (sorted.removed.size > 0) request.omitHeaders = [...sorted.removed];
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
  if (code === 'EISDIR')
    return new DialError('E_INPUT', `'${source}': ${path} is a folder, not a file`, { cause: error });
  return new DialError('E_INPUT', `'${source}': cannot read ${path} (${code ?? String(error)})`, { cause: error });
}

function checkHeaderName(name: string, source: string): void {
  if (!tokenPattern.test(name)) {
    throw new DialError('E_USAGE', `'${source}': '${name}' is not a valid header name`, {
      hint: "header names are tokens: letters, digits and !#$%&'*+-.^_`|~",
    });
  }
}

function checkHeaderValue(value: string, source: string): void {
  if (/[\r\n\0]/.test(value))
    throw new DialError('E_HEADER_INJECTION', `'${source}': header values cannot contain line breaks`);
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
        throw new DialError(
          item.fromFile ? 'E_INPUT' : 'E_USAGE',
          `'${item.source}': invalid JSON${where}: ${error.message}`,
          {
            hint: 'quote the value for your shell, e.g. \'tags:=["a","b"]\'; use field=value for a plain string',
          },
        );
      }
    }
    root = setPath(root, item.path, value, item.source);
  }
  return root ?? { type: 'object', entries: [] };
}

const describe = (node: JsonNode): string =>
  node.type === 'boolean'
    ? 'a boolean'
    : node.type === 'array' || node.type === 'object'
      ? `an ${node.type}`
      : `a ${node.type}`;
const containerFor = (segment: KeySegment): JsonNode =>
  segment.kind === 'key' ? { type: 'object', entries: [] } : { type: 'array', items: [] };

function setPath(root: JsonNode | undefined, path: KeySegment[], value: JsonNode, source: string): JsonNode {
  const top = root ?? containerFor(path[0]);
  let cursor: JsonNode = top;
  let walked = '';
  const conflict = (wanted: 'object' | 'array'): never => {
    // Items that disagree about the body's shape are a bad argument (exit 2, docs/cli.md).
    throw new DialError(
      'E_USAGE',
      `'${source}': ${walked === '' ? 'the body' : `'${walked}'`} is ${describe(cursor)}, so it cannot be used as an ${wanted}`,
      {
        hint: 'each nested key must agree on whether a level is an object (a[b]) or an array (a[0], a[])',
      },
    );
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
