/**
 * Proxies as users have them: absolute-form `GET http://…` for http targets, CONNECT only for
 * https; NO_PROXY honoured (for --proxy too); --timeout bounds the proxy phase, so a proxy that
 * never answers ends in E_TIMEOUT instead of a hang, in `send` and in `run`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server, type Socket } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { closeConnections, sendRequest, type HttpRequest } from '../../src/core/http/index.js';
import { DialError } from '../../src/core/errors.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { startTestProxy, type TestProxy } from '../helpers/proxy.js';
import { startHttpsServer, startRecordingServer, type TestServer } from '../helpers/servers.js';
import { outsideGuard } from './helpers.js';

/** A proxy that accepts connections and reads, but never answers (or hangs up at once with `drop`). */
async function silentProxy(
  drop = false,
): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', () => {
      if (drop) socket.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

const get = (url: string): HttpRequest => ({ method: 'GET', url, headers: [], body: { kind: 'none' } });

let target: TestServer & { requests: Array<{ url: string }> };
let secure: TestServer;
let proxy: TestProxy;
beforeAll(async () => {
  target = await startRecordingServer();
  secure = await startHttpsServer((_request, response) => response.end('secure'));
  proxy = await startTestProxy();
});
afterAll(async () => {
  closeConnections();
  await proxy.close();
  await target.close();
  await secure.close();
});

describe('fault: proxies', () => {
  it('an http target goes to the proxy in absolute form; an https target through CONNECT', async () => {
    const before = proxy.seen.length;
    const plain = await sendRequest(get(`${target.url}/plain?x=1`), { env: {}, proxy: proxy.url, timeoutMs: 5000 });
    expect(plain.response.status).toBe(200);
    const tunnelled = await sendRequest(get(`${secure.url}/tls`), {
      env: {},
      proxy: proxy.url,
      timeoutMs: 5000,
      tls: { verify: false },
    });
    expect(tunnelled.response.status).toBe(200);
    expect(proxy.seen.slice(before)).toEqual([`${target.url}/plain?x=1`, `CONNECT 127.0.0.1:${secure.port}`]);
  });

  it('HTTP_PROXY from the environment: absolute form too; NO_PROXY bypasses it and --proxy', async () => {
    const before = proxy.seen.length;
    await sendRequest(get(`${target.url}/env`), { env: { HTTP_PROXY: proxy.url }, timeoutMs: 5000 });
    expect(proxy.seen.slice(before)).toEqual([`${target.url}/env`]);
    await sendRequest(get(`${target.url}/direct`), {
      env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' },
      timeoutMs: 5000,
    });
    await sendRequest(get(`${target.url}/direct-flag`), {
      env: { NO_PROXY: '127.0.0.1' },
      proxy: proxy.url,
      timeoutMs: 5000,
    });
    expect(proxy.seen.slice(before)).toEqual([`${target.url}/env`]);
    expect(target.requests.map((r) => r.url)).toEqual(expect.arrayContaining(['/direct', '/direct-flag']));
  });

  it('a silent proxy: --timeout bounds the proxy phase (http and https targets), nothing reaches the target', async () => {
    const silent = await silentProxy();
    try {
      for (const url of [`${target.url}/never`, `${secure.url}/never`]) {
        const started = Date.now();
        const error = await sendRequest(get(url), {
          env: {},
          proxy: silent.url,
          timeoutMs: 500,
          tls: { verify: false },
        }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DialError);
        expect((error as DialError).code).toBe('E_TIMEOUT');
        expect((error as DialError).message).toMatch(/via proxy/);
        expect(Date.now() - started).toBeLessThan(3000);
      }
      expect(silent.connections()).toBeGreaterThan(0);
      expect(target.requests.some((r) => r.url === '/never')).toBe(false);
    } finally {
      await silent.close();
    }
  });

  it('a proxy that hangs up is a transport error, quickly', async () => {
    const dropping = await silentProxy(true);
    try {
      const started = Date.now();
      const error = await sendRequest(get(`${secure.url}/x`), {
        env: {},
        proxy: dropping.url,
        timeoutMs: 5000,
        tls: { verify: false },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DialError);
      expect((error as DialError).code).toBe('E_PROXY');
      expect((error as DialError).message).toMatch(/closed the connection during CONNECT/);
      expect(Date.now() - started).toBeLessThan(4000);
      // One attempt, not a reconnect loop.
      expect(dropping.connections()).toBeLessThanOrEqual(2);
    } finally {
      await dropping.close();
    }
  });

  it('dial send and dial run with a silent proxy end with exit 4 within the timeout', async () => {
    const guard = outsideGuard();
    const silent = await silentProxy();
    try {
      const dir = tempDir('dial-fault-');
      writeFileSync(join(dir, 'api.http'), `GET ${target.url}/via-run\n`);
      const started = Date.now();
      const send = await runCli(['send', '--timeout', '1s', '--proxy', silent.url, `${target.url}/via-send`], {
        cwd: dir,
      });
      expect(send.code).toBe(4);
      expect(send.stderr).toMatch(/error\[E_TIMEOUT\].*via proxy/);
      const run = await runCli(['run', '--timeout', '1s', 'api.http'], {
        cwd: dir,
        env: { HTTP_PROXY: silent.url, NO_PROXY: undefined, no_proxy: undefined, http_proxy: undefined },
      });
      // `run` reports the request as errored (exit 1), with the transport error named.
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toMatch(/E_TIMEOUT/);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(target.requests.some((r) => r.url.startsWith('/via-'))).toBe(false);
      guard.assertUntouched();
    } finally {
      await silent.close();
    }
  });
});
