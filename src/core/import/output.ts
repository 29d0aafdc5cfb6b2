/**
 * Writing what an importer produced: every target is checked before anything is written
 * (an existing file stops the import unless `force`; an existing env file is merged into,
 * never replaced), then each file is written atomically.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { DialError } from '../errors.js';
import { mergeEnvFile } from './env-writer.js';
import type { EnvMerge, ImportedFile, ImportResult } from './import-result.js';

export type { ImportedFile, ImportResult } from './import-result.js';

export interface WriteImportOptions {
  outDir: string;
  force: boolean;
  /** Messages show paths relative to this folder (default: the current one). */
  cwd?: string;
}

/** A path as messages show it: relative to `cwd` when inside it, else absolute. */
function shown(full: string, cwd: string): string {
  const rel = relative(cwd, full);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : full;
}

function target(outDir: string, path: string): string {
  const full = resolve(outDir, path);
  const rel = relative(resolve(outDir), full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new DialError('E_IMPORT', `refusing to write '${path}' outside the output folder`, {
      hint: 'rename the folder or request in the source',
    });
  }
  return full;
}

/**
 * Writes the files (all or nothing on existing targets) and returns their full paths. An env
 * file that exists gets the new environments and variables added and keeps every value it
 * has, with or without `force`; what was added and kept is recorded in the file's `merged`.
 */
export function writeImport(result: ImportResult, options: WriteImportOptions): string[] {
  const cwd = options.cwd ?? process.cwd();
  const targets = result.files.map((file) => target(options.outDir, file.path));
  const seen = new Set<string>();
  for (const [index, full] of targets.entries()) {
    if (seen.has(full))
      throw new DialError('E_IMPORT', `the import would write '${result.files[index].path}' twice`, {
        hint: 'two folders or requests have the same name; rename one in the source',
      });
    seen.add(full);
  }
  // Planned before anything is written: an env file that cannot be read stops the import.
  const merges = new Map<number, EnvMerge & { mode: number }>();
  result.files.forEach((file, index) => {
    const full = targets[index];
    if (file.merge !== 'env' || !existsSync(full)) return;
    let text: string;
    try {
      text = readFileSync(full, 'utf8');
    } catch (error) {
      throw new DialError(
        'E_IO',
        `cannot read ${shown(full, cwd)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; nothing was written`,
        {
          hint: 'check the file, or choose another folder with -o DIR',
          cause: error,
        },
      );
    }
    merges.set(index, {
      ...mergeEnvFile(text, file.content, full, shown(full, cwd)),
      mode: file.mode ?? statSync(full).mode & 0o777,
    });
  });
  if (!options.force) {
    const existing = targets.filter((full, index) => result.files[index].merge !== 'env' && existsSync(full));
    if (existing.length > 0) {
      const names = existing.map((full) => shown(full, cwd));
      throw new DialError(
        'E_EXISTS',
        `${names[0]} already exists${names.length > 1 ? ` (and ${names.length - 1} more: ${names.slice(1).join(', ')})` : ''}; nothing was written`,
        {
          hint: 'pass --force to overwrite, or choose another folder with -o DIR',
        },
      );
    }
  }
  result.files.forEach((file, index) => {
    const merge = merges.get(index);
    if (merge) file.merged = { added: merge.added, kept: merge.kept, differing: merge.differing };
    // A merge that adds nothing leaves the file as it was.
    if (merge && merge.content === undefined) return;
    try {
      writeFileAtomic(targets[index], merge ? merge.content! : file.content, merge ? merge.mode : file.mode);
    } catch (error) {
      throw new DialError(
        'E_IO',
        `cannot write ${shown(targets[index], cwd)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
        {
          hint:
            index > 0
              ? `${index} file(s) before it were written; check the folder and run again with --force`
              : 'check that the output folder can be written',
          cause: error,
        },
      );
    }
  });
  return targets;
}

function mergeLine(path: string, merged: NonNullable<ImportedFile['merged']>): string {
  const { added, kept, differing } = merged;
  let line =
    added.length > 0 ? `merged into ${path}: added ${added.join(', ')}` : `left ${path} as it was: nothing new to add`;
  if (kept.length > 0) line += `; kept ${kept.length} existing (${kept.join(', ')})`;
  if (differing.length > 0) line += `; the imported value differs for ${differing.join(', ')}`;
  return line;
}

/** The summary printed after an import: one line per file (what a merge added and kept, for env files). */
export function formatImportSummary(result: ImportResult, outDir: string, cwd: string = process.cwd()): string {
  const lines = result.files.map((file) => {
    const path = shown(resolve(outDir, file.path), cwd);
    return file.merged ? mergeLine(path, file.merged) : `wrote ${path} (${file.description})`;
  });
  for (const note of result.notes ?? []) lines.push(note);
  return lines.join('\n') + '\n';
}
