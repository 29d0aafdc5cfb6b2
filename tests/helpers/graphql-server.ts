/**
 * A real GraphQL server for tests: graphql-js parses, validates and executes every query
 * (no hand-checked answers), served over node:http on 127.0.0.1:0 the way GraphQL over HTTP
 * is: POST application/json {query, variables, operationName} -> 200 {data, errors}.
 * It keeps what it received, so tests can check the payload dial sent.
 */
import { buildSchema, graphql } from 'graphql';
import { startHttpServer, type TestServer } from './servers.js';

const schema = buildSchema(`
  type User {
    id: ID!
    name: String!
    email: String
  }
  type Query {
    hello(name: String): String!
    user(id: ID!): User
    boom: String
  }
  type Mutation {
    rename(id: ID!, name: String!): User!
  }
`);

const users = new Map([
  ['1', { id: '1', name: 'Ada', email: 'ada@example.com' }],
  ['2', { id: '2', name: 'Grace', email: null }],
]);

const root = {
  hello: ({ name }: { name?: string }) => `Hello, ${name ?? 'world'}!`,
  user: ({ id }: { id: string }) => users.get(id) ?? null,
  boom: () => {
    throw new Error('boom failed');
  },
  rename: ({ id, name }: { id: string; name: string }) => ({ ...(users.get(id) ?? { id, email: null }), name }),
};

export interface ReceivedGraphql {
  contentType?: string;
  accept?: string;
  /** The body as it arrived. */
  raw: string;
  payload: unknown;
}

export interface GraphqlServer extends TestServer {
  /** Every request body received, parsed. */
  received: ReceivedGraphql[];
}

/** Starts the server; its endpoint is `${url}/graphql`. */
export async function startGraphqlServer(): Promise<GraphqlServer> {
  const received: ReceivedGraphql[] = [];
  const server = await startHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        let payload: { query?: string; variables?: Record<string, unknown>; operationName?: string };
        try {
          payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof payload;
        } catch {
          response.writeHead(400, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ errors: [{ message: 'body is not JSON' }] }));
          return;
        }
        received.push({
          contentType: request.headers['content-type'],
          accept: request.headers.accept,
          raw: Buffer.concat(chunks).toString('utf8'),
          payload,
        });
        const result = await graphql({
          schema,
          source: payload.query ?? '',
          rootValue: root,
          variableValues: payload.variables,
          operationName: payload.operationName,
        });
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(result));
      })();
    });
  });
  return Object.assign(server, { received });
}
