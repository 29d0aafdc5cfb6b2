/**
 * The compatibility harness: runs each public `.http` file of tests/compat/manifest.json through
 * the built CLI (`dial run`) against a recording server on 127.0.0.1:0 and compares what arrived
 * with what the file's own tool sends (method, path + query, listed headers, body), or checks that
 * dial refused the file at the expected line before sending anything (or, for a request the tool
 * fails too, refused that one at its line and sent the others).
 *
 * Host rewriting (documented in tests/compat/README.md): every origin listed in a case's `rewrite`
 * is replaced in the copied text by the recording server's origin (lines do not move, so refusal
 * lines stay valid), and `vars` are passed as `--var name=value` with `$ORIGIN` replaced likewise
 * (`$HOSTPORT` and `$PORT` by the recorder's host:port and port).
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';

export const COMPAT_DIR = resolve(import.meta.dirname);
const DIAL_BIN = resolve(COMPAT_DIR, '../../bin/dial.js');

export interface ExpectedRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  /** Header values that must match (names case-insensitive). */
  headers?: Record<string, string>;
  /**
   * Header values that must match a regular expression (names case-insensitive): for values that
   * change with each send, such as an AWS Signature v4 Authorization (its date and signature).
   */
  headerPatterns?: Record<string, string>;
  /** Exact body text ('' for none). */
  body?: string;
  /** Body compared as JSON. */
  json?: unknown;
}

export interface CompatCase {
  id: string;
  source: string;
  /** Path of the file in its origin repository, and the commit it was taken from. */
  origin: { path: string; commit: string; repo?: string };
  /** The case's file under tests/compat/cases/ (its folder is copied whole: env files, bodies). */
  file: string;
  /**
   * A folder under tests/compat/cases/ above the file's, copied whole instead, for a file that reads
   * files in folders beside its own (`< ../../requests/demo.png`): the repository's layout kept.
   */
  stage?: string;
  /** Origins (`https://api.example.com`) replaced by the recording server's origin in the staged files. */
  rewrite?: string[];
  /** Bare host names (`example.com`, in Host headers) replaced by the recording server's host:port. */
  hostRewrite?: string[];
  vars?: Record<string, string>;
  /** Process environment variables the case needs (REST Client's `{{$processEnv NAME}}`). */
  env?: Record<string, string>;
  args?: string[];
  /** Canned answers by `METHOD /path` (or `/path`): status and JSON body. */
  responses?: Record<
    string,
    { status?: number; json?: unknown; text?: string; headers?: Record<string, string | string[]> }
  >;
  expect?: ExpectedRequest[];
  /**
   * Where dial refuses: the whole file, before anything is sent; or, with `expect`, one request the
   * file's tool fails too (RequestNode.refused), while the `expect`ed others are sent (exit 3).
   */
  refused?: { line: number; contains: string };
  /** Set when dial is known not to match the tool yet (counted in the rate, not failed in `npm test`): why. */
  knownGap?: string;
  /** Why the file's own tool behaves as `expect` says (read from its parser), for reviewers. */
  note?: string;
}

export interface CompatSource {
  repo: string;
  license: string;
  title: string;
}

export interface Manifest {
  sources: Record<string, CompatSource>;
  cases: CompatCase[];
}

/**
 * correct: sent what the tool sends; refused-as-expected: refused where the tool refuses too;
 * refused-known-gap: refused at the right line before sending, where the tool would send (safe, not correct);
 * error: failed otherwise; silently-wrong: exit 0/1 after sending something else.
 */
export type Verdict =
  'correct' | 'refused-as-expected' | 'refused-known-gap' | 'error' | 'silently-wrong' | 'refused-wrongly';

export interface CaseResult {
  id: string;
  source: string;
  verdict: Verdict;
  detail: string;
}

interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export function loadManifest(): Manifest {
  return JSON.parse(readFileSync(join(COMPAT_DIR, 'manifest.json'), 'utf8')) as Manifest;
}

