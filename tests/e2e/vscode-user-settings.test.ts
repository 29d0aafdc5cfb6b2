/**
 * REST Client environments from the user's VS Code settings and from a multi-root
 * `*.code-workspace` file, through the built bin/dial.js against a recording server on
 * 127.0.0.1: `{{host}}` from the user's settings, `{{token}}` from the workspace file (over the
 * user's), the opt-out DIAL_VSCODE_USER_SETTINGS=0, where `dial env list` says an environment
 * comes from, and a broken file's warning at its line. The user's settings live in a temp home
 * folder (HOME, XDG_CONFIG_HOME, APPDATA); the real one is never read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** The environment of a run whose home folder holds `settings` as VS Code's user settings. */
function homeWith(settings: string): { env: Record<string, string | undefined>; path: string } {
  const home = tempDir('dial-vscode-home-');
  write(home, { '.config/Code/User/settings.json': settings });
  return {
    // DIAL_VSCODE_USER_SETTINGS unset: the default path under XDG_CONFIG_HOME is used.
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      APPDATA: join(home, 'AppData'),
      DIAL_VSCODE_USER_SETTINGS: undefined,
    },
    path: join(home, '.config', 'Code', 'User', 'settings.json'),
  };
}

const REQUEST = '### me\nGET {{host}}/me?v={{version}}\nAuthorization: Bearer {{token}}\n';

/** `outer/{team.code-workspace, api/.git, api/requests/me.rest}`: the workspace file beside the repository. */
function workspace(workspaceFile: string): { outer: string; repo: string } {
  const outer = tempDir('dial-vscode-e2e-');
  write(outer, {
    'team.code-workspace': workspaceFile,
    'api/.git/HEAD': 'ref: refs/heads/main\n',
    'api/requests/me.rest': REQUEST,
  });
  return { outer, repo: join(outer, 'api') };
}

const WORKSPACE_FILE = `{
  // VS Code multi-root workspace
  "folders": [{ "path": "api" }, { "path": "web" }],
  "settings": {
    "rest-client.environmentVariables": {
      "local": { "token": "from-workspace" },
    },
  },
}
`;

function userSettings(host: string): string {
  return `{
  "workbench.colorTheme": "Default Dark Modern",
  "rest-client.environmentVariables": {
    "$shared": { "version": "7" },
    "local": { "host": "${host}", "token": "from-user" },
  },
}
`;
}

