/**
 * GraphQL from the command line against a real graphql-js server: the JetBrains `GRAPHQL url`,
 * REST Client/kulala `X-Request-Type: GraphQL` and httpyac `query` spellings, fragment files
 * included with `<`, and `errors` in a 200 answer (a warning for send, a failure for run).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDir } from '../helpers/cli.js';
import { startGraphqlServer, type GraphqlServer } from '../helpers/graphql-server.js';

let server: GraphqlServer;
beforeAll(async () => {
  server = await startGraphqlServer();
});
afterAll(() => server.close());

function workspace(files: Record<string, string>): string {
  const dir = tempDir('dial-graphql-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe('GRAPHQL requests (JetBrains)', () => {
  it('sends the query and its variables as a JSON POST; send prints the answer', async () => {
    const cwd = workspace({
      'g.http': `GRAPHQL ${server.url}/graphql\n\nquery Greet($name: String) {\n  hello(name: $name)\n}\n\n{"name": "{{who}}"}\n`,
    });
    const before = server.received.length;
    const result = await runCli(['send', 'g.http', '--var', 'who=dial'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ data: { hello: 'Hello, dial!' } });
    const received = server.received.slice(before).map(({ contentType, payload }) => ({ contentType, payload }));
    expect(received).toEqual([
      {
        contentType: 'application/json',
        payload: {
          query: 'query Greet($name: String) {\n  hello(name: $name)\n}',
          operationName: 'Greet',
          variables: { name: 'dial' },
        },
      },
    ]);
  });

  it('includes fragment files written `< ./file.graphql` in the query; run asserts on the answer', async () => {
    const cwd = workspace({
      'fields.graphql': 'fragment UserFields on User {\n  id\n  name\n}\n',
      'g.http':
        `### user\nGRAPHQL ${server.url}/graphql\n\nquery {\n  user(id: "1") { ...UserFields }\n}\n< ./fields.graphql\n\n` +
        '?? status == 200\n?? body $.data.user.name == "Ada"\n',
    });
    const result = await runCli(['run', 'g.http'], { cwd });
    expect(result.stdout).toContain('1 passed, 0 failed');
    expect(result.code).toBe(0);
    const sent = server.received.at(-1)!.payload as { query: string };
    expect(sent.query).toContain('fragment UserFields on User');
    expect(sent.query).not.toContain('<');
  });

  it('a missing fragment file is an error with file:line, nothing sent', async () => {
    const cwd = workspace({
      'g.http': `GRAPHQL ${server.url}/graphql\n\nquery { user(id: "1") { ...F } }\n< ./missing.graphql\n`,
    });
    const before = server.received.length;
    const result = await runCli(['send', 'g.http'], { cwd });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('g.http:3');
    expect(result.stderr).toContain('GraphQL file not found');
    expect(server.received.length).toBe(before);
  });

  it('variables that are not JSON are refused with file:line before sending', async () => {
    const cwd = workspace({ 'g.http': `GRAPHQL ${server.url}/graphql\n\nquery { hello }\n\n{"name": oops}\n` });
    const before = server.received.length;
    const result = await runCli(['send', 'g.http'], { cwd });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/g\.http:3.*GraphQL variables are not valid JSON/s);
    expect(server.received.length).toBe(before);
  });
});

describe('the other spellings', () => {
  it("X-Request-Type: GraphQL (REST Client, kulala), kulala's # @graphql and an httpyac query body all run", async () => {
    const cwd = workspace({
      'rest.http':
        `### hello\nPOST ${server.url}/graphql\nX-REQUEST-TYPE: GraphQL\n\nquery Hi($name: String) {\n  hello(name: $name)\n}\n\n{"name": "kulala"}\n\n` +
        '?? body $.data.hello == "Hello, kulala!"\n',
      'yac.http':
        '# @dialect httpyac\nfragment Who on User {\n  name\n}\n\n' +
        `# @name who\nPOST ${server.url}/graphql\n\nquery user($id: ID!) {\n  user(id: $id) { ...Who }\n}\n\n{"id": "2"}\n\n` +
        '?? body $.data.user.name == Grace\n',
      'kulala.http':
        `# @graphql 1\nPOST ${server.url}/graphql\n\nmutation Rename($id: ID!) {\n  rename(id: $id, name: "Ada L.") { name }\n}\n\n{"id": "1"}\n\n` +
        '?? body $.data.rename.name == "Ada L."\n',
    });
    const result = await runCli(['run', 'rest.http', 'yac.http', 'kulala.http'], { cwd });
    expect(result.stdout).toContain('3 passed, 0 failed');
    expect(result.code).toBe(0);
    // The three files may run in any order: REST Client's is the one named Hi.
    const last = server.received.slice(-3);
    const rest = last.find((got) => (got.payload as { operationName?: string }).operationName === 'Hi')!;
    const others = last.filter((got) => got !== rest);
    // REST Client (vscode-restclient's createGraphQlBody) adds no header and writes the payload compactly.
    expect(rest.contentType).toBeUndefined();
    expect(rest.accept).toBe('*/*'); // dial's default for every request, not a GraphQL one
    expect(rest.raw).toBe(
      '{"query":"query Hi($name: String) {\\n  hello(name: $name)\\n}","operationName":"Hi","variables":{"name":"kulala"}}',
    );
    for (const { contentType, accept } of others) {
      expect(contentType).toBe('application/json');
      expect(accept).toBe('application/graphql-response+json, application/json');
    }
  });

  it("GRAPHQL in a rest.nvim file: {query, variables} through curl's --data-raw (its form Content-Type), no Accept added", async () => {
    const cwd = workspace({
      'rn.http': `# @dialect rest.nvim\nGRAPHQL ${server.url}/graphql\n\nquery Hi($name: String) {\n  hello(name: $name)\n}\n\n{"name": "nvim"}\n`,
    });
    const result = await runCli(['send', 'rn.http'], { cwd });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ data: { hello: 'Hello, nvim!' } });
    const got = server.received.at(-1)!;
    expect(got.contentType).toBe('application/x-www-form-urlencoded');
    expect(got.accept).toBe('*/*');
    expect(got.raw).toBe(
      '{"query":"query Hi($name: String) {\\n  hello(name: $name)\\n}","variables":{"name":"nvim"}}',
    );
  });

  it('X-Request-Type: GraphQL in a REST Client file: the Content-Type written is sent, nothing is added', async () => {
    const cwd = workspace({
      'rc.http':
        `# @dialect rest-client\nPOST ${server.url}/graphql\nContent-Type: application/json\nX-Request-Type: GraphQL\n\n` +
        'query {\n  hello(name: "rc")\n}\n',
    });
    const result = await runCli(['send', 'rc.http'], { cwd });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ data: { hello: 'Hello, rc!' } });
    const got = server.received.at(-1)!;
    expect(got.contentType).toBe('application/json');
    expect(got.accept).toBe('*/*'); // dial's default for every request, not a GraphQL one
    expect(got.raw).toBe('{"query":"query {\\n  hello(name: \\"rc\\")\\n}","variables":{}}');
  });
});

