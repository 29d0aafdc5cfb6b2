/**
 * Saving from the TUI never overwrites a change made to the file by another program: the save is
 * refused with the reason and the key that reloads it in the status bar, the file keeps the outside
 * change, and after a reload (ctrl+l) the edit is saved on top of it. Real files, real
 * editing (the fake services only stand in for the network).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { createTheme } from '../../src/ui/theme.js';
import { insertRequestText, removeRequestText, replaceRequestText } from '../../src/core/httpfile/index.js';
import { loadHttpFile, rewriteHttpFile } from '../../src/core/editing/index.js';
import { tempDir } from '../helpers/cli.js';
import { fakeServices } from './fake-services.js';
import { KEY, waitForText } from './helpers.js';

afterEach(() => cleanup());

describe('saving when the file changed on disk', () => {
  it('refuses with the reason in the status bar, keeps the outside change, and saves after ctrl+l', async () => {
    const dir = tempDir('dial-tui-changed-');
    const path = join(dir, 'api.http');
    writeFileSync(path, '### first\n# @name first\nGET http://x/first\n');
    const services = fakeServices({});
    services.loadWorkspace = async () => [{ path, relativePath: 'api.http', file: await loadHttpFile(path) }];
    services.saveRequest = (file, index, block) => rewriteHttpFile(file, replaceRequestText(file, index, block));
    services.appendRequest = (file, block) => rewriteHttpFile(file, insertRequestText(file, block));
    services.deleteRequest = (file, index) => rewriteHttpFile(file, removeRequestText(file, index));
    const app = render(
      <App
        services={services}
        keymap={defaultKeymap}
        theme={createTheme(false)}
        onExit={() => undefined}
        size={{ columns: 150, rows: 30 }}
      />,
    );
    const type = async (...keys: string[]): Promise<void> => {
      for (const key of keys) {
        app.stdin.write(key);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    };
    await waitForText(app, 'first', 'GET http://x/first');
    await type(KEY.down);

    // Another program adds a request while the workbench is open.
    const outside = '### first\n# @name first\nGET http://x/first\n\n### second\n# @name second\nGET http://x/second\n';
    writeFileSync(path, outside);

    // Edit the method inline: refused, nothing written.
    await type('m', KEY.ctrlU, 'P', 'U', 'T', KEY.enter);
    const frame = await waitForText(
      app,
      'not saved: api.http changed on disk since it was loaded; reload it (press ctrl+l) and edit again',
    );
    expect(frame).toContain('GET http://x/first');
    expect(readFileSync(path, 'utf8')).toBe(outside);

    // Duplicate and delete are refused the same way.
    await type('D');
    await waitForText(app, 'not saved: api.http changed on disk');
    expect(readFileSync(path, 'utf8')).toBe(outside);

    // ctrl+l reloads: the outside request appears; the edit now saves on top of it.
    await type('\x0c');
    await waitForText(app, 'reloaded 1 file from disk', 'second');
    await type('m', KEY.ctrlU, 'P', 'U', 'T', KEY.enter);
    await waitForText(app, 'saved api.http', 'PUT http://x/first');
    expect(readFileSync(path, 'utf8')).toBe(outside.replace('GET http://x/first', 'PUT http://x/first'));
  });
});
