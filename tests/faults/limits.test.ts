/**
 * Limits instead of crashes: exponential variables stop at the expansion limit with E_VAR_TOO_LARGE
 * at file:line (exit 3), before V8's string limit would crash.
 */
import { describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';
import { outsideGuard } from './helpers.js';

describe('fault: limits', () => {
  it('@a1={{a0}}{{a0}} thirty deep: E_VAR_TOO_LARGE with file:line, exit 3, nothing sent', async () => {
    const guard = outsideGuard();
    const server = await startRecordingServer();
    try {
      const dir = tempDir('dial-fault-');
      const lines = ['@a0 = xxxxxxxxxxxxxxxx'];
      for (let i = 1; i <= 30; i++) lines.push(`@a${i} = {{a${i - 1}}}{{a${i - 1}}}`);
      lines.push('', '### bomb', `POST ${server.url}/bomb`, 'Content-Type: text/plain', '', '{{a30}}', '');
      writeFileSync(join(dir, 'bomb.http'), lines.join('\n'));
      const send = await runCli(['send', 'bomb.http#bomb'], { cwd: dir });
      expect(send.code).toBe(3);
      expect(send.stderr).toMatch(/error\[E_VAR_TOO_LARGE\] .*bomb\.http:\d+.*expands to more than 16 Mi characters/);
      expect(send.stderr).not.toMatch(/RangeError|internal error|\n\s+at /);
      const run = await runCli(['run', 'bomb.http'], { cwd: dir });
      expect(run.code).toBe(3);
      expect(run.stdout + run.stderr).toMatch(/E_VAR_TOO_LARGE/);
      expect(server.requests).toHaveLength(0);
      guard.assertUntouched();
    } finally {
      await server.close();
    }
  });
});
