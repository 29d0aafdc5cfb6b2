/**
 * `dial export k6`: the requests of `.http` files as a k6 load-test script, so the files a team
 * already tests with `dial run` also drive a load test on k6 (locally, k6-operator, Grafana
 * Cloud). The script holds the requests as data and a small runtime (k6-runtime.ts) that
 * resolves variables, request references and `??` assertions as dial does; each assertion
 * becomes a k6 check. What k6 cannot do the way dial does is refused here, before any script is
 * written, with the file and line: scripts (unless dropped on purpose), js/xpath/schema/snapshot
 * assertions, JSONPath beyond plain paths, multipart parts read from files, and references to a
 * request that does not run earlier in the script. docs/k6.md lists all of it.
 */
import { COMMAND_KEYS } from '../httpfile/metadata.js';
import { readFile } from 'node:fs/promises';
import { dirname, relative, resolve } from 'node:path';
import type { AssertionNode, HttpFile, RequestNode, Span } from '../httpfile/types.js';
import { DialError, type SourceLocation } from '../errors.js';
import { findPlaceholders } from '../httpfile/placeholders.js';
import { parseReference } from '../vars/references.js';
import { multipartBoundary } from '../httpfile/multipart.js';
import { K6_RUNTIME } from './k6-runtime.js';
import { isWebSocketRequest } from '../http/protocols.js';
import { displayName } from '../request-name.js';
import { parseHttpFile, refuseUnreadableRequests } from '../httpfile/index.js';
import { EnvStore, readsVscodeUserSettings } from '../env/index.js';
import { discoverHttpFiles, findWorkspaceRoot } from '../workspace/index.js';

export interface K6ExportInput {
  files: HttpFile[];
  /** The selected environment's variables that may be written into the script (not secrets). */
  environmentValues: Map<string, string>;
  /** Names whose values must come from `k6 run -e NAME=…` (private env file, `.env`). */
  secretNames: string[];
  environmentName?: string;
  /** The folder the script will be run from: `open()` paths of body files are relative to it. */
  scriptDir: string;
  /** For file labels in messages and the script. */
  cwd: string;
  /** Drop pre-request and response scripts (with a warning each) instead of refusing them. */
  dropScripts: boolean;
}

export interface K6Export {
  script: string;
  /** What was left out on purpose, one line each (file:line: what). */
  warnings: string[];
}

interface K6Assertion {
  source: string;
  line: number;
  query: 'status' | 'header' | 'body' | 'duration';
  argument?: string;
  not: boolean;
  predicate: string;
  expected?: string;
  lengthOperator?: string;
}

interface K6Request {
  name?: string;
  label: string;
  line: number;
  method: string;
  url: string;
  headers: Array<[string, string]>;
  body?: { kind: 'text'; text: string } | { kind: 'file'; path: string; substitute: boolean };
  fileVariables: Record<string, string>;
  assertions: K6Assertion[];
  tags: string[];
  timeout?: string;
  noRedirect: boolean;
  noCookieJar: boolean;
}

const SUPPORTED_DYNAMIC =
  /^\$(uuid|guid|random\.uuid|timestamp|isoTimestamp|random\.email|randomInt(\s+-?\d+\s+-?\d+)?|datetime\s+(iso8601|rfc1123)|processEnv\s+\S+|dotenv\s+\S+|env\.\S+|random\.(integer|float|alphabetic|alphanumeric|hexadecimal)\([^)]*\))$/;
