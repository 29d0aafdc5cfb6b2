import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../../src/core/session/index.js';
import { tempDir } from '../../helpers/cli.js';
import { startHttpServer } from '../../helpers/servers.js';

async function session(text: string, options: { cliVariables?: Record<string, string>; privateEnv?: object } = {}) {
  const root = tempDir('dial-auth-');
  writeFileSync(join(root, 'api.http'), text);
  if (options.privateEnv) writeFileSync(join(root, 'http-client.private.env.json'), JSON.stringify(options.privateEnv));
  const s = createSession({
    workspaceRoot: root,
    environment: options.privateEnv ? 'dev' : undefined,
    cliVariables: options.cliVariables,
    processEnv: {},
  });
  const file = await s.loadFile(join(root, 'api.http'));
  return { s, file };
}

const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;

describe('.http auth conventions', () => {
  it.each([
    ['Basic ada s3cret', basic('ada:s3cret')],
    ['Basic ada:s3cret', basic('ada:s3cret')],
    ['Basic ada:s3cr3t p@ss', basic('ada:s3cr3t p@ss')],
    ['Basic ada  two words', basic('ada:two words')],
    [basic('already:encoded'), basic('already:encoded')],
    ['Bearer abc def', 'Bearer abc def'],
  ])('Authorization: %s', async (value, expected) => {
    const { s, file } = await session(`GET http://127.0.0.1:9/x\nAuthorization: ${value}\n`);
    const { request, digest } = await s.prepare(file, file.requests[0]);
    expect(request.headers).toEqual([['Authorization', expected]]);
    expect(digest).toBeUndefined();
  });

  it('Basic with variables from the private env file masks the encoded value too', async () => {
    const { s, file } = await session('GET http://127.0.0.1:9/x\nAuthorization: Basic {{user}} {{password}}\n', {
      privateEnv: { dev: { user: 'ada', password: 'pw-secret' } },
    });
    const { request, secretValues } = await s.prepare(file, file.requests[0]);
    const encoded = Buffer.from('ada:pw-secret').toString('base64');
    expect(request.headers).toEqual([['Authorization', `Basic ${encoded}`]]);
    expect(secretValues).toEqual(expect.arrayContaining(['pw-secret', encoded]));
  });

  it('Digest user password: the header becomes credentials, and execute answers the 401 challenge', async () => {
    const realm = 'dial-test';
    const nonce = 'n0nce';
    const seen: string[] = [];
    const server = await startHttpServer((request, response) => {
      const header = request.headers.authorization;
      seen.push(header ?? '');
      if (!header) {
        response.writeHead(401, {
          'WWW-Authenticate': `Digest realm="${realm}", qop="auth", algorithm=SHA-256, nonce="${nonce}", opaque="op"`,
        });
        response.end('no');
        return;
      }
      const params = Object.fromEntries(
        [...header.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]+))/g)].map((m) => [m[1], m[2] ?? m[3]]),
      );
      const h = (text: string) => createHash('sha256').update(text).digest('hex');
      const expected = h(
        `${h(`ann:${realm}:secret`)}:${nonce}:${params.nc}:${params.cnonce}:auth:${h(`GET:${params.uri}`)}`,
      );
      response.writeHead(params.response === expected ? 200 : 403);
      response.end(params.response === expected ? 'welcome' : 'bad digest');
    });
    try {
      const { s, file } = await session(`GET ${server.url}/private\nAuthorization: Digest ann secret\n`);
      const prepared = await s.prepare(file, file.requests[0]);
      expect(prepared.digest).toEqual({ username: 'ann', password: 'secret' });
      expect(prepared.request.headers).toEqual([]);
      const exchange = await s.execute(file, file.requests[0]);
      expect(exchange.response.status).toBe(200);
      expect(seen).toHaveLength(2);
      expect(seen[1]).toMatch(/^Digest username="ann"/);
    } finally {
      await server.close();
    }
  });
});
