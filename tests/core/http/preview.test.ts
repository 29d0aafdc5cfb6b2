/** previewRequest: the head and body sendRequest puts on the wire, computed without sending. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  closeConnections,
  multipartBoundary,
  previewRequest,
  sendRequest,
  type HttpRequest,
} from '../../../src/core/http/index.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../../helpers/servers.js';
import { tempDir } from '../../helpers/cli.js';

let server: TestServer & { requests: RecordedRequest[] };
let dir: string;

beforeAll(async () => {
  server = await startRecordingServer((_request, response) => response.end('ok'));
  dir = tempDir('dial-preview-');
  writeFileSync(join(dir, 'a.bin'), Buffer.from([0, 1, 2, 3]));
});

afterAll(async () => {
  await closeConnections();
  await server.close();
});

const pairs = (raw: string[]) =>
  raw.flatMap((value, index) => (index % 2 === 0 ? [`${value.toLowerCase()}: ${raw[index + 1]}`] : [])).sort();
const sorted = (headers: Array<[string, string]>) =>
  headers.map(([name, value]) => `${name.toLowerCase()}: ${value}`).sort();

describe('previewRequest', () => {
  const bodies: Array<[string, HttpRequest['body']]> = [
    ['none (POST)', { kind: 'none' }],
    ['text', { kind: 'text', text: 'héllo' }],
    ['file', { kind: 'file', path: '' }],
    [
      'multipart with a fixed boundary',
      {
        kind: 'multipart',
        parts: [
          { name: 'a', value: '1' },
          { name: 'f', filePath: '' },
        ],
        boundary: multipartBoundary(),
      },
    ],
  ];
  for (const [label, template] of bodies) {
    it(`${label}: the same headers and body bytes as sent`, async () => {
      let body = template;
      if (body.kind === 'file') body = { kind: 'file', path: join(dir, 'a.bin') };
      if (body.kind === 'multipart')
        body = {
          ...body,
          parts: body.parts.map((part) =>
            part.filePath !== undefined ? { ...part, filePath: join(dir, 'a.bin') } : part,
          ),
        };
      const request: HttpRequest = {
        method: 'post',
        url: `http://user:pw@${server.url.slice('http://'.length)}/p?x=1`,
        headers: [['X-A', '1']],
        body,
      };
      const preview = await previewRequest(request);
      const before = server.requests.length;
      const exchange = await sendRequest(request);
      const [wire] = server.requests.slice(before);
      expect(preview.method).toBe('POST');
      expect(preview.url).toBe(`${server.url}/p?x=1`);
      expect(sorted(preview.headers)).toEqual(pairs(wire.rawHeaders));
      expect(preview.headers).toEqual(exchange.request.headers);
      expect(Buffer.from(preview.body ?? [])).toEqual(wire.body);
      if (body.kind === 'multipart')
        expect(wire.headers['content-type']).toBe(`multipart/form-data; boundary=${body.boundary}`);
    });
  }

  it('reads no more than the limit of a file body and leaves a one-shot stream alone', async () => {
    const big = join(dir, 'big.txt');
    writeFileSync(big, 'x'.repeat(200_000));
    const preview = await previewRequest(
      { method: 'PUT', url: `${server.url}/big`, headers: [], body: { kind: 'file', path: big } },
      {},
      1000,
    );
    expect(preview.body?.length).toBe(1000);
    expect(preview.bodySize).toBe(200_000);
    let pulled = false;
    const stream = (async function* () {
      pulled = true;
      yield Buffer.from('x');
    })();
    const streamed = await previewRequest({
      method: 'POST',
      url: `${server.url}/s`,
      headers: [],
      body: { kind: 'stream', stream },
    });
    expect(streamed.body).toBeUndefined();
    expect(pulled).toBe(false);
    expect(streamed.headers).toContainEqual(['Transfer-Encoding', 'chunked']);
  });
});
