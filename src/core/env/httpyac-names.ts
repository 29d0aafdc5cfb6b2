/**
 * Whether httpyac's own environment sources define environment `name` for a file in `dir`: a
 * `<name>.env` or `.env.<name>` beside it or in an `env/` folder, or `environments.<name>` in a JSON config
 * (`.httpyac.json`, `httpyac.config.json`), in any folder up to the workspace root. Lets `-e name`
 * choose an environment only httpyac's files define (see core/vars/httpyac-env.ts).
 */
import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/** httpyac's JavaScript config file names, in the order it looks for them. */
export const SCRIPT_CONFIGS = [
  '.httpyac.js',
  '.httpyac.config.js',
  '.httpyac.config.cjs',
  'httpyac.config.js',
  'httpyac.config.cjs',
];

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `dir` and its parents up to `root` (just `dir` when it is outside). */
function foldersUp(dir: string, root: string): string[] {
  const top = resolve(root);
  const folders = [resolve(dir)];
  for (let at = folders[0]; at !== top && at.startsWith(top) && dirname(at) !== at;) folders.push((at = dirname(at)));
  return folders;
}

/** The environments httpyac's own sources define for a file in `dir` (env/NAME.env, NAME.env, .env.NAME, JSON config), sorted. */
export async function httpyacEnvironmentNames(dir: string, root: string): Promise<string[]> {
  const names = new Set<string>();
  const { readdir } = await import('node:fs/promises');
  for (const folder of foldersUp(dir, root)) {
    for (const at of [folder, join(folder, 'env')]) {
      const entries = await readdir(at).catch(() => [] as string[]);
      for (const entry of entries) {
        if (/^[^.].*\.env$/.test(entry)) names.add(entry.slice(0, -'.env'.length));
        // httpyac's dotenv provider also names `.env.NAME` files environment NAME.
        else if (/^\.env\.[^.]/.test(entry)) names.add(entry.slice('.env.'.length));
      }
    }
    for (const config of ['.httpyac.json', 'httpyac.config.json']) {
      try {
        const data = JSON.parse(await readFile(join(folder, config), 'utf8')) as { environments?: object } | null;
        for (const name of Object.keys(data?.environments ?? {})) if (!name.startsWith('$')) names.add(name);
      } catch {
        // No such file, or one httpyac-env.ts reports when it reads it.
      }
    }
  }
  return [...names].sort();
}

export async function httpyacDefines(dir: string, root: string, name: string): Promise<boolean> {
  for (const folder of foldersUp(dir, root)) {
    for (const at of [folder, join(folder, 'env')])
      if (existsSync(join(at, `${name}.env`)) || existsSync(join(at, `.env.${name}`))) return true;
    for (const config of ['.httpyac.json', 'httpyac.config.json']) {
      try {
        const data = JSON.parse(await readFile(join(folder, config), 'utf8')) as { environments?: object } | null;
        if (data?.environments && Object.hasOwn(data.environments, name)) return true;
      } catch {
        // No such file, or one httpyac-env.ts reports when it reads it.
      }
    }
    // A JavaScript config that names it among its environments: httpyac-env.ts loads it (or refuses it).
    for (const config of SCRIPT_CONFIGS) {
      const source = await readFile(join(folder, config), 'utf8').catch(() => '');
      if (/\benvironments\b/.test(source) && new RegExp(`(?:^|[\\s{,'"])${escapeRegExp(name)}['"]?\\s*:`).test(source))
        return true;
    }
  }
  return false;
}
