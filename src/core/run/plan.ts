/**
 * Planning a run: which files (discovery, `--shard`), which requests (`--grep`, `--tag`),
 * and which are reported as skipped (`# @skip`). Pure except for discovery.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import type { HttpFile, RequestNode } from '../httpfile/types.js';
import { parseHttpFile } from '../httpfile/index.js';
import { DialError } from '../errors.js';
import type { FileInfo, RequestInfo } from './types.js';
import { displayName } from '../request-name.js';
import { requestHasName, requestsAtPosition, type RequestPosition } from '../workspace/position.js';

export interface Shard {
  /** 1-based. */
  index: number;
  total: number;
}

/** Parses `i/n` (1 ≤ i ≤ n); throws E_USAGE otherwise. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = match ? Number(match[1]) : NaN;
  const total = match ? Number(match[2]) : NaN;
  if (!match || total < 1 || index < 1 || index > total) {
    throw new DialError('E_USAGE', `invalid --shard '${text}'`, {
      hint: 'write --shard i/n with 1 ≤ i ≤ n, e.g. --shard 2/4',
    });
  }
  return { index, total };
}

/**
 * Picks this shard's files: the relative paths are sorted and dealt round-robin, so the n
 * shards together take every file exactly once, balanced to within one file, on any machine.
 */
export function selectShard<T>(items: T[], shard: Shard, key: (item: T) => string): T[] {
  const sorted = [...items].sort((a, b) => {
    const ka = key(a);
    const kb = key(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return sorted.filter((_, i) => i % shard.total === shard.index - 1);
}

const SKIP_DIRS = new Set(['node_modules', '.git', '__snapshots__', 'dist', 'build', 'coverage']);

/** Lists .http/.rest files under the given paths (folders walked recursively, hidden and vendor folders skipped), sorted. */
export async function discoverFiles(paths: string[], cwd: string): Promise<string[]> {
  const found = new Set<string>();
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!entry.name.startsWith('.') && !SKIP_DIRS.has(entry.name)) await walk(full);
      } else if (entry.isFile() && /\.(http|rest)$/i.test(entry.name)) found.add(full);
    }
  };
  for (const path of paths.length ? paths : ['.']) {
    const full = resolve(cwd, path);
    let info;
    try {
      info = await stat(full);
    } catch {
      throw new DialError('E_NOT_FOUND', `no such file or folder: ${path}`, {
        hint: 'give .http files or folders that hold them',
      });
    }
    if (info.isDirectory()) await walk(full);
    else found.add(full);
  }
  return [...found].sort();
}

