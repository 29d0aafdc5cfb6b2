/** `dial config list|get|set|unset|path`: read and change persisted settings. */
import type { Command } from 'commander';

function show(value: unknown): string {
  if (value === undefined) return '(unset)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export function registerConfig(program: Command): void {
  const config = program.command('config').description('Read and change settings');

  config
    .command('list', { isDefault: true })
    .description('Show every setting and its value')
    .option('--json', 'print the settings as JSON')
    .action(async (options: { json?: boolean }) => {
      const settings = await import('../core/settings/index.js');
      const values = await settings.loadSettings();
      if (options.json) {
        process.stdout.write(`${JSON.stringify(values, null, 2)}\n`);
        return;
      }
      const stored = new Set(settings.storedSettingKeys());
      const width = Math.max(...settings.SETTING_KEYS.map((key) => key.length));
      for (const key of settings.SETTING_KEYS) {
        const value = (values as unknown as Record<string, unknown>)[key];
        process.stdout.write(
          `${key.padEnd(width)}  ${show(value)}${stored.has(key) || value === undefined ? '' : '  (default)'}\n`,
        );
      }
    });

  config
    .command('get')
    .description('Print one setting')
    .argument('<key>', 'setting name')
    .option('--json', 'print the value as JSON')
    .action(async (key: string, options: { json?: boolean }) => {
      const settings = await import('../core/settings/index.js');
      if (!settings.isSettingKey(key)) {
        const { DialError } = await import('../core/errors.js');
        throw new DialError('E_USAGE', `unknown setting '${key}'`, {
          hint: `settings are: ${settings.SETTING_KEYS.join(', ')}`,
        });
      }
      const value = (await settings.loadSettings())[key];
      process.stdout.write(`${options.json ? JSON.stringify(value ?? null) : show(value)}\n`);
    });

  config
    .command('set')
    .description('Change a setting (the value is checked first; a bad one changes nothing)')
    .argument('<key>', 'setting name')
    .argument('<value>', 'new value (JSON for keymap, defaultEnvironment, lastRequest)')
    .action(async (key: string, value: string) => {
      const settings = await import('../core/settings/index.js');
      const stored = await settings.setSetting(key, value);
      if (key === 'historyLimit' && typeof stored === 'number') {
        // Apply a lower limit now rather than at the next trim check.
        const { trimHistory, clearHistory } = await import('../core/history/index.js');
        if (stored === 0) clearHistory({ path: settings.historyPath() });
        else trimHistory({ path: settings.historyPath(), limit: stored });
      }
    });

  config
    .command('unset')
    .description('Remove a setting so its default applies')
    .argument('<key>', 'setting name')
    .action(async (key: string) => {
      const settings = await import('../core/settings/index.js');
      await settings.unsetSetting(key);
    });

  config
    .command('path')
    .description('Print the settings file path')
    .action(async () => {
      const settings = await import('../core/settings/index.js');
      process.stdout.write(`${settings.settingsPath()}\n`);
    });
}
