/**
 * Reading and validating import sources (every file read is validated with zod;
 * errors name the file, line, column and what was expected).
 */
import { readFileSync } from 'node:fs';
import { DialError } from '../errors.js';

/** A zod issue as far as messages need it. */
interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  expected?: string;
  errors?: Issue[][];
  values?: unknown[];
}

/** Reads a source file as text; a missing file is E_NOT_FOUND. */
export function readSource(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new DialError(
      code === 'ENOENT' ? 'E_NOT_FOUND' : 'E_IMPORT',
      `cannot read the ${what} ${path}${code === 'ENOENT' ? ': no such file' : `: ${(error as Error).message}`}`,
      {
        hint: 'check the path',
        cause: error,
      },
    );
  }
}

function lineCol(text: string, offset: number): { line: number; col: number; excerpt: string } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - before.lastIndexOf('\n');
  return { line, col, excerpt: (text.split('\n')[line - 1] ?? '').replace(/\r$/, '') };
}

/** Parses JSON; a syntax error names the file, line and column. */
export function parseJsonSource(text: string, file: string, what: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const message = (error as Error).message;
    const position = /position (\d+)/.exec(message);
    const where = position ? lineCol(text, Number(position[1])) : undefined;
    throw new DialError(
      'E_IMPORT',
      `${what} is not valid JSON: ${message.replace(/ in JSON at position \d+.*$/, '')}`,
      {
        location: where ? { file, line: where.line, col: where.col, excerpt: where.excerpt } : { file, line: 1 },
        hint: `export the ${what} again, or fix the JSON at that place`,
        cause: error,
      },
    );
  }
}

/** The `yaml` package, loaded lazily (bundled as CommonJS: its API sits on `default` there). */
export async function loadYaml(): Promise<typeof import('yaml')> {
  const module = await import('yaml');
  return ((module as { default?: typeof import('yaml') }).default ?? module) as typeof import('yaml');
}

/** The line and column of the value at a JSON/YAML path, when it can be found. */
export async function locatePath(
  text: string,
  path: PropertyKey[],
): Promise<{ line: number; col: number; excerpt: string } | undefined> {
  const { parseDocument } = await loadYaml();
  try {
    const document = parseDocument(text, { keepSourceTokens: false });
    for (let depth = path.length; depth >= 0; depth--) {
      const node = document.getIn(path.slice(0, depth) as Array<string | number>, true) as
        { range?: [number, number, number] } | undefined;
      if (node && typeof node === 'object' && node.range) return lineCol(text, node.range[0]);
    }
  } catch {
    // Locating is best effort: the message still names the path.
  }
  return undefined;
}

/** For a union, the issue of the branch that got furthest (its path made absolute). */
function deepestIssue(issue: Issue): Issue {
  if (issue.code !== 'invalid_union' || !issue.errors) return issue;
  let best: Issue | undefined;
  for (const branch of issue.errors) {
    for (const inner of branch)
      if (inner.path.length > 0 && (!best || inner.path.length > best.path.length)) best = inner;
  }
  return best ? deepestIssue({ ...best, path: [...issue.path, ...best.path] }) : issue;
}

function describeIssue(issue: Issue): string {
  if (issue.code === 'invalid_type' && issue.expected) return `expected ${issue.expected}`;
  if (issue.code === 'invalid_union' && issue.errors) {
    const expected = [...new Set(issue.errors.map((branch) => branch[0]?.expected).filter(Boolean))];
    if (expected.length > 0) return `expected ${expected.join(' or ')}`;
  }
  if (issue.code === 'invalid_value' && issue.values)
    return `expected one of ${issue.values.map((value) => JSON.stringify(value)).join(', ')}`;
  return issue.message;
}

/** Shows a path as `item[2].request.url`. */
export function formatPath(path: PropertyKey[]): string {
  let out = '';
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `${out ? '.' : ''}${String(key)}`;
  return out || '(top level)';
}

/** Validates a parsed source with a zod/mini schema; the error names the file, path, line and column. */
export async function validateSource<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: unknown[] } } },
  value: unknown,
  text: string,
  file: string,
  what: string,
): Promise<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // The deepest issue is the most useful one to show.
  const issues = result.error.issues as Issue[];
  const issue = issues.map(deepestIssue).reduce((best, next) => (next.path.length > best.path.length ? next : best));
  const where = await locatePath(text, issue.path);
  throw new DialError('E_IMPORT', `${what}: ${formatPath(issue.path)}: ${describeIssue(issue)}`, {
    location: { file, line: where?.line ?? 1, col: where?.col, excerpt: where?.excerpt },
    hint: `is this a ${what}? ${issues.length > 1 ? `(${issues.length} problems; one is shown)` : ''}`.trim(),
  });
}
