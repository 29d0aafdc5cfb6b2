import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { readWorkspace, type LoadedWorkspace } from '../../src/ui/hooks.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { createTheme } from '../../src/ui/theme.js';
import { fakeServices, type FakeServices } from './fake-services.js';
import { KEY, waitForFrame, waitForText } from './helpers.js';

const files = {
  'users.http':
    '### list\n# @name listUsers\nGET http://x/users\nAccept: application/json\n\n?? status == 200\n\n### create\n# @name createUser\nPOST http://x/users\n\n{"a": 1}\n',
  'misc.http':
    '# @name health\nGET http://x/health\n\n### ask\n# @name ask\n# @prompt token Your token\nGET http://x/ask\n',
};

function mount(services: FakeServices = fakeServices(files), environment?: string, workspace?: LoadedWorkspace) {
  let exited = 0;
  const app = render(
    <App
      services={services}
      keymap={defaultKeymap}
      theme={createTheme(false)}
      environment={environment}
      onExit={() => exited++}
      size={{ columns: 100, rows: 32 }}
      workspace={workspace}
    />,
  );
  const type = async (...keys: string[]): Promise<void> => {
    for (const key of keys) {
      app.stdin.write(key);
      // Let Ink read the chunk before the next one (a real terminal sends keys apart too).
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
  };
  return { app, services, type, exits: () => exited };
}

afterEach(() => cleanup());

describe('workspace screen', () => {
  it('shows the tree, the request pane and the status bar', async () => {
    const { app } = mount(undefined, 'local');
    // The tree shows each request's ### title (the name is in the request pane).
    const frame = await waitForText(app, 'users.http', 'list', 'create', 'misc.http', '@listUsers');
    expect(frame).toContain('GET http://x/users');
    expect(frame).toContain('Accept: application/json');
    expect(frame).toContain('env: local');
    expect(frame).toContain('idle');
    // Never sent: what it would send, and no one else's response.
    expect(frame).toContain('Not sent yet: press enter to send.');
  });

  it('says it is reading the files until they are read, never "no .http files"', async () => {
    const { app } = mount();
    expect(app.lastFrame()).toContain('reading files…');
    expect(app.lastFrame()).not.toContain('no .http files');
    await waitForText(app, 'users.http');
  });

  it('draws the requests in its very first frame when the workspace was read before (as dial open does)', async () => {
    const services = fakeServices(files);
    const { app } = mount(services, undefined, await readWorkspace(services));
    // No waiting: the first render already holds the tree.
    expect(app.frames[0]).toContain('users.http');
    expect(app.frames[0]).toContain('list');
    expect(app.frames[0]).not.toContain('reading files…');
  });

  it('filters the tree with / and sends with enter', async () => {
    const { app, type, services } = mount();
    await waitForText(app, 'create');
    await type('/', 'c', 'r', 'e');
    let frame = await waitForText(app, '/cre');
    expect(frame).not.toContain('listUsers');
    await type(KEY.enter);
    frame = await waitForText(app, 'POST http://x/users');
    await type(KEY.enter);
    frame = await waitForText(app, '200 OK', '"headers": {', '"Host": "fake"');
    expect(services.calls).toEqual([{ name: 'createUser', environment: undefined }]);
    expect(services.rememberedRequests).toEqual(['/ws/users.http#createUser']);
    expect(frame).toContain('done');
  });

  it('folds JSON, filters it with JSONPath and searches', async () => {
    const { app, type } = mount();
    await waitForText(app, 'listUsers');
    await type(KEY.enter);
    await waitForText(app, '200 OK');
    await type(KEY.tab, KEY.tab);
    await type(KEY.down, 'z');
    await waitForText(app, '"headers": { … } 2 items');
    await type('U');
    await waitForText(app, '"Accept": "*/*"');
    await type('$', ...'.args'.split(''), KEY.enter);
    let frame = await waitForText(app, '1 match for $.args', '"page": "1"');
    expect(frame).not.toContain('"Host"');
    await type(KEY.esc);
    frame = await waitForText(app, '"Host": "fake"');
    await type('/', 'i', 't', 'e', 'm', 's', KEY.enter);
    frame = await waitForText(app, 'search: items');
    expect(frame).toMatch(/\d+\/\d+/);
  });

  it('search: n goes to the next match, N back to the previous one', async () => {
    const { app, type } = mount();
    await waitForText(app, 'listUsers');
    await type(KEY.enter);
    await waitForText(app, '200 OK');
    await type(KEY.tab, KEY.tab);
    // Rows holding "a": "headers", "Host": "fake", "Accept", "args", … — several matches.
    await type('/', 'a', KEY.enter);
    // The cursor row, shown after the tabs as `row/rows`.
    const row = (frame: string): number => Number(/Raw\s+(\d+)\/\d+/.exec(frame)![1]);
    const first = row(await waitForText(app, 'search: a'));
    expect(first).toBe(2); // the "headers" row
    await type('n');
    const second = row(await waitForFrame(app, (frame) => row(frame) !== first));
    expect(second).toBe(3); // "Host": "fake"
    await type('N');
    const back = row(await waitForFrame(app, (frame) => row(frame) !== second));
    expect(back).toBe(first);
  });

  it('switches tabs: headers, timings, tests (unevaluated)', async () => {
    const { app, type } = mount();
    await waitForText(app, 'listUsers');
    await type(KEY.enter);
    await waitForText(app, '200 OK');
    await type(KEY.tab, KEY.tab, ']');
    await waitForText(app, 'X-Fake: yes');
    await type(']');
    await waitForText(app, 'First byte', 'Total');
    await type(']');
    await waitForText(app, 'Not evaluated here', '○ status == 200');
    await type(']');
    await waitForText(app, 'HTTP/1.1 200 OK');
  });

  it('shows a spinner while sending; esc cancels without quitting', async () => {
    const services = fakeServices(files);
    let release = (): void => undefined;
    services.gate = new Promise((resolve) => (release = resolve));
    const { app, type, exits } = mount(services);
    await waitForText(app, 'listUsers');
    await type(KEY.enter);
    await waitForText(app, 'sending…');
    await type(KEY.esc);
    await waitForText(app, 'cancelled');
    expect(exits()).toBe(0);
    release();
    // ctrl+c with nothing in flight quits.
    await type(KEY.ctrlC);
    await waitForFrame(app, () => exits() === 1);
  });

  it('asks @prompt variables in a dialog', async () => {
    const { app, type, services } = mount();
    await waitForText(app, 'listUsers');
    await type('/', 'a', 's', 'k', KEY.enter, KEY.enter);
    await waitForText(app, 'Your token:');
    await type('s', 'e', 'c', KEY.enter);
    await waitForText(app, '200 OK');
    expect(services.calls.map((c) => c.name)).toEqual(['ask']);
  });

  it('asks @prompt again on every send, with the last answer prefilled (not for a @secret one)', async () => {
    const services = fakeServices({
      'p.http':
        '### ask\n# @name ask\n# @prompt token Your token\nGET http://x/ask\n\n### pin\n# @name pin\n# @prompt pin Your PIN\n# @secret pin\nGET http://x/pin\n',
    });
    const answers: string[] = [];
    const execute = services.execute.bind(services);
    services.execute = (file, node, options) =>
      execute(file, node, {
        ...options,
        prompt: async (name, description) => {
          const value = await options.prompt(name, description);
          answers.push(`${name}=${value}`);
          return value;
        },
      });
    const { app, type } = mount(services);
    await waitForText(app, 'ask');
    await type(KEY.down, KEY.enter);
    await waitForText(app, 'Your token: ▏');
    await type('a', 'b', 'c', KEY.enter);
    await waitForText(app, '200 OK');
    // Second send: asked again, the last answer is there to accept...
    await type(KEY.enter);
    await waitForText(app, 'Your token: abc▏');
    await type(KEY.enter);
    await waitForFrame(app, () => answers.length === 2);
    // ...or to change.
    await type(KEY.enter);
    await waitForText(app, 'Your token: abc▏');
    await type(KEY.ctrlU, 'x', 'y', KEY.enter);
    await waitForFrame(app, () => answers.length === 3);
    expect(answers).toEqual(['token=abc', 'token=abc', 'token=xy']);

    // A secret prompt is asked every time too, but never shown prefilled.
    await type(KEY.down, KEY.enter);
    await waitForText(app, 'Your PIN: ▏');
    await type('1', '2', KEY.enter);
    await waitForFrame(app, () => answers.length === 4);
    await type(KEY.enter);
    const frame = await waitForText(app, 'Your PIN: ▏');
    expect(frame).not.toContain('Your PIN: 12');
  });

  it('q quits outside text fields but is text inside them', async () => {
    const { app, type, exits } = mount();
    await waitForText(app, 'listUsers');
    await type('/', 'q');
    await waitForText(app, '/q');
    expect(exits()).toBe(0);
    await type(KEY.esc, 'q');
    await waitForFrame(app, () => exits() === 1);
  });
});

describe('editor and viewer', () => {
  it('edits the whole request in $EDITOR and saves only that block', async () => {
    const services = fakeServices(files);
    services.editorReply = '### list\n# @name listUsers\nDELETE http://x/users/1\n\n';
    const { app, type } = mount(services);
    await waitForText(app, 'listUsers');
    await type('e');
    await waitForText(app, 'DELETE http://x/users/1', 'saved users.http');
    expect(services.saved.get('/ws/users.http')).toBe(
      files['users.http'].replace(/^### list[\s\S]*?(?=### create)/, services.editorReply),
    );
  });

  it('edits the body in $EDITOR', async () => {
    const services = fakeServices(files);
    services.editorReply = '{"a": 2}\n';
    const { app, type } = mount(services);
    await waitForText(app, 'listUsers');
    await type(KEY.down, KEY.down, 'B');
    await waitForText(app, '{"a": 2}', 'saved users.http');
    expect(services.saved.get('/ws/users.http')).toBe(files['users.http'].replace('{"a": 1}', '{"a": 2}'));
  });

  it('renders only the visible rows of a huge body and jumps to its end', async () => {
    const lines = Array.from({ length: 200_000 }, (_, i) => `line ${i}`).join('\n');
    const services = fakeServices(files, lines);
    const { app, type } = mount(services);
    await waitForText(app, 'listUsers');
    await type(KEY.enter);
    let frame = await waitForText(app, '200 OK', '1/200000', 'line 0');
    expect(frame).not.toContain('line 100');
    await type(KEY.tab, KEY.tab, '\x1b[F');
    frame = await waitForText(app, '200000/200000', 'line 199999');
    expect(frame).not.toContain('line 0\n');
    await type('/', ...'line 150000'.split(''), KEY.enter);
    await waitForText(app, '150001/200000');
  });

  it('scrolls a long JSON line sideways with > and < (raw text wraps instead)', async () => {
    const services = fakeServices(files, JSON.stringify({ token: `${'a'.repeat(150)}TAIL` }));
    const { app, type } = mount(services);
    await waitForText(app, 'listUsers');
    await type(KEY.enter);
    let frame = await waitForText(app, '200 OK');
    expect(frame).not.toContain('TAIL');
    await type(KEY.tab, KEY.tab, '>', '>', '>', '>', '>');
    frame = await waitForText(app, 'TAIL', 'col 101');
    await type('<', '<', '<', '<', '<', '<');
    await waitForFrame(app, (f) => !f.includes('TAIL') && !f.includes('col '));
  });

  it('prints no colour codes when colour is off (NO_COLOR)', async () => {
    const { app } = mount();
    await waitForText(app, 'listUsers');
    const raw = app.lastFrame() ?? '';
    expect(raw).not.toMatch(/\x1b\[(3\d|4\d|9\d)m/);
  });
});

describe('start-up', () => {
  it('shows why a file could not be parsed', async () => {
    const services = fakeServices(files);
    const load = services.loadWorkspace;
    services.loadWorkspace = async () => [
      { path: '/ws/bad.http', relativePath: 'bad.http', error: 'E_PARSE bad.http:3: unterminated body' },
      ...(await load()),
    ];
    const { app } = mount(services);
    await waitForText(app, 'bad.http (error)', 'bad.http: E_PARSE bad.http:3: unterminated body');
  });

  it('selects the request last sent in this workspace', async () => {
    const services = fakeServices(files);
    services.lastRequest = '/ws/misc.http#ask';
    const { app } = mount(services);
    await waitForText(app, 'GET http://x/ask');
  });
});

describe('screens', () => {
  it('palette: fuzzy jump to a request', async () => {
    const { app, type } = mount();
    await waitForText(app, 'listUsers');
    await type(KEY.ctrlP);
    await waitForText(app, 'Command palette');
    await type('h', 'l', 't', 'h');
    const frame = await waitForText(app, '→ health');
    expect(frame).not.toContain('→ createUser');
    await type(KEY.enter);
    await waitForText(app, 'GET http://x/health');
  });

  it('environment picker sets and remembers the environment', async () => {
    const { app, type, services } = mount();
    await waitForText(app, 'env: (none)');
    await type(KEY.ctrlE);
    await waitForText(app, 'Environment', 'staging');
    await type(KEY.down, KEY.down, KEY.enter);
    await waitForText(app, 'env: staging');
    expect(services.remembered).toEqual(['staging']);
    await type(KEY.enter);
    await waitForText(app, '200 OK');
    expect(services.calls[0].environment).toBe('staging');
  });

  it('help lists the live keymap', async () => {
    const services = fakeServices(files);
    const keymap = { ...defaultKeymap, quit: ['ctrl+q'] };
    const app = render(
      <App
        services={services}
        keymap={keymap}
        theme={createTheme(false)}
        onExit={() => undefined}
        size={{ columns: 100, rows: 50 }}
      />,
    );
    await waitForText(app, 'listUsers');
    app.stdin.write('?');
    const frame = await waitForText(app, 'Keys (esc closes)');
    expect(frame).toMatch(/ctrl\+q\s+Quit dial/);
    expect(frame).toMatch(/ctrl\+p\s+Command palette/);
  });

  it('history shows entries and a diff against the previous response of the same request', async () => {
    const services = fakeServices(files);
    services.historyItems = [
      { time: '10:02', requestKey: 'a#list', label: 'GET /users', status: 200, body: '{\n  "n": 2\n}' },
      { time: '10:01', requestKey: 'b#other', label: 'GET /other', status: 404, body: 'x' },
      { time: '10:00', requestKey: 'a#list', label: 'GET /users', status: 200, body: '{\n  "n": 1\n}' },
    ];
    const { app, type } = mount(services);
    await waitForText(app, 'listUsers');
    await type(KEY.ctrlH);
    await waitForText(app, 'History (3)', '10:01  404  GET /other');
    await type(KEY.enter);
    const frame = await waitForText(app, 'Diff +1 -1 lines · 10:00 → 10:02 · GET /users', '-   "n": 1', '+   "n": 2');
    expect(frame).toContain('lines 1–4 of 4');
    await type(KEY.esc);
    await waitForText(app, 'History (3)');
    await type(KEY.esc);
    await waitForText(app, 'listUsers');
  });

  it('the history diff scrolls with up/down/pgdn to a change below the first screen; +N -M stays visible at 120 columns', async () => {
    const services = fakeServices(files);
    // 80 lines of body; only line 60 changed between the two responses.
    const body = (n: number) =>
      ['{', ...Array.from({ length: 80 }, (_, i) => `  "line${i}": ${i === 60 ? n : i},`), '}'].join('\n');
    const longLabel = `users.http#listUsers  GET http://api.example.com/${'very/long/path/'.repeat(10)}?page=1`;
    services.historyItems = [
      { time: '2026-01-01 10:02:00Z', requestKey: 'a#list', label: longLabel, status: 200, body: body(2) },
      { time: '2026-01-01 10:00:00Z', requestKey: 'a#list', label: longLabel, status: 200, body: body(1) },
    ];
    let exited = 0;
    const app = render(
      <App
        services={services}
        keymap={defaultKeymap}
        theme={createTheme(false)}
        onExit={() => exited++}
        size={{ columns: 120, rows: 30 }}
      />,
    );
    const type = async (...keys: string[]): Promise<void> => {
      for (const key of keys) {
        app.stdin.write(key);
        await new Promise((resolve) => setTimeout(resolve, 15));
      }
    };
    await waitForText(app, 'listUsers');
    await type(KEY.ctrlH);
    await waitForText(app, 'History (2)');
    await type(KEY.enter);
    let frame = await waitForText(
      app,
      'Diff +1 -1 lines · 2026-01-01 10:00:00Z → 2026-01-01 10:02:00Z',
      'lines 1–25 of 83',
    );
    expect(frame).not.toContain('"line60"');
    // Down scrolls the diff (not to the next entry); page down reaches the change.
    await type(KEY.down);
    frame = await waitForText(app, 'lines 2–26 of 83');
    expect(frame).toContain('Diff +1 -1 lines');
    await type('\x1b[6~', '\x1b[6~');
    frame = await waitForText(app, '-   "line60": 1,', '+   "line60": 2,', 'lines 52–76 of 83');
    // Past the end it stops at the last screen; up goes back.
    await type('\x1b[6~', '\x1b[6~');
    frame = await waitForText(app, 'lines 59–83 of 83');
    await type(KEY.up);
    await waitForText(app, 'lines 58–82 of 83');
    // Esc: back to the list with the cursor where it was; enter opens the diff at its top again.
    await type(KEY.esc);
    await waitForText(app, 'History (2)');
    await type(KEY.enter);
    await waitForText(app, 'lines 1–25 of 83');
    expect(exited).toBe(0);
  });

  it('inline URL edit writes only that request back', async () => {
    const { app, type, services } = mount();
    await waitForText(app, 'listUsers');
    await type('u');
    await waitForText(app, 'URL: http://x/users');
    await type(KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, 'v', '2', KEY.enter);
    await waitForText(app, 'GET http://x/v2', 'saved users.http');
    expect(services.saved.get('/ws/users.http')).toBe(
      files['users.http'].replace('GET http://x/users\nAccept', 'GET http://x/v2\nAccept'),
    );
  });

  it('inline method and header edits, and duplicate', async () => {
    const { app, type, services } = mount();
    await waitForText(app, 'listUsers');
    await type('m', KEY.ctrlU, 'p', 'u', 't', KEY.enter);
    await waitForText(app, 'PUT http://x/users', 'saved users.http');
    await type('h');
    await waitForText(app, 'Headers (Name: value; …): Accept: application/json');
    await type(KEY.ctrlU, ...'X-A: 1; X-B: 2'.split(''), KEY.enter);
    await waitForText(app, 'X-A: 1', 'X-B: 2');
    expect(services.saved.get('/ws/users.http')).toBe(
      files['users.http'].replace('GET http://x/users\nAccept: application/json', 'PUT http://x/users\nX-A: 1\nX-B: 2'),
    );
    const beforeCopy = services.saved.get('/ws/users.http')!;
    await type('D');
    await waitForText(app, '@listUsers-copy  users.http');
    const withCopy = services.saved.get('/ws/users.http')!;
    expect(withCopy).toContain('# @name listUsers-copy\nPUT http://x/users');
    // Right after the original, before createUser.
    expect(withCopy.indexOf('listUsers-copy')).toBeLessThan(withCopy.indexOf('createUser'));
    // The copy is selected; deleting it gives the file back byte for byte.
    await type('x');
    await waitForText(app, 'Delete list copy? (y/n)');
    await type('y');
    await waitForFrame(app, (f) => f.includes('saved users.http') && !f.includes('listUsers-copy'));
    expect(services.saved.get('/ws/users.http')).toBe(beforeCopy);
  });

  it('delete asks first; new request appends a block', async () => {
    const { app, type, services } = mount();
    await waitForText(app, 'listUsers');
    await type(KEY.down, KEY.down, 'x');
    await waitForText(app, 'Delete create? (y/n)');
    await type('y');
    await waitForFrame(app, (f) => f.includes('saved users.http') && !f.includes('createUser'));
    expect(services.saved.get('/ws/users.http')).not.toContain('createUser');
    // The cursor stays on its row (now misc.http): the new request goes to that file, asked as METHOD URL.
    await type('a');
    await waitForText(app, 'New request (METHOD URL):');
    await type(...'post https://example.com/new'.split(''), KEY.enter);
    await waitForText(app, 'POST /new', 'POST https://example.com/new', 'saved misc.http');
    expect(services.saved.get('/ws/misc.http')).toMatch(/\n\n###\nPOST https:\/\/example.com\/new\n$/);
  });

  it('saves the body to a file and copies via OSC 52', async () => {
    const { app, type, services } = mount();
    await waitForText(app, 'listUsers');
    await type(KEY.enter);
    await waitForText(app, '200 OK');
    await type(KEY.tab, KEY.tab, 's');
    await waitForText(app, 'Save body to:');
    await type(...'out.json'.split(''), KEY.enter);
    await waitForText(app, 'body saved to out.json');
    expect(services.written.get('out.json')).toBe(services.body);
    await type('y');
    await waitForText(app, 'body copied');
    expect(app.frames.some((f) => f.includes('\x1b]52;c;'))).toBe(true);
  });
});
