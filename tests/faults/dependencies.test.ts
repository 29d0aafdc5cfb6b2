/**
 * Core side of "every request dial sends is visible": a session that runs a referenced request
 * itself tells onDependency before it goes (with the resolved request) and after (with the
 * exchange); refuseDependencies turns the reference into an E_INPUT and sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSession, type DependencyEvent } from '../../src/core/session/index.js';
import { DialError } from '../../src/core/errors.js';
import { tempDir } from '../helpers/cli.js';
import { startRecordingServer, type RecordedRequest, type TestServer } from '../helpers/servers.js';

let server: TestServer & { requests: RecordedRequest[] };
beforeAll(async () => {
  server = await startRecordingServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(
      request.url === '/login'
        ? '{"token":"tok-1"}'
        : `{"auth":${JSON.stringify(request.headers.authorization ?? null)}}`,
    );
  });
});
afterAll(async () => {
  await server.close();
});

function workspace(): string {
  const root = tempDir('dial-fault-');
  writeFileSync(
    join(root, 'api.http'),
    `### login\n# @name login\nPOST ${server.url}/login\n\n### me\n# @name me\nGET ${server.url}/me\nAuthorization: Bearer {{login.response.body.$.token}}\n`,
  );
  return root;
}

describe('fault: dependency requests are announced', () => {
  it('onDependency hears the login before it is sent and after, with its status', async () => {
    const root = workspace();
    const events: DependencyEvent[] = [];
    const session = createSession({
      workspaceRoot: root,
      processEnv: {},
      sendOptions: { env: {} },
      onDependency: (event) => events.push(event),
    });
    const file = await session.loadFile(join(root, 'api.http'));
    const before = server.requests.length;
    const exchange = await session.execute(file, file.requests[1], {
      sendOptions: { env: {}, bodyTarget: { kind: 'buffer' } },
    });
    expect(exchange.response.status).toBe(200);
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.url}`)).toEqual(['POST /login', 'GET /me']);
    expect(server.requests.at(-1)?.headers.authorization).toBe('Bearer tok-1');
    expect(events.map((e) => [e.phase, e.name, e.neededBy])).toEqual([
      ['send', 'login', 'me'],
      ['done', 'login', 'me'],
    ]);
    const sent = events[0] as Extract<DependencyEvent, { phase: 'send' }>;
    expect(sent.request.method).toBe('POST');
    expect(sent.request.url).toBe(`${server.url}/login`);
    expect((events[1] as Extract<DependencyEvent, { phase: 'done' }>).exchange.response.status).toBe(200);
  });

  it('refuseDependencies: E_INPUT naming both requests, nothing sent', async () => {
    const root = workspace();
    const session = createSession({
      workspaceRoot: root,
      processEnv: {},
      sendOptions: { env: {} },
      refuseDependencies: true,
    });
    const file = await session.loadFile(join(root, 'api.http'));
    const before = server.requests.length;
    const error = (await session.execute(file, file.requests[1]).catch((e: unknown) => e)) as DialError;
    expect(error).toBeInstanceOf(DialError);
    expect(error.code).toBe('E_INPUT');
    expect(error.message).toMatch(/'me' needs request 'login' to run first/);
    expect(error.location?.line).toBe(3);
    expect(server.requests.length).toBe(before);
  });
});