/** A path for reports: relative to the working folder, forward slashes. */
export function reportPath(path: string, cwd: string): string {
  const rel = relative(cwd, path) || path;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** What identifies a request to people: its name, else `METHOD url`. */
export function requestInfo(node: RequestNode): RequestInfo {
  return {
    index: node.index,
    name: displayName(node),
    line: node.requestLineSpan.line,
    method: node.method,
    url: node.url,
  };
}

export interface RequestFilter {
  /** `/re/flags`, else a regular expression when it compiles, else a substring; matched against request names. */
  grep?: string;
  /** Any of these tags selects a request. */
  tags?: string[];
  /** Only requests with this `# @name` or `###` title (`--name`). */
  name?: string;
  /** Per file (absolute path): only the request at this line or with this name (`api.http:14`). */
  positions?: Map<string, RequestPosition>;
  /**
   * Reads a planned file's text again at its turn (`dial run`: from disk), so the plan holds no
   * text; without it each planned file keeps its text until the run ends.
   */
  readAgain?: (path: string) => Promise<string>;
}

/** Builds the name matcher of `--grep`. */
export function grepMatcher(grep: string): (name: string) => boolean {
  const slashed = /^\/(.*)\/([a-z]*)$/s.exec(grep);
  try {
    const re = slashed ? new RegExp(slashed[1], slashed[2]) : new RegExp(grep);
    return (name) => re.test(name);
  } catch {
    if (slashed) throw new DialError('E_USAGE', `invalid --grep expression ${grep}`);
    return (name) => name.includes(grep);
  }
}

/** True when a request passes `--grep` and `--tag`. */
export function createRequestFilter(filter: RequestFilter): (node: RequestNode) => boolean {
  const matchName = filter.grep ? grepMatcher(filter.grep) : undefined;
  const tags = filter.tags
    ?.flatMap((tag) => tag.split(','))
    .map((tag) => tag.trim())
    .filter(Boolean);
  return (node) => {
    if (matchName) {
      const info = requestInfo(node);
      if (!matchName(info.name) && !(node.name && matchName(node.name)) && !(node.title && matchName(node.title)))
        return false;
    }
    if (tags?.length && !node.tags.some((tag) => tags.includes(tag))) return false;
    if (filter.name !== undefined && !requestHasName(node, filter.name)) return false;
    return true;
  };
}

export interface PlannedFile {
  info: FileInfo;
  /**
   * The file's tree and its selected requests, in file order. The tree is not kept from planning
   * to the file's turn: it is parsed again then (~8 µs a request); with readAgain, the text is
   * read again too, checked against a digest of the planned one. So a run of a million requests
   * holds the running files only, and its memory stays flat.
   */
  open(): Promise<{ file: HttpFile; requests: RequestNode[] }>;
}

/**
 * Gives a planned file's text back at its turn: read again (readAgain) and checked against a
 * digest of the planned text, so a file changed mid-run is E_INPUT, never run as something else.
 */
function textAgain(file: HttpFile, readAgain: RequestFilter['readAgain']): () => Promise<string> {
  // Two helpers, so the closure that reads again does not share a V8 context holding the text.
  return readAgain && file.path ? readCheckedAgain(file.path, digestOf(file.text), readAgain) : keptText(file.text);
}

function keptText(text: string): () => Promise<string> {
  return async () => text;
}

function readCheckedAgain(
  path: string,
  planned: string,
  readAgain: (path: string) => Promise<string>,
): () => Promise<string> {
  return async () => {
    let now: string;
    try {
      now = await readAgain(path);
    } catch (error) {
      throw new DialError(
        'E_NOT_FOUND',
        `cannot read ${path} again: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
        { cause: error },
      );
    }
    if (digestOf(now) !== planned) {
      throw new DialError('E_INPUT', `${path} changed while the run was under way`, {
        location: { file: path, line: 1 },
        hint: 'run again once the file is saved (--watch re-runs on changes)',
      });
    }
    return now;
  };
}

function digestOf(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

/** The indices of the requests of `file` the filter selects (a helper, so no closure of the plan keeps the tree). */
function selectedIndices(
  file: HttpFile,
  relativePath: string,
  accept: (node: RequestNode) => boolean,
  filter: RequestFilter,
): number[] {
  const position = filter.positions?.get(file.path);
  const candidates = position ? new Set(requestsAtPosition(file, position, relativePath)) : undefined;
  const selected: number[] = [];
  file.requests.forEach((node, index) => {
    if (accept(node) && (!candidates || candidates.has(node))) selected.push(index);
  });
  return selected;
}

/**
 * How many planned requests keep their parsed tree until their turn (planRun's budget), ~1.4 KiB
 * each. A run of up to this many requests parses each file once; past it, files are parsed (and
 * read) again at their turn, so memory stays flat however long the run. Kept small on purpose:
 * with 8,192, a 5,000-request run kept every tree live and `dial run`'s tight heap flags made the
 * collector mark them again and again, which cost more (+270 M instructions) than the second
 * parse it saved (~170 M).
 */
export const KEPT_TREE_REQUESTS = 1024;

/** A budget of requests whose trees a plan may keep (see KEPT_TREE_REQUESTS); planFiles spends it. */
export interface TreeBudget {
  requests: number;
}

/** open() of a planned file that kept its tree (a helper, so the closure holds the tree and nothing else). */
function keptTree(file: HttpFile, only: number[] | undefined): PlannedFile['open'] {
  return async () => ({ file, requests: only ? only.map((index) => file.requests[index]) : file.requests });
}

/**
 * Selects the requests of parsed files; files left without requests are dropped. With `keep`,
 * a file whose requests fit in what is left of the budget keeps its tree (no second parse).
 */
export function planFiles(
  files: Array<{ file: HttpFile; relativePath: string }>,
  filter: RequestFilter,
  keep?: TreeBudget,
): PlannedFile[] {
  const accept = createRequestFilter(filter);
  const planned: PlannedFile[] = [];
  for (const { file, relativePath } of files) {
    const selected = selectedIndices(file, relativePath, accept, filter);
    if (selected.length === 0) continue;
    const { path } = file;
    const count = selected.length;
    // Every request selected (the usual case): the plan keeps no list of indices.
    const only = count === file.requests.length ? undefined : selected;
    if (keep && file.requests.length <= keep.requests) {
      keep.requests -= file.requests.length;
      planned.push({ info: { path, relativePath, requests: count }, open: keptTree(file, only) });
      continue;
    }
    const read = textAgain(file, filter.readAgain);
    const open = async () => {
      const tree = parseHttpFile(await read(), path);
      return { file: tree, requests: only ? only.map((index) => tree.requests[index]) : tree.requests };
    };
    planned.push({ info: { path, relativePath, requests: count }, open });
  }
  return planned;
}