describe('variables spliced into the query', () => {
  it('a value holding quotes or a line break is escaped inside the query string, as the tools resolve before building the JSON', async () => {
    // REST Client (ninth held-out sweep): the whole body is a file variable holding a mutation with quoted arguments.
    const cwd = workspace({
      'rest.http':
        '@rename = mutation { rename(id: "1", name: "Ada \\"the\\" L.") { name } }\n' +
        `POST ${server.url}/graphql\nX-REQUEST-TYPE: GraphQL\n\n{{rename}}\n`,
      'jb.http': `GRAPHQL ${server.url}/graphql\n\nquery { hello(name: "{{who}}") }\n\n{"unused": "{{who}}"}\n`,
    });
    const before = server.received.length;
    const result = await runCli(['run', 'rest.http', 'jb.http', '--var', 'who=Ada\\nL'], { cwd });
    expect(result.stdout).toContain('2 passed, 0 failed');
    expect(result.code).toBe(0);
    // The two files run at once: tell their requests apart by what they hold.
    const payloads = server.received.slice(before).map((received) => received.payload as { query: string });
    const rest = payloads.find((payload) => payload.query.startsWith('mutation'));
    const jetbrains = payloads.find((payload) => payload.query.startsWith('query'));
    expect(rest).toEqual({ query: 'mutation { rename(id: "1", name: "Ada \\"the\\" L.") { name } }', variables: {} });
    expect(jetbrains).toEqual({ query: 'query { hello(name: "Ada\\nL") }', variables: { unused: 'Ada\nL' } });
  });
});

describe('GraphQL errors in a 200 answer', () => {
  const failing = (asserted: string) =>
    `### boom\nGRAPHQL ${server.url}/graphql\n\nquery { boom }\n\n?? status == 200\n${asserted}`;

  it('send prints the answer and warns on stderr; exit 0', async () => {
    const cwd = workspace({ 'g.http': failing('') });
    const result = await runCli(['send', 'g.http'], { cwd });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ data: { boom: null } });
    expect(result.stderr).toContain('warning: GraphQL error: boom failed (path boom, line 1:9)');
  });

  it('dial send GRAPHQL URL query=… (no file) POSTs the fields as the payload and warns about errors', async () => {
    const before = server.received.length;
    const result = await runCli(['send', 'GRAPHQL', `${server.url}/graphql`, 'query={ hello boom }']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ data: { hello: 'Hello, world!', boom: null } });
    expect(result.stderr).toContain('warning: GraphQL error: boom failed');
    expect(server.received.slice(before).map(({ contentType, payload }) => ({ contentType, payload }))).toEqual([
      { contentType: 'application/json', payload: { query: '{ hello boom }' } },
    ]);
  });

  it('run fails the request unless it asserts on the errors', async () => {
    const cwd = workspace({
      'g.http': failing(''),
      'ok.http': failing('?? body $.errors[0].message == "boom failed"\n'),
    });
    const failed = await runCli(['run', 'g.http'], { cwd });
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('no GraphQL errors');
    expect(failed.stdout).toContain('boom failed');
    const asserted = await runCli(['run', 'ok.http'], { cwd });
    expect(asserted.stdout).toContain('1 passed, 0 failed');
    expect(asserted.code).toBe(0);
  });

  it('a query the server rejects (validation) fails run too', async () => {
    const cwd = workspace({ 'g.http': `GRAPHQL ${server.url}/graphql\n\nquery { nope }\n` });
    const result = await runCli(['run', 'g.http'], { cwd });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('Cannot query field "nope" on type "Query"');
  });
});
