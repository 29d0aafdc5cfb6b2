/**
 * REST Client environments at VS Code's three levels: the user's settings.json, a multi-root
 * `*.code-workspace` file's `settings`, the folder's `.vscode/settings.json`, merged as VS Code
 * merges an object setting (key by key, the nearer level winning), under the env files. Every
 * test points the user's settings at a temp folder (XDG_CONFIG_HOME/HOME/APPDATA or
 * DIAL_VSCODE_USER_SETTINGS in the env it passes); the real home folder is never read.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EnvStore, readsVscodeUserSettings } from '../../../src/core/env/index.js';
import { chooseDialect, onParseWarning, parseHttpFile } from '../../../src/core/httpfile/index.js';
import type { ParseWarning } from '../../../src/core/httpfile/types.js';
import { findWorkspaceFile, readSettingsFile, userSettingsPath } from '../../../src/core/vscode-config.js';
import { tempDir } from '../../helpers/cli.js';

function write(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

/** A home folder (XDG_CONFIG_HOME under it) whose VS Code user settings are `settings`. */
function home(settings: string): Record<string, string> {
  const dir = tempDir('dial-vscode-home-');
  write(dir, { '.config/Code/User/settings.json': settings });
  return { HOME: dir, XDG_CONFIG_HOME: join(dir, '.config'), APPDATA: join(dir, 'AppData') };
}

const USER = `{
  // the user's own settings
  "editor.fontSize": 14,
  "rest-client.environmentVariables": {
    "$shared": { "version": "v1", "team": "user-team" },
    "local": { "host": "http://user.example", "token": "user-token", "region": "eu" },
    "mine": { "host": "http://mine.example" },
  },
  "rest-client.defaultHeaders": { "X-From": "user", "X-User": "1" },
}`;

/** `/outer/{demo.code-workspace, repo/.git, repo/.vscode/settings.json, repo/api/}`: the workspace file a folder above the repository. */
function layered(options: { folderSettings?: string; workspace?: string } = {}): { outer: string; api: string } {
  const outer = tempDir('dial-vscode-levels-');
  write(outer, {
    'demo.code-workspace':
      options.workspace ??
      `{
  "folders": [{ "path": "repo" }, { "path": "../elsewhere" }],
  "settings": {
    "rest-client.environmentVariables": {
      "local": { "token": "workspace-token", "tenant": "acme" },
    },
    "rest-client.defaultHeaders": { "X-From": "workspace" },
  },
}`,
    'repo/.git/HEAD': 'ref: refs/heads/main\n',
    'repo/.vscode/settings.json':
      options.folderSettings ??
      '{"rest-client.environmentVariables": {"$shared": {"region": "folder-shared"}, "local": {"tenant": "folder-tenant"}}}',
    'repo/api/.keep': '',
  });
  return { outer, api: join(outer, 'repo', 'api') };
}

