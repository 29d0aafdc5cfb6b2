/**
 * The layer rules hold: a file under src/core that imports src/ui or Commander, or a file under
 * src/ui that imports src/commands, fails ESLint; two folders importing each other fail the
 * cycle check. Each case writes a real file into src/, checks it, and removes it.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script without type declarations
import { findCycles } from '../../scripts/check-cycles.mjs';

const root = resolve(import.meta.dirname, '../..');
const written: string[] = [];

function writeProbe(relativePath: string, text: string): string {
  const path = join(root, relativePath);
  mkdirSync(resolve(path, '..'), { recursive: true });
  writeFileSync(path, text);
  written.push(path);
  return path;
}

async function lintMessages(path: string): Promise<Array<{ ruleId: string | null; message: string }>> {
  const [result] = await new ESLint({ cwd: root }).lintFiles([path]);
  return result.messages.map(({ ruleId, message }) => ({ ruleId, message }));
}

afterEach(() => {
  for (const path of written.splice(0)) rmSync(path, { recursive: true, force: true });
});

describe('layer boundaries', () => {
  it('fails a core file that imports the UI and Commander', async () => {
    const probe = writeProbe(
      `src/core/lint-probe-${process.pid}.ts`,
      "import { Command } from 'commander';\nimport { App } from '../ui/App.js';\n\nexport const probe = [Command, App];\n",
    );
    const messages = await lintMessages(probe);
    const layers = messages.filter((message) => message.ruleId === 'dial/layers');
    expect(layers.map((message) => message.message)).toEqual([
      expect.stringContaining("must not import 'commander'"),
      expect.stringContaining('src/core must not import src/ui'),
    ]);
  }, 60_000);

  it('fails a core file that imports a command lazily, and one that prints', async () => {
    const probe = writeProbe(
      `src/core/http/lint-probe-${process.pid}.ts`,
      "export async function probe(): Promise<void> {\n  await import('../../commands/send/index.js');\n  console.log('x');\n  process.exit(1);\n}\n",
    );
    const rules = (await lintMessages(probe)).map((message) => message.ruleId);
    expect(rules).toEqual(['dial/layers', 'no-console', 'no-restricted-properties']);
  }, 60_000);

  it('lets core read process.env and the current folder only as overridable defaults', async () => {
    const probe = writeProbe(
      `src/core/http/lint-probe-env-${process.pid}.ts`,
      [
        'export const home = process.env.HOME;',
        'export const here = process.cwd();',
        'export function withDefault(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {',
        "  return `${env.HOME ?? ''}${cwd}`;",
        '}',
        'export function withFallback(options: { env?: NodeJS.ProcessEnv; cwd?: string }): string {',
        "  return `${(options.env ?? process.env).HOME ?? ''}${options.cwd ?? process.cwd()}`;",
        '}',
        '',
      ].join('\n'),
    );
    const messages = await lintMessages(probe);
    expect(messages.map((message) => [message.ruleId, message.message.split(':')[0]])).toEqual([
      ['no-restricted-syntax', 'src/core reads process.env only as an overridable default'],
      ['no-restricted-syntax', 'src/core reads the current folder only as an overridable default'],
    ]);
  }, 60_000);

  it('fails a UI file that imports a command, and passes one that imports core', async () => {
    const bad = writeProbe(
      `src/ui/lint-probe-${process.pid}.ts`,
      "export { registerSend } from '../commands/send/index.js';\n",
    );
    const good = writeProbe(
      `src/ui/lint-probe-ok-${process.pid}.ts`,
      "export { DialError } from '../core/errors.js';\n",
    );
    expect((await lintMessages(bad)).map((message) => message.ruleId)).toEqual(['dial/layers']);
    expect(await lintMessages(good)).toEqual([]);
  }, 60_000);
});

describe('folder cycles', () => {
  it('reports two core folders that import each other, and nothing once the cycle is gone', () => {
    const a = `src/core/probe-a-${process.pid}`;
    const b = `src/core/probe-b-${process.pid}`;
    writeProbe(`${a}/index.ts`, `export { b } from '../probe-b-${process.pid}/index.js';\nexport const a = 1;\n`);
    writeProbe(`${b}/index.ts`, `import { a } from '../probe-a-${process.pid}/index.js';\nexport const b = a;\n`);
    written.push(join(root, a), join(root, b));
    const { problems } = findCycles() as { problems: string[] };
    expect(problems).toEqual([
      expect.stringMatching(new RegExp(`^folder cycle: core/probe-a-${process.pid}, core/probe-b-${process.pid}`)),
    ]);
    writeProbe(`${b}/index.ts`, 'export const b = 2;\n');
    expect((findCycles() as { problems: string[] }).problems).toEqual([]);
  });
});
