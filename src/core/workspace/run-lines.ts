/**
 * What JetBrains/kulala `run` lines run (docs/http-format.md, "Running other requests"): the
 * requests each line names, found in the file itself, in the files it imports (`import
 * ./x.http`, nested imports too) or in the file a line names (`run ./x.http[#name]`), with the
 * line's `(@var=value)` overrides. A target that is itself a block of `run` lines is expanded in
 * turn; a cycle is an error naming the lines.
 */
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DialError } from '../errors.js';
import type { HttpFile, RequestNode, RunLineNode } from '../httpfile/types.js';
import { parseHttpFile } from '../httpfile/parse.js';

/** One request a `run` line runs, with the variables the line (and the lines that led to it) set. */
export interface RunTarget {
  file: HttpFile;
  node: RequestNode;
  variables: Map<string, string>;
}

export type FileLoader = (path: string) => Promise<HttpFile>;

/** Reads and parses a file from disk (cached by the caller's loader when it has one). */
export async function loadHttpFileFromDisk(path: string): Promise<HttpFile> {
  return parseHttpFile(await readFile(path, 'utf8'), path);
}

/** Whether a request is called `name`: `# @name`, `###` title, or (kulala) `METHOD url` as written. */
function hasRunName(node: RequestNode, name: string): boolean {
  return node.name === name || node.title === name || (!node.runOnly && `${node.method} ${node.url}` === name);
}

/** The files `file` imports, nested imports included, each once, in the order they are met. */
async function importedFiles(
  file: HttpFile,
  load: FileLoader,
  seen = new Set<string>([file.path]),
): Promise<HttpFile[]> {
  const found: HttpFile[] = [];
  for (const entry of file.imports ?? []) {
    const path = resolve(dirname(file.path), entry.path);
    if (seen.has(path)) continue;
    seen.add(path);
    const imported = await loadOrFail(path, load, file, entry.span.line, 'import');
    found.push(imported, ...(await importedFiles(imported, load, seen)));
  }
  return found;
}

async function loadOrFail(
  path: string,
  load: FileLoader,
  from: HttpFile,
  line: number,
  what: string,
): Promise<HttpFile> {
  try {
    return await load(path);
  } catch (error) {
    // A file that does not parse says where; one that cannot be read is pointed at from this line.
    if (error instanceof DialError && error.location) throw error;
    throw new DialError(
      'E_NOT_FOUND',
      `${what}: cannot read ${path}${error instanceof DialError ? '' : ` (${(error as NodeJS.ErrnoException).code ?? String(error)})`}`,
      {
        location: { file: from.path || '<text>', line },
        hint: 'paths in `import` and `run` lines are relative to the .http file',
      },
    );
  }
}

/** The requests one `run` line names, before expansion. */
async function namedByLine(
  file: HttpFile,
  line: RunLineNode,
  self: RequestNode,
  load: FileLoader,
): Promise<Array<[HttpFile, RequestNode]>> {
  const where = { file: file.path || '<text>', line: line.span.line };
  if (line.path !== undefined) {
    const target = await loadOrFail(resolve(dirname(file.path), line.path), load, file, line.span.line, 'run');
    if (line.name === undefined) return target.requests.map((node) => [target, node]);
    const node = target.requests.find((candidate) => hasRunName(candidate, line.name!));
    if (!node)
      throw new DialError('E_NOT_FOUND', `run: no request named '${line.name}' in ${line.path}`, {
        location: where,
        hint: `requests there: ${target.requests.map((r) => r.name ?? r.title ?? `${r.method} ${r.url}`).join(', ') || 'none'}`,
      });
    return [[target, node]];
  }
  for (const candidate of [file, ...(await importedFiles(file, load))]) {
    const node = candidate.requests.find((request) => request !== self && hasRunName(request, line.name!));
    if (node) return [[candidate, node]];
  }
  throw new DialError(
    'E_NOT_FOUND',
    `run: no request named '${line.name}' in this file${file.imports?.length ? ' or the files it imports' : ''}`,
    {
      location: where,
      hint: 'name the request with `### Name` or `# @name Name`, and `import ./file.http` the file that holds it',
    },
  );
}

/**
 * The requests the `run` lines of `node` run, in order, expanded through nested run blocks.
 * `inherited`: variables set by the run lines that led here (a nearer line's value wins).
 */
export async function resolveRunTargets(
  file: HttpFile,
  node: RequestNode,
  load: FileLoader = loadHttpFileFromDisk,
  inherited: Map<string, string> = new Map(),
  chain: string[] = [],
): Promise<RunTarget[]> {
  const key = `${file.path}#${node.index}`;
  if (chain.includes(key) || chain.length > 32) {
    throw new DialError('E_VAR_CYCLE', 'run lines run each other in a cycle', {
      location: { file: file.path || '<text>', line: node.requestLineSpan.line },
      hint: 'a request cannot run itself, directly or through other run lines',
    });
  }
  const targets: RunTarget[] = [];
  for (const line of node.runs ?? []) {
    const variables = new Map(inherited);
    for (const { name, value } of line.variables) variables.set(name, value);
    for (const [targetFile, target] of await namedByLine(file, line, node, load)) {
      if (target.runs) targets.push(...(await resolveRunTargets(targetFile, target, load, variables, [...chain, key])));
      if (!target.runOnly) targets.push({ file: targetFile, node: target, variables });
    }
  }
  return targets;
}
