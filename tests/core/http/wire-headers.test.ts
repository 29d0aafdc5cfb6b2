// The request head node:http puts on the wire, byte for byte: headers given in node's raw form
// (most requests) and through setHeader (a repeated name, a bodiless method node frames itself)
// must both give the lines dial shows, in its order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeConnections, sendRequest, type HttpRequest } from '../../../src/core/http/index.js';
import { startRawServer, type RawServer } from '../../helpers/raw-server.js';

let server: RawServer;
let port = 0;
const heads: string[] = [];

beforeAll(async () => {
  // It keeps each request head (and body) as received and answers 200 with no body.
  server = await startRawServer((request, socket) => {
    heads.push(request);
    socket.write('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n');
  });
  port = server.port;
});
afterAll(async () => {
  closeConnections();
  await server.close();
});

/** The request head (and body) as received, split in lines; `recorded` gets what dial says it sent. */
async function wire(request: Omit<HttpRequest, 'url'> & { path?: string }, recorded: string[] = []): Promise<string[]> {
  heads.length = 0;
  const { path = '/x', ...rest } = request;
  const exchange = await sendRequest({ ...rest, url: `http://127.0.0.1:${port}${path}` }, { env: {} });
  expect(exchange.response.status).toBe(200);
  expect(heads).toHaveLength(1);
  recorded.push(...exchange.request.headers.map(([name, value]) => `${name}: ${value}`));
  const lines = heads[0].split('\r\n');
  return lines;
}

describe('request head on the wire', () => {
  it('a GET: the headers dial builds and shows, in order, nothing added', async () => {
    const recorded: string[] = [];
    const lines = await wire(
      {
        method: 'GET',
        headers: [
          ['X-One', 'a'],
          ['x-two', 'b'],
        ],
        body: { kind: 'none' },
      },
      recorded,
    );
    expect(lines.slice(1, 8)).toEqual(recorded);
    expect(lines.slice(0, 9)).toEqual([
      'GET /x HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      expect.stringMatching(/^User-Agent: dial\//),
      'Accept: */*',
      'Accept-Encoding: gzip, deflate, br',
      'Connection: keep-alive',
      'X-One: a',
      'x-two: b',
      '',
    ]);
  });

  it('a POST with a body: its Content-Type and Content-Length, the body after', async () => {
    const lines = await wire({
      method: 'POST',
      headers: [['Content-Type', 'text/plain']],
      body: { kind: 'text', text: 'hé' },
    });
    expect(lines).toContain('Content-Type: text/plain');
    expect(lines).toContain('Content-Length: 3');
    expect(lines.filter((line) => /^transfer-encoding/i.test(line))).toEqual([]);
    expect(Buffer.from(lines.at(-1)!, 'latin1').toString('utf8')).toBe('hé');
  });

  it('a repeated name: its lines side by side where the name first appears', async () => {
    const lines = await wire({
      method: 'GET',
      headers: [
        ['X-Tag', 'a'],
        ['X-Other', 'o'],
        ['x-tag', 'b'],
      ],
      body: { kind: 'none' },
    });
    const start = lines.indexOf('X-Tag: a');
    expect(lines.slice(start, start + 3)).toEqual(['X-Tag: a', 'X-Tag: b', 'X-Other: o']);
  });

  it('a bodiless method node frames itself (PURGE): Content-Length: 0 as before', async () => {
    const lines = await wire({ method: 'PURGE', headers: [], body: { kind: 'none' } });
    expect(lines[0]).toBe('PURGE /x HTTP/1.1');
    expect(lines).toContain('Content-Length: 0');
    expect(lines.filter((line) => /^transfer-encoding/i.test(line))).toEqual([]);
  });
});
