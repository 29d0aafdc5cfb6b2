/**
 * The WebSocket sender behind `WEBSOCKET`/`WS`/`WSS` requests (docs/websocket.md): the body is
 * the script (./script.ts), the conversation (./conversation.ts) plays it and answers an
 * Exchange whose body is the received messages as a JSON array.
 */
import { DialError } from '../../errors.js';
import type { Exchange, HttpRequest, SendOptions } from '../types.js';
import { converse, type ConversationOptions } from './conversation.js';
import { isGraphqlOperation, sendGraphqlOverWebSocket } from './graphql.js';
import { websocketScript, type WebSocketStep } from './script.js';

export { converse, bodyValue, DEFAULT_QUIET_MS, type ConversationOptions } from './conversation.js';
export { websocketScript, type WebSocketStep } from './script.js';
export { sendGraphqlOverWebSocket, graphqlOperation, isGraphqlOperation } from './graphql.js';

/** The steps a request's body holds: text is a script; bytes or a file are one binary message. */
export async function stepsOf(request: HttpRequest): Promise<WebSocketStep[]> {
  const body = request.body;
  switch (body.kind) {
    case 'none':
      return [];
    case 'text':
      return websocketScript(body.text);
    case 'bytes':
      return [{ kind: 'send', data: body.bytes }];
    case 'file': {
      const { readFile } = await import('node:fs/promises');
      return [{ kind: 'send', data: await readFile(body.path) }];
    }
    case 'stream': {
      const chunks: Uint8Array[] = [];
      for await (const chunk of body.stream) chunks.push(chunk);
      return [{ kind: 'send', data: Buffer.concat(chunks) }];
    }
    case 'multipart': {
      throw new DialError('E_USAGE', 'a WebSocket request cannot send a multipart body', {
        hint: 'write the messages as text, separated by === lines',
      });
    }
  }
}

/** The ProtocolSender for WEBSOCKET requests: plays the body's script and closes as docs/websocket.md says. */
export async function sendWebSocket(request: HttpRequest, options: SendOptions): Promise<Exchange> {
  // A body that is a GraphQL operation speaks graphql-transport-ws (./graphql.ts).
  if (request.body.kind === 'text' && isGraphqlOperation(request.body.text))
    return sendGraphqlOverWebSocket(request, options);
  const steps = await stepsOf(request);
  const composer = (options as ConversationOptions).composer;
  return converse(request, composer ? followedBy(steps, composer) : steps, options);
}

async function* followedBy<T>(first: Iterable<T>, then: AsyncIterable<T>): AsyncGenerator<T> {
  yield* first;
  yield* then;
}
