/** The WebSocket sender against real servers on 127.0.0.1:0: a `ws` test server and dial echo's endpoints. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEchoServer, type EchoServer } from '../../../src/core/echo/server.js';
import { createCookieJar, sendRequest } from '../../../src/core/http/index.js';
import type { Exchange, HttpRequest, StreamMessage } from '../../../src/core/http/types.js';
import { converse, graphqlOperation, websocketScript } from '../../../src/core/http/websocket/index.js';
import { isDialError } from '../../../src/core/errors.js';
import { startWsServer, type TestWsServer } from '../../helpers/ws-server.js';
import { generateCertificate, startHttpsServer } from '../../helpers/servers.js';
import { WebSocketServer } from 'ws';

let server: TestWsServer;
let echo: EchoServer;
let echoWs: string;

beforeAll(async () => {
  server = await startWsServer();
  echo = await startEchoServer();
  echoWs = echo.url.replace(/^http/, 'ws');
});
afterAll(async () => {
  await server.close();
  await echo.close();
});

function webSocket(url: string, text: string, headers: HttpRequest['headers'] = []): HttpRequest {
  return { method: 'WEBSOCKET', url, headers, body: text ? { kind: 'text', text } : { kind: 'none' } };
}

function bodyOf(exchange: Exchange): unknown {
  const body = exchange.response.body;
  if (body.kind !== 'memory') throw new Error('expected an in-memory body');
  return JSON.parse(body.bytes.toString('utf8')) as unknown;
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (isDialError(error)) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error('expected the send to fail');
}

describe('websocketScript (the body as messages)', () => {
  it('reads JetBrains separators: === between messages, === wait-for-server as a wait', () => {
    expect(websocketScript('===\n{\n  "a": 1\n}\n=== wait-for-server\n=== wait-for-server\nsecond\n')).toEqual([
      { kind: 'send', data: '{\n  "a": 1\n}' },
      { kind: 'wait' },
      { kind: 'wait' },
      { kind: 'send', data: 'second' },
    ]);
  });

  it('an httpyac body without separators is one message, inner blank lines kept', () => {
    expect(websocketScript('line one\n\nline two')).toEqual([{ kind: 'send', data: 'line one\n\nline two' }]);
  });

  it('refuses a misspelt marker instead of sending it as text', () => {
    expect(() => websocketScript('a\n=== wait-for-sever\nb')).toThrow(
      /unknown WebSocket separator '=== wait-for-sever'/,
    );
  });
});

describe('graphqlOperation', () => {
  it('splits the operation from a JSON block of variables and names the operation', () => {
    expect(graphqlOperation('subscription Ticks($count: Int) {\n  ticks\n}\n\n{"count": 2}')).toEqual({
      query: 'subscription Ticks($count: Int) {\n  ticks\n}',
      variables: { count: 2 },
      operationName: 'Ticks',
    });
    expect(graphqlOperation('subscription { ticks }')).toEqual({ query: 'subscription { ticks }' });
    // A body that is already the JSON payload is taken as it is.
    expect(graphqlOperation('{"query": "subscription { ticks }", "variables": {"count": 1}}')).toEqual({
      query: 'subscription { ticks }',
      variables: { count: 1 },
    });
  });
});

describe('sendRequest with a WEBSOCKET request', () => {
  it('sends the upgrade with the request headers, plays the script and answers 101 with the received messages', async () => {
    const messages: StreamMessage[] = [];
    const exchange = await sendRequest(
      webSocket(`${server.url}/echo`, '{"a": 1}\n=== wait-for-server\nplain text\n=== wait-for-server', [
        ['X-Token', 'abc'],
        ['Sec-WebSocket-Protocol', 'chat'],
      ]),
      { onMessage: (message) => messages.push(message) },
    );
    const upgrade = server.upgrades.at(-1)!;
    expect(upgrade.headers['x-token']).toBe('abc');
    expect(upgrade.headers['sec-websocket-protocol']).toBe('chat');
    expect(exchange.response.status).toBe(101);
    expect(exchange.response.headers).toContainEqual(['Sec-WebSocket-Protocol', 'chat']);
    expect(bodyOf(exchange)).toEqual([{ a: 1 }, 'plain text']);
    expect(messages.map((message) => `${message.direction}:${message.data}`)).toEqual([
      'sent:{"a": 1}',
      'received:{"a": 1}',
      'sent:plain text',
      'received:plain text',
    ]);
    expect(exchange.request.bodyPreview).toBe('{"a": 1}\nplain text');
  });

  it('wait-for-server counts server messages: a welcome satisfies the first wait', async () => {
    const exchange = await sendRequest(
      webSocket(`${server.url}/welcome`, '=== wait-for-server\nhi\n=== wait-for-server'),
    );
    expect(bodyOf(exchange)).toEqual(['welcome', 'hi']);
  });

  it('without a final wait, closes once the server has been quiet: every reply of a burst is in', async () => {
    const exchange = await converse(webSocket(`${server.url}/burst?n=4`, 'go'), websocketScript('go'), {
      quietMs: 150,
    });
    expect(bodyOf(exchange)).toEqual([1, 2, 3, 4].map((i) => ({ i, of: 'go' })));
    expect(exchange.timings.total).toBeGreaterThanOrEqual(150);
  });

  it('ends when the server closes, and warns about the messages it could not send', async () => {
    const warnings: string[] = [];
    const exchange = await sendRequest(
      webSocket(`${server.url}/close-after-first`, 'one\n===\ntwo\n=== wait-for-server\nthree'),
      {
        onWarning: (message) => warnings.push(message),
      },
    ).catch((error: unknown) => error);
    // `two` may go out before the close arrives; a wait then fails because the server is gone.
    if (isDialError(exchange)) expect(exchange.message).toMatch(/closed the WebSocket \(code 4000 enough\)/);
    else {
      expect((exchange as Exchange).response.status).toBe(101);
      expect(warnings.join('\n')).toMatch(/code 4000 enough/);
    }
    expect(server.received.at(-1)![0]).toBe('one');
    expect(warnings.join('\n') || String(exchange)).toMatch(/code 4000 enough/);
  });

  it('a wait the server never answers fails with E_TIMEOUT at the timeout', async () => {
    const error = await failure(
      sendRequest(webSocket(`${server.url}/silent`, 'hello?\n=== wait-for-server'), { timeoutMs: 200 }),
    );
    expect(error.code).toBe('E_TIMEOUT');
  });

  it('# @keepStreaming listens until the timeout, which then ends the exchange normally', async () => {
    const exchange = await sendRequest(webSocket(`${server.url}/ticker`, ''), { keepStreaming: true, timeoutMs: 300 });
    const ticks = bodyOf(exchange) as string[];
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    expect(new Set(ticks)).toEqual(new Set(['tick']));
  });

  it('a refused upgrade is an ordinary answer: its status and body', async () => {
    const exchange = await sendRequest(webSocket(`${server.url}/auth`, 'x', [['Authorization', 'Bearer bad']]));
    expect(exchange.response.status).toBe(401);
    expect(exchange.response.body.kind === 'memory' && exchange.response.body.bytes.toString()).toBe('bad token!!\n');
    const allowed = await sendRequest(
      webSocket(`${server.url}/auth`, 'x\n=== wait-for-server', [['Authorization', 'Bearer good']]),
    );
    expect(allowed.response.status).toBe(101);
    expect(bodyOf(allowed)).toEqual(['x']);
  });

  it('binary bodies go as one binary message; binary replies come back as base64', async () => {
    const exchange = await sendRequest(
      {
        method: 'WEBSOCKET',
        url: `${server.url}/echo`,
        headers: [],
        body: { kind: 'bytes', bytes: Uint8Array.from([0, 1, 255]) },
      },
      { timeoutMs: 5000 },
    );
    expect(bodyOf(exchange)).toEqual([Buffer.from([0, 1, 255]).toString('base64')]);
  });

  it('sends the cookie jar’s cookies on the upgrade', async () => {
    const jar = createCookieJar();
    jar.store(`${server.url.replace(/^ws/, 'http')}/`, ['session=s1; Path=/']);
    await sendRequest(webSocket(`${server.url}/echo`, 'c\n=== wait-for-server'), { cookieJar: jar });
    expect(server.upgrades.at(-1)!.headers.cookie).toBe('session=s1');
  });

  it('connection refused and a proxy are refused with their codes; a cancel is E_CANCELLED', async () => {
    expect((await failure(sendRequest(webSocket('ws://127.0.0.1:1/x', 'a')))).code).toBe('E_CONNREFUSED');
    expect(
      (await failure(sendRequest(webSocket(`${server.url}/echo`, 'a'), { proxy: 'http://127.0.0.1:9' }))).code,
    ).toBe('E_USAGE');
    const controller = new AbortController();
    const pending = sendRequest(webSocket(`${server.url}/silent`, 'a\n=== wait-for-server'), {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 100);
    expect((await failure(pending)).code).toBe('E_CANCELLED');
  });

  it('stop ends an open-ended conversation normally, keeping what arrived', async () => {
    const stop = new AbortController();
    // Steps that never come (a person who types nothing).
    const never: AsyncIterable<never> = { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) };
    setTimeout(() => stop.abort(), 200);
    const exchange = await converse(webSocket(`${server.url}/ticker`, ''), never, {
      stop: stop.signal,
      timeoutMs: 0,
    });
    expect(exchange.response.status).toBe(101);
    expect((bodyOf(exchange) as string[]).length).toBeGreaterThanOrEqual(1);
  });
});

describe('wss:// (TLS)', () => {
  it('a self-signed server fails with E_TLS; --cacert (tls.caFile) or --insecure (verify: false) connect', async () => {
    const certificate = await generateCertificate();
    const https = await startHttpsServer((_request, response) => response.end('plain'), certificate);
    const wss = new WebSocketServer({ noServer: true });
    https.server.on('upgrade', (request, socket, head) =>
      wss.handleUpgrade(request, socket, head, (client) =>
        client.on('message', (data, isBinary) => client.send(data, { binary: isBinary })),
      ),
    );
    try {
      const url = `${https.url.replace(/^https/, 'wss')}/secure`;
      const request = webSocket(url, 'over tls\n=== wait-for-server');
      expect((await failure(sendRequest(request))).code).toBe('E_TLS');
      const trusted = await sendRequest(request, { tls: { verify: true, caFile: certificate.certPath } });
      expect(bodyOf(trusted)).toEqual(['over tls']);
      const insecure = await sendRequest(request, { tls: { verify: false } });
      expect(insecure.response.status).toBe(101);
    } finally {
      wss.close();
      await https.close();
    }
  });
});

describe('dial echo WebSocket endpoints', () => {
  it('/ws echoes every message', async () => {
    const exchange = await sendRequest(
      webSocket(`${echoWs}/ws`, 'one\n===\n{"two": 2}\n=== wait-for-server\n=== wait-for-server'),
    );
    expect(bodyOf(exchange)).toEqual(['one', { two: 2 }]);
  });

  it('/graphql streams a subscription over graphql-transport-ws (GRAPHQL ws://… and a WEBSOCKET operation body)', async () => {
    for (const method of ['GRAPHQL', 'WEBSOCKET']) {
      const messages: StreamMessage[] = [];
      const exchange = await sendRequest(
        {
          method,
          url: `${echoWs}/graphql`,
          headers: [],
          body: { kind: 'text', text: 'subscription Ticks { ticks }\n\n{"count": 2}' },
        },
        { onMessage: (message) => messages.push(message) },
      );
      expect(exchange.response.headers).toContainEqual(['Sec-WebSocket-Protocol', 'graphql-transport-ws']);
      expect(bodyOf(exchange)).toEqual([
        { data: { ticks: { count: 1, variables: { count: 2 } } } },
        { data: { ticks: { count: 2, variables: { count: 2 } } } },
      ]);
      expect(messages.map((message) => `${message.direction}:${message.event}`)).toEqual([
        'sent:subscribe',
        'received:next',
        'received:next',
      ]);
    }
  });

  it('an unknown path is a 404 answer', async () => {
    const exchange = await sendRequest(webSocket(`${echoWs}/nope`, 'x'));
    expect(exchange.response.status).toBe(404);
  });
});
