/**
 * GraphQL over WebSocket, the graphql-transport-ws protocol (docs/websocket.md): a `GRAPHQL`
 * request to a ws:// or wss:// URL, or a WebSocket request whose body is a GraphQL operation.
 * The body is the operation, then optionally a blank line and a JSON object of variables (as
 * JetBrains and httpyac write a GraphQL request). dial sends `connection_init`, waits for
 * `connection_ack`, sends one `subscribe` and collects the `next` payloads until `complete` or
 * `error`; then it closes. The Exchange body is the array of `next` payloads (each a GraphQL
 * result: `{"data": …, "errors": …}`), an `error` message adding `{"errors": [...]}`.
 */
import { DialError } from '../../errors.js';
import type { Exchange, HttpRequest, SendOptions, StreamMessage } from '../types.js';
import { converse } from './conversation.js';
import type { WebSocketStep } from './script.js';

const SUBPROTOCOL = 'graphql-transport-ws';
const OPERATION_RE = /^\s*(?:#[^\n]*\n\s*)*(query|mutation|subscription|fragment)\b/;
const OPERATION_NAME_RE = /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;
const SUBSCRIPTION_ID = '1';

/** True when a WebSocket body is a GraphQL operation rather than messages. */
export function isGraphqlOperation(text: string): boolean {
  return OPERATION_RE.test(text);
}

export interface GraphqlOperation {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
}

/**
 * The operation and its variables (a JSON object after the last blank line). A body that is
 * already the JSON payload `{"query": …, "variables": …}` (as a parser that builds GraphQL
 * payloads hands it over) is taken as it is.
 */
export function graphqlOperation(text: string): GraphqlOperation {
  const trimmed = text.trim();
  const payload = jsonPayload(trimmed);
  if (payload) return payload;
  if (!trimmed) {
    throw new DialError('E_USAGE', 'a GraphQL WebSocket request needs an operation in its body', {
      hint: 'write e.g. `subscription { ticks }` under the request line',
    });
  }
  let query = trimmed;
  let variables: Record<string, unknown> | undefined;
  const blank = /\n[ \t]*\r?\n(?=\s*\{)/g;
  let split = -1;
  for (let match = blank.exec(trimmed); match; match = blank.exec(trimmed)) split = match.index;
  if (split >= 0) {
    try {
      const parsed = JSON.parse(trimmed.slice(split)) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        variables = parsed as Record<string, unknown>;
        query = trimmed.slice(0, split).trim();
      }
    } catch {
      // Not JSON: the block belongs to the query (a selection set after a blank line).
    }
  }
  const operationName = OPERATION_NAME_RE.exec(query)?.[1];
  return { query, ...(variables && { variables }), ...(operationName && { operationName }) };
}

function jsonPayload(text: string): GraphqlOperation | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(text) as Partial<GraphqlOperation> | null;
    if (!value || typeof value.query !== 'string') return undefined;
    const operation: GraphqlOperation = { query: value.query };
    if (value.variables && typeof value.variables === 'object') operation.variables = value.variables;
    if (typeof value.operationName === 'string') operation.operationName = value.operationName;
    return operation;
  } catch {
    return undefined;
  }
}

interface ProtocolMessage {
  type?: string;
  id?: string;
  payload?: unknown;
}

function parseMessage(data: string): ProtocolMessage | undefined {
  try {
    const value = JSON.parse(data) as unknown;
    return value && typeof value === 'object' ? (value as ProtocolMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** Sends a GraphQL operation over graphql-transport-ws and resolves with its results as the body. */
export async function sendGraphqlOverWebSocket(request: HttpRequest, options: SendOptions): Promise<Exchange> {
  if (request.body.kind !== 'text' && request.body.kind !== 'none') {
    throw new DialError('E_USAGE', 'a GraphQL WebSocket request takes its operation as text in the body', {
      hint: 'write the operation under the request line, then a blank line and a JSON object of variables',
    });
  }
  const operation = graphqlOperation(request.body.kind === 'text' ? request.body.text : '');
  const results: unknown[] = [];
  let settle: (() => void) | undefined;
  let acknowledged = false;
  let finished = false;
  let notGraphql: string | undefined;
  const wakeSteps = (): void => {
    settle?.();
    settle = undefined;
  };
  const until = async (condition: () => boolean): Promise<void> => {
    while (!condition()) await new Promise<void>((resolve) => (settle = resolve));
  };
  const started = Date.now();
  const report = (message: Omit<StreamMessage, 'atMs'>): void =>
    options.onMessage?.({ ...message, atMs: Date.now() - started });

  const onProtocolMessage = (message: StreamMessage): string | undefined => {
    if (message.direction !== 'received') return undefined;
    const parsed = parseMessage(message.data);
    if (!acknowledged && parsed?.type !== 'connection_ack' && parsed?.type !== 'ping') {
      // graphql-transport-ws opens with connection_ack; anything else (an echo of connection_init,
      // a plain WebSocket's greeting) means the endpoint does not speak it: fail now, not at the timeout.
      notGraphql = message.data;
      wakeSteps();
      return undefined;
    }
    switch (parsed?.type) {
      case 'connection_ack':
        acknowledged = true;
        break;
      case 'ping':
        return JSON.stringify({ type: 'pong' });
      case 'next':
        if (parsed.id === SUBSCRIPTION_ID) {
          results.push(parsed.payload);
          report({ direction: 'received', data: JSON.stringify(parsed.payload), event: 'next' });
        }
        break;
      case 'error':
        if (parsed.id === SUBSCRIPTION_ID) {
          results.push({ errors: parsed.payload });
          report({ direction: 'received', data: JSON.stringify({ errors: parsed.payload }), event: 'error' });
          finished = true;
        }
        break;
      case 'complete':
        if (parsed.id === SUBSCRIPTION_ID) finished = true;
        break;
      default:
        break;
    }
    wakeSteps();
    return undefined;
  };

  async function* steps(): AsyncGenerator<WebSocketStep> {
    yield { kind: 'send', data: JSON.stringify({ type: 'connection_init', payload: {} }) };
    await until(() => acknowledged || notGraphql !== undefined);
    if (notGraphql !== undefined) {
      const shown = notGraphql.length > 80 ? `${notGraphql.slice(0, 80)}…` : notGraphql;
      throw new DialError('E_NETWORK', `${request.url} does not speak graphql-transport-ws: it answered ${shown}`, {
        hint: 'point GRAPHQL ws://… at a GraphQL subscription endpoint, or write WEBSOCKET ws://… for a plain WebSocket',
      });
    }
    const subscribe = { id: SUBSCRIPTION_ID, type: 'subscribe', payload: operation };
    report({ direction: 'sent', data: JSON.stringify(operation), event: 'subscribe' });
    yield { kind: 'send', data: JSON.stringify(subscribe) };
    await until(() => finished);
  }

  const exchange = await converse(request, steps(), {
    ...options,
    onMessage: undefined,
    protocols: [SUBPROTOCOL],
    closeAfterSteps: true,
    onProtocolMessage,
  });
  const bytes = Buffer.from(JSON.stringify(results, null, 2));
  if (exchange.response.status === 101) {
    exchange.response.body = { kind: 'memory', bytes };
    exchange.response.size = bytes.length;
  }
  return exchange;
}
