/** The GRAPHQL, SSE and EVENTSOURCE request lines: what the parser makes of them, and that fmt keeps them. */
import { describe, expect, it } from 'vitest';
import { parseHttpFile, printHttpFile } from '../../../src/core/httpfile/index.js';
import { isDialError } from '../../../src/core/errors.js';

function bodyJson(text: string): unknown {
  const node = parseHttpFile(text, '').requests[0];
  return JSON.parse(node.body?.kind === 'inline' ? node.body.text : 'null');
}

describe('GRAPHQL (JetBrains)', () => {
  it('is a GraphQL request whose body is {query, operationName, variables}', () => {
    const text = 'GRAPHQL http://x/graphql\n\nquery Repo($n: String!) {\n  repo(name: $n) { id }\n}\n\n{"n": "r"}\n';
    const node = parseHttpFile(text, '').requests[0];
    expect(node.method).toBe('GRAPHQL');
    expect(node.graphql).toBe(true);
    expect(bodyJson(text)).toEqual({
      query: 'query Repo($n: String!) {\n  repo(name: $n) { id }\n}',
      operationName: 'Repo',
      variables: { n: 'r' },
    });
  });
  it('a query with blank lines of its own keeps them; only a trailing {…} block is the variables', () => {
    expect(bodyJson('GRAPHQL http://x/g\n\nquery {\n  a\n\n  b\n}\n')).toEqual({ query: 'query {\n  a\n\n  b\n}' });
    expect(bodyJson('GRAPHQL http://x/g\n\n{\n  a\n\n  b\n}\n\n{"v": 1}\n')).toEqual({
      query: '{\n  a\n\n  b\n}',
      variables: { v: 1 },
    });
  });
  it('prints back as written (fmt round trip)', () => {
    const text = 'GRAPHQL http://x/graphql\n\nquery { a }\n\n{"v": 1}\n';
    expect(printHttpFile(parseHttpFile(text, ''))).toBe(text);
  });
  it('X-Request-Type and httpyac bodies are marked GraphQL too; plain POSTs are not', () => {
    expect(parseHttpFile('POST http://x\nX-Request-Type: GraphQL\n\nquery { a }\n', '').requests[0].graphql).toBe(true);
    expect(parseHttpFile('# @dialect httpyac\nPOST http://x\n\nquery { a }\n', '').requests[0].graphql).toBe(true);
    expect(parseHttpFile('POST http://x\n\n{"query": "{ a }"}\n', '').requests[0].graphql).toBeUndefined();
  });
  it('whose GraphQL reading: REST Client for the marker (JetBrains has none), rest.nvim for its GRAPHQL', () => {
    expect(parseHttpFile('POST http://x\nX-Request-Type: GraphQL\n\nquery { a }\n', '').requests[0].graphqlAs).toBe(
      'rest-client',
    );
    const kulala = parseHttpFile('# @dialect kulala\nPOST http://x\nX-Request-Type: GraphQL\n\nquery { a }\n', '');
    expect(kulala.requests[0].graphqlAs).toBeUndefined();
    const nvim = parseHttpFile('# @dialect rest.nvim\nGRAPHQL http://x\n\nquery { a }\n', '');
    expect(nvim.requests[0].graphqlAs).toBe('rest.nvim');
  });
  it("warns at a REST Client marker whose value is not REST Client's `GraphQL`", () => {
    const file = parseHttpFile(
      '# @dialect rest-client\nPOST http://x\nX-Request-Type: graphql\n\nquery { a }\n',
      'a.http',
    );
    expect(file.warnings).toEqual([
      expect.objectContaining({ line: 3, message: expect.stringContaining('REST Client 0.25') }),
    ]);
    expect(
      parseHttpFile('# @dialect rest-client\nPOST http://x\nX-Request-Type: GraphQL\n\nquery { a }\n', '').warnings,
    ).toBeUndefined();
  });
  it('reads GRAPHQL to a ws:// URL as a subscription request (the WebSocket sender takes it)', () => {
    const [request] = parseHttpFile('###\nGRAPHQL wss://x/graphql\n\nsubscription { a }\n', 'f.http').requests;
    expect(request.method).toBe('GRAPHQL');
    expect(request.url).toBe('wss://x/graphql');
    expect(request.graphql).toBe(true);
    expect(request.body?.kind === 'inline' && JSON.parse(request.body.text)).toEqual({ query: 'subscription { a }' });
  });
});

describe('SSE and EVENTSOURCE (httpyac)', () => {
  it('both are the SSE method; the stream limits are checked metadata', () => {
    const file = parseHttpFile(
      'SSE http://x/a\n\n###\n# @sse-count 3\n# @sse-timeout 2s\neventsource http://x/b\n',
      '',
    );
    expect(file.requests.map((request) => request.method)).toEqual(['SSE', 'SSE']);
    expect(file.requests[1].metadata.map((meta) => `${meta.key}=${meta.value}`)).toEqual([
      'sse-count=3',
      'sse-timeout=2s',
    ]);
    for (const bad of ['# @sse-count -1', '# @sse-timeout soon']) {
      expect(() => parseHttpFile(`${bad}\nSSE http://x/a\n`, '')).toThrow(/@sse-/);
    }
  });
});

describe('kulala # @graphql', () => {
  it('marks the body as a GraphQL query with JSON variables after it', () => {
    const text =
      '# @graphql 1\nPOST http://x/graphql\n\nquery Get($id: ID!) {\n  user(id: $id) { name }\n}\n\n{"id": "1"}\n';
    expect(parseHttpFile(text, '').requests[0].graphql).toBe(true);
    expect(bodyJson(text)).toEqual({
      query: 'query Get($id: ID!) {\n  user(id: $id) { name }\n}',
      operationName: 'Get',
      variables: { id: '1' },
    });
  });
});

describe('dial fmt and GraphQL bodies', () => {
  it('--indent-json never writes the JSON payload over a query as written', async () => {
    const { formatHttpText } = await import('../../../src/core/format-http/index.js');
    for (const text of [
      'GRAPHQL http://x/graphql\n\nquery Q($id: ID) { user(id: $id) { name } }\n\n{"id": 1}\n',
      'POST http://x/graphql\nX-Request-Type: GraphQL\n\nquery { a }\n',
      '# @graphql\nPOST http://x/graphql\n\nquery { a }\n\n{"v": 1}\n',
    ])
      expect(formatHttpText(text, 'g.http', { indentJson: true })).toBe(text);
  });
});

describe('a GRAPHQL request without a query', () => {
  it('is refused at its request line', () => {
    try {
      parseHttpFile('GET http://x/a\n\n###\nGRAPHQL http://x/graphql\n', 'g.http');
      expect.unreachable();
    } catch (error) {
      if (!isDialError(error)) throw error;
      expect(error.message).toBe('a GRAPHQL request without a query');
      expect(error.location?.line).toBe(4);
    }
  });
});
