/** Shared pieces of the fault suite: a temp folder per case and a guard that nothing outside it changed. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';

const REPO = resolve(import.meta.dirname, '../..');

function listing(dir: string): string {
  return readdirSync(dir)
    .filter((name) => !name.startsWith('dist.tmp-'))
    .map((name) => {
      try {
        return `${name}:${statSync(join(dir, name)).mtimeMs}`;
      } catch {
        return name;
      }
    })
    .sort()
    .join('\n');
}

/**
 * Watches the places an escaping script or a wrong write would touch: the repository folder,
 * a marker path outside the test's temp folder (that the hostile input names) and the home folder.
 */
export function outsideGuard(): { marker: string; assertUntouched: () => void } {
  const marker = join(tmpdir(), `dial-fault-marker-${randomUUID()}`);
  const home = process.env.HOME ?? tmpdir();
  const before = { repo: listing(REPO), home: listing(home) };
  return {
    marker,
    assertUntouched() {
      if (existsSync(marker)) throw new Error(`a file outside the test folder was written: ${marker}`);
      if (listing(REPO) !== before.repo) throw new Error('the repository folder changed');
      if (listing(home) !== before.home) throw new Error('the home folder changed');
    },
  };
}
