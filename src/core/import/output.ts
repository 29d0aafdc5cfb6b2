/**
 * Writing what an importer produced: every target is checked before anything is written
 * (an existing file stops the import unless `force`), then each file is written atomically.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { writeFileAtomic } from '../atomic-write.js';
import { DialError } from '../errors.js';

/** One file an import writes. */
export interface ImportedFile {
  /** Relative to the output folder, with `/` separators. */
  path: string;
  content: string;
  /** For the summary: "3 requests", "2 environments", "body of create-user". */
  description: string;
  /** File mode for a new file (the private env file is 0600). */
  mode?: number;
}

/** Everything an importer produced. */
export interface ImportResult {
  files: ImportedFile[];
  warnings: string[];
  /** Variables the user must still set (e.g. tokens), with where they would go. */
  notes?: string[];
}

export interface WriteImportOptions {
  outDir: string;
  force: boolean;
}

/** A path as messages show it: relative to the current folder when inside it, else absolute. */
function shown(full: string): string {
  const rel = relative(process.cwd(), full);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split(sep).join('/') : full;
}

function target(outDir: string, path: string): string {
  const full = resolve(outDir, path);
  const rel = relative(resolve(outDir), full);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new DialError('E_IMPORT', `refusing to write '${path}' outside the output folder`, { hint: 'rename the folder or request in the source' });
  }
  return full;
}

/** Writes the files (all or nothing on existing targets) and returns their full paths. */
export function writeImport(result: ImportResult, options: WriteImportOptions): string[] {
  const targets = result.files.map((file) => target(options.outDir, file.path));
  const seen = new Set<string>();
  for (const [index, full] of targets.entries()) {
    if (seen.has(full)) throw new DialError('E_IMPORT', `the import would write '${result.files[index].path}' twice`, { hint: 'two folders or requests have the same name; rename one in the source' });
    seen.add(full);
  }
  if (!options.force) {
    const existing = targets.filter((full) => existsSync(full));
    if (existing.length > 0) {
      const names = existing.map(shown);
      throw new DialError('E_EXISTS', `${names[0]} already exists${names.length > 1 ? ` (and ${names.length - 1} more: ${names.slice(1).join(', ')})` : ''}; nothing was written`, {
        hint: 'pass --force to overwrite, or choose another folder with -o DIR',
      });
    }
  }
  result.files.forEach((file, index) => {
    try {
      writeFileAtomic(targets[index], file.content, file.mode);
    } catch (error) {
      throw new DialError('E_IO', `cannot write ${shown(targets[index])}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, {
        hint: index > 0 ? `${index} file(s) before it were written; check the folder and run again with --force` : 'check that the output folder can be written',
        cause: error,
      });
    }
  });
  return targets;
}

/** The summary printed after an import: one line per file. */
export function formatImportSummary(result: ImportResult, outDir: string): string {
  const lines = result.files.map((file) => `wrote ${shown(resolve(outDir, file.path))} (${file.description})`);
  for (const note of result.notes ?? []) lines.push(note);
  return lines.join('\n') + '\n';
}
