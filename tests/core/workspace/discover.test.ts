import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverHttpFiles, findWorkspaceRoot } from '../../../src/core/workspace/discover.js';
import { compileGitignore } from '../../../src/core/workspace/gitignore.js';
import { tempDir } from '../../helpers/cli.js';

function tree(files: string[]): string {
  const root = tempDir('dial-ws-');
  for (const path of files) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    if (!path.endsWith('/')) writeFileSync(join(root, path), path.endsWith('.gitignore') ? '' : 'GET http://a\n');
  }
  return root;
}

describe('findWorkspaceRoot', () => {
  it('finds the nearest folder with http-client.env.json or .git, else the start', () => {
    const root = tree(['http-client.env.json', 'a/b/x.http']);
    expect(findWorkspaceRoot(join(root, 'a/b'))).toBe(root);
    const git = tree(['.git/HEAD', 'sub/x.http']);
    expect(findWorkspaceRoot(join(git, 'sub'))).toBe(git);
  });
});

describe('discoverHttpFiles', () => {
  it('finds .http and .rest files, skipping node_modules, .git and .gitignored paths', async () => {
    const root = tree([
      'a.http',
      'b.rest',
      'c.txt',
      'node_modules/pkg/x.http',
      '.git/y.http',
      'build/z.http',
      'docs/keep.http',
      'docs/draft.http',
      'deep/tmp/t.http',
      'deep/ok.http',
      'secret.local.http',
    ]);
    writeFileSync(join(root, '.gitignore'), '# comment\nbuild/\n/docs/*.http\n!docs/keep.http\n**/tmp\n*.local.http\n');
    const files = (await discoverHttpFiles(root)).map((f) => f.slice(root.length + 1));
    expect(files).toEqual(['a.http', 'b.rest', 'deep/ok.http', 'docs/keep.http']);
  });

  it('reads the .gitignore of every folder, relative to it; a deeper file wins, as in git', async () => {
    const root = tree([
      'a.http',
      'sub/gen/x.http',
      'sub/y.http',
      'sub/old.http',
      'sub/deep/old.http',
      'other/gen/z.http',
      'other/old.http',
    ]);
    writeFileSync(join(root, '.gitignore'), 'old.http\n');
    // `/gen/` is anchored to sub/, so other/gen stays; `!deep/old.http` re-includes one file.
    writeFileSync(join(root, 'sub/.gitignore'), '/gen/\n!deep/old.http\n');
    const files = (await discoverHttpFiles(root)).map((f) => f.slice(root.length + 1));
    expect(files).toEqual(['a.http', 'other/gen/z.http', 'sub/deep/old.http', 'sub/y.http']);
    // Walking a subfolder still applies the .gitignore files above it.
    const fromSub = (await discoverHttpFiles(root, [join(root, 'sub')])).map((f) => f.slice(root.length + 1));
    expect(fromSub).toEqual(['sub/deep/old.http', 'sub/y.http']);
  });

  it('always includes files named explicitly', async () => {
    const root = tree(['build/z.http', 'a.http']);
    writeFileSync(join(root, '.gitignore'), 'build/\n');
    expect(await discoverHttpFiles(root, [join(root, 'build/z.http')])).toEqual([join(root, 'build/z.http')]);
    await expect(discoverHttpFiles(root, [join(root, 'missing')])).rejects.toThrow(/no such file or folder/);
  });
});

describe('compileGitignore', () => {
  const ignored = compileGitignore('*.log\n/root-only.txt\nout/\nlib/**/gen\n!keep.log\na?c\n[xy].md\n\\#hash\n');
  it.each([
    ['x.log', false, true],
    ['deep/x.log', false, true],
    ['keep.log', false, false],
    ['root-only.txt', false, true],
    ['sub/root-only.txt', false, false],
    ['out', true, true],
    ['out', false, false],
    ['a/out/file', false, true],
    ['lib/gen', true, true],
    ['lib/a/b/gen', true, true],
    ['other/gen', true, false],
    ['abc', false, true],
    ['x.md', false, true],
    ['z.md', false, false],
    ['#hash', false, true],
  ])('%s (dir=%s) ignored=%s', (path, isDir, expected) => {
    expect(ignored(path, isDir)).toBe(expected);
  });
});