/** The JSONPath the script's runtime follows: `$`, `.key`, `[0]`, `['key']`. */
const PLAIN_JSON_PATH = /^\$(\.[^.[\]]+|\[\d+\]|\['[^']*'\]|\["[^"]*"\])*$/;
const TRANSLATED_QUERIES = new Set(['status', 'header', 'body', 'duration']);

class Refusals {
  constructor(
    readonly file: HttpFile,
    readonly label: string,
  ) {}

  location(span: Span): SourceLocation {
    return { file: this.label, line: span.line, excerpt: this.file.text.split(/\r?\n/, span.line)[span.line - 1] };
  }

  refuse(span: Span, message: string, hint: string): never {
    throw new DialError('E_INPUT', `cannot export to k6: ${message}`, { location: this.location(span), hint });
  }
}

function checkTemplate(
  text: string,
  span: Span,
  refusals: Refusals,
  earlier: Set<string>,
  allNames: Set<string>,
): void {
  for (const { expression } of findPlaceholders(text)) {
    if (expression.startsWith('$')) {
      if (!SUPPORTED_DYNAMIC.test(expression)) {
        refusals.refuse(
          span,
          `{{${expression}}} has no k6 equivalent in dial's export`,
          'k6 scripts support $uuid, $timestamp, $isoTimestamp, $datetime iso8601|rfc1123 (no offset), $randomInt, $random.*, $processEnv and $dotenv (read from k6 -e)',
        );
      }
      continue;
    }
    const reference = parseReference(expression);
    if (!reference || !allNames.has(reference.name)) continue;
    if (!earlier.has(reference.name)) {
      refusals.refuse(
        span,
        `{{${expression}}} refers to '${reference.name}', which does not run before this request`,
        'a k6 script runs the requests in file order: move the referenced request first',
      );
    }
    if (reference.section === 'body' && reference.path !== '*' && !PLAIN_JSON_PATH.test(reference.path)) {
      refusals.refuse(
        span,
        `the JSONPath ${reference.path} in {{${expression}}} is not a plain path`,
        "k6 scripts follow plain paths only: $.a.b[0] or $['key']",
      );
    }
  }
}

function translateAssertion(assertion: AssertionNode, refusals: Refusals): K6Assertion {
  if (
    !TRANSLATED_QUERIES.has(assertion.query) ||
    assertion.predicate === 'schema' ||
    assertion.predicate === 'snapshot'
  ) {
    const what =
      assertion.predicate === 'schema' || assertion.predicate === 'snapshot'
        ? `body ${assertion.predicate}`
        : assertion.query;
    refusals.refuse(
      assertion.span,
      `'?? ${assertion.source}': ${what} assertions are not translated`,
      'k6 checks are made from status, header, body (plain JSONPath) and duration assertions; remove this one or keep it for dial run',
    );
  }
  if (assertion.query === 'body' && assertion.argument !== undefined && !PLAIN_JSON_PATH.test(assertion.argument)) {
    refusals.refuse(
      assertion.span,
      `'?? ${assertion.source}': the JSONPath ${assertion.argument} is not a plain path`,
      'k6 checks follow plain paths only: $.a.b[0]',
    );
  }
  return {
    source: assertion.source,
    line: assertion.span.line,
    query: assertion.query as K6Assertion['query'],
    ...(assertion.argument !== undefined && { argument: assertion.argument }),
    not: assertion.not,
    predicate: assertion.predicate,
    ...(assertion.expected !== undefined && { expected: assertion.expected }),
    ...(assertion.lengthOperator && { lengthOperator: assertion.lengthOperator }),
  };
}

function translateBody(
  node: RequestNode,
  refusals: Refusals,
  input: K6ExportInput,
  bodyFiles: Map<string, string>,
): K6Request['body'] {
  const body = node.body;
  if (!body) return undefined;
  if (body.kind === 'file') {
    const absolute = resolve(refusals.file.path ? dirname(refusals.file.path) : input.cwd, body.path);
    const key = relative(input.scriptDir, absolute).split('\\').join('/') || absolute;
    bodyFiles.set(key, body.substitute ? 'text' : 'binary');
    return { kind: 'file', path: key, substitute: body.substitute };
  }
  const contentType = node.headers.find((header) => header.name.toLowerCase() === 'content-type')?.value;
  const boundary = multipartBoundary(contentType);
  if (boundary && /^<\s*\S/m.test(body.text)) {
    refusals.refuse(
      body.span,
      'a multipart part read from a file (`< path`) is not translated',
      'write the part inline, or keep this request for dial run',
    );
  }
  return { kind: 'text', text: body.text };
}

/** The request's headers; a GraphQL request (sent as a JSON POST) gets its Content-Type as dial sends it. */
function k6Headers(node: RequestNode): Array<[string, string]> {
  const headers: Array<[string, string]> = node.headers.map((header) => [header.name, header.value]);
  if (node.graphql && !headers.some(([name]) => name.toLowerCase() === 'content-type'))
    headers.push(['Content-Type', 'application/json']);
  return headers;
}

/** Server-sent events and GraphQL fragment files (`< ./f.graphql`, read when dial prepares the request) have no k6 form. */
function refuseProtocols(node: RequestNode, refusals: Refusals): void {
  if (node.method === 'SSE') {
    refusals.refuse(
      node.requestLineSpan,
      `'${displayName(node)}' reads server-sent events, which are not translated to k6`,
      'k6 reads whole responses; keep this request for dial run',
    );
  }
  const body = node.body;
  if (node.graphql && body && (body.kind === 'file' || /(?:^|\\n)[ \t]*<[ \t]+\S/.test(body.text))) {
    refusals.refuse(
      body.span,
      `'${displayName(node)}' reads its GraphQL query or fragments from a file, which is not translated to k6`,
      'write the query and its fragments inline, or keep this request for dial run',
    );
  }
}

function noteWhatIsLeftOut(node: RequestNode, refusals: Refusals, input: K6ExportInput, warnings: string[]): void {
  refuseProtocols(node, refusals);
  // kulala's `# @env-stdin-cmd`: k6 runs no shell commands.
  const command = node.metadata.find((meta) => COMMAND_KEYS.has(meta.key));
  if (command)
    refusals.refuse(
      command.span,
      `'${displayName(node)}' runs a shell command (\`# @${command.key}\`), which k6 cannot do`,
      'run the command before k6 and pass its output with `k6 run -e NAME=…`, or keep this request for dial run',
    );
  const at = (span: Span) => `${refusals.location(span).file}:${span.line}`;
  const scripts = [...node.preScripts, ...node.handlers];
  if (scripts.length > 0) {
    if (!input.dropScripts) {
      refusals.refuse(
        scripts[0].span,
        `request '${displayName(node)}' has a script, and scripts are not translated to k6`,
        'remove the script, or export with --drop-scripts to leave every script out (each is listed on stderr)',
      );
    }
    for (const script of scripts)
      warnings.push(`${at(script.span)}: script of '${displayName(node)}' left out (--drop-scripts)`);
  }
  if (node.retry)
    warnings.push(
      `${at(node.requestLineSpan)}: @retry of '${displayName(node)}' left out (k6 counts every attempt; use k6 thresholds)`,
    );
  if (node.outputRedirect)
    warnings.push(
      `${at(node.outputRedirect.span)}: '>> ${node.outputRedirect.path}' of '${displayName(node)}' left out (k6 does not write response files)`,
    );
}

function translateRequest(
  node: RequestNode,
  file: HttpFile,
  refusals: Refusals,
  input: K6ExportInput,
  context: { earlier: Set<string>; allNames: Set<string>; warnings: string[]; bodyFiles: Map<string, string> },
): K6Request {
  // A WebSocket conversation (or a GraphQL subscription over one) has no k6 http form.
  if (isWebSocketRequest(node))
    refusals.refuse(
      node.requestLineSpan,
      `'${displayName(node)}' is a WebSocket request, which is not translated to k6`,
      'keep this request for dial run',
    );
  // k6/http would send `GRPC` as an HTTP method to a URL without a scheme: silently wrong.
  if (node.method === 'GRPC')
    refusals.refuse(
      node.requestLineSpan,
      `'${displayName(node)}' is a gRPC request, which is not translated to k6`,
      "keep this request for dial run (k6's own k6/net/grpc module can call it)",
    );
  noteWhatIsLeftOut(node, refusals, input, context.warnings);
  const fileVariables: Record<string, string> = {};
  for (const variable of file.variables) {
    if (variable.span.start >= node.requestLineSpan.start) continue;
    checkTemplate(variable.value, variable.span, refusals, context.earlier, context.allNames);
    fileVariables[variable.name] = variable.value;
  }
  checkTemplate(node.url, node.requestLineSpan, refusals, context.earlier, context.allNames);
  for (const header of node.headers)
    checkTemplate(header.value, header.span, refusals, context.earlier, context.allNames);
  const body = translateBody(node, refusals, input, context.bodyFiles);
  if (body?.kind === 'text' && node.body)
    checkTemplate(body.text, node.body.span, refusals, context.earlier, context.allNames);
  const assertions = node.assertions.map((assertion) => {
    if (assertion.expected !== undefined)
      checkTemplate(assertion.expected, assertion.span, refusals, context.earlier, context.allNames);
    return translateAssertion(assertion, refusals);
  });
  return {
    ...(node.name && { name: node.name }),
    label: displayName(node),
    line: node.requestLineSpan.line,
    method: node.method === 'GRAPHQL' ? 'POST' : node.method,
    url: node.url,
    headers: k6Headers(node),
    ...(body && { body }),
    fileVariables,
    assertions,
    tags: node.tags,
    ...(node.timeoutMs !== undefined && { timeout: `${node.timeoutMs}ms` }),
    noRedirect: node.noRedirect,
    noCookieJar: node.noCookieJar,
  };
}

function scriptText(
  input: K6ExportInput,
  files: Array<{ path: string; requests: K6Request[] }>,
  bodyFiles: Map<string, string>,
): string {
  const sources = input.files.map((file) => relative(input.cwd, file.path) || file.path).join(', ');
  const environment = {
    name: input.environmentName ?? null,
    values: Object.fromEntries([...input.environmentValues].filter(([name]) => !input.secretNames.includes(name))),
    secrets: input.secretNames,
  };
  const openCalls = [...bodyFiles].map(
    ([path, mode]) => `  ${JSON.stringify(path)}: open(${JSON.stringify(path)}${mode === 'binary' ? ", 'b'" : ''}),`,
  );
  return [
    `// Written by \`dial export k6\` from ${sources}${input.environmentName ? ` (environment '${input.environmentName}')` : ''}.`,
    '// Change the .http files and export again rather than editing this script.',
    '//',
    '// Run:  k6 run --include-system-env-vars=false -e NAME=value … this-script.js',
    '// -e NAME=value sets a variable, as `dial run --var` does; secrets (private env file, .env) are',
    '// never written here and must be given so. Without --include-system-env-vars=false, a shell',
    '// variable with the name of a .http variable would override it. Load options (--vus,',
    "// --duration, --iterations) are k6's own. Each `??` assertion is a k6 check.",
    "import http from 'k6/http';",
    "import { check } from 'k6';",
    '',
    `const ENVIRONMENT = ${JSON.stringify(environment, null, 2)};`,
    '',
    `const BODY_FILES = {${openCalls.length ? `\n${openCalls.join('\n')}\n` : ''}};`,
    '',
    `const FILES = ${JSON.stringify(files, null, 2)};`,
    K6_RUNTIME,
    'export default function () {',
    '  runIteration();',
    '}',
    '',
  ].join('\n');
}

/** Translates parsed `.http` files into one k6 script; throws E_INPUT (file:line) on what k6 cannot do as dial does. */
export function exportK6(input: K6ExportInput): K6Export {
  const warnings: string[] = [];
  const bodyFiles = new Map<string, string>();
  const allNames = new Set(
    input.files.flatMap((file) => file.requests.flatMap((node) => (node.name ? [node.name] : []))),
  );
  const earlier = new Set<string>();
  const files = input.files.map((file) => {
    const label = relative(input.cwd, file.path) || file.path;
    const refusals = new Refusals(file, label);
    const requests: K6Request[] = [];
    for (const node of file.requests) {
      if (node.skip) {
        warnings.push(`${label}:${node.requestLineSpan.line}: '${displayName(node)}' is @skip, left out`);
        continue;
      }
      requests.push(translateRequest(node, file, refusals, input, { earlier, allNames, warnings, bodyFiles }));
      if (node.name) earlier.add(node.name);
    }
    return { path: label, requests };
  });
  return { script: scriptText(input, files, bodyFiles), warnings };
}

export interface K6ExportRequest {
  paths: string[];
  cwd: string;
  environment?: string;
  /** Where the script is written (undefined: stdout, so body files are opened relative to cwd). */
  output?: string;
  dropScripts: boolean;
}

/** Reads the `.http` files under `paths` and the selected environment, and exports them as one k6 script. */
export async function buildK6Export(request: K6ExportRequest): Promise<K6Export> {
  const root = findWorkspaceRoot(request.cwd);
  const paths = await discoverHttpFiles(
    root,
    request.paths.map((path) => resolve(request.cwd, path)),
  );
  if (paths.length === 0)
    throw new DialError('E_NOT_FOUND', `no .http files in ${request.paths.join(', ')}`, {
      hint: 'name .http files or folders that hold them',
    });
  const files = await Promise.all(
    paths.map(async (path) => refuseUnreadableRequests(parseHttpFile(await readFile(path, 'utf8'), path))),
  );
  const store = new EnvStore(root);
  const environment = await store.resolve(dirname(paths[0]), request.environment, {
    vscodeUser: files.some(readsVscodeUserSettings),
  });
  const dotenv = await store.dotenv();
  const secretNames = [...new Set([...environment.secretNames, ...(dotenv ? dotenv.values.keys() : [])])].sort();
  return exportK6({
    files,
    environmentValues: environment.values,
    secretNames,
    environmentName: request.environment,
    scriptDir: request.output ? dirname(resolve(request.cwd, request.output)) : request.cwd,
    cwd: request.cwd,
    dropScripts: request.dropScripts,
  });
}
