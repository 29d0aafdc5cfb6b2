/**
 * The gRPC sender against a real grpc-js server on 127.0.0.1:0 (examples-grpc/greeter-server.mjs):
 * schema from reflection and from .proto files, unary and server streaming, metadata, status
 * and trailers, and the transport errors.
 */
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendRequest } from '../../../src/core/http/index.js';
import type { Exchange, HttpRequest, StreamMessage } from '../../../src/core/http/types.js';
import { isDialError } from '../../../src/core/errors.js';
import { startGreeterServer, type GreeterServer } from '../../../examples-grpc/greeter-server.mjs';

const examples = resolve(import.meta.dirname, '../../../examples-grpc');
let reflecting: GreeterServer;
let bare: GreeterServer;

beforeAll(async () => {
  reflecting = await startGreeterServer();
  bare = await startGreeterServer({ reflection: false });
});
afterAll(() => {
  reflecting.forceClose();
  bare.forceClose();
});

function grpcRequest(
  url: string,
  body: string,
  headers: Array<[string, string]> = [],
  protoFiles?: string[],
): HttpRequest {
  return {
    method: 'GRPC',
    url,
    headers,
    body: { kind: 'text', text: body },
    ...(protoFiles ? { grpc: { protoFiles, importPaths: [examples] } } : {}),
  };
}

function header(exchange: Exchange, name: string): string | undefined {
  return exchange.response.headers.find(([key]) => key === name)?.[1];
}

function bodyJson(exchange: Exchange): unknown {
  if (exchange.response.body.kind !== 'memory') throw new Error('expected a body in memory');
  return JSON.parse(exchange.response.body.bytes.toString('utf8'));
}

