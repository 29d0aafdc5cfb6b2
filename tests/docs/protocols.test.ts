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
    expect(lines.length).toBe(2);
    const [plain, json] = lines.map((args) => args.map((arg) => arg.replace(':4010', `:${echo.port}`)));
    const first = await runCli(['send', ...plain]);
    expect(first.code).toBe(0);
    expect(first.stdout.trimEnd().split('\n')).toHaveLength(3);
    const second = await runCli(['send', ...json]);
    expect(second.code).toBe(0);
    for (const line of second.stdout.trimEnd().split('\n'))
      expect(JSON.parse(line)).toMatchObject({ event: 'message', data: expect.any(String) });
  });
});
