/** `dial import har|insomnia|bruno`: the sources added to `dial import` (the core lives in src/core/import). */
import type { Command } from 'commander';
import type { ImportResult } from '../core/import/output.js';

interface OutputFlags {
  output?: string;
  force?: boolean;
}

type Finish = (command: Command, result: ImportResult, flags: OutputFlags) => Promise<void>;

/** Adds the HAR, Insomnia and Bruno sources to `dial import` (sharing its -o/--force flags and summary). */
export function registerMoreImports(
  command: Command,
  outputOptions: (command: Command) => Command,
  finish: Finish,
): void {
  outputOptions(
    command
      .command('har')
      .description('a HAR file (browser devtools, proxies): one request per entry, secrets to the private env file')
      .argument('<file>', 'the .har file')
      .option('--include-assets', 'keep images, style sheets, fonts and scripts (skipped by default)'),
  ).action(async (source: string, flags: OutputFlags & { includeAssets?: boolean }, sub: Command) => {
    const { importHarFile } = await import('../core/import/har.js');
    await finish(sub, await importHarFile(source, { includeAssets: Boolean(flags.includeAssets) }), flags);
  });

  outputOptions(
    command
      .command('insomnia')
      .description('an Insomnia export (v4 JSON or v5 YAML): a .http file per folder, environments to env files')
      .argument('<file>', 'the export file'),
  ).action(async (source: string, flags: OutputFlags, sub: Command) => {
    const { importInsomniaFile } = await import('../core/import/insomnia.js');
    await finish(sub, await importInsomniaFile(source), flags);
  });

  outputOptions(
    command
      .command('bruno')
      .description('a Bruno collection folder (.bru files and environments/): a .http file per folder')
      .argument('<folder>', 'the collection folder (holding bruno.json)'),
  ).action(async (source: string, flags: OutputFlags, sub: Command) => {
    const { importBrunoCollection } = await import('../core/import/bruno.js');
    await finish(sub, await importBrunoCollection(source), flags);
  });
}
