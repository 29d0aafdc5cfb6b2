// Product files cite only files in the repository. The team's working notes live outside it,
// so a reader of README.md, docs/ or the code cannot follow a reference to them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const FORBIDDEN = [/\.\.\/shared/, /DESIGN\.md/, /DESIGN §/, /HTTP-FORMAT\.md/, /§\d/];

function filesUnder(path: string): string[] {
  const full = join(root, path);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return [];
  }
  if (stat.isFile()) return [path];
  return readdirSync(full).flatMap((name) => filesUnder(join(path, name)));
}

/** Every `file:line: text` in `paths` that matches one of `patterns`. */
function citations(paths: string[], patterns: RegExp[] = FORBIDDEN): string[] {
  return paths.flatMap((path) =>
    readFileSync(join(root, path), 'utf8')
      .split('\n')
      .flatMap((line, index) =>
        patterns.some((pattern) => pattern.test(line))
          ? [`${relative(root, join(root, path))}:${index + 1}: ${line.trim()}`]
          : [],
      ),
  );
}

describe('citations', () => {
  const scanned = [
    'README.md',
    'CONTRIBUTING.md',
    'CHANGELOG.md',
    'docs',
    'src',
    'bin',
    'scripts',
    'bench',
    'examples',
    'action.yml',
    'Dockerfile',
  ].flatMap(filesUnder);

  it('scans the product files', () => {
    expect(scanned).toContain('README.md');
    expect(scanned).toContain('bin/dial.js');
    expect(scanned).toContain('bench/run.mjs');
    expect(scanned.filter((path) => path.startsWith('src/')).length).toBeGreaterThan(50);
  });

  it('the product and contributor files cite no file outside the repository', () => {
    expect(citations(scanned)).toEqual([]);
  });

  it('would catch each kind of citation', () => {
    const lines = ['see ../shared/x', 'DESIGN.md', '(DESIGN §9)', 'HTTP-FORMAT.md', 'rule §4'];
    for (const line of lines)
      expect(
        FORBIDDEN.some((pattern) => pattern.test(line)),
        line,
      ).toBe(true);
    expect(FORBIDDEN.some((pattern) => pattern.test('docs/http-format.md, section 4'))).toBe(false);
  });
});