async function startRecorder(
  compatCase: CompatCase,
): Promise<{ origin: string; recorded: Recorded[]; close: () => Promise<void> }> {
  const recorded: Recorded[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers))
        headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
      recorded.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const path = (req.url ?? '').split('?')[0];
      const canned = compatCase.responses?.[`${req.method} ${path}`] ?? compatCase.responses?.[path];
      res.writeHead(canned?.status ?? 200, { 'content-type': 'application/json', ...canned?.headers });
      res.end(canned?.text ?? JSON.stringify(canned?.json ?? {}));
    });
  });
  // CONNECT never reaches the request handler: Node hands it over as a tunnel.
  server.on('connect', (req: IncomingMessage, socket: import('node:stream').Duplex) => {
    recorded.push({ method: 'CONNECT', url: req.url ?? '', headers: {}, body: '' });
    socket.end('HTTP/1.1 200 Connection Established\r\n\r\n');
  });
  // Methods node's parser does not know (CHECKIN, VERSION-CONTROL, MKWORKSPACE…) arrive as a
  // client error with the raw bytes: the request line is recorded from them.
  server.on('clientError', (error: Error & { rawPacket?: Buffer }, socket: import('node:stream').Duplex) => {
    const line = /^([A-Z][A-Z-]*) (\S+) HTTP\/1\.1\r\n/.exec(error.rawPacket?.toString('latin1') ?? '');
    if (line) recorded.push({ method: line[1], url: line[2], headers: {}, body: '' });
    socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    recorded,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

function runDial(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [DIAL_BIN, ...args], {
      cwd,
      env: {
        ...process.env,
        DIAL_CONFIG_DIR: join(cwd, '.dial-config'),
        NO_COLOR: '1',
        CI: undefined,
        FORCE_COLOR: undefined,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stderr, stdout });
    });
  });
}

function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(?:http|rest|json|env|js)$|^\.env$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Copies the case's folder to a fresh workspace with the origins rewritten; returns the file's path there. */
function stageWorkspace(compatCase: CompatCase, origin: string): string {
  const workspace = mkdtempSync(join(tmpdir(), 'dial-compat-'));
  mkdirSync(join(workspace, '.git'));
  const caseDir = join(COMPAT_DIR, 'cases', compatCase.stage ?? dirname(compatCase.file));
  cpSync(caseDir, workspace, { recursive: true });
  const target = join(workspace, relative(caseDir, join(COMPAT_DIR, 'cases', compatCase.file)));
  for (const path of textFiles(workspace)) {
    let text = readFileSync(path, 'utf8');
    for (const from of compatCase.rewrite ?? []) text = text.split(from).join(origin);
    for (const from of compatCase.hostRewrite ?? []) text = text.split(from).join(origin.slice('http://'.length));
    writeFileSync(path, text);
  }
  return target;
}

function compareRequest(expected: ExpectedRequest, got: Recorded | undefined, index: number): string | undefined {
  if (!got) return `request ${index + 1} (${expected.method} ${expected.url}) was not sent`;
  if (got.method !== expected.method || got.url !== expected.url)
    return `request ${index + 1}: sent ${got.method} ${got.url}, expected ${expected.method} ${expected.url}`;
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    if (got.headers[name.toLowerCase()] !== value)
      return `request ${index + 1}: header ${name} is ${JSON.stringify(got.headers[name.toLowerCase()])}, expected ${JSON.stringify(value)}`;
  }
  for (const [name, pattern] of Object.entries(expected.headerPatterns ?? {})) {
    const value = got.headers[name.toLowerCase()];
    if (value === undefined || !new RegExp(pattern).test(value))
      return `request ${index + 1}: header ${name} is ${JSON.stringify(value)}, expected to match /${pattern}/`;
  }
  if (expected.body !== undefined && got.body !== expected.body)
    return `request ${index + 1}: body ${JSON.stringify(got.body)}, expected ${JSON.stringify(expected.body)}`;
  if (expected.json !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(got.body);
    } catch {
      return `request ${index + 1}: body is not JSON: ${JSON.stringify(got.body)}`;
    }
    if (JSON.stringify(parsed) !== JSON.stringify(expected.json))
      return `request ${index + 1}: JSON body ${JSON.stringify(parsed)}, expected ${JSON.stringify(expected.json)}`;
  }
  return undefined;
}

function withOrigin(expected: ExpectedRequest, origin: string): ExpectedRequest {
  const fill = (text: string): string =>
    text.split('$ORIGIN').join(origin).split('$HOSTPORT').join(origin.slice('http://'.length));
  return {
    ...expected,
    url: fill(expected.url),
    ...(expected.headers
      ? { headers: Object.fromEntries(Object.entries(expected.headers).map(([k, v]) => [k, fill(v)])) }
      : {}),
    ...(expected.body !== undefined ? { body: fill(expected.body) } : {}),
  };
}

/** The first way the recorded requests differ from the expected ones, in order; undefined if none. */
function firstDifference(expected: ExpectedRequest[], recorded: Recorded[]): string | undefined {
  for (let index = 0; index < Math.max(expected.length, recorded.length); index++) {
    const problem =
      index < expected.length
        ? compareRequest(expected[index], recorded[index], index)
        : `an extra request was sent: ${recorded[index].method} ${recorded[index].url}`;
    if (problem) return problem;
  }
  return undefined;
}

