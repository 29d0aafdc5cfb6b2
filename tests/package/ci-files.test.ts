// What CI users get: the GitHub Action (action.yml, whose shell part scripts/action-run.sh is
// run here with the inputs it would get) and the Dockerfile. No Docker engine is available to
// the tests, so the image itself is not built here: the test checks its pieces instead (base
// image, entry point, the files it copies and runs, and that its install step is the offline
// tarball install tests/package/pack.test.ts performs for real).
import { spawn } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIAL_BIN, tempDir } from '../helpers/cli.js';
import { startDialEcho, type RunningEcho } from '../helpers/echo-server.js';

const root = join(import.meta.dirname, '../..');
const ACTION_RUN = join(root, 'scripts/action-run.sh');

interface ActionStep {
  shell?: string;
  env?: Record<string, string>;
  run: string;
}
interface Action {
  inputs: Record<string, { default?: string; required?: boolean }>;
  runs: { using: string; steps: ActionStep[] };
}

/** Runs scripts/action-run.sh as the action does, with INPUT_* variables; dial is the repo's build. */
function actionRun(
  inputs: Record<string, string>,
  cwd: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [ACTION_RUN], {
      cwd,
      env: {
        ...process.env,
        ...inputs,
        DIAL_COMMAND: DIAL_BIN,
        DIAL_CONFIG_DIR: tempDir('dial-action-config-'),
        NO_COLOR: '1',
        CI: 'true',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('action.yml', () => {
  const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;

  it('is a composite action with the inputs files, env, reporter, shard, args (and version)', () => {
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual(['args', 'env', 'files', 'reporter', 'shard', 'version']);
    expect(action.inputs.files.default).toBe('.');
    expect(action.inputs.reporter.default).toBe('github');
  });

  it('installs dial-http, then hands every input to scripts/action-run.sh as INPUT_*, never pasted into a script', () => {
    const [install, runStep] = action.runs.steps;
    expect(install.run).toContain('npm install --global');
    expect(install.run).toContain('dial-http@');
    expect(runStep.run).toContain('$GITHUB_ACTION_PATH/scripts/action-run.sh');
    accessSync(ACTION_RUN, constants.X_OK);
    for (const name of ['files', 'env', 'reporter', 'shard', 'args'])
      expect(runStep.env?.[`INPUT_${name.toUpperCase()}`]).toBe(`\${{ inputs.${name} }}`);
    for (const step of action.runs.steps) {
      expect(step.shell).toBe('bash');
      expect(step.run).not.toContain('${{');
    }
  });
});

describe('scripts/action-run.sh', () => {
  let echo: RunningEcho;
  let workspace: string;

  beforeAll(async () => {
    echo = await startDialEcho();
    workspace = tempDir('dial-action-');
    cpSync(join(root, 'examples'), join(workspace, 'examples'), { recursive: true });
    const envFile = join(workspace, 'examples/http-client.env.json');
    writeFileSync(envFile, readFileSync(envFile, 'utf8').replace('127.0.0.1:4010', `127.0.0.1:${echo.port}`));
  });
  afterAll(async () => {
    await echo?.stop();
  });

  it('builds `dial run` from the inputs, prints it, and runs it against dial echo', async () => {
    const result = await actionRun(
      {
        INPUT_FILES: 'examples',
        INPUT_ENV: 'local',
        INPUT_REPORTER: 'dot junit:out/junit.xml',
        INPUT_SHARD: '1/1',
        INPUT_ARGS: '--retry 1 --var user=ada',
      },
      workspace,
    );
    expect(result.stdout.split('\n')[0]).toBe(
      `+ ${DIAL_BIN} run examples -e local --reporter dot --reporter junit:out/junit.xml --shard 1/1 --retry 1 --var user=ada`,
    );
    expect(result.stdout).toMatch(/^4 passed, 0 failed, 0 errored, 0 skipped/m);
    expect(result.status).toBe(0);
    expect(readFileSync(join(workspace, 'out/junit.xml'), 'utf8')).toContain('<testsuites');
  });

  it('defaults: every file under the current folder, the github reporter', async () => {
    const result = await actionRun(
      { INPUT_FILES: '', INPUT_ENV: 'local', INPUT_REPORTER: '', INPUT_SHARD: '', INPUT_ARGS: '' },
      join(workspace, 'examples'),
    );
    expect(result.stdout.split('\n')[0]).toBe(`+ ${DIAL_BIN} run . -e local --reporter github`);
    expect(result.status).toBe(0);
  });

  it('passes an input on as one word of text: no shell code runs from it', async () => {
    const marker = join(workspace, 'pwned');
    const result = await actionRun(
      {
        INPUT_FILES: 'examples',
        INPUT_ENV: '$(touch pwned);`touch pwned`',
        INPUT_REPORTER: 'dot',
        INPUT_SHARD: '',
        INPUT_ARGS: '',
      },
      workspace,
    );
    expect(result.stderr).toContain('E_ENV');
    expect(result.stderr).toContain('$(touch pwned);`touch pwned`');
    expect(result.status).toBe(3);
    expect(existsSync(marker)).toBe(false);
    // Nor is a word globbed: `*` reaches dial as `*`.
    const glob = await actionRun(
      { INPUT_FILES: '*', INPUT_ENV: 'local', INPUT_REPORTER: 'dot', INPUT_SHARD: '', INPUT_ARGS: '' },
      workspace,
    );
    expect(glob.stdout.split('\n')[0]).toBe(`+ ${DIAL_BIN} run \\* -e local --reporter dot`);
    expect(glob.stderr).toContain('no such file or folder');
    expect(glob.status).toBe(3);
  });
});

describe('Dockerfile', () => {
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const instructions = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));

  it('builds on node:20-alpine and ends with ENTRYPOINT ["dial"]', () => {
    const bases = instructions.filter((line) => line.startsWith('FROM '));
    expect(bases.length).toBeGreaterThan(0);
    for (const base of bases) expect(base).toMatch(/^FROM node:20-alpine\b/);
    expect(instructions).toContain('ENTRYPOINT ["dial"]');
  });

  it('copies and runs only files that exist, and leaves build output out of the context', () => {
    for (const copy of instructions.filter((line) => line.startsWith('COPY ') && !line.includes('--from'))) {
      const sources = copy.split(/\s+/).slice(1, -1);
      for (const source of sources) expect(existsSync(join(root, source)), `${copy}: ${source}`).toBe(true);
    }
    for (const [, script] of dockerfile.matchAll(/\bnode (scripts\/\S+)/g))
      expect(existsSync(join(root, script)), script).toBe(true);
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', 'dist']));
  });

  it('installs the tarball the way tests/package/pack.test.ts does (global, offline: no dependency to fetch)', () => {
    expect(dockerfile).toMatch(/npm pack --ignore-scripts/);
    expect(dockerfile).toMatch(/npm install --global --offline \/tmp\/dial-http\.tgz/);
  });
});
