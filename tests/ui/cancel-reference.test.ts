/**
 * Cancelling a request in the TUI cancels the request it references too: B uses
 * `{{a.response.body.$.x}}`, A is slow; aborting B's signal must abort A's exchange (the server
 * sees A's connection close) instead of leaving A running to completion. A later send runs A
 * again (a cancelled reference is not remembered as failed).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCoreServices } from '../../src/ui/core-services.js';
import { defaultSettings } from '../../src/core/settings/index.js';
import { closeConnections } from '../../src/core/http/index.js';
import { tempDir } from '../helpers/cli.js';
import { startHttpServer, type TestServer } from '../helpers/servers.js';

let server: TestServer;
let root: string;
let slowMode = true;
const slowArrived: Array<() => void> = [];
const slowClosedEarly: Array<() => void> = [];
const slowCalls: string[] = [];

beforeAll(async () => {
  server = await startHttpServer((request, response: ServerResponse) => {
    if (request.url?.startsWith('/slow')) {
      slowCalls.push(request.url);
      if (!slowMode) {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ x: 'fast' }));
        return;
      }
      // Never answers: only the client closing the connection ends it.
      response.on('close', () => {
        if (!response.writableEnded) slowClosedEarly.splice(0).forEach((done) => done());
      });
      slowArrived.splice(0).forEach((done) => done());
      return;
    }
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ url: request.url }));
  });
  root = tempDir('dial-tui-cancel-ref-');
  writeFileSync(join(root, 'http-client.env.json'), JSON.stringify({ local: { host: server.url } }));
  writeFileSync(
    join(root, 'api.http'),
    [
      '### a',
      '# @name a',
      'GET {{host}}/slow',
      '',
      '### b',
      '# @name b',
      'GET {{host}}/b?x={{a.response.body.$.x}}',
      '',
    ].join('\n'),
  );
});

afterAll(async () => {
  await closeConnections();
  await server.close();
});

describe('cancelling a request that runs a referenced one', () => {
  it('aborts the referenced request as well, and a later send runs it again', async () => {
    const settings = { ...defaultSettings(), timeout: '60s' };
    const core = createCoreServices({
      root,
      environment: 'local',
      cliVariables: {},
      suspend: (run) => run(),
      env: { DIAL_CONFIG_DIR: tempDir() },
      settings,
    });
    const [entry] = await core.loadWorkspace();
    const file = entry.file!;
    const b = file.requests.find((request) => request.name === 'b')!;

    const arrived = new Promise<void>((done) => slowArrived.push(done));
    const closed = new Promise<void>((done) => slowClosedEarly.push(done));
    const controller = new AbortController();
    const sending = core.execute(file, b, {
      environment: 'local',
      signal: controller.signal,
      prompt: async () => '',
      onState: () => undefined,
    });
    const outcome = sending.then(
      () => 'resolved',
      (error: { code?: string }) => error.code,
    );
    await arrived;
    controller.abort();
    // The referenced request's connection is closed by the client, and B ends as cancelled.
    await closed;
    expect(await outcome).toBe('E_CANCELLED');
    expect(slowCalls).toHaveLength(1);

    // Next send: A is run again (not the remembered failure), and B gets its value.
    slowMode = false;
    const result = await core.execute(file, b, {
      environment: 'local',
      signal: new AbortController().signal,
      prompt: async () => '',
      onState: () => undefined,
    });
    expect(result.exchange.response.status).toBe(200);
    expect(JSON.parse(result.bodyText)).toEqual({ url: '/b?x=fast' });
    expect(slowCalls).toHaveLength(2);
  });
});
