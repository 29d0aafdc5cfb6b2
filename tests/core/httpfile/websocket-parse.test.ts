/** WebSocket and GraphQL-over-WebSocket request lines: the JetBrains and httpyac spellings, and what stays refused. */
import { describe, expect, it } from 'vitest';
import { draftFromNode, formatRequest, parseHttpFile } from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';

function refusal(text: string): { message: string; line?: number } {
  try {
    parseHttpFile(text, 'f.http');
  } catch (error) {
    if (!isDialError(error)) throw error;
    return { message: error.message, line: error.location?.line };
  }
  throw new Error('expected a refusal');
}

describe('WebSocket request lines', () => {
  it('reads WEBSOCKET (JetBrains), WS/WSS (httpyac) and a bare ws:// URL as WEBSOCKET', () => {
    const file = parseHttpFile(
      '### a\nWEBSOCKET ws://h/a\n\n===\nx\n=== wait-for-server\n\n### b\nWS ws://h/b\n\nhi\n\n### c\nwss wss://h/c\n\n### d\nws://h/d\nX-A: 1\n',
      'f.http',
    );
    expect(file.requests.map((request) => [request.method, request.url])).toEqual([
      ['WEBSOCKET', 'ws://h/a'],
      ['WEBSOCKET', 'ws://h/b'],
      ['WEBSOCKET', 'wss://h/c'],
      ['WEBSOCKET', 'ws://h/d'],
    ]);
    expect(file.requests[0].body).toMatchObject({ kind: 'inline', text: '===\nx\n=== wait-for-server' });
    expect(file.requests[3].headers.map((header) => header.name)).toEqual(['X-A']);
  });

  it('prints a request back with its keyword as written (WS stays WS; a bare ws:// URL stays bare)', () => {
    const file = parseHttpFile('### a\nWS ws://h/a\n\nhi\n\n### b\nws://h/b\n\n### c\nWEBSOCKET ws://h/c\n', 'f.http');
    const lines = file.requests.map((request) => formatRequest(draftFromNode(request)).split('\n')[1]);
    expect(lines).toEqual(['WS ws://h/a', 'ws://h/b', 'WEBSOCKET ws://h/c']);
  });

  it('reads GRAPHQL to a ws:// URL (a subscription over graphql-transport-ws)', () => {
    const file = parseHttpFile('GRAPHQL ws://h/graphql\n\nsubscription { ticks }\n', 'f.http');
    expect(file.requests[0].method).toBe('GRAPHQL');
  });

  it('refuses an HTTP method to a ws:// URL and protocols dial does not speak, at their line', () => {
    expect(refusal('###\nGET ws://h/a\n')).toMatchObject({
      message: expect.stringContaining('GET cannot go to a ws:// URL'),
      line: 2,
    });
    expect(refusal('MQTT tcp://broker\n')).toMatchObject({ message: expect.stringContaining('MQTT'), line: 1 });
    expect(refusal('WEBSOCKET ws://h/a\n\none\n=== wait-for-sever\ntwo\n')).toMatchObject({
      message: expect.stringContaining("unknown WebSocket separator '=== wait-for-sever'"),
      line: 4,
    });
    // Glued to the `===` it is still a misspelt marker, never a message sent as text.
    expect(refusal('WEBSOCKET ws://h/a\n\none\n===wait-for-server\n')).toMatchObject({
      message: expect.stringContaining("unknown WebSocket separator '===wait-for-server'"),
      line: 4,
    });
  });
});
