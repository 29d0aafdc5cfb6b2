// session.prepare: asterisk-form and origin-form targets take their server from the Host header
// (sent without a scheme), and with no environment chosen a name defined nowhere else comes
// from kulala's default environment (`default`, else `dev`) with a warning.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/core/session/index.js';
import { onParseWarning } from '../../../src/core/httpfile/warnings.js';
import type { ParseWarning } from '../../../src/core/httpfile/types.js';
import { tempDir } from '../../helpers/cli.js';
import { dialErrorOf } from '../../helpers/dial-error.js';

function workspace(files: Record<string, string>): string {
  const root = tempDir('dial-host-env-');
  for (const [path, text] of Object.entries(files)) writeFileSync(join(root, path), text);
  return root;
}

async function prepared(root: string, index = 0, environment?: string) {
  const session = createSession({ workspaceRoot: root, processEnv: {}, environment });
  const file = await session.loadFile(join(root, 'api.http'));
  return (await session.prepare(file, file.requests[index])).request;
}

afterEach(() => onParseWarning(undefined));

describe('Host header targets', () => {
  it('`OPTIONS *` goes to the Host origin in asterisk-form; a scheme in Host is not sent', async () => {
    const root = workspace({ 'api.http': 'OPTIONS * HTTP/1.1\nHost: https://example.com:8443\n' });
    const request = await prepared(root);
    expect(request.url).toBe('https://example.com:8443/');
    expect(request.asteriskForm).toBe(true);
    expect(request.headers).toEqual([['Host', 'example.com:8443']]);
  });

  it('`/path` with `Host: http://example.com` sends Host: example.com', async () => {
    const root = workspace({ 'api.http': 'GET /a?b=1\nHost: http://example.com\n' });
    const request = await prepared(root);
    expect(request.url).toBe('http://example.com/a?b=1');
    expect(request.asteriskForm).toBeUndefined();
    expect(request.headers).toEqual([['Host', 'example.com']]);
  });
});

describe("kulala's default environment", () => {
  const envFile = JSON.stringify({
    $shared: { shared: 's' },
    dev: { base: 'http://dev.example', shared: 'dev-shared' },
    prod: { base: 'http://prod.example', only: 'p' },
  });

  it('with no environment chosen, a name defined nowhere else comes from `dev`, with a warning', async () => {
    const warnings: ParseWarning[] = [];
    onParseWarning((warning) => warnings.push(warning));
    const root = workspace({
      'http-client.env.json': envFile,
      'api.http': 'GET {{base}}/x?s={{shared}}\n\n###\nGET {{base}}/y\n',
    });
    const session = createSession({ workspaceRoot: root, processEnv: {} });
    const file = await session.loadFile(join(root, 'api.http'));
    const { request } = await session.prepare(file, file.requests[0]);
    // Said once per file and environment, not for every request.
    expect((await session.prepare(file, file.requests[1])).request.url).toBe('http://dev.example/y');
    // `shared` is defined in $shared, so that value stays; only `base` needed the default environment.
    expect(request.url).toBe('http://dev.example/x?s=s');
    expect(warnings).toHaveLength(1);
    expect(warnings[0].message).toContain("names only environment 'dev' defines ('base' first)");
    expect(warnings[0].hint).toContain('-e dev');
  });

  it('prefers an environment called `default` (kulala 6)', async () => {
    const root = workspace({
      'http-client.env.json': JSON.stringify({
        default: { base: 'http://default.example' },
        dev: { base: 'http://d' },
      }),
      'api.http': 'GET {{base}}/x\n',
    });
    expect((await prepared(root)).url).toBe('http://default.example/x');
  });

  it('a chosen environment is never mixed with the default one; names only another environment has stay undefined', async () => {
    const root = workspace({ 'http-client.env.json': envFile, 'api.http': 'GET {{base}}/{{only}}\n' });
    expect((await prepared(root, 0, 'prod')).url).toBe('http://prod.example/p');
    const error = await dialErrorOf(
      prepared(workspace({ 'http-client.env.json': envFile, 'api.http': 'GET http://x/{{only}}\n' })),
    );
    expect(error.code).toBe('E_VAR_UNDEFINED');
    expect(error.hint).toContain('-e prod');
  });
});
