/** Formatting files on disk for `dial fmt`: read, format, then write atomically or diff. */
import { readFile } from 'node:fs/promises';
import { relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { DialError } from '../errors.js';
import { formatHttpText, type FormatOptions } from './format.js';
import { unifiedDiff } from './diff.js';

export interface FormatFilesOptions extends FormatOptions {
  /** Files and folders (folders are searched for .http/.rest files); none = the working folder. */
  paths: string[];
  cwd: string;
  /** Write nothing; report which files would change, with a diff. */
  check: boolean;
}

export interface FormattedFile {
  /** As shown to people: relative to cwd, forward slashes. */
  path: string;
  changed: boolean;
  /** With `check`: the unified diff of the change. */
  diff?: string;
}

function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, path) || path;
  return sep === '/' ? rel : rel.split(sep).join('/');
}

/** Formats every file given (each parsed first: a file that does not parse stops with E_PARSE before anything is written). */
export async function formatFiles(options: FormatFilesOptions): Promise<FormattedFile[]> {
  const { discoverHttpFiles, findWorkspaceRoot } = await import('../workspace/discover.js');
  const given = options.paths.length ? options.paths.map((p) => resolve(options.cwd, p)) : [options.cwd];
  // The workspace root's .gitignore applies to folders below it, as for `dial run`.
  const paths = (await discoverHttpFiles(findWorkspaceRoot(options.cwd), given)).sort();
  if (paths.length === 0)
    throw new DialError('E_NOT_FOUND', `no .http or .rest files in ${options.paths.join(', ') || options.cwd}`, {
      hint: 'give .http files or folders that hold them',
    });
  const planned: Array<{ full: string; shown: string; before: string; after: string }> = [];
  for (const full of paths) {
    const shown = shownPath(full, options.cwd);
    let before: string;
    try {
      before = await readFile(full, 'utf8');
    } catch (error) {
      throw new DialError(
        'E_NOT_FOUND',
        `cannot read ${shown}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        { cause: error },
      );
    }
    planned.push({ full, shown, before, after: formatHttpText(before, shown, options) });
  }
  return planned.map(({ full, shown, before, after }) => {
    const changed = before !== after;
    if (changed && !options.check) writeFileAtomic(full, after);
    return { path: shown, changed, ...(options.check && changed ? { diff: unifiedDiff(before, after, shown) } : {}) };
  });
}
