/** `dial import curl|postman|openapi`: convert to `.http` files (+ env files). */
import type { Command } from 'commander';
import { DialError } from '../core/errors.js';
import { globalOptions } from './globals.js';
import type { ImportResult } from '../core/import/output.js';
import { registerMoreImports } from './import-more.js';

interface OutputFlags {
  output?: string;
  force?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function printWarnings(command: Command, warnings: string[]): void {
  if (globalOptions(command).quiet) return;
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
}

async function finish(command: Command, result: ImportResult, flags: OutputFlags): Promise<void> {
  const { writeImport, formatImportSummary } = await import('../core/import/output.js');
  const { resolve } = await import('node:path');
  const outDir = resolve(flags.output ?? '.');
  writeImport(result, { outDir, force: Boolean(flags.force), cwd: process.cwd() });
  printWarnings(command, result.warnings);
  if (!globalOptions(command).quiet) process.stdout.write(formatImportSummary(result, outDir, process.cwd()));
}

function outputOptions(command: Command): Command {
  return command
    .option('-o, --output <dir>', 'folder to write to (default: the current folder)')
    .option('--force', 'overwrite files that already exist');
}

/** Registers `dial import` and its three sources. */
export function registerImport(program: Command): void {
  const command = program
    .command('import')
    .description('Import curl, Postman, OpenAPI, HAR, Insomnia or Bruno into .http files');

  outputOptions(
    command
      .command('curl')
      .description("a curl command: dial import curl 'curl …' (or - to read it from stdin, or -- curl …)")
      .argument('<command...>', 'the curl command, quoted as one argument, or - for stdin'),
  )
    .addHelpText('after', '\n`-o -` prints the .http text instead of writing a file.')
    .action(async (words: string[], flags: OutputFlags, sub: Command) => {
      const { importCurl } = await import('../core/import/curl-import.js');
      let input: string | string[];
      if (words.length === 1) input = words[0] === '-' ? await readStdin() : words[0];
      else input = words;
      // Accept the command without its leading `curl` (dial import curl -- -X POST https://…).
      if (typeof input === 'string') {
        if (/^\s*(-|[a-z][a-z0-9+.-]*:\/\/|localhost|\d)/i.test(input)) input = `curl ${input}`;
      } else if (!/(^|[\\/])curl(\.exe)?$/i.test(input[0])) {
        input = ['curl', ...input];
      }
      const toStdout = flags.output === '-';
      const { resolve } = await import('node:path');
      const result = importCurl(input, {
        cwd: process.cwd(),
        outDir: toStdout ? process.cwd() : resolve(flags.output ?? '.'),
      });
      if (toStdout) {
        if (result.files.length > 1) {
          throw new DialError('E_USAGE', 'the request body needs a side file, which -o - cannot print', {
            hint: 'write to a folder with -o DIR',
          });
        }
        printWarnings(sub, result.warnings);
        process.stdout.write(result.files[0].content);
        return;
      }
      await finish(sub, result, flags);
    });

  outputOptions(
    command
      .command('postman')
      .description('a Postman collection (v2.0/v2.1): a .http file per folder, variables to http-client.env.json')
      .argument('<collection>', 'the collection JSON file')
      .option('--environment <file>', 'a Postman environment JSON file to import as well'),
  ).action(async (source: string, flags: OutputFlags & { environment?: string }, sub: Command) => {
    const [{ importPostmanFiles }, { resolve }] = await Promise.all([
      import('../core/import/postman.js'),
      import('node:path'),
    ]);
    // Upload paths are written relative to each .http file, so the importer needs the folder.
    const result = await importPostmanFiles(source, flags.environment, { outDir: resolve(flags.output ?? '.') });
    await finish(sub, result, flags);
  });

  outputOptions(
    command
      .command('openapi')
      .description('an OpenAPI 3.0/3.1 document (JSON or YAML): a .http file per tag, servers as environments')
      .argument('<spec>', 'the OpenAPI document')
      .option('--base-url <url>', 'the base URL to use (overrides the servers of the document)'),
  ).action(async (source: string, flags: OutputFlags & { baseUrl?: string }, sub: Command) => {
    const { importOpenApiFile } = await import('../core/import/openapi.js');
    const result = await importOpenApiFile(source, { baseUrl: flags.baseUrl });
    await finish(sub, result, flags);
  });
  registerMoreImports(command, outputOptions, finish);
}
