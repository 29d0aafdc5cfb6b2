/**
 * URL shorthand and item escapes end to end: what the server received from the built CLI.
 * (The parsing itself has unit tests in tests/core/send/items.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startRecordingServer } from '../helpers/servers.js';

let server: Awaited<ReturnType<typeof startRecordingServer>>;
let port: string;
beforeAll(async () => {
  server = await startRecordingServer();
  port = new URL(server.url).port;
});
afterAll(async () => {
  await server?.close();
});

describe('dial send: URL shorthand', () => {
  it(':PORT/path means http://localhost:PORT/path', async () => {
    const result = await runCli(['send', `:${port}/short?x=1`]);
    expect(result.code).toBe(0);
    expect(server.requests.at(-1)).toMatchObject({ method: 'GET', url: '/short?x=1' });
    expect(server.requests.at(-1)!.headers.host).toBe(`localhost:${port}`);
  });

  it('localhost:PORT gets http://, and a bare `localhost` is never taken for a method', async () => {
    const result = await runCli(['send', `localhost:${port}/items`, 'name=ada']);
    expect(result.code).toBe(0);
    const received = server.requests.at(-1)!;
    expect(received).toMatchObject({ method: 'POST', url: '/items' });
    expect(JSON.parse(received.body.toString('utf8'))).toEqual({ name: 'ada' });
  });

  it('an explicit method still comes first: PUT localhost:PORT', async () => {
    expect((await runCli(['send', 'PUT', `localhost:${port}/x`, 'a=1'])).code).toBe(0);
    expect(server.requests.at(-1)).toMatchObject({ method: 'PUT', url: '/x' });
  });
});

describe('dial send: escapes in items', () => {
  it('\\= \\: \\@ and \\[ \\] are literal characters of the name', async () => {
    const result = await runCli(['send', `:${port}/esc`, 'a\\=b=1', 'c\\:d=2', 'e\\@f=3', 'g\\[0\\]=4']);
    expect(result.code).toBe(0);
    const received = server.requests.at(-1)!;
    expect(JSON.parse(received.body.toString('utf8'))).toEqual({ 'a=b': '1', 'c:d': '2', 'e@f': '3', 'g[0]': '4' });
  });
});
