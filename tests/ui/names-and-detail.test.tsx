/** Display names in history and the status bar; the Timings tab's phases, redirect chain and cookies. */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render } from 'ink-testing-library';
import { App } from '../../src/ui/App.js';
import { ResponsePane, timingRows } from '../../src/ui/components/ResponsePane.js';
import { defaultKeymap } from '../../src/ui/keymap.js';
import { createTheme } from '../../src/ui/theme.js';
import { initialViewerState } from '../../src/ui/viewer/viewer-reducer.js';
import { exchangeWith, fakeServices } from './fake-services.js';
import { KEY, waitForText } from './helpers.js';

afterEach(() => cleanup());

describe('display names', () => {
  it('history and the status bar name a request by its ### title', async () => {
    const services = fakeServices({ 'a.http': '### Who am I\n# @name whoami\nGET http://x/me\n' });
    services.historyItems = [
      {
        time: '10:00',
        requestKey: '/ws/a.http#whoami',
        label: 'a.http#whoami  GET http://x/me',
        requestLine: 'GET http://x/me',
        status: 200,
        body: '{}',
      },
    ];
    const app = render(
      <App
        services={services}
        keymap={defaultKeymap}
        theme={createTheme(false)}
        onExit={() => undefined}
        size={{ columns: 120, rows: 30 }}
      />,
    );
    const frame = await waitForText(app, 'Who am I', '@whoami');
    expect(frame.split('\n').at(-1)).toContain('Who am I idle');
    app.stdin.write(KEY.ctrlH);
    const history = await waitForText(app, 'History (1)');
    expect(history).toContain('10:00  200  Who am I  GET http://x/me');
  });
});

describe('response detail', () => {
  const exchange = exchangeWith('{}');
  exchange.timings = { dns: 2, connect: 3, tls: 5, firstByte: 10, total: 30 };
  exchange.redirects = [{ status: 302, method: 'GET', from: 'http://x/old', to: 'http://x/new' }];
  exchange.response.headers.push(['Set-Cookie', 'session=abc; Path=/; HttpOnly']);

  it('the download phase is what the others leave of the total', () => {
    expect(timingRows(exchange)).toEqual([
      ['DNS', 2],
      ['Connect', 3],
      ['TLS', 5],
      ['First byte', 10],
      ['Download', 10],
      ['Total', 30],
    ]);
  });

  it('the Timings tab lists the phases, the redirect chain and the cookies set', () => {
    const app = render(
      <ResponsePane
        result={{ exchange, bodyText: '{}' }}
        requestState="done"
        spinner=""
        tab="timings"
        viewer={initialViewerState}
        height={16}
        width={80}
        focused
        theme={createTheme(false)}
      />,
    );
    const frame = app.lastFrame() ?? '';
    expect(frame).toContain('Download');
    expect(frame).toContain('302 GET http://x/old → http://x/new');
    expect(frame).toContain('Cookies set (1)');
    expect(frame).toContain('session=abc; Path=/; HttpOnly');
  });
});
