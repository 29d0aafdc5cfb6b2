/** Editing in the workbench: the multi-line body editor (JSON checked before saving) and the query parameters. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { createTheme } from '../../src/ui/theme.js';
import { bodyEditorKey, bodyEditorText, openBodyEditor } from '../../src/ui/state/body-editor.js';
import { jsonSyntaxProblem } from '../../src/ui/state/body-edit.js';
import { withQuery } from '../../src/ui/state/request-edit.js';
import { fakeServices } from './fake-services.js';
import { KEY, waitForText } from './helpers.js';

afterEach(() => cleanup());

describe('body editor reducer', () => {
  it('types, breaks and joins lines, moves the cursor', () => {
    let editor = openBodyEditor('{"a": 1}');
    const key = (name: string | undefined, input = ''): void => {
      editor = bodyEditorKey(editor, name, input, 10).editor;
    };
    key('end');
    key('left');
    key('enter');
    key(undefined, '"b": 2');
    expect(bodyEditorText(editor)).toBe('{"a": 1\n"b": 2}');
    key('home');
    key('backspace');
    expect(bodyEditorText(editor)).toBe('{"a": 1"b": 2}');
    key(undefined, ', ');
    expect(bodyEditorText(editor)).toBe('{"a": 1, "b": 2}');
    expect(bodyEditorKey(editor, 'ctrl+s', '', 10).done).toBe('save');
    expect(bodyEditorKey(editor, 'esc', '', 10).done).toBe('cancel');
  });

  it('checks JSON, with {{variables}} standing for values', () => {
    expect(jsonSyntaxProblem('{"a": {{id}}, "b": "{{name}}"}')).toBeUndefined();
    expect(jsonSyntaxProblem('{"a": }')).toMatch(/not valid JSON/);
  });

  it('replaces the query of a URL', () => {
    expect(withQuery('http://x/a?old=1', 'a=1&b=2')).toBe('http://x/a?a=1&b=2');
    expect(withQuery('http://x/a', 'a=1; b=2')).toBe('http://x/a?a=1&b=2');
    expect(withQuery('http://x/a?x=1', '')).toBe('http://x/a');
  });
});

describe('editing in place', () => {
  const files = {
    'a.http':
      '### create\nPOST http://x/items?page=1\nContent-Type: application/json\n\n{"a": 1}\n\n### other\nGET http://x/other\n',
  };
  const mount = () => {
    const services = fakeServices(files);
    const app = render(
      <App
        services={services}
        keymap={defaultKeymap}
        theme={createTheme(false)}
        onExit={() => undefined}
        size={{ columns: 120, rows: 30 }}
      />,
    );
    const type = async (...keys: string[]): Promise<void> => {
      for (const key of keys) {
        app.stdin.write(key);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    };
    return { app, services, type };
  };

  it('b edits the body here: invalid JSON is refused, valid JSON is saved into the file', async () => {
    const { app, services, type } = mount();
    await waitForText(app, 'POST http://x/items?page=1');
    await type('b');
    await waitForText(app, '✓ valid JSON', 'ctrl+s save');
    await type('\x1b[F', '\x1b[D', ',');
    await waitForText(app, '✗ the body is not valid JSON');
    await type('\x13');
    await waitForText(app, 'not saved: the body is not valid JSON');
    expect(services.saved.size).toBe(0);
    await type(...' "b": 2'.split(''));
    await waitForText(app, '✓ valid JSON');
    await type('\x13');
    await waitForText(app, 'saved a.http');
    expect(services.saved.get('/ws/a.http')).toBe(files['a.http'].replace('{"a": 1}', '{"a": 1, "b": 2}'));
  });

  it('Q edits the query parameters', async () => {
    const { app, services, type } = mount();
    await waitForText(app, 'POST http://x/items?page=1');
    await type('Q');
    await waitForText(app, 'Query (a=1&b=2): page=1');
    await type(...'&size=5'.split(''), KEY.enter);
    await waitForText(app, 'saved a.http', 'POST http://x/items?page=1&size=5');
    expect(services.saved.get('/ws/a.http')).toBe(files['a.http'].replace('?page=1', '?page=1&size=5'));
  });
});
