import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { createTheme, themeName } from '../../src/ui/theme.js';
import { openWorkbench } from '../../src/ui/open-workbench.js';
import { loadSettings, setSetting } from '../../src/core/settings/index.js';
import { tempDir } from '../helpers/cli.js';
import { fakeServices } from './fake-services.js';
import { waitForText } from './helpers.js';

// Chalk decides on colour when it is first imported: force it on, then import Ink (and the App) lazily.
const savedForce = process.env.FORCE_COLOR;
process.env.FORCE_COLOR = '1';
afterAll(() => {
  if (savedForce === undefined) delete process.env.FORCE_COLOR;
  else process.env.FORCE_COLOR = savedForce;
});
const ink = () => import('ink-testing-library');

const files = { 'a.http': '# @name ping\nGET http://x/ping\n' };
const saved = process.env.DIAL_CONFIG_DIR;
afterEach(async () => {
  (await ink()).cleanup();
  if (saved === undefined) delete process.env.DIAL_CONFIG_DIR;
  else process.env.DIAL_CONFIG_DIR = saved;
});

function configWith(settings: Record<string, unknown>): string {
  const config = tempDir();
  mkdirSync(config, { recursive: true });
  writeFileSync(join(config, 'config.json'), JSON.stringify(settings));
  return config;
}

async function frameWith(theme: ReturnType<typeof createTheme>): Promise<string> {
  const { render } = await ink();
  const { App } = await import('../../src/ui/App.js');
  const app = render(
    <App
      services={fakeServices(files)}
      keymap={defaultKeymap}
      theme={theme}
      onExit={() => undefined}
      size={{ columns: 100, rows: 24 }}
    />,
  );
  await waitForText(app, 'ping');
  return app.lastFrame() ?? '';
}

describe('theme setting', () => {
  it('names: unset is dark; dark, light and mono are known; anything else is an error naming it', () => {
    expect(themeName(undefined)).toBe('dark');
    expect(themeName('light')).toBe('light');
    expect(themeName('mono')).toBe('mono');
    expect(() => themeName('neon')).toThrow("unknown theme 'neon' (known: dark, light, mono)");
  });

  it('dark and light colour differently; mono (and NO_COLOR) print no colour at all', async () => {
    const dark = createTheme(true, 'dark');
    const light = createTheme(true, 'light');
    expect(dark.accent).toBe('cyan');
    expect(light.accent).toBe('blue');
    // Light never uses yellow text (unreadable on white).
    expect(JSON.stringify({ ...light, match: undefined })).not.toContain('yellow');
    const mono = createTheme(true, 'mono');
    expect(mono.enabled).toBe(false);
    expect(JSON.stringify(mono)).not.toMatch(/"(red|green|blue|cyan|yellow|magenta|gray|black|white)"/);
    expect(createTheme(false, 'light').enabled).toBe(false);

    const colour = /\x1b\[(3\d|4\d|9\d)m/;
    const { cleanup } = await ink();
    const darkFrame = await frameWith(dark);
    cleanup();
    const lightFrame = await frameWith(light);
    cleanup();
    const monoFrame = await frameWith(mono);
    expect(darkFrame).toMatch(/\x1b\[36m/); // cyan focused border
    expect(lightFrame).toMatch(/\x1b\[34m/); // blue focused border
    expect(lightFrame).not.toMatch(/\x1b\[36m/);
    expect(monoFrame).not.toMatch(colour);
  });

  it('an unknown theme in the settings file is E_CONFIG naming the value (settings and TUI)', async () => {
    const config = configWith({ theme: 'neon' });
    await expect(loadSettings({ DIAL_CONFIG_DIR: config })).rejects.toMatchObject({
      code: 'E_CONFIG',
      message: expect.stringContaining("unknown theme 'neon'"),
    });
    process.env.DIAL_CONFIG_DIR = config;
    await expect(openWorkbench({ dir: tempDir(), cliVariables: {}, color: true })).rejects.toMatchObject({
      code: 'E_CONFIG',
      message: expect.stringContaining("unknown theme 'neon'"),
    });
  });

  it('`config set theme` accepts the known names and refuses others', async () => {
    const env = { DIAL_CONFIG_DIR: configWith({}) };
    await setSetting('theme', 'light', env);
    expect((await loadSettings(env)).theme).toBe('light');
    await expect(setSetting('theme', 'solarized', env)).rejects.toMatchObject({
      message: expect.stringContaining("unknown theme 'solarized'"),
    });
  });
});
