import { readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startHttpServer } from '../helpers/servers.js';

describe('dial config', () => {
  it('path, set, get, list and unset round-trip through a 0600 file', async () => {
    const configDir = tempDir('dial-config-');
    const path = await runCli(['config', 'path'], { configDir });
    expect(path.stdout.trim()).toBe(join(configDir, 'config.json'));

    expect((await runCli(['config', 'set', 'timeout', '5s'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'set', 'followRedirects', 'yes'], { configDir })).code).toBe(0);
    expect(statSync(join(configDir, 'config.json')).mode & 0o777).toBe(0o600);

    expect((await runCli(['config', 'get', 'timeout'], { configDir })).stdout).toBe('5s\n');
    expect((await runCli(['config', 'get', 'followRedirects', '--json'], { configDir })).stdout).toBe('true\n');
    expect((await runCli(['config', 'get', 'maxRedirects'], { configDir })).stdout).toBe('10\n');

    const list = await runCli(['config', 'list'], { configDir });
    expect(list.stdout).toMatch(/^timeout +5s$/m);
    expect(list.stdout).toMatch(/^maxRedirects +10 +\(default\)$/m);
    const json = JSON.parse((await runCli(['config', 'list', '--json'], { configDir })).stdout) as Record<
      string,
      unknown
    >;
    expect(json).toMatchObject({ timeout: '5s', followRedirects: true, historyLimit: 500, verifyTls: true });

    expect((await runCli(['config', 'unset', 'timeout'], { configDir })).code).toBe(0);
    expect((await runCli(['config', 'get', 'timeout'], { configDir })).stdout).toBe('30s\n');
  });

  it('refuses a bad value (exit 2) and leaves the file byte-identical', async () => {
    const configDir = tempDir('dial-config-');
    await runCli(['config', 'set', 'maxRedirects', '4'], { configDir });
    const before = readFileSync(join(configDir, 'config.json'));
    for (const [key, value] of [
      ['maxRedirects', 'many'],
      ['timeout', 'forever'],
      ['verifyTls', 'perhaps'],
      ['keymap', '{"quit": "q"}'],
    ]) {
      const result = await runCli(['config', 'set', key, value], { configDir });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`invalid value for '${key}`);
    }
    const unknown = await runCli(['config', 'set', 'colour', 'red'], { configDir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown setting 'colour'");
    expect(readFileSync(join(configDir, 'config.json')).equals(before)).toBe(true);
  });

  it('keymap overrides get the checks `dial open` makes: an unknown action or key is refused at set', async () => {
    const configDir = tempDir('dial-config-');
    await runCli(['config', 'set', 'keymap', '{"quit":["q","ctrl+q"]}'], { configDir });
    const before = readFileSync(join(configDir, 'config.json'));
    const rockets = await runCli(['config', 'set', 'keymap', '{"launchRockets":["x"]}'], { configDir });
    expect(rockets.code).toBe(2);
    expect(rockets.stderr).toContain(
      "invalid value for 'keymap.launchRockets': unknown keymap action 'launchRockets' (known: quit, palette,",
    );
    expect(rockets.stderr).toContain(
      'hint: TUI key overrides as JSON, e.g. {"preset": "vim", "quit": ["q", "ctrl+q"]}',
    );
    const hyper = await runCli(['config', 'set', 'keymap', '{"quit":["hyper+space bar"]}'], { configDir });
    expect(hyper.code).toBe(2);
    expect(hyper.stderr).toContain(`invalid value for 'keymap.quit.0': "hyper+space bar" is not a key name`);
    const emacs = await runCli(['config', 'set', 'keymap', '{"preset":"emacs"}'], { configDir });
    expect(emacs.code).toBe(2);
    expect(emacs.stderr).toContain("unknown keymap preset 'emacs' (known: default, vim)");
    expect(readFileSync(join(configDir, 'config.json')).equals(before)).toBe(true);

    // The preset as the README and the hint write it.
    const vim = await runCli(['config', 'set', 'keymap', '{"preset":"vim","quit":["q"]}'], { configDir });
    expect(vim.code).toBe(0);
    expect(JSON.parse((await runCli(['config', 'get', 'keymap', '--json'], { configDir })).stdout)).toEqual({
      preset: 'vim',
      quit: ['q'],
    });
  });

  it('an invalid settings file is exit 3 naming the file, line and key', async () => {
    const configDir = tempDir('dial-config-');
    writeFileSync(join(configDir, 'config.json'), '{\n  "historyLimit": -5\n}\n');
    const result = await runCli(['send', '--offline', ':3000/x'], { configDir });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(
      `error[E_CONFIG] ${join(configDir, 'config.json')}:2: invalid setting 'historyLimit'`,
    );
  });

  it('send honours timeout, followRedirects and verifyTls from settings; flags win', async () => {
    const configDir = tempDir('dial-config-');
    const server = await startHttpServer((request, response) => {
      if (request.url === '/hang') return;
      if (request.url === '/go') {
        response.writeHead(302, { location: '/there' });
        response.end();
        return;
      }
      response.end('arrived');
    });
    try {
      await runCli(['config', 'set', 'timeout', '200ms'], { configDir });
      const slow = await runCli(['send', `${server.url}/hang`], { configDir });
      expect(slow.code).toBe(4);
      expect(slow.stderr).toContain('timed out after 200ms');

      await runCli(['config', 'set', 'followRedirects', 'true'], { configDir });
      expect((await runCli(['send', `${server.url}/go`], { configDir })).stdout).toBe('arrived');
      expect((await runCli(['send', '--no-follow', `${server.url}/go`], { configDir })).stdout).toBe('');

      await runCli(['config', 'set', 'verifyTls', 'false'], { configDir });
      const offline = await runCli(['send', '--offline', `${server.url}/x`], { configDir });
      expect(offline.stderr).toContain('TLS certificate verification is off (the verifyTls setting)');
    } finally {
      await server.close();
    }
    expect(existsSync(join(configDir, 'history.jsonl'))).toBe(true);
  });
});