describe("the user's VS Code settings file", () => {
  it('is found per platform from the environment alone, and DIAL_VSCODE_USER_SETTINGS turns it off or names another', () => {
    expect(userSettingsPath({ HOME: '/home/ann' }, 'linux')).toBe('/home/ann/.config/Code/User/settings.json');
    expect(userSettingsPath({ HOME: '/home/ann', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe(
      '/xdg/Code/User/settings.json',
    );
    expect(userSettingsPath({ HOME: '/Users/ann' }, 'darwin')).toBe(
      '/Users/ann/Library/Application Support/Code/User/settings.json',
    );
    expect(userSettingsPath({ APPDATA: 'C:/Users/ann/AppData/Roaming' }, 'win32')).toBe(
      join('C:/Users/ann/AppData/Roaming', 'Code', 'User', 'settings.json'),
    );
    // No home folder known: nothing is read (no fallback to the password database).
    expect(userSettingsPath({}, 'linux')).toBeUndefined();
    for (const off of ['0', 'false', 'off', 'NO'])
      expect(userSettingsPath({ HOME: '/home/ann', DIAL_VSCODE_USER_SETTINGS: off }, 'linux')).toBeUndefined();
    expect(userSettingsPath({ HOME: '/home/ann', DIAL_VSCODE_USER_SETTINGS: '1' }, 'linux')).toBe(
      '/home/ann/.config/Code/User/settings.json',
    );
    expect(
      userSettingsPath({ HOME: '/h', DIAL_VSCODE_USER_SETTINGS: '/h/.config/VSCodium/User/settings.json' }, 'linux'),
    ).toBe('/h/.config/VSCodium/User/settings.json');
  });
});

describe('REST Client environments merged over VS Code levels', () => {
  it('user < workspace file < folder settings < env files, per variable; a named environment wins over $shared at any level', async () => {
    const { outer, api } = layered();
    write(outer, { 'repo/http-client.env.json': JSON.stringify({ local: { host: 'http://env-file.example' } }) });
    const store = new EnvStore(join(outer, 'repo'), { env: home(USER) });
    expect(await store.names(api)).toEqual(['local', 'mine']);
    const local = await store.resolve(api, 'local');
    expect(Object.fromEntries(local.values)).toEqual({
      version: 'v1', // user $shared
      team: 'user-team', // user $shared
      region: 'eu', // user `local` beats the folder's `$shared`, as in VS Code's merged object
      token: 'workspace-token', // workspace file beats the user
      tenant: 'folder-tenant', // folder beats the workspace file
      host: 'http://env-file.example', // env files beat every VS Code level
    });
    const userPath = join(store['env'].XDG_CONFIG_HOME!, 'Code', 'User', 'settings.json');
    expect(local.sources.get('version')).toBe(userPath);
    expect(local.sources.get('token')).toBe(join(outer, 'demo.code-workspace'));
    expect(local.sources.get('tenant')).toBe(join(outer, 'repo', '.vscode', 'settings.json'));
    // Default headers merge the same way: the workspace file's X-From over the user's.
    expect(local.defaultHeaders?.get('x-from')).toEqual(['X-From', 'workspace']);
    expect(local.defaultHeaders?.get('x-user')).toEqual(['X-User', '1']);
    // Where each environment comes from, lowest level first; the user's file shown by its absolute path.
    const origins = await store.origins(api);
    expect(origins.get('local')).toEqual([
      { path: userPath, vscode: 'user' },
      { path: join(outer, 'demo.code-workspace'), vscode: 'workspace-file' },
      { path: join('.vscode', 'settings.json'), vscode: 'folder' },
      { path: 'http-client.env.json' },
    ]);
    expect(origins.get('mine')).toEqual([{ path: userPath, vscode: 'user' }]);
  });

  it('DIAL_VSCODE_USER_SETTINGS=0 leaves the user level out; the project levels stay', async () => {
    const { outer, api } = layered();
    const store = new EnvStore(join(outer, 'repo'), { env: { ...home(USER), DIAL_VSCODE_USER_SETTINGS: '0' } });
    expect(await store.names(api)).toEqual(['local']);
    const local = await store.resolve(api, 'local');
    expect(Object.fromEntries(local.values)).toEqual({
      region: 'folder-shared',
      token: 'workspace-token',
      tenant: 'folder-tenant',
    });
    // And a store given no home folder at all reads no user settings either.
    expect(await new EnvStore(join(outer, 'repo'), { env: {} }).names(api)).toEqual(['local']);
  });

  it("only REST Client's files and files that name no tool read the user level", async () => {
    expect(readsVscodeUserSettings({ dialect: 'rest-client', dialectSource: 'file' })).toBe(true);
    expect(readsVscodeUserSettings({ dialect: 'jetbrains', dialectSource: 'default' })).toBe(true);
    expect(readsVscodeUserSettings({ dialect: 'jetbrains', dialectSource: 'file' })).toBe(false);
    expect(readsVscodeUserSettings({ dialect: 'jetbrains', dialectSource: 'flag' })).toBe(false);
    expect(readsVscodeUserSettings({ dialect: 'httpyac', dialectSource: 'workspace' })).toBe(false);
    expect(readsVscodeUserSettings({ dialect: 'kulala', dialectSource: 'constructs' })).toBe(false);
    const { outer, api } = layered();
    const store = new EnvStore(join(outer, 'repo'), { env: home(USER) });
    expect(await store.names(api, { vscodeUser: false })).toEqual(['local']);
    expect((await store.resolve(api, 'local', { vscodeUser: false })).values.get('host')).toBeUndefined();
    await expect(store.resolve(api, 'mine', { vscodeUser: false })).rejects.toMatchObject({
      code: 'E_ENV',
      hint: expect.stringContaining('only your VS Code user settings'),
    });
  });

  it('a workspace file applies only to the folders it lists', () => {
    const { outer } = layered();
    write(outer, { 'repo/.git/HEAD': 'x', 'other/b.http': '' });
    expect(findWorkspaceFile(join(outer, 'repo', 'api')).found?.path).toBe(join(outer, 'demo.code-workspace'));
    expect(findWorkspaceFile(join(outer, 'repo')).found?.path).toBe(join(outer, 'demo.code-workspace'));
    // `other` is not among its folders.
    expect(findWorkspaceFile(join(outer, 'other')).found).toBeUndefined();
    // A `file:` URI folder counts too.
    const uri = tempDir('dial-vscode-uri-');
    write(uri, {
      'x.code-workspace': JSON.stringify({
        folders: [{ uri: `file://${join(uri, 'svc')}` }],
        settings: { 'rest-client.environmentVariables': { dev: { a: '1' } } },
      }),
      'svc/.git/HEAD': 'x',
    });
    expect(findWorkspaceFile(join(uri, 'svc')).found?.settings).toEqual({
      'rest-client.environmentVariables': { dev: { a: '1' } },
    });
  });

  it('outside a repository it climbs to the home folder; the temp folder is never listed', () => {
    const top = tempDir('dial-vscode-norepo-');
    write(top, {
      'notes.code-workspace': JSON.stringify({ folders: [{ path: 'api' }], settings: { a: 1 } }),
      'api/requests/deep/.keep': '',
    });
    const deep = join(top, 'api', 'requests', 'deep');
    expect(findWorkspaceFile(deep, { HOME: top }).found?.path).toBe(join(top, 'notes.code-workspace'));
    // The same tree when `top` counts as the temp folder: not listed, so not found.
    write(top, { 'api/requests/other/.keep': '' });
    expect(findWorkspaceFile(join(top, 'api', 'requests', 'other'), {}, top).found).toBeUndefined();
  });

  it('the search stops one folder above the repository root', () => {
    const top = tempDir('dial-vscode-far-');
    write(top, {
      'far.code-workspace': JSON.stringify({ folders: [{ path: 'a/repo' }], settings: {} }),
      'a/repo/.git/HEAD': 'x',
    });
    expect(findWorkspaceFile(join(top, 'a', 'repo')).found).toBeUndefined();
    write(top, { 'a/near.code-workspace': JSON.stringify({ folders: [{ path: 'repo' }], settings: { x: 1 } }) });
    // A fresh folder (results are cached per folder): `a` is one above the repository root.
    write(top, { 'a/repo/sub/.keep': '' });
    expect(findWorkspaceFile(join(top, 'a', 'repo', 'sub')).found?.path).toBe(join(top, 'a', 'near.code-workspace'));
  });
});

describe('broken VS Code settings files', () => {
  const warnings: ParseWarning[] = [];
  afterEach(() => {
    onParseWarning(undefined);
    warnings.length = 0;
  });

  it('a user settings or workspace file that does not parse is a warning at its line; the other levels are read', async () => {
    onParseWarning((warning) => warnings.push(warning));
    const { outer, api } = layered({ workspace: '{\n  "folders": [{ "path": "repo" }]\n  "settings": {}\n}\n' });
    const env = home('{\n  "rest-client.environmentVariables": {\n    "local": { "host": "x" }\n  \n  "oops"\n}');
    const store = new EnvStore(join(outer, 'repo'), { env });
    const local = await store.resolve(api, 'local');
    expect(Object.fromEntries(local.values)).toEqual({ region: 'folder-shared', tenant: 'folder-tenant' });
    const userPath = join(env.XDG_CONFIG_HOME, 'Code', 'User', 'settings.json');
    expect(warnings.map((warning) => [warning.file, warning.line])).toEqual([
      [userPath, 5],
      [join(outer, 'demo.code-workspace'), 3],
    ]);
    expect(warnings[0].message).toContain('does not parse');
    expect(warnings[0].hint).toContain('DIAL_VSCODE_USER_SETTINGS=0');
  });

  it('an empty settings file is no settings, not an error', () => {
    const dir = tempDir('dial-vscode-empty-');
    write(dir, { 'settings.json': '  \n// nothing yet\n' });
    expect(readSettingsFile(join(dir, 'settings.json'))).toEqual({ path: join(dir, 'settings.json'), data: {} });
  });
});

describe('REST Client dialect from the project levels only', () => {
  const FORM = 'POST http://x/token\nContent-Type: application/x-www-form-urlencoded\n\nusername=a b\n';

  it("a workspace file's rest-client keys mark the files of its folders; the user's settings never do", () => {
    const { outer } = layered({ folderSettings: '{"editor.tabSize": 2}' });
    write(outer, { 'repo/api/a.http': FORM });
    expect(chooseDialect(FORM, join(outer, 'repo', 'api', 'a.http'))).toEqual({
      dialect: 'rest-client',
      source: 'workspace',
    });
    const plain = tempDir('dial-vscode-plain-');
    write(plain, { '.git/HEAD': 'x', 'a.http': FORM });
    const saved = process.env.DIAL_VSCODE_USER_SETTINGS;
    const env = home(
      '{"rest-client.environmentVariables": {"local": {}}, "rest-client.formParamEncodingStrategy": "never"}',
    );
    process.env.DIAL_VSCODE_USER_SETTINGS = join(env.XDG_CONFIG_HOME, 'Code', 'User', 'settings.json');
    try {
      expect(chooseDialect(FORM, join(plain, 'a.http'))).toEqual({ dialect: 'jetbrains', source: 'default' });
      // …but a file read as REST Client's follows the user's formParamEncodingStrategy.
      expect(chooseDialect(FORM, join(plain, 'b.rest'))).toEqual({
        dialect: 'rest-client',
        source: 'workspace',
        formEncoding: 'never',
      });
      expect(parseHttpFile(`# @dialect rest-client\n${FORM}`, join(plain, 'a.http')).formEncoding).toBe('never');
    } finally {
      process.env.DIAL_VSCODE_USER_SETTINGS = saved;
    }
  });

  it("the folder's formParamEncodingStrategy beats the workspace file's, even when it is the default", () => {
    const workspace = JSON.stringify({
      folders: [{ path: 'repo' }],
      settings: { 'rest-client.formParamEncodingStrategy': 'always' },
    });
    const { outer } = layered({ workspace, folderSettings: '{"rest-client.formParamEncodingStrategy": "automatic"}' });
    expect(chooseDialect(FORM, join(outer, 'repo', 'api', 'a.http'))).toEqual({
      dialect: 'rest-client',
      source: 'workspace',
    });
    const second = layered({ workspace, folderSettings: '{"rest-client.environmentVariables": {}}' });
    expect(chooseDialect(FORM, join(second.outer, 'repo', 'api', 'a.http')).formEncoding).toBe('always');
  });
});
