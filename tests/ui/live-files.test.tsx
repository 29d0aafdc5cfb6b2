/**
 * Live files: real files and the real watcher. A change made by another program reloads the tree and
 * keeps the selection; an edit open at that moment is not overwritten: its save meets the conflict
 * and the user's version is kept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { createTheme } from '../../src/ui/theme.js';
import { removeRequestText, replaceRequestText, insertRequestText } from '../../src/core/httpfile/index.js';
import { loadHttpFile, rewriteHttpFile } from '../../src/core/editing/index.js';
import { changedKind, watchWorkspace } from '../../src/core/workspace/watch.js';
import { tempDir } from '../helpers/cli.js';
import { fakeServices } from './fake-services.js';
import { KEY, waitForText } from './helpers.js';

afterEach(() => cleanup());

describe('live files', () => {
  it('knows which files matter', () => {
    expect(changedKind('a/b.http')).toBe('http');
    expect(changedKind('x.rest')).toBe('http');
    expect(changedKind('http-client.private.env.json')).toBe('env');
    expect(changedKind('.env')).toBe('env');
    expect(changedKind('notes.txt')).toBeUndefined();
  });

  it('reloads on an outside change and keeps the selection; an open edit is not overwritten', async () => {
    const dir = tempDir('dial-tui-live-');
    const path = join(dir, 'api.http');
    writeFileSync(path, '### first\nGET http://x/first\n\n### second\nGET http://x/second\n');
    const services = fakeServices({});
    services.loadWorkspace = async () => [{ path, relativePath: 'api.http', file: await loadHttpFile(path) }];
    services.saveRequest = (file, index, block) => rewriteHttpFile(file, replaceRequestText(file, index, block));
    services.appendRequest = (file, block) => rewriteHttpFile(file, insertRequestText(file, block));
    services.deleteRequest = (file, index) => rewriteHttpFile(file, removeRequestText(file, index));
    services.watch = (onChange) => watchWorkspace(dir, onChange, 50);
    const app = render(
      <App
        services={services}
        keymap={defaultKeymap}
        theme={createTheme(false)}
        onExit={() => undefined}
        size={{ columns: 140, rows: 30 }}
      />,
    );
    const type = async (...keys: string[]): Promise<void> => {
      for (const key of keys) {
        app.stdin.write(key);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    };
    await waitForText(app, 'first', 'second');
    await type(KEY.down, KEY.down);
    await waitForText(app, 'GET http://x/second');

    // An editor adds a request above: the tree reloads and "second" stays selected.
    writeFileSync(
      path,
      '### zero\nGET http://x/zero\n\n### first\nGET http://x/first\n\n### second\nGET http://x/second\n',
    );
    const frame = await waitForText(app, 'zero', 'request files changed on disk: reloaded');
    expect(frame).toContain('GET http://x/second');

    // An edit is open when the file changes again: the edit stays, and its save is refused, not lost.
    await type('u');
    await waitForText(app, 'URL: http://x/second');
    const outside =
      '### zero\nGET http://x/zero\n\n### first\nGET http://x/first\n\n### second\nGET http://x/second-outside\n';
    writeFileSync(path, outside);
    await waitForText(app, 'files changed on disk while you edit');
    await type(...'-mine'.split(''), KEY.enter);
    const refused = await waitForText(app, 'not saved: api.http changed on disk');
    expect(refused).toMatch(/your version is in \S+/);
    expect(readFileSync(path, 'utf8')).toBe(outside);
  });
});
