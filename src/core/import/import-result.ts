/** What an importer produces: the files to write, warnings and notes (written by output.ts). */

/** What merging imported environments into an existing env file did. */
export interface EnvMerge {
  /** The merged file's text; undefined when nothing was added (the file stays as it was). */
  content?: string;
  /** `env.name` of each variable added. */
  added: string[];
  /** `env.name` of each imported variable the file already had: its value was kept. */
  kept: string[];
  /** Those of `kept` whose imported value was different. */
  differing: string[];
}

/** One file an import writes. */
export interface ImportedFile {
  /** Relative to the output folder, with `/` separators. */
  path: string;
  content: string;
  /** For the summary: "3 requests", "2 environments", "body of create-user". */
  description: string;
  /** File mode for a new file (the private env file is 0600). */
  mode?: number;
  /** 'env': an env file, merged into an existing one (new variables added, existing kept). */
  merge?: 'env';
  /** Set by writeImport when the file existed and the import was merged into it. */
  merged?: Omit<EnvMerge, 'content'>;
}

/** Everything an importer produced. */
export interface ImportResult {
  files: ImportedFile[];
  warnings: string[];
  /** Variables the user must still set (e.g. tokens), with where they would go. */
  notes?: string[];
}
