import { mkdtempSync, readFileSync, statSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  defaultSettings,
  keymapProblem,
  loadSettings,
  rememberEnvironment,
  rememberLastRequest,
  setSetting,
  settingsPath,
  settingsTimeoutMs,
  unsetSetting,
} from '../../../src/core/settings/index.js';
import { configDir, dataDir, historyPath } from '../../../src/core/settings/paths.js';
import { DialError } from '../../../src/core/errors.js';

const freshEnv = () => ({ DIAL_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'dial-settings-')) });

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return error instanceof DialError ? error.code : String(error);
  }
  return undefined;
}

describe('settings locations', () => {
  it('DIAL_CONFIG_DIR holds both files; otherwise the platform folders', () => {
    expect(settingsPath({ DIAL_CONFIG_DIR: '/x' })).toBe(join('/x', 'config.json'));
    expect(historyPath({ DIAL_CONFIG_DIR: '/x' })).toBe(join('/x', 'history.jsonl'));
    expect(configDir({}, 'linux', '/home/u')).toBe('/home/u/.config/dial');
    expect(dataDir({}, 'linux', '/home/u')).toBe('/home/u/.local/share/dial');
    expect(dataDir({ XDG_DATA_HOME: '/data' }, 'linux', '/home/u')).toBe('/data/dial');
    expect(dataDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Application Support/dial');
    expect(dataDir({ LOCALAPPDATA: 'C:\\L' }, 'win32', 'C:\\U')).toBe(join('C:\\L', 'dial', 'Data'));
  });
});

describe('settings', () => {
  it('returns the defaults when there is no file, without creating one', async () => {
    const env = freshEnv();
    expect(await loadSettings(env)).toEqual(defaultSettings());
    expect(existsSync(settingsPath(env))).toBe(false);
    expect(settingsTimeoutMs(defaultSettings())).toBe(30_000);
    expect(settingsTimeoutMs({ timeout: 2.5 })).toBe(2500);
  });

  it('stores typed values in a 0600 file and reads them back', async () => {
    const env = freshEnv();
    await setSetting('timeout', '5s', env);
    await setSetting('maxRedirects', '3', env);
    await setSetting('verifyTls', 'no', env);
    await setSetting('keymap', '{"quit":["q","ctrl+c"]}', env);
    const settings = await loadSettings(env);
    expect(settings).toMatchObject({
      timeout: '5s',
      maxRedirects: 3,
      verifyTls: false,
      keymap: { quit: ['q', 'ctrl+c'] },
      historyLimit: 500,
    });
    expect(statSync(settingsPath(env)).mode & 0o777).toBe(0o600);
    await setSetting('timeout', '12', env);
    expect((await loadSettings(env)).timeout).toBe(12);
  });

  it('refuses a bad value and leaves the file byte-identical', async () => {
    const env = freshEnv();
    await setSetting('timeout', '5s', env);
    const before = readFileSync(settingsPath(env));
    for (const [key, value] of [
      ['timeout', 'soon'],
      ['maxRedirects', '-1'],
      ['maxRedirects', '2.5'],
      ['verifyTls', 'maybe'],
      ['proxy', 'not a url'],
      ['keymap', '{"quit":"q"}'],
      ['historyLimit', 'lots'],
    ]) {
      expect(await codeOf(setSetting(key, value, env))).toBe('E_USAGE');
    }
    expect(await codeOf(setSetting('colour', 'red', env))).toBe('E_USAGE');
    expect(await codeOf(setSetting('keymap', '{not json', env))).toBe('E_USAGE');
    expect(readFileSync(settingsPath(env)).equals(before)).toBe(true);
    // No temp files left behind either.
    expect(readdirSync(env.DIAL_CONFIG_DIR)).toEqual(['config.json']);
  });

  it('keymap: the same checks as the TUI resolver (actions, key names, preset)', async () => {
    const env = freshEnv();
    for (const value of [
      '{"launchRockets":["x"]}',
      '{"quit":["hyper+space bar"]}',
      '{"quit":[1]}',
      '{"preset":"emacs"}',
      '[]',
      '{"quit":"q"}',
    ]) {
      expect(await codeOf(setSetting('keymap', value, env)), value).toBe('E_USAGE');
    }
    expect(keymapProblem({ launchRockets: ['x'] })).toEqual({
      path: ['launchRockets'],
      message: expect.stringContaining("unknown keymap action 'launchRockets'"),
    });
    expect(keymapProblem({ quit: ['q', 'hyper+space bar'] })?.path).toEqual(['quit', 1]);
    // A lone key is fine for the resolver (which also reads hand-written overrides), not for settings.
    expect(keymapProblem({ quit: 'q' }, { singleKeys: true })).toBeUndefined();
    await setSetting('keymap', '{"preset":"vim","down":["j","down"]}', env);
    await setSetting('keymap', '{"preset":["vim"]}', env);
    expect((await loadSettings(env)).keymap).toEqual({ preset: ['vim'] });
  });

  it('an invalid file is E_CONFIG naming the file, line and key', async () => {
    const env = freshEnv();
    writeFileSync(settingsPath(env), '{\n  "theme": "dark",\n  "maxRedirects": "ten"\n}\n');
    try {
      await loadSettings(env);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DialError);
      const dial = error as DialError;
      expect(dial.code).toBe('E_CONFIG');
      expect(dial.message).toContain("'maxRedirects'");
      expect(dial.location).toMatchObject({ file: settingsPath(env), line: 3 });
    }
    writeFileSync(settingsPath(env), '{"timeout": }');
    expect(await codeOf(loadSettings(env))).toBe('E_CONFIG');
    // A file that cannot be parsed is never rewritten by set.
    expect(await codeOf(setSetting('timeout', '5s', env))).toBe('E_CONFIG');
    expect(readFileSync(settingsPath(env), 'utf8')).toBe('{"timeout": }');
  });

  it('unset restores the default; a bad key can be fixed by unsetting it', async () => {
    const env = freshEnv();
    writeFileSync(settingsPath(env), '{"timeout": "abc", "theme": "dark"}');
    await unsetSetting('timeout', env);
    expect(await loadSettings(env)).toMatchObject({ timeout: '30s', theme: 'dark' });
    const fresh = freshEnv();
    await unsetSetting('timeout', fresh);
    expect(existsSync(settingsPath(fresh))).toBe(false);
  });

  it('remembers an environment and a last request per workspace (paths with dots kept whole)', async () => {
    const env = freshEnv();
    await rememberEnvironment('/work/my.api', 'staging', env);
    await rememberEnvironment('/work/other', 'dev', env);
    await rememberLastRequest('/work/my.api', 'users.http#list', env);
    let settings = await loadSettings(env);
    expect(settings.defaultEnvironment).toEqual({ '/work/my.api': 'staging', '/work/other': 'dev' });
    expect(settings.lastRequest).toEqual({ '/work/my.api': 'users.http#list' });
    await rememberEnvironment('/work/other', undefined, env);
    settings = await loadSettings(env);
    expect(settings.defaultEnvironment).toEqual({ '/work/my.api': 'staging' });
  });
});