describe("REST Client environments from the user's VS Code settings and a .code-workspace file", () => {
  it('dial run fills {{host}} from the user settings and {{token}} from the workspace file', async () => {
    const server = await startRecordingServer();
    try {
      const { repo } = workspace(WORKSPACE_FILE);
      const { env, path } = homeWith(userSettings(server.url));
      const run = await runCli(['run', join('requests', 'me.rest'), '-e', 'local'], { cwd: repo, env });
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests).toHaveLength(1);
      const [me] = server.requests;
      expect(me.url).toBe('/me?v=7');
      // The workspace file's token wins over the user's, as VS Code merges the levels.
      expect(me.headers.authorization).toBe('Bearer from-workspace');

      const list = await runCli(['env', 'list'], { cwd: repo, env: { ...env, NO_COLOR: '1' } });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toContain(`local (VS Code user settings: ${path}; VS Code workspace: `);
      expect(list.stdout).toContain('team.code-workspace)');
      const json = JSON.parse((await runCli(['env', 'list', '--json'], { cwd: repo, env })).stdout);
      expect(json.environments).toEqual([
        { name: 'local', default: false, files: [path, join(dirname(repo), 'team.code-workspace')] },
      ]);
      const show = await runCli(['env', 'show', 'local'], { cwd: repo, env: { ...env, NO_COLOR: '1' } });
      expect(show.stdout).toMatch(new RegExp(`^host += ${server.url.replace(/[.]/g, '\\.')} +${path}$`, 'm'));
    } finally {
      await server.close();
    }
  });

  it('DIAL_VSCODE_USER_SETTINGS=0 leaves the user settings out: {{host}} is undefined and nothing is sent', async () => {
    const server = await startRecordingServer();
    try {
      const { repo } = workspace(WORKSPACE_FILE);
      const { env } = homeWith(userSettings(server.url));
      const run = await runCli(['run', join('requests', 'me.rest'), '-e', 'local'], {
        cwd: repo,
        env: { ...env, DIAL_VSCODE_USER_SETTINGS: '0' },
      });
      expect(run.code).toBe(3);
      expect(run.stdout).toContain("variable 'host' is not defined");
      // It names where it looked: the workspace file, no user settings.
      expect(run.stdout).toContain("environment 'local' (");
      expect(run.stdout).toContain('team.code-workspace)');
      expect(server.requests).toHaveLength(0);
      const list = await runCli(['env', 'list'], { cwd: repo, env: { ...env, DIAL_VSCODE_USER_SETTINGS: '0' } });
      expect(list.stdout).not.toContain('user settings');
    } finally {
      await server.close();
    }
  });

  it('a user settings file that does not parse is a warning at its line; the request runs with what else is defined', async () => {
    const server = await startRecordingServer();
    try {
      const { repo } = workspace(WORKSPACE_FILE);
      const { env, path } = homeWith('{\n  "rest-client.environmentVariables": {\n    "local": {}\n  "x": 1\n}\n');
      const run = await runCli(
        ['run', join('requests', 'me.rest'), '-e', 'local', '--var', `host=${server.url}`, '--var', 'version=1'],
        { cwd: repo, env },
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`${path}:4`);
      expect(run.stderr).toContain('does not parse');
      expect(run.stderr).toContain('DIAL_VSCODE_USER_SETTINGS=0');
      expect(server.requests[0].headers.authorization).toBe('Bearer from-workspace');
    } finally {
      await server.close();
    }
  });

  it('a workspace file that does not parse is a warning at its line, never a crash', async () => {
    const server = await startRecordingServer();
    try {
      const { outer, repo } = workspace('{\n  "folders": [{ "path": "api" }],\n  "settings": { ]\n}\n');
      const { env } = homeWith(userSettings(server.url));
      const run = await runCli(['run', join('requests', 'me.rest'), '-e', 'local'], { cwd: repo, env });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`${join(outer, 'team.code-workspace')}:3`);
      // Without the workspace file the user's token is the one sent.
      expect(server.requests[0].headers.authorization).toBe('Bearer from-user');
    } finally {
      await server.close();
    }
  });

  it('dial check names the user settings it read, and reports a broken workspace file at its line', async () => {
    const { repo } = workspace(WORKSPACE_FILE);
    const { env, path } = homeWith(userSettings('http://127.0.0.1:9'));
    const check = await runCli(['check', join('requests', 'me.rest')], { cwd: repo, env });
    expect(check.code, check.stdout + check.stderr).toBe(0);
    expect(check.stdout).toBe('');
    expect(check.stderr).toContain(`REST Client environments from your VS Code user settings ${path}`);
    // Without them, `host` and `version` are undefined in 'local'.
    const off = await runCli(['check', join('requests', 'me.rest')], {
      cwd: repo,
      env: { ...env, DIAL_VSCODE_USER_SETTINGS: '0' },
    });
    expect(off.code).toBe(1);
    expect(off.stdout).toContain("requests/me.rest:2:5: error: undefined variable 'host' in environment 'local'");
    expect(off.stderr).not.toContain('user settings');

    const broken = workspace('{\n  "folders": [{ "path": "api" }],\n  "settings": { ]\n}\n');
    const brokenCheck = await runCli(['check', join('requests', 'me.rest')], { cwd: broken.repo, env });
    expect(brokenCheck.stdout).toContain(`${join(broken.outer, 'team.code-workspace')}:3:1: warning: does not parse`);
  });

  it("a file another tool's marks make that tool's does not see the user settings", async () => {
    const server = await startRecordingServer();
    try {
      const { repo } = workspace(WORKSPACE_FILE);
      write(repo, { 'requests/jb.http': `# @dialect jetbrains\n${REQUEST}` });
      const { env } = homeWith(userSettings(server.url).replace('"local"', '"mine": { "host": "x" }, "local"'));
      // `local` is the workspace file's too: it exists, but `host` (the user's) is not read.
      const run = await runCli(['run', join('requests', 'jb.http'), '-e', 'local'], { cwd: repo, env });
      expect(run.code).toBe(3);
      expect(run.stdout).toContain("variable 'host' is not defined");
      // `mine` is the user's alone: an unknown environment for this file, saying why.
      const mine = await runCli(['run', join('requests', 'jb.http'), '-e', 'mine'], { cwd: repo, env });
      expect(mine.code).toBe(3);
      expect(mine.stdout + mine.stderr).toContain("unknown environment 'mine'");
      expect(mine.stdout + mine.stderr).toContain('only your VS Code user settings');
      expect(server.requests).toHaveLength(0);
      // The same request without the `# @dialect` line (REST Client's by the workspace file's keys) reads them.
      write(repo, { 'requests/plain.http': REQUEST });
      const plain = await runCli(['run', join('requests', 'plain.http'), '-e', 'local'], { cwd: repo, env });
      expect(plain.code, plain.stdout + plain.stderr).toBe(0);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });
});
