import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { Writable } from 'node:stream';
import { closeConnections, releaseBody, sendRequest } from '../../../src/core/http/index.js';
import { startEchoServer, type EchoServer } from '../../../src/core/echo/server.js';

let echo: EchoServer;
beforeAll(async () => {
  echo = await startEchoServer({ port: 0 });
});
afterAll(async () => {
  closeConnections();
  await echo.close();
});

const MiB = 1024 * 1024;

/** Samples RSS while `work` runs; returns the peak growth over the starting RSS. */
async function peakRssGrowth(work: () => Promise<void>): Promise<number> {
  global.gc?.();
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  return peak - baseline;
}

describe('large bodies', () => {
  it('streams 200 MiB to a Writable with flat memory', async () => {
    const size = 200 * MiB;
    let received = 0;
    const hash = createHash('sha256');
    const growth = await peakRssGrowth(async () => {
      const exchange = await sendRequest(
        { method: 'GET', url: `${echo.url}/bytes/${size}?seed=big`, headers: [], body: { kind: 'none' } },
        {
          env: {},
          bodyTarget: {
            kind: 'stream',
            open: () =>
              new Writable({
                write(chunk: Buffer, _encoding, callback) {
                  received += chunk.length;
                  hash.update(chunk);
                  callback();
                },
              }),
          },
        },
      );
      expect(exchange.response.body).toEqual({ kind: 'streamed', size });
      expect(exchange.response.size).toBe(size);
    });
    expect(received).toBe(size);
    expect(growth).toBeLessThan(80 * MiB);
    // Deterministic: the same seed gives the same bytes.
    const again = createHash('sha256');
    await sendRequest(
      { method: 'GET', url: `${echo.url}/bytes/${size}?seed=big`, headers: [], body: { kind: 'none' } },
      {
        env: {},
        bodyTarget: {
          kind: 'stream',
          open: () => new Writable({ write: (chunk: Buffer, _e, cb) => (again.update(chunk), cb()) }),
        },
      },
    );
    expect(again.digest('hex')).toBe(hash.digest('hex'));
  });

  it('streams to /dev/null (a file Writable that the engine ends)', async () => {
    const target = createWriteStream('/dev/null');
    const exchange = await sendRequest(
      { method: 'GET', url: `${echo.url}/bytes/${20 * MiB}`, headers: [], body: { kind: 'none' } },
      { env: {}, bodyTarget: { kind: 'stream', open: () => target } },
    );
    expect(exchange.response.size).toBe(20 * MiB);
    expect(target.writableFinished).toBe(true);
  });

  it('a body over the 16 MiB default spills to a temp file with bounded memory', async () => {
    const size = 40 * MiB;
    let path = '';
    const growth = await peakRssGrowth(async () => {
      const exchange = await sendRequest(
        { method: 'GET', url: `${echo.url}/bytes/${size}`, headers: [], body: { kind: 'none' } },
        { env: {} },
      );
      const body = exchange.response.body;
      expect(body.kind).toBe('file');
      if (body.kind !== 'file') return;
      path = body.path;
      expect(body.size).toBe(size);
      expect(statSync(path).size).toBe(size);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      // The temp file holds exactly the bytes a streamed request receives.
      const fromFile = createHash('sha256');
      for await (const chunk of createReadStream(path)) fromFile.update(chunk as Buffer);
      const streamed = createHash('sha256');
      await sendRequest(
        { method: 'GET', url: `${echo.url}/bytes/${size}`, headers: [], body: { kind: 'none' } },
        {
          env: {},
          bodyTarget: {
            kind: 'stream',
            open: () => new Writable({ write: (chunk: Buffer, _e, cb) => (streamed.update(chunk), cb()) }),
          },
        },
      );
      expect(fromFile.digest('hex')).toBe(streamed.digest('hex'));
      releaseBody(body);
    });
    expect(existsSync(path)).toBe(false);
    expect(growth).toBeLessThan(60 * MiB);
  });

  it('a failed transfer removes its temp file', async () => {
    const { readdirSync } = await import('node:fs');
    const { spillFolder } = await import('../../../src/core/http/body-sinks.js');
    const before = new Set(readdirSync(spillFolder()).filter((name) => name.startsWith(`dial-body-${process.pid}-`)));
    await expect(
      sendRequest(
        { method: 'GET', url: `${echo.url}/bytes/${1024 * MiB}`, headers: [], body: { kind: 'none' } },
        { env: {}, timeoutMs: 300, bodyTarget: { kind: 'buffer', maxInMemoryBytes: 1024 } },
      ),
    ).rejects.toMatchObject({ code: 'E_TIMEOUT' });
    const after = readdirSync(spillFolder()).filter(
      (name) => name.startsWith(`dial-body-${process.pid}-`) && !before.has(name),
    );
    expect(after).toEqual([]);
  });
});