describe('gRPC sender', () => {
  it('calls a unary method learnt by reflection: JSON names in and out, metadata both ways, trailers', async () => {
    const messages: StreamMessage[] = [];
    const exchange = await sendRequest(
      grpcRequest(
        `grpc://${reflecting.address}/dial.test.Greeter/SayHello`,
        '{"name":"Ada","sender_info":{"firstName":"Ada","luckyNumber":"9007199254740993"},"mood":"HAPPY","labels":{"a_b":"c"}}',
        [['X-Greeting', 'hi there']],
      ),
      { onMessage: (message) => messages.push(message) },
    );
    expect(exchange.response.status).toBe(200);
    expect(exchange.response.statusText).toBe('OK');
    expect(header(exchange, 'grpc-status')).toBe('0');
    expect(header(exchange, 'x-served-by')).toBe('greeter-server');
    expect(header(exchange, 'x-trailer')).toBe('done');
    expect(header(exchange, 'content-type')).toBe('application/json');
    expect(bodyJson(exchange)).toEqual({
      message: 'Hello Ada',
      index: 0,
      echoedMetadata: 'hi there',
      mood: 'HAPPY',
      senderInfo: { firstName: 'Ada', luckyNumber: '9007199254740993' },
      labels: { a_b: 'c' },
      // A well-known type imported by the schema, as the message it is.
      answeredAt: { seconds: '1700000000', nanos: 5 },
    });
    expect(messages.map((message) => [message.direction, message.event])).toEqual([
      ['sent', 'dial.test.HelloRequest'],
      ['received', 'dial.test.HelloReply'],
    ]);
    expect(exchange.response.remotePort).toBe(reflecting.port);
  });

  it('streams server messages as they arrive; the body is their JSON array', async () => {
    const received: Array<{ data: string; atMs: number }> = [];
    const exchange = await sendRequest(
      grpcRequest(`grpc://${reflecting.address}/dial.test.Greeter/StreamGreetings`, '{"name":"Bo","times":3}'),
      { onMessage: (message) => message.direction === 'received' && received.push(message) },
    );
    expect(received.map((message) => JSON.parse(message.data).message)).toEqual([
      'Hello Bo #1',
      'Hello Bo #2',
      'Hello Bo #3',
    ]);
    // 50 ms apart on the server: reported as they came, not all at the end.
    expect(received[2].atMs - received[0].atMs).toBeGreaterThan(60);
    expect(bodyJson(exchange)).toEqual([
      { message: 'Hello Bo #1', index: 1, echoedMetadata: '', mood: 'MOOD_UNSPECIFIED', labels: {} },
      { message: 'Hello Bo #2', index: 2, echoedMetadata: '', mood: 'MOOD_UNSPECIFIED', labels: {} },
      { message: 'Hello Bo #3', index: 3, echoedMetadata: '', mood: 'MOOD_UNSPECIFIED', labels: {} },
    ]);
    expect(header(exchange, 'x-trailer')).toBe('done');
  });

  it('reads the schema from .proto files when the server has no reflection', async () => {
    const exchange = await sendRequest(
      grpcRequest(
        `grpc://${bare.address}/dial.test.Greeter/SayHello`,
        '{"name":"Cy"}',
        [],
        [resolve(examples, 'greeter.proto')],
      ),
    );
    expect(bodyJson(exchange)).toMatchObject({ message: 'Hello Cy', answeredAt: { seconds: '1700000000', nanos: 5 } });
  });

  it('falls back to grpc.reflection.v1alpha on a server without v1', async () => {
    const older = await startGreeterServer({ reflection: 'v1alpha' });
    try {
      const exchange = await sendRequest(
        grpcRequest(`grpc://${older.address}/dial.test.Greeter/SayHello`, '{"name":"Al"}'),
      );
      expect(bodyJson(exchange)).toMatchObject({ message: 'Hello Al' });
    } finally {
      older.forceClose();
    }
  });

  it('says the server has no reflection, and how to name a .proto', async () => {
    const error = await sendRequest(grpcRequest(`grpc://${bare.address}/dial.test.Greeter/SayHello`, '{}')).catch(
      (caught: unknown) => caught,
    );
    expect(isDialError(error) && error.code).toBe('E_INPUT');
    expect((error as Error).message).toContain('does not offer server reflection');
    expect((error as { hint?: string }).hint).toContain('# @grpc-proto');
  });

  it('maps an error status to the HTTP status, keeps grpc-status, grpc-message and trailers', async () => {
    const exchange = await sendRequest(
      grpcRequest(`grpc://${reflecting.address}/dial.test.Greeter/Fail`, '{"code":5,"detail":"no such greeting"}'),
    );
    expect(exchange.response.status).toBe(404);
    expect(exchange.response.statusText).toBe('NOT_FOUND');
    expect(header(exchange, 'grpc-status')).toBe('5');
    expect(header(exchange, 'grpc-message')).toBe('no such greeting');
    expect(header(exchange, 'x-failure')).toBe('as-asked');
    expect(exchange.response.size).toBe(0);
  });

  it('refuses unknown fields, unknown services and methods, and client streaming before calling', async () => {
    const failure = (url: string, body = '{}') =>
      sendRequest(grpcRequest(`grpc://${reflecting.address}/${url}`, body)).then(
        () => {
          throw new Error('expected a refusal');
        },
        (error: unknown) => error as Error & { code: string; hint?: string },
      );
    const unknownField = await failure('dial.test.Greeter/SayHello', '{"nmae":"x"}');
    expect(unknownField.message).toContain("dial.test.HelloRequest has no field 'nmae'");
    expect(unknownField.hint).toContain('name');
    const unknownService = await failure('dial.test.Nope/SayHello');
    expect(unknownService.message).toContain("no service 'dial.test.Nope'");
    expect(unknownService.hint).toContain('dial.test.Greeter');
    expect((await failure('dial.test.Greeter/Nope')).hint).toContain('SayHello');
    expect((await failure('dial.test.Greeter/Collect')).message).toContain('client-streaming');
    expect((await failure('dial.test.Greeter/SayHello', '{"name":')).message).toContain('not JSON');
  });

  it('reports a refused connection as E_CONNREFUSED and a deadline as E_TIMEOUT', async () => {
    const closed = await startGreeterServer();
    const address = closed.address;
    closed.forceClose();
    const refused = await sendRequest(grpcRequest(`grpc://${address}/dial.test.Greeter/SayHello`, '{}')).catch(
      (error: unknown) => error,
    );
    expect(isDialError(refused) && refused.code).toBe('E_CONNREFUSED');
    const slow = await sendRequest(
      grpcRequest(`grpc://${reflecting.address}/dial.test.Greeter/StreamGreetings`, '{"times":50}'),
      { timeoutMs: 300 },
    ).catch((error: unknown) => error);
    expect(isDialError(slow) && slow.code).toBe('E_TIMEOUT');
  });

  it('refuses gRPC-reserved headers, and sends -bin metadata as bytes', async () => {
    const reserved = await sendRequest(
      grpcRequest(`grpc://${reflecting.address}/dial.test.Greeter/SayHello`, '{}', [['grpc-timeout', '1S']]),
    ).catch((error: unknown) => error);
    expect((reserved as Error).message).toContain('grpc-timeout is reserved by gRPC');
    // grpc-js refuses a string value for a -bin key: the call succeeds only when dial decoded the base64.
    const binary = await sendRequest(
      grpcRequest(`grpc://${reflecting.address}/dial.test.Greeter/SayHello`, '{}', [
        ['x-token-bin', Buffer.from([1, 2, 3]).toString('base64')],
        ['x-greeting', 'plain'],
      ]),
    );
    expect(bodyJson(binary)).toMatchObject({ echoedMetadata: 'plain' });
  });

  it('stops on the abort signal with E_CANCELLED', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 120);
    const error = await sendRequest(
      grpcRequest(`grpc://${reflecting.address}/dial.test.Greeter/StreamGreetings`, '{"times":50}'),
      { signal: controller.signal },
    ).catch((caught: unknown) => caught);
    expect(isDialError(error) && error.code).toBe('E_CANCELLED');
  });
});