function judge(
  compatCase: CompatCase,
  file: string,
  run: { code: number | null; stderr: string; stdout?: string },
  recorded: Recorded[],
  origin: string,
): Omit<CaseResult, 'id' | 'source'> {
  const name = file.slice(file.lastIndexOf('/') + 1);
  if (compatCase.refused && compatCase.expect) {
    // One request refused at its line (the tool fails it too), the others sent as expected.
    const at = `${name}:${compatCase.refused.line}`;
    // The run's report (stdout) names the refused request's line, as its other requests'.
    const report = `${run.stdout ?? ''}${run.stderr}`;
    const refusedThere = run.code === 3 && report.includes(at) && report.includes(compatCase.refused.contains);
    const problem = firstDifference(
      compatCase.expect.map((e) => withOrigin(e, origin)),
      recorded,
    );
    if (problem) return { verdict: refusedThere ? 'error' : 'silently-wrong', detail: `${problem}; exit ${run.code}` };
    if (refusedThere) return { verdict: 'correct', detail: '' };
    return {
      verdict: 'refused-wrongly',
      detail: `expected the request at ${at} refused naming '${compatCase.refused.contains}' (the others sent); exit ${run.code}; ${run.stderr.trim().split('\n')[0]}`,
    };
  }
  if (compatCase.refused) {
    const at = `${name}:${compatCase.refused.line}`;
    if (
      run.code === 3 &&
      recorded.length === 0 &&
      run.stderr.includes(at) &&
      run.stderr.includes(compatCase.refused.contains)
    ) {
      return compatCase.knownGap
        ? { verdict: 'refused-known-gap', detail: compatCase.knownGap }
        : { verdict: 'refused-as-expected', detail: '' };
    }
    return {
      verdict: recorded.length > 0 && run.code !== 3 ? 'silently-wrong' : 'refused-wrongly',
      detail: `expected a refusal at ${at} naming '${compatCase.refused.contains}'; exit ${run.code}, ${recorded.length} sent; ${run.stderr.trim().split('\n')[0]}`,
    };
  }
  const refusedOrFailed = run.code !== 0 && run.code !== 1;
  const problem = firstDifference(
    (compatCase.expect ?? []).map((e) => withOrigin(e, origin)),
    recorded,
  );
  if (problem)
    return {
      verdict: refusedOrFailed ? 'error' : 'silently-wrong',
      detail: `${problem}; exit ${run.code}${refusedOrFailed ? `: ${run.stderr.trim().split('\n')[0]}` : ''}`,
    };
  if (refusedOrFailed) return { verdict: 'error', detail: `exit ${run.code}: ${run.stderr.trim().split('\n')[0]}` };
  return { verdict: 'correct', detail: '' };
}

/** Runs one case end to end. */
export async function runCase(compatCase: CompatCase): Promise<CaseResult> {
  const recorder = await startRecorder(compatCase);
  try {
    const file = stageWorkspace(compatCase, recorder.origin);
    const vars = Object.entries(compatCase.vars ?? {}).flatMap(([name, value]) => [
      '--var',
      `${name}=${value
        .split('$ORIGIN')
        .join(recorder.origin)
        .split('$HOSTPORT')
        .join(recorder.origin.slice('http://'.length))
        .split('$PORT')
        .join(new URL(recorder.origin).port)}`,
    ]);
    const run = await runDial(
      ['run', file, '--reporter', 'dot', ...vars, ...(compatCase.args ?? [])],
      dirname(file),
      compatCase.env,
    );
    return {
      id: compatCase.id,
      source: compatCase.source,
      ...judge(compatCase, file, run, recorder.recorded, recorder.origin),
    };
  } finally {
    await recorder.close();
  }
}

/** Runs every case, two at a time (the machine is shared). */
export async function runAll(cases: CompatCase[], parallel = 2): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < cases.length) {
      const index = next++;
      results[index] = await runCase(cases[index]);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return results;
}

/** The rate per source as a markdown table: correct + refused where the tool refuses too, over all files. */
export function summaryTable(manifest: Manifest, results: CaseResult[]): string {
  const rows = [
    '| source | files | correct | refused (tool refuses too) | refused before sending (dial gap) | other errors | silently wrong | correct rate |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const sources = [...new Set(results.map((r) => r.source))];
  const line = (label: string, subset: CaseResult[]): string => {
    const count = (verdict: Verdict) => subset.filter((r) => r.verdict === verdict).length;
    const passing = count('correct') + count('refused-as-expected');
    return `| ${label} | ${subset.length} | ${count('correct')} | ${count('refused-as-expected')} | ${count('refused-known-gap')} | ${count('error') + count('refused-wrongly')} | ${count('silently-wrong')} | ${((100 * passing) / Math.max(1, subset.length)).toFixed(1)} % |`;
  };
  for (const source of sources)
    rows.push(
      line(
        manifest.sources[source]?.title ?? source,
        results.filter((r) => r.source === source),
      ),
    );
  rows.push(line('**all**', results));
  return rows.join('\n');
}
