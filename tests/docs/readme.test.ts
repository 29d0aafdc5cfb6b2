// Runs every `dial …` command of README.md's "Try it" section, in a copy of examples/ against a
// real `dial echo` on a free port, so the README cannot drift from what dial does. A command
// passes when it exits 0 (or the code its line names: `# exits N`) and, in a `$ …` session
// block, prints what the README shows under it (spacing, timings and the version aside).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';
import { startDialEcho, type RunningEcho } from '../helpers/echo-server.js';

const root = join(import.meta.dirname, '../..');
const README_PORT = '4010';

interface DocCommand {
  command: string;
  /** The output shown under a `$ ` line; undefined for a line of a plain command block. */
  expected?: string;
  exitCode: number;
}

/** The README section from `## heading` to the next `## `. */
function readmeSection(readme: string, heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README.md has no "## ${heading}" section`);
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end < 0 ? undefined : end);
}

/** The commands of a section's ```sh blocks: session blocks (`$ cmd` + output) and plain ones. */
function docCommands(section: string): DocCommand[] {
  const commands: DocCommand[] = [];
  for (const [, body] of section.matchAll(/```sh\n([\s\S]*?)```/g)) {
    const lines = body.replace(/\n$/, '').split('\n');
    const session = lines[0].startsWith('$ ');
    for (let index = 0; index < lines.length; index++) {
      const line = lines[index];
      if (session) {
        if (!line.startsWith('$ ')) continue;
        const output: string[] = [];
        while (index + 1 < lines.length && !lines[index + 1].startsWith('$ ')) output.push(lines[++index]);
        commands.push(docCommand(line.slice(2), output.join('\n')));
      } else if (/^(\S+=\S+ )*dial |\| dial /.test(line) && !/^dial echo\b/.test(line)) {
        commands.push(docCommand(line, undefined));
      }
    }
  }
  return commands;
}

function docCommand(command: string, expected: string | undefined): DocCommand {
  const exits = /#.*\bexits (\d+)/.exec(command);
  return { command, expected, exitCode: exits ? Number(exits[1]) : 0 };
}

/** What stays when spacing, timings, the version and the echo port are set aside. */
function shape(text: string, port: number): string {
  return text
    .replaceAll(`:${port}`, `:${README_PORT}`)
    .replace(/\b\d+ms\b/g, 'Nms')
    .replace(/dial\/\d+\.\d+\.\d+[^\s"']*/g, 'dial/VERSION')
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trimEnd())
    .join('\n')
    .trim();
}

const readme = readFileSync(join(root, 'README.md'), 'utf8');
const tryIt = readmeSection(readme, 'Try it');
const commands = docCommands(tryIt);

let echo: RunningEcho;
let workspace: string;
let binDir: string;
let configDir: string;

beforeAll(async () => {
  echo = await startDialEcho();
  workspace = join(tempDir('dial-readme-'), 'examples');
  cpSync(join(root, 'examples'), workspace, { recursive: true });
  const envFile = join(workspace, 'http-client.env.json');
  writeFileSync(
    envFile,
    readFileSync(envFile, 'utf8').replaceAll(`127.0.0.1:${README_PORT}`, `127.0.0.1:${echo.port}`),
  );
  // `dial` on PATH is the launcher itself, started through its shebang as an installed one is.
  binDir = tempDir('dial-readme-bin-');
  mkdirSync(binDir, { recursive: true });
  symlinkSync(DIAL_BIN, join(binDir, 'dial'));
  configDir = tempDir('dial-readme-config-');
});

afterAll(async () => {
  await echo?.stop();
});

describe('README "Try it"', () => {
  it(`starts from examples/ with dial echo on ${README_PORT}, and has commands to check (${commands.length})`, () => {
    expect(tryIt).toMatch(/^cd examples$/m);
    expect(tryIt).toMatch(/^dial echo\b/m);
    expect(readFileSync(join(root, 'examples/http-client.env.json'), 'utf8')).toContain(
      `"host": "http://127.0.0.1:${README_PORT}"`,
    );
    expect(commands.length).toBeGreaterThanOrEqual(15);
    expect(commands.filter((command) => command.expected !== undefined).length).toBeGreaterThanOrEqual(8);
  });

  it.each(commands.map((entry) => [entry.command, entry] as const))('%s', (_name, entry) => {
    const result = spawnSync('sh', ['-c', entry.command.replaceAll(`:${README_PORT}`, `:${echo.port}`)], {
      cwd: workspace,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${binDir}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        DIAL_CONFIG_DIR: configDir,
        NO_COLOR: '1',
        FORCE_COLOR: undefined,
        CI: undefined,
      },
      timeout: 30_000,
    });
    const output = result.stdout + result.stderr;
    expect(result.status, `exit code of \`${entry.command}\`; output:\n${output}`).toBe(entry.exitCode);
    if (entry.expected !== undefined) expect(shape(output, echo.port)).toBe(shape(entry.expected, echo.port));
  });
});
