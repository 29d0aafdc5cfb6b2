import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkbench } from '../../src/ui/open-workbench.js';
import { tempDir } from '../helpers/cli.js';

const saved = process.env.DIAL_CONFIG_DIR;
afterEach(() => {
  if (saved === undefined) delete process.env.DIAL_CONFIG_DIR;
  else process.env.DIAL_CONFIG_DIR = saved;
});

describe('openWorkbench settings', () => {
  it('rejects a keymap override naming an unknown action with E_CONFIG, before touching the screen', async () => {
    const config = tempDir();
    mkdirSync(config, { recursive: true });
    writeFileSync(join(config, 'config.json'), JSON.stringify({ keymap: { launchRockets: ['x'] } }));
    process.env.DIAL_CONFIG_DIR = config;
    await expect(openWorkbench({ dir: tempDir(), cliVariables: {}, color: false })).rejects.toMatchObject({
      code: 'E_CONFIG',
      message: expect.stringContaining("unknown keymap action 'launchRockets'"),
    });
  });
});
