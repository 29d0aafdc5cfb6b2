// The launcher bin/dial.js as an installed binary starts it: through its shebang line. Alpine
// images and most CI containers have BusyBox's `env`, which has no `-S`, and Linux passes
// everything after the interpreter as one word; so the line must be exactly `env node`.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';

const root = join(import.meta.dirname, '../..');
const version = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;

function which(command: string): string | undefined {
  const found = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

/**
 * Runs `script` with its arguments in a private mount namespace where /usr/bin/env is BusyBox,
 * so the kernel's shebang handling meets BusyBox `env` exactly as on Alpine.
 */
function runUnderBusyBoxEnv(busybox: string, script: string, args: string[]) {
  const quoted = [script, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawnSync('unshare', ['--mount', 'sh', '-c', `mount --bind ${busybox} /usr/bin/env && exec ${quoted}`], {
    encoding: 'utf8',
    env: { ...process.env, DIAL_CONFIG_DIR: tempDir(), NO_COLOR: '1' },
  });
}

describe('bin/dial.js launcher', () => {
  it('has a shebang that passes no flag to node (no `env -S`), so any `env` can start it', () => {
    const firstLine = readFileSync(DIAL_BIN, 'utf8').split('\n')[0];
    expect(firstLine).not.toMatch(/\s-S\b/);
    expect(firstLine).toBe('#!/usr/bin/env node');
    // Executable, so an installed symlink to it runs through the shebang.
    expect(execFileSync(DIAL_BIN, ['--version'], { encoding: 'utf8' })).toBe(`${version}\n`);
  });

  // scripts/ensure-busybox.sh (run by `npm test`) installs BusyBox where it can (root with
  // apt-get, as CI is). In CI a missing BusyBox or namespace fails this test rather than skip it.
  const busybox = which('busybox');
  const unshare = which('unshare');
  const canRun =
    busybox !== undefined && unshare !== undefined && spawnSync('unshare', ['--mount', 'true']).status === 0;
  if (!canRun && !process.env.CI)
    console.warn(
      'launcher test: BusyBox env not tested here (needs busybox, and root for unshare --mount); CI runs it',
    );

  it.skipIf(!canRun && !process.env.CI)(
    'starts under BusyBox env (as on Alpine): --version and a command through the program',
    () => {
      expect(busybox, 'busybox is not installed: scripts/ensure-busybox.sh could not install it').toBeDefined();
      expect(canRun, 'cannot make a private mount namespace (unshare --mount needs root)').toBe(true);

      // The setup really is BusyBox: a script with the old `env -S node --` shebang fails under it.
      const control = join(tempDir(), 'split-shebang.js');
      writeFileSync(control, "#!/usr/bin/env -S node --\nconsole.log('ran');\n");
      chmodSync(control, 0o755);
      const refused = runUnderBusyBoxEnv(busybox!, control, []);
      expect(refused.status).not.toBe(0);
      expect(refused.stdout).not.toContain('ran');

      const versionRun = runUnderBusyBoxEnv(busybox!, DIAL_BIN, ['--version']);
      expect(versionRun.stderr).toBe('');
      expect(versionRun.stdout).toBe(`${version}\n`);
      expect(versionRun.status).toBe(0);

      const offline = runUnderBusyBoxEnv(busybox!, DIAL_BIN, ['send', '--offline', ':4010/get', 'q==1']);
      expect(offline.stdout).toContain('GET /get?q=1 HTTP/1.1');
      expect(offline.status).toBe(0);
    },
  );
});
