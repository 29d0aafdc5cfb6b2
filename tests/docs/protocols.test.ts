// docs/protocols.md's examples run as written: its ```http blocks against a real `dial echo`,
// and its `dial send` lines (pointed at the echo's port), so the page cannot drift from dial.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startDialEcho, type RunningEcho } from '../helpers/echo-server.js';

const page = readFileSync(join(import.meta.dirname, '../../docs/protocols.md'), 'utf8');
let echo: RunningEcho;
beforeAll(async () => {
  echo = await startDialEcho();
});
afterAll(() => echo.stop());

describe('docs/protocols.md', () => {
  it('every ```http example passes dial run against dial echo', async () => {
    const blocks = [...page.matchAll(/```http\n([\s\S]*?)```/g)].map((match) => match[1]);
    expect(blocks.length).toBe(2);
    const dir = tempDir('dial-docs-protocols-');
    writeFileSync(join(dir, 'examples.http'), `@host = ${echo.url}\n@user = ada\n\n${blocks.join('\n')}`);
    const result = await runCli(['run', 'examples.http'], { cwd: dir });
    expect(result.stdout).toContain('2 passed, 0 failed');
    expect(result.code).toBe(0);
  });

  it('the dial send lines print one line per event', async () => {
    // The command up to a pipe or comment: `dial send --json :4010/sse | jq …` sends `--json :4010/sse`.
    const lines = [...page.matchAll(/^dial send ([^|#]*?)\s*[|#]/gm)].map((match) => match[1].split(/\s+/));
    expect(lines.length).toBe(3);
    for (const line of lines) {
      const args = line.map((arg) => arg.replace(':4010', `:${echo.port}`));
      const result = await runCli(['send', ...args]);
      expect(result.code).toBe(0);
      const printed = result.stdout.trimEnd().split('\n');
      const count = Number(/^count==(\d+)$/.exec(args.find((arg) => arg.startsWith('count==')) ?? '')?.[1] ?? 3);
      expect(printed).toHaveLength(count);
      for (const event of printed) {
        if (args.includes('--json'))
          expect(JSON.parse(event)).toMatchObject({ event: 'message', data: expect.any(String) });
        else expect(event).toMatch(/^event: message {2}id: \d+ {2}data: \{"id":/);
      }
    }
  });
});
